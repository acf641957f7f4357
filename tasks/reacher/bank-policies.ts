/**
 * Reacher's ways to fail for the screen's bank (tasks/bank.ts), beside random actions and doing
 * nothing (the arm stays where it started): spinning the base at full torque. Its success is a
 * reacher written by hand: the two-link arm's inverse kinematics gives the angles that put the
 * fingertip on the target, and a proportional-derivative feedback drives the joints there; kept
 * only where it succeeds.
 */
import type { BankDeclaration } from '../contract.ts';

const [L1, L2] = [0.1, 0.11];
const clip = (u: number): number => Math.min(1, Math.max(-1, u));
/** An angle's difference, wrapped to [-pi, pi]. */
const wrap = (a: number): number => Math.atan2(Math.sin(a), Math.cos(a));

/** The joint angles that put the fingertip on (x, y), elbow bent the way it already is. */
function inverseKinematics(x: number, y: number, elbow: number): [number, number] {
  const c = Math.min(1, Math.max(-1, (x * x + y * y - L1 * L1 - L2 * L2) / (2 * L1 * L2)));
  const q1 = Math.sign(elbow || 1) * Math.acos(c);
  return [Math.atan2(y, x) - Math.atan2(L2 * Math.sin(q1), L1 + L2 * Math.cos(q1)), q1];
}

export const REACHER_BANK: BankDeclaration = {
  successWords: 'reaching the target and staying there',
  policies: [
    { name: 'spin', kind: 'failure', words: 'spinning the base at full torque', act: () => [1, 0] },
    {
      name: 'reach',
      kind: 'success',
      words: 'a hand-written reacher',
      act: (obs) => {
        const [q0, q1] = [Math.atan2(obs[2], obs[0]), Math.atan2(obs[3], obs[1])];
        const [d0, d1] = inverseKinematics(obs[4], obs[5], q1);
        return [clip(0.5 * wrap(d0 - q0) - 0.05 * obs[6]), clip(0.5 * wrap(d1 - q1) - 0.05 * obs[7])];
      },
    },
  ],
};
