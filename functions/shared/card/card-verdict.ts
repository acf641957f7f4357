/**
 * Did the search find anything better than what people wrote? The winner against the best of the
 * baselines on the fresh seeds, the honest score: success first, then the task's progress, then
 * fewer steps to success where the task's tie-break asks for it, as the search ranks. A tie is not
 * a win: when nothing beat the baselines, the card, summary.json and `eureka show` say so and name
 * the baseline to use.
 */
import type { TieBreak } from '../../../tasks/contract.ts';
import type { CardReward } from './card-data.ts';

export interface BaselineVerdict {
  /** The winner ranks above every baseline on the fresh seeds. */
  beatsBaselines: boolean;
  /** The best baseline there (the one to use when the winner does not beat it). */
  bestBaseline: CardReward;
  /** What decided it: success, progress, the tie-break's steps, or nothing (a tie). */
  decidedBy: 'success' | 'progress' | 'steps' | 'tie';
}

type Fresh = Pick<CardReward, 'freshSuccess' | 'freshProgress' | 'freshSuccessSteps'>;

/** Positive when a ranks above b on the fresh seeds, and by what. */
function compareFresh(a: Fresh, b: Fresh, tieBreak: TieBreak): { sign: number; by: BaselineVerdict['decidedBy'] } {
  const success = (a.freshSuccess ?? 0) - (b.freshSuccess ?? 0);
  if (success !== 0) return { sign: Math.sign(success), by: 'success' };
  const [pa, pb] = [a.freshProgress ?? null, b.freshProgress ?? null];
  if (pa !== null && pb !== null && pa !== pb) return { sign: Math.sign(pa - pb), by: 'progress' };
  if (tieBreak === 'fewer-steps') {
    const [sa, sb] = [a.freshSuccessSteps, b.freshSuccessSteps];
    if (sa !== null && sb !== null && sa !== sb) return { sign: Math.sign(sb - sa), by: 'steps' };
  }
  return { sign: 0, by: 'tie' };
}

/** The verdict, or null when the winner or a baseline has no fresh score (an interim card). */
export function baselineVerdict(winner: CardReward, baselines: CardReward[], tieBreak: TieBreak): BaselineVerdict | null {
  if (baselines.length === 0 || ![winner, ...baselines].every((r) => r.freshSuccess !== null && Number.isFinite(r.freshSuccess))) return null;
  const bestBaseline = baselines.reduce((best, b) => (compareFresh(b, best, tieBreak).sign > 0 ? b : best));
  const { sign, by } = compareFresh(winner, bestBaseline, tieBreak);
  return { beatsBaselines: sign > 0, bestBaseline, decidedBy: by };
}
