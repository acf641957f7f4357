/**
 * A bank of episodes made up for a test: each episode's kind, policy, length and ending, with the
 * reward it is paid at every step, so that a screen's arithmetic can be set to an exact case
 * (an AUC of exactly 0.5, returns at the edge of a double) without training anything.
 */
import type { Bank, BankEpisode } from '../../tasks/bank.ts';
import type { BankValues } from '../../functions/train-seed/screen-stats.ts';

export interface MadeEpisode {
  policy: string;
  kind: 'success' | 'failure';
  /** The reward paid at each step. */
  rewards: number[];
  terminated?: boolean;
}

/** One-dimensional observations and actions of zeros: the screen reads only the rewards. */
export function syntheticBank(episodes: MadeEpisode[], gamma = 0.99): { bank: Bank; values: BankValues } {
  const policies = [...new Map(episodes.map((e) => [e.policy, { name: e.policy, kind: e.kind, words: `the ${e.policy} policy` }])).values()];
  const made: BankEpisode[] = episodes.map((e, i) => ({
    policy: e.policy, kind: e.kind, seed: i, length: e.rewards.length,
    observations: new Float32Array(e.rewards.length + 1), recorded: new Float64Array(0), actions: new Float64Array(e.rewards.length),
    terminated: e.terminated ?? true, truncated: !(e.terminated ?? true), return: e.rewards.reduce((a, b) => a + b, 0),
  }));
  const rewards = Float64Array.from(episodes.flatMap((e) => e.rewards));
  return {
    bank: { task: 'synthetic', stored: true, successWords: 'succeeding', policies, episodes: made },
    values: { rewards, terms: new Map([['total', rewards]]), gamma },
  };
}
