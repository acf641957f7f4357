/**
 * The search's spending ceiling (input maxCostUsd): before each model request, what was spent so
 * far plus the request's worst case (proposer.worstCaseCostUsd: the prompt and every output token
 * the cap allows) must stay within it. A request that could pass it is not sent; the search is
 * marked stopped by the budget and goes on to the fresh seeds with what it has.
 */
import type { SearchSettings } from '../shared/contracts.ts';
import { proposerUsage, type StopRecord } from '../shared/records.ts';
import type { SearchStore } from '../shared/search-store.ts';
import { logger } from '../shared/telemetry.ts';
import { ProposerError } from './proposer.ts';

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
 * null: the request may be sent. A StopRecord: it may not; the stop is recorded once in the
 * search's META (a retried Propose finds it there). Throws when the ceiling cannot be enforced
 * (no price for the model) or does not cover even the first request.
 */
export async function checkBudget(
  store: SearchStore, searchId: string, config: SearchSettings, generation: number, request: 'propose' | 'repair', worstCaseUsd: number | null,
): Promise<StopRecord | null> {
  const ceiling = config.maxCostUsd;
  if (ceiling === null) return null;
  const spent = await spentUsd(store, searchId);
  if (worstCaseUsd === null || spent === null) {
    throw new ProposerError(`maxCostUsd is set but model "${config.model}" has no price in the price table (functions/shared/pricing.ts), so its cost cannot be capped`);
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
  const meta = await store.meta(searchId);
  if (meta.stoppedBy) return meta.stoppedBy;
  await store.updateMeta(searchId, { stoppedBy: stop });
  logger.warn('the budget stopped the search', { detail: stop.detail, spentUsd: spent, maxCostUsd: ceiling });
  return stop;
}
