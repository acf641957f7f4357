/**
 * What the robots' success tests and progress read off an episode: whether it stayed healthy to
 * the time limit, and how far the torso moved, from the recorded state (recorded.ts), never from
 * a reward.
 */
import type { Episode, Progress } from '../contract.ts';

/** Healthy to the time limit: never terminated, and all `maxSteps` steps taken. */
export function stayedHealthy(episode: Pick<Episode, 'terminated' | 'length'>, maxSteps: number): boolean {
  return !episode.terminated && episode.length >= maxSteps;
}

/**
 * Metres the torso moved along x over the episode: its recorded x at the end less at the start
 * (`xAt`: the x entry of the task's recorded state). Where it went, not how fast it moved on the
 * way: a gait that shakes in place scores nothing.
 */
export function metresForward(episode: Pick<Episode, 'recorded' | 'recordSize' | 'length'>, xAt = 0): number {
  const { recorded, recordSize, length } = episode;
  if (recordSize <= xAt) throw new Error(`the episode records ${recordSize} values, not the torso's x at entry ${xAt}`);
  return recorded[length * recordSize + xAt] - recorded[xAt];
}

/**
 * The walking robots' progress: metres forward from the recorded x. Where a fall ends the episode
 * (`healthySteps`: the steps success needs), those are the metres made while healthy.
 */
export function metresForwardProgress(successMetres: number, healthySteps?: number): Progress {
  const needs = healthySteps === undefined ? `${successMetres} m` : `${successMetres} m and all ${healthySteps} steps`;
  return {
    describe: 'metres the torso moved forward over the episode: its recorded x at the end less at the start' +
      (healthySteps === undefined ? '' : ' (a fall ends the episode, so these are the metres made while healthy)'),
    label: 'mean metres forward',
    measure: (episode) => metresForward(episode),
    format: (value) => `${value.toFixed(successMetres >= 50 ? 1 : 2)} m forward (success needs ${needs})`,
  };
}
