/**
 * "Wait for feedback" (Eureka's feedback from a person, in place of nothing): the execution is
 * paused on a task token. This handler runs once at the start of the pause: it stores the token in
 * the table, writes the interim card of the search so far (as "Reflect on results" does after every
 * generation, now with how to answer) and announces "Waiting for feedback". `eureka feedback`
 * answers with SendTaskSuccess (on AWS, and locally to local/feedback-wait.ts); the answer is the
 * Task's output, carried by the execution to Propose.
 */
import type { FeedbackEvent } from '../shared/search/contracts.ts';
import { putEvent } from '../shared/ops/events.ts';
import type { FeedbackRecord } from '../shared/store/records.ts';
import type { SearchStore } from '../shared/store/search-store.ts';
import { WAITING_DETAIL_TYPE } from '../../infra/config.ts';
import { writeInterimCard } from './interim-card.ts';

export async function askForFeedback(store: SearchStore, event: FeedbackEvent): Promise<FeedbackRecord> {
  const { searchId, generation, token } = event;
  const known = await store.feedback(searchId, generation);
  // Answered before (a resumed search that comes back to this pause): the answer stands.
  if (known?.answer) return known;
  const now = new Date();
  // The card of the search so far, as "Reflect on results" wrote it, now saying how to answer.
  const cardKey = await writeInterimCard(store, searchId, generation, true);
  // A retried pause has a new token: the record always holds the latest.
  const record: FeedbackRecord = {
    generation, token, askedAt: now.toISOString(),
    deadline: new Date(now.getTime() + event.timeoutSeconds * 1000).toISOString(),
    cardKey,
  };
  await store.putFeedback(searchId, record);
  await putEvent(WAITING_DETAIL_TYPE, {
    searchId, generation, cardKey: record.cardKey, deadline: record.deadline,
    answer: `eureka feedback ${searchId} --text "..." | --continue | --stop`,
  });
  return record;
}
