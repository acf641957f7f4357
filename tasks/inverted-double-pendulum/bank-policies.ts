/**
 * InvertedDoublePendulum's ways to fail for the screen's bank (tasks/bank.ts), beside random
 * actions and doing nothing (both poles fall within a few dozen steps): pushing one way at full
 * force. Its success is the golden recorder's balancer (shared/golden/mujoco/recorder): a linear
 * feedback a = clip(-K [qpos, qvel]), K a discrete LQR's gains about the upright pose (Q = I, R = I),
 * here read back from its recorded actions; kept only where it balances all 1,000 steps.
 */
import type { BankDeclaration } from '../contract.ts';

const clip = (u: number): number => Math.min(1, Math.max(-1, u));

/** The recorder's K on (x, a1, a2, x', a1', a2'), fitted to its unclipped recorded actions (residual 4e-9: their float32 rounding). */
export const LQR_GAINS = [0.0922750, 1.2003239, 5.5263823, 0.1973113, 0.7491655, 0.8293657] as const;

export const INVERTED_DOUBLE_PENDULUM_BANK: BankDeclaration = {
  successWords: 'balancing both poles to the time limit',
  policies: [
    { name: 'push', kind: 'failure', words: 'pushing the cart one way at full force', act: () => [1] },
    {
      name: 'balance',
      kind: 'success',
      words: 'a hand-written balancer',
      act: (obs) => {
        const state = [obs[0], Math.atan2(obs[1], obs[3]), Math.atan2(obs[2], obs[4]), obs[5], obs[6], obs[7]];
        return [clip(-state.reduce((u, v, k) => u + LQR_GAINS[k] * v, 0))];
      },
    },
  ],
};
