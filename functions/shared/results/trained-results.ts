/**
 * The stored results of a candidate's seed-runs, read by Reflect (to rank a generation) and by the
 * card (its curves, terms and greedy episode), from the keys their summaries name.
 */
import { summaryResultKey } from '../store/keys.ts';
import type { SearchStore } from '../store/search-store.ts';
import type { SeedResult, SeedSummary } from '../search/types.ts';

/** The stored results of the seed-runs that trained (to the budget, or to the rung the race stopped them at). */
export async function trainedResults(store: SearchStore, searchId: string, generation: number, summaries: SeedSummary[]): Promise<SeedResult[]> {
  const results = await Promise.all(summaries.filter((s) => s.outcome === 'trained' || s.outcome === 'stopped')
    .map(async (s) => {
      const result = await store.result(summaryResultKey(searchId, generation, s));
      // A stopped seed's stored result is the rung's, graded as 'trained' there.
      return result && { ...result, outcome: s.outcome };
    }));
  return results.filter((r): r is SeedResult => r !== undefined);
}
