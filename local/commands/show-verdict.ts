/**
 * `eureka show`'s line on whether the search found anything better than what people wrote: the
 * winner against the best baseline on the fresh seeds, as the published summary.json has it.
 */
import type { SearchSummary } from '../../functions/publish/summary.ts';
import { winnerPrefix } from '../../functions/shared/keys.ts';
import type { SearchStore } from '../../functions/shared/search-store.ts';

export type ShownVerdict = {
  beatsBaselines: boolean;
  winner: string;
  versus: NonNullable<SearchSummary['versusBestBaseline']>;
} | {
  /** No candidate trained: why (summary.json's nothingTrained). */
  nothingTrained: string;
};

/** The published verdict; null before Publish, or when summary.json has none (no fresh scores, an older summary). */
export async function publishedVerdict(store: SearchStore, searchId: string): Promise<ShownVerdict | null> {
  const text = await store.blobs.getText(`${winnerPrefix(searchId)}/summary.json`);
  if (text === undefined) return null;
  const summary = JSON.parse(text) as Partial<SearchSummary>;
  if (summary.winner === null && typeof summary.nothingTrained === 'string') return { nothingTrained: summary.nothingTrained };
  if (typeof summary.beatsBaselines !== 'boolean' || !summary.versusBestBaseline || !summary.winner) return null;
  return { beatsBaselines: summary.beatsBaselines, winner: summary.winner.name, versus: summary.versusBestBaseline };
}

const pct = (x: number | null): string => (x === null ? '-' : `${Math.round(x * 100)}%`);

const DECIDED: Record<NonNullable<SearchSummary['versusBestBaseline']>['decidedBy'], string> = {
  success: '', tie: ', a tie', steps: ', the same success in more steps', return: ', the same success with a lower return',
};

export function verdictLine(v: ShownVerdict): string {
  if ('nothingTrained' in v) return v.nothingTrained;
  const scores = `${pct(v.versus.winnerFreshSuccess)} against ${pct(v.versus.baselineFreshSuccess)} on the fresh seeds`;
  return v.beatsBaselines
    ? `the winner beat the baselines: ${v.winner} ${scores} of the best baseline, ${v.versus.name}`
    : `nothing the search found beat the baselines: use ${v.versus.name} (the winner, ${v.winner}, ${scores}${DECIDED[v.versus.decidedBy]})`;
}
