/**
 * The search's bookkeeping, one function for the states that only read and write the table and
 * the bucket: "Start the search" (kind 'init'), "Plan the seed-runs" ('plan'), "Promote" (the
 * race's rungs, 'promote'), "Reflect on results" ('reflect'), "Wait for feedback" ('feedback') and
 * "Finish early" ('finish').
 */
import { z } from 'zod';
import type { InitResult, RaceState, ReflectResult, SearchSettings } from '../shared/search/contracts.ts';
import { optionalEnv } from '../shared/ops/env.ts';
import { FeedbackAnswerSchema } from '../shared/store/feedback-copy.ts';
import { CheckSummarySchema, SeedSummarySchema } from '../shared/search/schemas.ts';
import { costCeilingUsd } from '../shared/input/search-input.ts';
import { ENV_VARS } from '../../infra/config.ts';
import { SearchStore } from '../shared/store/search-store.ts';
import { eventKeys, withTelemetry, type InvocationContext } from '../shared/ops/telemetry.ts';
import { askForFeedback } from './feedback.ts';
import { finish } from './finish.ts';
import { initSearch } from './init.ts';
import { plan } from './plan.ts';
import { promote } from './race.ts';
import { reflect } from './reflect.ts';

const store = SearchStore.fromEnv();
/** On AWS the default is Claude; the local runtime sets 'offline' when there is no API key. */
const DEFAULT_PROPOSER = (optionalEnv('EUREKA_DEFAULT_PROPOSER') ?? 'anthropic') as SearchSettings['proposer'];
/** The stack's spending ceiling: every search it starts gets it (locally none is set). */
const COST_CEILING_USD = costCeilingUsd(optionalEnv(ENV_VARS.maxCostUsd));
/** No S3 bucket: the bucket is a directory, the local runtime's, where a command or a person may answer. */
const LOCAL = optionalEnv(ENV_VARS.bucket) === undefined;

const searchId = z.string().min(1);
const generation = z.number().int().min(1);
const checks = z.array(CheckSummarySchema);

const EventSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('init'), input: z.unknown(), executionName: z.string().min(1) }),
  z.object({ kind: z.literal('plan'), searchId, generation, checks, repairChecks: checks }),
  z.object({
    kind: z.literal('promote'), searchId, generation, rung: z.number().int().min(1),
    results: z.array(SeedSummarySchema), finished: z.array(SeedSummarySchema),
  }),
  z.object({
    kind: z.literal('reflect'), searchId, generation,
    seedResults: z.array(SeedSummarySchema), baselines: z.array(SeedSummarySchema), checks, repairChecks: checks,
  }),
  z.object({ kind: z.literal('feedback'), searchId, generation, timeoutSeconds: z.number().int().min(1), token: z.string().min(1) }),
  z.object({ kind: z.literal('finish'), searchId, feedback: FeedbackAnswerSchema.optional() }),
]);

export async function handler(event: unknown, context?: InvocationContext): Promise<InitResult | RaceState | ReflectResult | { asked: number }> {
  return withTelemetry(context, eventKeys(event), async () => {
    const parsed = EventSchema.parse(event);
    switch (parsed.kind) {
      case 'init': return initSearch(store, parsed, DEFAULT_PROPOSER, COST_CEILING_USD, LOCAL);
      case 'plan': return plan(store, parsed);
      case 'promote': return promote(store, parsed);
      case 'reflect': return reflect(store, parsed);
      // Its answer is not the state's output: that comes with the task token.
      case 'feedback': return { asked: (await askForFeedback(store, parsed)).generation };
      case 'finish': return finish(store, parsed);
    }
  });
}
