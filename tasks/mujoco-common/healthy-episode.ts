/**
 * What the tasks that end an episode when the robot stops being healthy (Hopper, Walker2d, Ant)
 * read off an episode for their success test and diagnostic.
 */
import type { Episode } from '../contract.ts';

/** Healthy to the time limit: never terminated, and all `maxSteps` steps taken. */
export function stayedHealthy(episode: Pick<Episode, 'terminated' | 'length'>, maxSteps: number): boolean {
  return !episode.terminated && episode.length >= maxSteps;
}

/**
 * Metres forward from the environment's return, where it is `perMetre` a metre plus
 * `healthyReward` each healthy step less a small control cost (the step that ends an episode is
 * not a healthy one): accurate to the control cost's share.
 */
export function metresFromReturn(episode: Pick<Episode, 'return' | 'terminated' | 'length'>, healthyReward: number, perMetre: number): number {
  const healthySteps = episode.terminated ? episode.length - 1 : episode.length;
  return (episode.return - healthySteps * healthyReward) / perMetre;
}
