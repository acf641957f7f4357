/**
 * Swimmer's bank (tasks/bank.ts): beside random actions and doing nothing, a swimmer written by
 * hand, a travelling wave (both hinges driven by sines of period 40 steps, the second a radian
 * behind the first, found by trying periods and phases on two resets), which swims forward far
 * enough to succeed, and the same wave the other way round, which swims backwards. Successes also
 * come from the person's shaping's trained policies.
 */
import type { BankDeclaration } from '../contract.ts';

/** The two hinges' torques at step t: a wave whose second joint lags the first by `phase` radians. */
const wave = (t: number, phase: number): number[] => {
  const w = 2 * Math.PI * t / 40;
  return [Math.sin(w), Math.sin(w - phase)];
};

/**
 * Every episode is 1,000 steps (about 39 KiB in the file): one of each, and up to five of the
 * person's shaping (`eureka bank --task Swimmer-v5 --seeds 5 --starts 1`), keep the bank under 384 KiB.
 */
export const SWIMMER_BANK: BankDeclaration = {
  successWords: 'swimming forward',
  policies: [
    { name: 'random', kind: 'failure', words: 'acting at random', episodes: 1, act: (_obs, _t, rng) => [rng.uniform(-1, 1), rng.uniform(-1, 1)] },
    { name: 'nothing', kind: 'failure', words: 'doing nothing', episodes: 1, act: () => [0, 0] },
    { name: 'wave', kind: 'success', words: 'a hand-written travelling wave', episodes: 1, act: (_obs, t) => wave(t, 1) },
    { name: 'backwards', kind: 'failure', words: 'swimming backwards', episodes: 1, act: (_obs, t) => wave(t, -1) },
  ],
};
