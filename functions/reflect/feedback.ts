/**
 * "Wait for feedback" (Eureka's feedback from a person, in place of nothing): the execution is
 * paused on a task token. This handler runs once at the start of the pause: it stores the token in
 * the table, writes an interim card of the search so far and announces "Waiting for feedback".
 * `eureka feedback` answers: SendTaskSuccess with the token on AWS; locally the runtime waits on
 * the record itself (local/feedback-wait.ts).
 */
import type { FeedbackEvent } from '../shared/contracts.ts';
import { putEvent } from '../shared/events.ts';
import { interimCardKey } from '../shared/keys.ts';
import type { FeedbackRecord } from '../shared/records.ts';
import type { SearchStore } from '../shared/search-store.ts';
import { WAITING_DETAIL_TYPE } from '../../infra/config.ts';
import { renderCardHtml } from '../publish/card-html.ts';
import { assembleCard } from '../publish/publish.ts';

export async function askForFeedback(store: SearchStore, event: FeedbackEvent): Promise<FeedbackRecord> {
  const { searchId, generation, token } = event;
  const known = await store.feedback(searchId, generation);
  // Answered before (a resumed search that comes back to this pause): the answer stands.
  if (known?.answer) return known;
  const meta = await store.meta(searchId);
  const now = new Date();
  const cardKey = interimCardKey(searchId, generation);
  if (meta.best) {
    const { card } = await assembleCard(store, searchId, [], now.toISOString());
    await store.blobs.put(cardKey, renderCardHtml(card), 'text/html');
  }
  // A retried pause has a new token: the record always holds the latest.
  const record: FeedbackRecord = {
    generation, token, askedAt: now.toISOString(),
    deadline: new Date(now.getTime() + event.timeoutSeconds * 1000).toISOString(),
    cardKey: meta.best ? cardKey : '',
  };
  await store.putFeedback(searchId, record);
  await putEvent(WAITING_DETAIL_TYPE, {
    searchId, generation, cardKey: record.cardKey, deadline: record.deadline,
    answer: `eureka feedback ${searchId} --text "..." | --continue | --stop`,
  });
  return record;
}
