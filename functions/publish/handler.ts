/** Publish: the winner's reward, policy, summary.json and card, from what the search stored. */
import { z } from 'zod';
import type { PublishResult } from '../shared/contracts.ts';
import { SearchStore } from '../shared/search-store.ts';
import { publish } from './publish.ts';

const store = SearchStore.fromEnv();

const PublishEventSchema = z.object({
  searchId: z.string().min(1),
  freshResults: z.array(z.object({
    candidateId: z.string(),
    seed: z.number().int(),
    outcome: z.enum(['trained', 'timeout', 'memory', 'error']),
    reason: z.string(),
    success: z.number(),
    meanStepsToFlag: z.number().nullable(),
    resultKey: z.string(),
  })),
});

export async function handler(event: unknown): Promise<PublishResult> {
  return publish(store, PublishEventSchema.parse(event));
}
