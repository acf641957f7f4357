/**
 * Ant's ways to fail for the screen's bank (tasks/bank.ts), beside random actions (which make it
 * jump or flip past 1 m within a few dozen steps) and doing nothing (it lands and stands to the
 * time limit, going nowhere): pushing every hinge one way (it curls up and stays put) and
 * flailing (full torques that flip every 10 steps). Successes come from the person's shaping's
 * trained policy.
 */
import type { BankDeclaration } from '../contract.ts';

export const ANT_BANK: BankDeclaration = {
  successWords: 'walking forward without falling',
  policies: [
    { name: 'nothing', kind: 'failure', words: 'standing still to the time limit', episodes: 2, act: () => [0, 0, 0, 0, 0, 0, 0, 0] },
    { name: 'curl', kind: 'failure', words: 'holding every hinge at full torque one way', episodes: 2, act: () => [1, 1, 1, 1, 1, 1, 1, 1] },
    {
      name: 'flail',
      kind: 'failure',
      words: 'flailing with full torques',
      act: (_obs, t) => (Math.floor(t / 10) % 2 === 0 ? [1, -1, 1, -1, 1, -1, 1, -1] : [-1, 1, -1, 1, -1, 1, -1, 1]),
    },
  ],
};
