/**
 * Eureka's view of a training run: each reward term's mean per step early (first 10% of updates)
 * and late (last 10%), and its trajectory at 10 checkpoints, the same of its absolute value, plus
 * the training success series.
 */
import type { TermStats } from '../shared/search/types.ts';
import type { UpdateStats } from './ppo.ts';

export const CHECKPOINTS = 10;

/**
 * A term's name is the candidate's text: `__proto__`, `toString` or `constructor` are names like
 * any other. So a term is read only where it is an own property (a checkpoint's updates come back
 * from JSON with Object's prototype), and the result is built from entries, which defines each
 * name as its own property (an assignment to `__proto__` would set the prototype instead).
 */
export function termStatistics(updates: UpdateStats[]): Record<string, TermStats> {
  const names = new Set(updates.flatMap((u) => Object.keys(u.terms)));
  // A checkpoint of an older trainer has no absolute values: then none are reported.
  const withAbs = updates.every((u) => u.termsAbs !== undefined);
  const read = (terms: Record<string, number> | undefined, name: string) => (terms && Object.hasOwn(terms, name) ? terms[name] : 0);
  return Object.fromEntries([...names].map((name) => {
    const stats: TermStats = summary(updates.map((u) => read(u.terms, name)));
    if (withAbs) stats.abs = summary(updates.map((u) => read(u.termsAbs, name)));
    return [name, stats];
  }));
}

/** Early (first tenth), late (last tenth) and 10-checkpoint means of one per-update series. */
function summary(values: number[]): { early: number; late: number; series: number[] } {
  const tenth = Math.max(1, Math.round(values.length / 10));
  return { early: average(values.slice(0, tenth)), late: average(values.slice(-tenth)), series: checkpoints(values).map(average) };
}

/**
 * Share of the finished training episodes that passed the success test, in each tenth of training.
 * A tenth in which no episode ended is measured over the window widened around it until one did:
 * never a made-up 0. Empty when no training episode ended at all.
 */
export function trainSuccessSeries(updates: UpdateStats[]): number[] {
  if (!updates.some((u) => u.episodesEnded > 0)) return [];
  return checkpointRanges(updates.length).map(([start, end]) => windowedSuccess(updates, start, end));
}

/**
 * How early the reward learned: the mean over updates of the training success (each update's
 * own, or its widened window's where no episode ended), i.e. the area under the training success
 * curve over the steps trained, in [0, 1]. Null when no training episode ended.
 */
export function trainSuccessArea(updates: UpdateStats[]): number | null {
  if (!updates.some((u) => u.episodesEnded > 0)) return null;
  return average(updates.map((_, u) => windowedSuccess(updates, u, u + 1)));
}

/** Steps trained when a rollout's ended training episodes first succeeded half the time; null if never. */
export function stepsToHalfSuccess(updates: UpdateStats[]): number | null {
  return updates.find((u) => u.episodesEnded > 0 && u.episodesSucceeded / u.episodesEnded >= 0.5)?.step ?? null;
}

/** Success over updates [start, end), widened one update each way until an episode ended in it. */
function windowedSuccess(updates: UpdateStats[], start: number, end: number): number {
  for (let lo = start, hi = end; ; lo = Math.max(0, lo - 1), hi = Math.min(updates.length, hi + 1)) {
    let ended = 0;
    let succeeded = 0;
    for (let u = lo; u < hi; u++) {
      ended += updates[u].episodesEnded;
      succeeded += updates[u].episodesSucceeded;
    }
    if (ended > 0) return succeeded / ended;
    if (lo === 0 && hi === updates.length) return 0;
  }
}

/** [start, end) of each of the CHECKPOINTS consecutive chunks of n items (repeating items when n is smaller). */
function checkpointRanges(n: number): Array<[number, number]> {
  return Array.from({ length: CHECKPOINTS }, (_, k) => {
    const start = Math.floor((k * n) / CHECKPOINTS);
    return [start, Math.max(start + 1, Math.floor(((k + 1) * n) / CHECKPOINTS))];
  });
}

/** Splits a series into CHECKPOINTS consecutive chunks (repeating items when it is shorter). */
function checkpoints<T>(items: T[]): T[][] {
  if (items.length === 0) return Array.from({ length: CHECKPOINTS }, () => []);
  return Array.from({ length: CHECKPOINTS }, (_, k) => {
    const start = Math.floor((k * items.length) / CHECKPOINTS);
    const end = Math.max(start + 1, Math.floor(((k + 1) * items.length) / CHECKPOINTS));
    return items.slice(start, end);
  });
}

function average(xs: number[]): number {
  return xs.length > 0 ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}
