/**
 * Propose: one generation's candidate rewards ("Propose rewards"), or one repair request for
 * those that failed their check ("Repair rewards", kind 'repair'); each asked for once and cached.
 */
import { z } from 'zod';
import type { ProposeResult, RepairResult } from '../shared/search/contracts.ts';
import { FeedbackAnswerSchema } from '../shared/store/feedback-copy.ts';
import { CheckSummarySchema } from '../shared/search/schemas.ts';
import { SearchStore } from '../shared/store/search-store.ts';
import { eventKeys, withTelemetry, type InvocationContext } from '../shared/ops/telemetry.ts';
import { propose } from './propose.ts';
import { createProposer } from './proposers.ts';
import { repair } from './repair.ts';

const store = SearchStore.fromEnv();

const ProposeEventSchema = z.object({
  searchId: z.string().min(1),
  generation: z.number().int().min(1),
  feedback: FeedbackAnswerSchema.optional(),
});

const RepairEventSchema = ProposeEventSchema.extend({
  kind: z.literal('repair'),
  checks: z.array(CheckSummarySchema),
});

export async function handler(event: unknown, context?: InvocationContext): Promise<ProposeResult | RepairResult> {
  // Lambda's deadline: a schema repair that could not finish before it is left to a retry.
  const timeLeftMs = context?.getRemainingTimeInMillis?.bind(context);
  return withTelemetry(context, eventKeys(event), async () => {
    if (typeof event === 'object' && event !== null && (event as { kind?: unknown }).kind === 'repair') {
      return repair(store, RepairEventSchema.parse(event), createProposer, timeLeftMs);
    }
    return propose(store, ProposeEventSchema.parse(event), createProposer, timeLeftMs);
  });
}
