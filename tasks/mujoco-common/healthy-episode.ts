/**
 * What the robots' success tests and progress read off an episode: whether it stayed healthy to
 * the time limit, and how far the torso moved, from the recorded state (recorded.ts), never from
 * a reward.
 */
import type { Episode } from '../contract.ts';

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
