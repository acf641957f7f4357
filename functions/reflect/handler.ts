/**
 * The search's bookkeeping: "Start the search" (kind 'init') and "Reflect on results" (kind
 * 'reflect') share this function; both only read and write the table and the bucket.
 */
import { z } from 'zod';
import type { InitResult, ReflectResult, SearchSettings } from '../shared/contracts.ts';
import { optionalEnv } from '../shared/env.ts';
import { SeedSummarySchema } from '../shared/schemas.ts';
import { SearchStore } from '../shared/search-store.ts';
import { initSearch } from './init.ts';
import { reflect } from './reflect.ts';

const store = SearchStore.fromEnv();
/** On AWS the default is Claude; the local runtime sets 'offline' when there is no API key. */
const DEFAULT_PROPOSER = (optionalEnv('EUREKA_DEFAULT_PROPOSER') ?? 'anthropic') as SearchSettings['proposer'];

const EventSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('init'), input: z.unknown(), executionName: z.string().min(1) }),
  z.object({
    kind: z.literal('reflect'),
    searchId: z.string().min(1),
    generation: z.number().int().min(1),
    seedResults: z.array(SeedSummarySchema),
    baselines: z.array(SeedSummarySchema),
  }),
]);

export async function handler(event: unknown): Promise<InitResult | ReflectResult> {
  const parsed = EventSchema.parse(event);
  return parsed.kind === 'init' ? initSearch(store, parsed, DEFAULT_PROPOSER) : reflect(store, parsed);
}
