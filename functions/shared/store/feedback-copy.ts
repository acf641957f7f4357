/**
 * A person's answer to a pause, as the execution carries it: the task token's output, at
 * $.feedback, into "Propose rewards" and "Finish early" (DESIGN §2: the feedback travels with the
 * execution, not through the table). Validated here at the handlers' boundary, and copied into the
 * pause's record by the search's own functions before they use it: the record is what
 * `eureka show`, the card and a resumed search read.
 */
import { z } from 'zod';
import type { FeedbackAnswer } from '../search/contracts.ts';
import type { SearchStore } from './search-store.ts';

export const FeedbackAnswerSchema = z.object({
  action: z.enum(['continue', 'stop']),
  text: z.string().max(4000).optional(),
  timedOut: z.boolean().optional(),
  generation: z.int().min(0).optional(),
});

/**
 * What "Start the search" puts at $.feedback: no pause yet. Propose reads $.feedback from
 * generation 1 on, and a JSONPath to a missing field would fail the state.
 */
export const NO_FEEDBACK_YET: FeedbackAnswer = { action: 'continue', generation: 0 };

/** Records the answer in its pause's record, once (a timeout, or an answer before any pause, records nothing). */
export async function keepFeedback(store: SearchStore, searchId: string, feedback: FeedbackAnswer | undefined): Promise<void> {
  if (feedback === undefined || feedback.timedOut || !feedback.generation) return;
  const pause = await store.feedback(searchId, feedback.generation);
  if (pause === undefined || pause.answer) return;
  await store.answerFeedback(searchId, feedback.generation, {
    action: feedback.action, ...(feedback.text === undefined ? {} : { text: feedback.text }), answeredAt: new Date().toISOString(),
  });
}
