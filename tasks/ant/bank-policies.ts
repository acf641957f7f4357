/**
 * Ant's ways to fail for the screen's bank (tasks/bank.ts): random actions (which make it jump or
 * flip past 1 m within a few dozen steps) and doing nothing (it lands and stands to the time
 * limit, going nowhere: what a reward that pays survival alone prefers). Successes come from
 * Gymnasium's reward's trained policies (trainedSuccesses) on seeds 0 and 1, two episodes each
 * (`eureka bank --task Ant-v5 --seeds 2 --starts 2`: greedy success 0.95 and 0.85), since the
 * person's shaping's do not walk 80 m at the budget, and from a reward shaped otherwise, so the
 * screen does not lean on one gait: test/fixtures/model-rewards/Ant-v5/smooth-gait.js (forward speed
 * at 1.5, a healthy bonus, charges for fast joints and sudden changes) trained on seed 0 (`eureka
 * train --task Ant-v5 --reward ... --seed 0 --save-policy DIR`: greedy success 0.95, 84 m), two
 * episodes added with `eureka bank --task Ant-v5 --add-policy DIR --name smooth-gait --starts 2`.
 * Stored as seeds and actions (bank@2), the 13 episodes take 229 KiB; curling up or flailing at
 * full torque went nowhere just the same.
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
