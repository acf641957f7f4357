/**
 * Walker2d's ways to fail for the screen's bank (tasks/bank.ts), beside random actions: doing
 * nothing (it collapses), standing still by holding its joints at their start and its torso
 * upright (a posture controller, found by trying gains on a few resets: it stays up to the time
 * limit and goes nowhere), and flailing (full torques that flip every 20 steps). Successes come
 * from the person's shaping's trained policy.
 */
import type { BankDeclaration } from '../contract.ts';

const clip = (u: number): number => Math.min(1, Math.max(-1, u));

export const WALKER2D_BANK: BankDeclaration = {
  successWords: 'walking forward without falling',
  policies: [
    { name: 'nothing', kind: 'failure', words: 'collapsing with no torque', act: () => [0, 0, 0, 0, 0, 0] },
    {
      name: 'stand',
      kind: 'failure',
      words: 'standing still to the time limit',
      // One: it is 1,000 steps of 17 observations, and the bank stays a few hundred KiB.
      episodes: 1,
      // Each joint held at 0 (observation 2-7, velocities 11-16), the hips also righting the torso (1, 10).
      act: (obs) => {
        const torso = -2 * obs[1] - 0.1 * obs[10];
        return [2, 3, 4, 5, 6, 7].map((k, j) => clip(-(2 * obs[k] + 0.05 * obs[k + 9]) + (j % 3 === 0 ? torso : 0)));
      },
    },
    { name: 'flail', kind: 'failure', words: 'flailing with full torques', act: (_obs, t) => (Math.floor(t / 20) % 2 === 0 ? [1, -1, 1, -1, 1, -1] : [-1, 1, -1, 1, -1, 1]) },
  ],
};
