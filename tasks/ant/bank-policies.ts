/**
 * Ant's ways to fail for the screen's bank (tasks/bank.ts): random actions (which make it jump or
 * flip past 1 m within a few dozen steps) and doing nothing (it lands and stands to the time
 * limit, going nowhere: what a reward that pays survival alone prefers). Successes come from
 * Gymnasium's reward's trained policy (trainedSuccesses), since the person's shaping's does not
 * walk 80 m at the budget. One 1,000-step Ant episode of 105 observations is 75-160 KiB of the
 * bank's file, so the bank keeps one standing episode and one walking one (`eureka bank --task
 * Ant-v5 --seeds 1 --starts 1`; a second seed's made it 527 KiB) to stay within the few hundred KiB
 * a task's bank may take (test/bank.test.ts); curling up or flailing at full torque went nowhere
 * just the same.
 */
import type { BankDeclaration } from '../contract.ts';

export const ANT_BANK: BankDeclaration = {
  successWords: 'walking forward without falling',
  // The person's shaping's trained policies walk, but not 80 m: `eureka bank --task Ant-v5 --seeds 2
  // --starts 1` got greedy success 0.00 on seeds 0 and 1 (its earlier policy walked 34 m, a success
  // of the first, 25 m line). Gymnasium's reward's do (greedy success 0.95 and 0.85 on seeds 0 and 1,
  // docs/mujoco.md). A written open-loop gait walks 25-31 m only by paying more in torque than it
  // gains, so Gymnasium's own reward would rank standing still above it: a success that would teach
  // the screen the wrong thing.
  trainedSuccesses: 'environment',
  policies: [
    { name: 'nothing', kind: 'failure', words: 'standing still to the time limit', episodes: 1, act: () => [0, 0, 0, 0, 0, 0, 0, 0] },
  ],
};
