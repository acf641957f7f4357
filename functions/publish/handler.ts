/** Publish: the winner's reward, policy, summary.json and card, from what the search stored. */
import { z } from 'zod';
import type { PublishResult } from '../shared/search/contracts.ts';
import { SeedSummarySchema } from '../shared/search/schemas.ts';
import { SearchStore } from '../shared/store/search-store.ts';
import { eventKeys, withTelemetry, type InvocationContext } from '../shared/ops/telemetry.ts';
import { publish } from './publish.ts';

const store = SearchStore.fromEnv();

const PublishEventSchema = z.object({
  searchId: z.string().min(1),
  freshResults: z.array(SeedSummarySchema),
});

export async function handler(event: unknown, context?: InvocationContext): Promise<PublishResult> {
  return withTelemetry(context, eventKeys(event), () => publish(store, PublishEventSchema.parse(event)));
}
