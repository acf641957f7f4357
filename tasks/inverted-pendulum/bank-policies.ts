/**
 * InvertedPendulum's ways to fail for the screen's bank (tasks/bank.ts), beside random actions and
 * doing nothing: pushing one way at full force. Its success is a balancer written by hand (a linear
 * feedback on the pole's angle and spin and the cart's position and speed, found by trying gains
 * on a few resets), kept only where it balances all 1,000 steps.
 */
import type { BankDeclaration } from '../contract.ts';
import { MAX_FORCE } from './environment.ts';

const clip = (u: number): number => Math.min(MAX_FORCE, Math.max(-MAX_FORCE, u));

export const INVERTED_PENDULUM_BANK: BankDeclaration = {
  successWords: 'balancing the pole to the time limit',
  policies: [
    { name: 'push', kind: 'failure', words: 'pushing the cart one way at full force', act: () => [MAX_FORCE] },
    {
      name: 'balance',
      kind: 'success',
      words: 'a hand-written balancer',
      // Push the cart under the pole (towards its lean), and gently back towards the centre.
      act: (obs) => [clip(1 * obs[0] + 10 * obs[1] + 1 * obs[2] + 2 * obs[3])],
    },
  ],
};
