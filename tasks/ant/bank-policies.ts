/**
 * Ant's ways to fail for the screen's bank (tasks/bank.ts): random actions (which make it jump or
 * flip past 1 m within a few dozen steps) and doing nothing (it lands and stands to the time
 * limit, going nowhere: what a reward that pays survival alone prefers). Successes come from the
 * person's shaping's trained policy. One 1,000-step Ant episode of 105 observations is 75-150 KiB
 * of the bank's file, so the bank keeps one standing episode and one success to stay within the
 * few hundred KiB a task's bank may take (test/bank.test.ts); curling up or flailing at full
 * torque went nowhere just the same.
 */
import type { BankDeclaration } from '../contract.ts';

export const ANT_BANK: BankDeclaration = {
  successWords: 'walking forward without falling',
  policies: [
    { name: 'nothing', kind: 'failure', words: 'standing still to the time limit', episodes: 1, act: () => [0, 0, 0, 0, 0, 0, 0, 0] },
  ],
};
