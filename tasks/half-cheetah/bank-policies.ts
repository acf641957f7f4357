/**
 * HalfCheetah's ways to fail for the screen's bank (tasks/bank.ts), beside random actions and doing
 * nothing: a gallop written by hand (each leg's three joints in a sine wave a little behind the
 * one above, the front leg a quarter period behind the back, found by trying periods and phases
 * on two resets; forwards it runs, but slower than success needs, a return of about 1,000),
 * played backwards, which runs backwards. Successes come from the person's shaping's trained
 * policy. Every episode is 1,000 steps of 17 observations (about 83 KiB in the file), so one
 * each: the bank stays under 384 KiB.
 */
import type { BankDeclaration } from '../contract.ts';

/** Six joints' torques at step t (time run backwards for -1): period 8 steps, each joint 1 rad behind the one above, the front leg `lag` behind the back. */
const gallop = (t: number, direction: 1 | -1): number[] => {
  const w = direction * 2 * Math.PI * t / 8;
  const lag = Math.PI / 2;
  return [0, 1, 2].map((k) => 0.5 * Math.sin(w - k)).concat([0, 1, 2].map((k) => 0.5 * Math.sin(w + lag - k)));
};

export const HALF_CHEETAH_BANK: BankDeclaration = {
  successWords: 'running forward fast',
  policies: [
    { name: 'random', kind: 'failure', words: 'acting at random', episodes: 1, act: (_obs, _t, rng) => Array.from({ length: 6 }, () => rng.uniform(-1, 1)) },
    { name: 'nothing', kind: 'failure', words: 'lying still with no torque', episodes: 1, act: () => [0, 0, 0, 0, 0, 0] },
    { name: 'backwards', kind: 'failure', words: 'running backwards', episodes: 1, act: (_obs, t) => gallop(t, -1) },
  ],
};
