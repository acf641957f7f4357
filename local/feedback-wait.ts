/**
 * "Wait for feedback" on this machine. aws-local-stepfunctions has no task tokens: it runs a Task
 * state's local handler and waits for its promise, racing the state's TimeoutSecondsPath. So the
 * handler here is the pause: it runs the reflect function's 'feedback' kind (record, interim card,
 * event), then polls the table until `eureka feedback` (another process, through the running
 * table's endpoint) writes the answer, or the deadline passes (States.Timeout, as on AWS).
 */
import type { FeedbackAnswer, FeedbackEvent } from '../functions/shared/contracts.ts';
import type { SearchStore } from '../functions/shared/search-store.ts';

export const FEEDBACK_POLL_MS = 250;

type Handler = (event: unknown) => Promise<unknown>;

export interface Waiting {
  searchId: string;
  generation: number;
  deadline: string;
  cardKey: string;
}

export function localFeedbackWait(askForFeedback: Handler, store: () => SearchStore, onWaiting: (w: Waiting) => void, pollMs = FEEDBACK_POLL_MS): Handler {
  return async (input) => {
    // lambda:invoke.waitForTaskToken hands the function {FunctionName, Payload}.
    const event = (input as { Payload: FeedbackEvent }).Payload;
    await askForFeedback(event);
    const asked = await store().feedback(event.searchId, event.generation);
    if (asked && !asked.answer) onWaiting({ searchId: event.searchId, generation: event.generation, deadline: asked.deadline, cardKey: asked.cardKey });
    for (;;) {
      const record = await store().feedback(event.searchId, event.generation);
      if (record?.answer) {
        const { action, text } = record.answer;
        return { action, ...(text === undefined ? {} : { text }) } satisfies FeedbackAnswer;
      }
      if (record === undefined || Date.now() >= Date.parse(record.deadline)) {
        throw Object.assign(new Error(`nobody answered generation ${event.generation}'s feedback in time`), { name: 'States.Timeout' });
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  };
}
