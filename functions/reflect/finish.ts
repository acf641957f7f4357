/**
 * "Finish early": the search stops before its last generation, because the next model request
 * could pass maxCostUsd (Propose recorded that) or because a person answered "stop". The best so
 * far goes to the fresh seeds, as after the last generation; with none, Publish says why nothing trained.
 */
import type { FinishEvent, ReflectResult } from '../shared/search/contracts.ts';
import { keepFeedback } from '../shared/store/feedback-copy.ts';
import type { StopRecord } from '../shared/store/records.ts';
import type { SearchStore } from '../shared/store/search-store.ts';
import { freshTasks } from './fresh-seeds.ts';

export async function finish(store: SearchStore, event: FinishEvent): Promise<ReflectResult> {
  const { searchId } = event;
  // A person's "stop" comes with the execution; the record keeps it before it is read back.
  await keepFeedback(store, searchId, event.feedback);
  const meta = await store.meta(searchId);
  let stop = meta.stoppedBy ?? null;
  if (stop === null) {
    stop = await personsStop(store, searchId);
    if (stop !== null) await store.updateMeta(searchId, { stoppedBy: stop });
  }
  const last = (await store.summaries(searchId)).at(-1)?.generation ?? meta.best?.generation ?? 0;
  // Stopped before any candidate trained: Publish writes the card that says so (nothing-trained.ts), with no fresh seeds to train.
  if (!meta.best) return { generation: last, nextGeneration: last + 1, more: false, best: { generation: last, candidateId: '', success: 0 }, freshTasks: [] };
  return {
    generation: last,
    nextGeneration: last + 1,
    more: false,
    best: { generation: meta.best.generation, candidateId: meta.best.candidateId, success: meta.best.success },
    freshTasks: freshTasks(searchId, meta.best, meta.config),
  };
}

async function personsStop(store: SearchStore, searchId: string): Promise<StopRecord | null> {
  const stopped = (await store.feedbacks(searchId)).filter((f) => f.answer?.action === 'stop').at(-1);
  if (!stopped) return null;
  const said = stopped.answer?.text ? `: "${stopped.answer.text.slice(0, 120)}"` : '';
  return { reason: 'feedback', generation: stopped.generation, detail: `answered "stop" after generation ${stopped.generation}${said}`, spentUsd: null };
}
