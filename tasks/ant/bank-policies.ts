/**
 * Ant's ways to fail for the screen's bank (tasks/bank.ts): random actions (which make it jump or
 * flip past 1 m within a few dozen steps) and doing nothing (it lands and stands to the time
 * limit, going nowhere: what a reward that pays survival alone prefers). Successes would come from
 * the person's shaping's trained policy: none yet (noSuccessesYet). One 1,000-step Ant episode of
 * 105 observations is 75-150 KiB of the bank's file, so the bank keeps one standing episode to
 * stay within the few hundred KiB a task's bank may take (test/bank.test.ts); curling up or
 * flailing at full torque went nowhere just the same.
 */
import type { BankDeclaration } from '../contract.ts';

export const ANT_BANK: BankDeclaration = {
  successWords: 'walking forward without falling',
  // The trained policies that walk 25 m do so in 1 or 2 greedy episodes of 20 (docs/mujoco.md), too
  // rare for `eureka bank`'s few tries, and an open-loop gait we wrote walks it only by paying more in
  // torque than it gains, so Gymnasium's own reward would rank standing still above it: a success that
  // would teach the screen the wrong thing.
  noSuccessesYet: 'its trained policies walk 25 m too rarely to fill a bank',
  policies: [
    { name: 'nothing', kind: 'failure', words: 'standing still to the time limit', episodes: 1, act: () => [0, 0, 0, 0, 0, 0, 0, 0] },
  ],
};
