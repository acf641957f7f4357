/**
 * The search's spending ceiling (input maxCostUsd): before each model request, what was spent so
 * far plus the request's worst case (proposer.worstCaseCostUsd: the prompt and every output token
 * the cap allows) must stay within it. A request that could pass it is not sent; the search is
 * marked stopped by the budget and goes on to the fresh seeds with what it has.
 *
 * The check reads; the reservation writes. Two Propose invocations of one search (a retry while the
 * first still runs) could both pass the check, so each step's worst case is also held against the
 * ceiling in one conditional write on the search's BUDGET item (commitSpending) before it is sent:
 * of two, only one can pass the bound. No transactions (dynalite has none): one item, one update.
 */
import type { SearchSettings } from '../shared/search/contracts.ts';
import { BUDGET_SK, proposerUsage, searchPk, type AnswerKind, type StopRecord } from '../shared/store/records.ts';
import type { SearchStore } from '../shared/store/search-store.ts';
import { addWithin } from '../shared/store/table.ts';
import { logger } from '../shared/ops/telemetry.ts';
import { ProposerError } from './proposer.ts';

/** A request step whose worst case the ceiling no longer covers: it was not sent. */
export class BudgetRefused extends Error {
  override readonly name = 'BudgetRefused';
}

/** The BUDGET item's field: every reservation still open at its worst case, plus every bill at its cost. */
const COMMITTED = 'committedUsd';

/**
 * Holds `usd` more against the ceiling if the search's committed spending stays within it; false
 * when it would not. `usd` may be negative (a reservation settled below its worst case, or
 * released), which always passes. The item starts from the bills of a search that had some before it.
 */
export async function commitSpending(store: SearchStore, searchId: string, usd: number, ceilingUsd: number): Promise<boolean> {
  const pk = searchPk(searchId);
  if (!(await store.table.getItem(pk, BUDGET_SK))) {
    await store.table.putIfAbsent({ pk, sk: BUDGET_SK, [COMMITTED]: (await spentUsd(store, searchId)) ?? 0 });
  }
  return addWithin(store.table, pk, BUDGET_SK, COMMITTED, usd, usd > 0 ? ceilingUsd : undefined);
}

/** Records the stop once in the search's META (a retried Propose finds it there) and returns the one recorded. */
export async function recordStop(store: SearchStore, searchId: string, stop: StopRecord, ceilingUsd: number): Promise<StopRecord> {
  const meta = await store.meta(searchId);
  if (meta.stoppedBy) return meta.stoppedBy;
  await store.updateMeta(searchId, { stoppedBy: stop });
  logger.warn('the budget stopped the search', { detail: stop.detail, spentUsd: stop.spentUsd, maxCostUsd: ceilingUsd });
  return stop;
}

const usd = (x: number): string => `$${x.toFixed(x < 1 ? 4 : 2)}`;

/**
 * What the search's model replies cost (ledger.ts): every billed reply, also one that failed its
 * schema or belonged to a failed attempt, and a reply still out or cut off at its worst case; null
 * when one has no price.
 */
export async function spentUsd(store: SearchStore, searchId: string): Promise<number | null> {
  return proposerUsage([], await store.bills(searchId)).costUsd;
}

/**
 * What the search spent beside the billed steps of this very request: a retry (Propose.OutOfTime,
 * a crash) replays those from the ledger, and the request's worst case covers them already, so
 * counting them too would refuse a retry the first attempt was allowed to start.
 */
async function spentBeside(store: SearchStore, searchId: string, generation: number, kind: AnswerKind): Promise<number | null> {
  const bills = await store.bills(searchId);
  return proposerUsage([], bills.filter((b) => !(b.generation === generation && b.kind === kind && b.state === 'billed'))).costUsd;
}

/**
 * null: the request may be sent. A StopRecord: it may not; the stop is recorded once in the
 * search's META (a retried Propose finds it there). Throws when the ceiling cannot be enforced
 * (no price for the model) or does not cover even the first request.
 */
export async function checkBudget(
  store: SearchStore, searchId: string, config: SearchSettings, generation: number, request: 'propose' | 'repair', worstCaseUsd: number | null,
): Promise<StopRecord | null> {
  const ceiling = config.maxCostUsd;
  if (ceiling === null) return null;
  const spent = await spentBeside(store, searchId, generation, request === 'propose' ? 'proposal' : 'repair');
  if (worstCaseUsd === null || spent === null) {
    throw new ProposerError(`maxCostUsd is set but model "${config.model}" has no price in the price table (functions/shared/cost/pricing.ts), so its cost cannot be capped`);
  }
  if (spent + worstCaseUsd <= ceiling) return null;
  if (generation === 1 && request === 'propose') {
    throw new ProposerError(`maxCostUsd ${usd(ceiling)} does not cover the first request, which could cost up to ${usd(worstCaseUsd)}: raise it or lower the candidates`);
  }
  const what = request === 'propose' ? `generation ${generation}'s request` : `generation ${generation}'s repair request`;
  const stop: StopRecord = {
    reason: 'budget',
    generation,
    detail: `${what} could cost up to ${usd(worstCaseUsd)}; ${usd(spent)} of the ${usd(ceiling)} budget was spent`,
    spentUsd: spent,
  };
  return recordStop(store, searchId, stop, ceiling);
}

/** The stop of a request whose reservation was refused (another invocation's spending got there first). */
export async function refusedStop(store: SearchStore, searchId: string, config: SearchSettings, generation: number, error: BudgetRefused): Promise<StopRecord> {
  const stop: StopRecord = { reason: 'budget', generation, detail: error.message, spentUsd: await spentUsd(store, searchId) };
  return recordStop(store, searchId, stop, config.maxCostUsd ?? 0);
}
