/**
 * `eureka show`'s line on whether the search found anything better than what people wrote: the
 * winner against the best baseline on the fresh seeds, as the published summary.json has it.
 */
import type { SearchSummary } from '../../functions/publish/summary.ts';
import { winnerPrefix } from '../../functions/shared/store/keys.ts';
import type { SearchStore } from '../../functions/shared/store/search-store.ts';

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

const pct = (x: number | null, digits = 0): string => (x === null ? '-' : `${(x * 100).toFixed(digits)}%`);

const DECIDED: Record<NonNullable<SearchSummary['versusBestBaseline']>['decidedBy'], string> = {
  success: '', tie: ', a tie', progress: ', the same success with less progress', steps: ', the same success and progress in more steps',
};

/** How the winner beat a baseline it tied on success (progress, then the task's tie-break, as the search ranks). */
const WON_ON: Record<'progress' | 'steps', string> = { progress: 'with more progress', steps: 'in fewer steps' };

/**
 * The line. A win on success says so with the two scores (to a tenth of a point where whole points
 * would print the same); the same success is never printed as a plain win: a win on the tie-break
 * says it was the tie-break, and a tie is no win.
 */
export function verdictLine(v: ShownVerdict): string {
  if ('nothingTrained' in v) return v.nothingTrained;
  const { winnerFreshSuccess: won, baselineFreshSuccess: base, decidedBy } = v.versus;
  const digits = decidedBy === 'success' && pct(won) === pct(base) ? 1 : 0;
  const scores = `${pct(won, digits)} against ${pct(base, digits)} on the fresh seeds`;
  if (!v.beatsBaselines) return `nothing the search found beat the baselines: use ${v.versus.name} (the winner, ${v.winner}, ${scores}${DECIDED[decidedBy]})`;
  if (decidedBy === 'steps' || decidedBy === 'progress') {
    return `the winner beat the baselines on ${decidedBy} only: ${v.winner} succeeded as often as the best baseline, ${v.versus.name} ` +
      `(${scores}), and did it ${WON_ON[decidedBy]}`;
  }
  return `the winner beat the baselines: ${v.winner} ${scores} of the best baseline, ${v.versus.name}`;
}
