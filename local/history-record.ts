/**
 * The local runtime's count of the execution history (history-count.ts) kept in the search's META,
 * where `eureka show` and Publish's summary.json read it. On AWS the console shows each execution's
 * history; nothing there writes this field.
 */
import { HISTORY_EVENT_LIMIT } from '../infra/history-events.ts';
import type { HistoryRecord } from '../functions/shared/store/records.ts';
import { SearchStore } from '../functions/shared/store/search-store.ts';
import type { HistoryCounter } from './history-count.ts';

/** `ahead`: events the search's history is sure to gain after now (the states after Publish). */
export function historyFigures(counter: HistoryCounter, ahead: number): HistoryRecord {
  const report = counter.report();
  return { search: report.search + ahead, seedRunExecutions: report.children, largestSeedRun: report.largestChild, limit: HISTORY_EVENT_LIMIT };
}

/** Writes the figures into the search's META; a search that has none yet (refused at its start) is left alone. */
export async function recordHistory(counter: HistoryCounter, searchId: string, ahead: number): Promise<void> {
  const store = SearchStore.fromEnv();
  const meta = await store.meta(searchId).catch(() => undefined);
  if (meta === undefined) return;
  await store.updateMeta(searchId, { history: historyFigures(counter, ahead) });
}
