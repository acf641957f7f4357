/**
 * HalfCheetah-Backward-v0's bank policies: random actions and lying still (the defaults are one
 * 1,000-step episode each here), and the hand-written gallop of HalfCheetah-v5's bank
 * (half-cheetah/bank-policies.ts) played forwards, the robot's ordinary way to go, and backwards.
 */
import type { BankPolicy } from '../contract.ts';

/** Six joints' torques at step t: HalfCheetah-v5's bank's gallop (period 8 steps), time run backwards for -1. */
export const gallop = (t: number, direction: 1 | -1): number[] => {
  const w = direction * 2 * Math.PI * t / 8;
  const lag = Math.PI / 2;
  return [0, 1, 2].map((k) => 0.5 * Math.sin(w - k)).concat([0, 1, 2].map((k) => 0.5 * Math.sin(w + lag - k)));
};

export const CHEETAH_GAITS: readonly BankPolicy[] = [
  { name: 'random', kind: 'failure', words: 'acting at random', episodes: 1, act: (_obs, _t, rng) => Array.from({ length: 6 }, () => rng.uniform(-1, 1)) },
  { name: 'nothing', kind: 'failure', words: 'lying still with no torque', episodes: 1, act: () => [0, 0, 0, 0, 0, 0] },
  { name: 'gallop', kind: 'failure', words: 'galloping forwards, the way the cheetah is built to run', episodes: 1, act: (_obs, t) => gallop(t, 1) },
  // About 47 m backwards in its 1,000 steps: a written policy that nearly does it.
  { name: 'gallop-backwards', kind: 'failure', words: 'a written gallop played backwards, 3 m short of the line', episodes: 1, act: (_obs, t) => gallop(t, -1) },
];
