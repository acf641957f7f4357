/**
 * The torso's x along an episode, for the card, where the observation leaves it out (Gymnasium's
 * exclude_current_positions_from_observation): the recorded state's x where the episode carries it
 * (every result since the tasks record state), else rebuilt from the rewards of a result stored
 * before: each step's forward reward is its x displacement over dt, and the forward reward is the
 * environment's reward less its other terms, a survive bonus while healthy and a control cost.
 * Exact to the control cost's float32 rounding.
 */
import type { EpisodeRecord } from '../contract.ts';

export interface ForwardRewardTerms {
  /** Seconds per environment step. */
  dt: number;
  /** Paid for every step but one that ends the episode (Hopper, Walker2d: 1); 0 where there is none. */
  healthyReward: number;
  /** The control cost's weight on the sum of squared actions. */
  ctrlCostWeight: number;
}

/** The recorded entry `at` (the torso's x: 0) at each observation less at the first; null where the episode has no recorded state. */
export function recordedFromStart(episode: EpisodeRecord, at = 0): number[] | null {
  const r = episode.recorded;
  if (r === undefined || r.length !== episode.observations.length || r.length === 0) return null;
  return r.map((v) => v[at] - r[0][at]);
}

/** x at each of the episode's observations from 0: recorded, or rebuilt from the rewards. */
export function torsoXs(episode: EpisodeRecord, terms: ForwardRewardTerms): number[] {
  return recordedFromStart(episode) ?? xFromRewards(episode, terms);
}

/** x at each of the episode's observations, starting from 0, from the rewards. */
export function xFromRewards(episode: EpisodeRecord, terms: ForwardRewardTerms): number[] {
  const xs = [0];
  const last = episode.rewards.length - 1;
  episode.rewards.forEach((reward, t) => {
    const a = episode.actions[t];
    const ctrl = terms.ctrlCostWeight * (typeof a === 'number' ? a * a : a.reduce((s, u) => s + u * u, 0));
    const survive = t === last && episode.terminated ? 0 : terms.healthyReward;
    xs.push(xs[t] + (reward - survive + ctrl) * terms.dt);
  });
  return xs;
}
