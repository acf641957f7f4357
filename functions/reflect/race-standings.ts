/**
 * A rung's standings and what counts as evidence between two of them. Every seed a candidate has
 * run counts: the rung's results and the seeds that faulted at an earlier rung (0, as in its
 * final score), so a fault never drops out of the ranking. A candidate is cut only where it is
 * clearly behind the last one that goes on: fewer evaluation episodes passed, beyond what chance
 * would give on that many episodes, or (successes equal) a progress lower beyond its seeds' spread
 * (the task's own measure of how far the greedy episodes got; never a reward's return, which pays
 * a standing robot for every step it stands). Ties, and differences inside the noise, go on: the race never cuts on
 * the order the candidates came in.
 */
import type { SeedSummary } from '../shared/search/types.ts';
import type { TieBreak } from '../../tasks/contract.ts';
import { compareCandidates, mean, meanOrNull, type Score } from '../shared/results/aggregate.ts';

/** How many standard errors apart two candidates must be for the race to cut the one behind. */
export const EVIDENCE_Z = 2;

export interface Standing extends Score {
  candidateId: string;
  generation: number;
  /** Evaluation episodes that passed the success test, and all its seeds' evaluation episodes. */
  passed: number;
  episodes: number;
  /** Each trained seed's progress (the task's measure, mean over its evaluation episodes). */
  progresses: number[];
  /** Seeds that trained to this rung (not faulted). */
  trainedSeeds: number;
}

const faulted = (s: SeedSummary): boolean => s.outcome !== 'trained' && s.outcome !== 'stopped';

/** The rung's candidates best first, each scored over every seed it has run (a faulted seed counts 0). */
export function rank(results: SeedSummary[], finished: SeedSummary[], tieBreak: TieBreak, generation: number, evalEpisodes: number): Standing[] {
  const ids = [...new Set(results.map((s) => s.candidateId))];
  return ids.map((candidateId): Standing => {
    const earlierFaults = finished.filter((s) => s.candidateId === candidateId && faulted(s)
      && !results.some((r) => r.candidateId === candidateId && r.seed === s.seed));
    const seeds = [...results.filter((s) => s.candidateId === candidateId), ...earlierFaults];
    const trained = seeds.filter((s) => s.outcome === 'trained');
    const success = mean(seeds.map((s) => (s.outcome === 'trained' ? s.success : 0)));
    return {
      candidateId, generation, success,
      meanSuccessSteps: meanOrNull(trained.map((s) => s.meanSuccessSteps)),
      meanReturn: meanOrNull(trained.map((s) => s.meanReturn)),
      progress: meanOrNull(trained.map((s) => s.progress ?? null)),
      trainSuccessArea: meanOrNull(trained.map((s) => s.trainSuccessArea)),
      passed: Math.round(success * seeds.length * evalEpisodes),
      episodes: seeds.length * evalEpisodes,
      progresses: trained.flatMap((s) => (s.progress === null || s.progress === undefined ? [] : [s.progress])),
      trainedSeeds: trained.length,
    };
  }).sort((a, b) => compareCandidates(a, b, tieBreak));
}

/** Whether `behind` is clearly worse than `ahead`: the evidence, not only the order. */
export function clearlyBehind(behind: Standing, ahead: Standing): boolean {
  const p = (behind.passed + ahead.passed) / (behind.episodes + ahead.episodes);
  const successGap = ahead.passed / ahead.episodes - behind.passed / behind.episodes;
  if (successGap !== 0) return zScore(successGap, p * (1 - p) * (1 / ahead.episodes + 1 / behind.episodes)) > EVIDENCE_Z;
  const [a, b] = [ahead.progresses, behind.progresses];
  if (a.length < 2 || b.length < 2) return false;
  const gap = mean(a) - mean(b);
  return zScore(gap, variance(a) / a.length + variance(b) / b.length) > EVIDENCE_Z;
}

/** gap / sqrt(varianceOfGap); a gap with no spread at all is certain, no gap is none. */
function zScore(gap: number, varianceOfGap: number): number {
  if (gap <= 0) return 0;
  return varianceOfGap > 0 ? gap / Math.sqrt(varianceOfGap) : Number.POSITIVE_INFINITY;
}

/** The sample variance (n - 1). */
function variance(xs: number[]): number {
  const m = mean(xs);
  return xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1);
}

/**
 * Who goes on: the top 1/eta (rounded up), and every one after them that is not clearly behind the
 * last of those.
 */
export function goingOn(standings: Standing[], eta: number): Set<string> {
  const top = Math.min(standings.length, Math.max(1, Math.ceil(standings.length / eta)));
  const boundary = standings[top - 1];
  return new Set(standings.filter((s, i) => i < top || !clearlyBehind(s, boundary)).map((s) => s.candidateId));
}
