/**
 * Hopper's ways to fail for the screen's bank (tasks/bank.ts), beside random actions: doing nothing
 * (it topples), standing still by holding its joints at their start (a posture controller, the
 * golden recordings' odd-seed policy: it stays up to the time limit and goes nowhere), and flailing
 * (full torques that flip every 20 steps). Successes come from the person's shaping's trained policy.
 */
import type { BankDeclaration } from '../contract.ts';

export const HOPPER_BANK: BankDeclaration = {
  successWords: 'hopping forward without falling',
  policies: [
    { name: 'nothing', kind: 'failure', words: 'toppling with no torque', act: () => [0, 0, 0] },
    {
      name: 'stand',
      kind: 'failure',
      words: 'standing still to the time limit',
      // Two: each is 1,000 steps, and the bank stays a few hundred KiB.
      episodes: 2,
      // a = clip(-(5 (joint angle) + 0.5 (joint velocity))): observation 2-4 are the angles, 8-10 their velocities.
      act: (obs) => [2, 3, 4].map((k) => Math.min(1, Math.max(-1, -(5 * obs[k] + 0.5 * obs[k + 6])))),
    },
    { name: 'flail', kind: 'failure', words: 'flailing with full torques', act: (_obs, t) => (Math.floor(t / 20) % 2 === 0 ? [1, -1, 1] : [-1, 1, -1]) },
  ],
};
