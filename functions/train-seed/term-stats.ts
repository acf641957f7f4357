/**
 * Eureka's view of a training run: each reward term's mean per step early (first 10% of updates)
 * and late (last 10%), and its trajectory at 10 checkpoints, plus the training success series.
 */
import type { TermStats } from '../shared/types.ts';
import type { UpdateStats } from './ppo.ts';

export const CHECKPOINTS = 10;

export function termStatistics(updates: UpdateStats[]): Record<string, TermStats> {
  const names = new Set(updates.flatMap((u) => Object.keys(u.terms)));
  const out: Record<string, TermStats> = {};
  for (const name of names) {
    const values = updates.map((u) => u.terms[name] ?? 0);
    const tenth = Math.max(1, Math.round(values.length / 10));
    out[name] = {
      early: average(values.slice(0, tenth)),
      late: average(values.slice(-tenth)),
      series: checkpoints(values).map(average),
    };
  }
  return out;
}

/** Share of finished training episodes that reached the flag, in each tenth of training. */
export function trainSuccessSeries(updates: UpdateStats[]): number[] {
  return checkpoints(updates).map((chunk) => {
    const ended = chunk.reduce((sum, u) => sum + u.episodesEnded, 0);
    const succeeded = chunk.reduce((sum, u) => sum + u.episodesSucceeded, 0);
    return ended > 0 ? succeeded / ended : 0;
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
