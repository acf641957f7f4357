/** Walker2d-OneLeg-v0: standing on one leg on Gymnasium's Walker2d (behaviour.ts says what and how it is judged). */
import { join } from 'node:path';
import type { EpisodeRecord } from '../contract.ts';
import { behaviour } from '../mujoco-common/behaviour.ts';
import { BUILT_IN_DIR } from '../task-files.ts';
import { WALKER2D } from '../walker2d/robot.ts';
import { FEET, FOOT_UP, HOLD_STEPS, longestOneLeg, MAX_EPISODE_STEPS, SENTENCE, stoodOnOneLeg } from './behaviour.ts';
import { FIRST_TRY } from './first-try.ts';

function story(episode: EpisodeRecord): string {
  const r = episode.recorded ?? [];
  const steps = episode.actions.length;
  const run = longestOneLeg({ recorded: Float64Array.from(r.flat()), recordSize: r[0]?.length ?? 5, length: steps });
  return `The walker holds one foot up for at most ${run} steps on end (${(run * 0.008).toFixed(2)} s; ${HOLD_STEPS} needed)` +
    `${episode.terminated ? ` and falls at step ${steps}` : ', and stays up to the time limit'}.`;
}

export default behaviour({
  id: 'Walker2d-OneLeg-v0',
  robot: WALKER2D,
  sentence: SENTENCE,
  overrides: { maxEpisodeSteps: MAX_EPISODE_STEPS, recorded: FEET },
  success: {
    clause: `hold one foot up for ${HOLD_STEPS} steps on end without falling or moving away`,
    headline: 'stands on one leg for 2 s',
    describe: `An episode succeeds when the walker stays healthy all ${MAX_EPISODE_STEPS} steps (never terminated) and, for ${HOLD_STEPS} steps on end (2 s), ` +
      `one and the same foot's recorded height is at least ${FOOT_UP} m while the torso's recorded x stays within 0.5 m of where it was when that run began.`,
    test: stoodOnOneLeg,
  },
  progress: {
    describe: 'the longest run of steps with one and the same foot held up and the torso within 0.5 m of its x at the run\'s start',
    label: 'mean longest time on one leg (steps)',
    measure: longestOneLeg,
    format: (value) => `${value.toFixed(0)} steps on one leg at most (success needs ${HOLD_STEPS} and all ${MAX_EPISODE_STEPS} steps healthy)`,
  },
  termination: 'failure',
  firstTry: FIRST_TRY,
  features: [
    { name: 'footUp', expression: 'Math.min(1, Math.max(0, (Math.max(r[3], r[4]) + 0.04) / 0.19))', describe: 'how high the higher foot is, 0 on the floor, 1 at the 0.15 m held up' },
    { name: 'upright', expression: '1 - Math.min(1, Math.abs(s[1]) / 1)', describe: 'how upright the torso is, 0 at the 1 rad tilt that ends the episode' },
    { name: 'still', expression: '1 - Math.min(1, Math.abs(s[8]) / 1)', describe: 'how slowly the torso moves along x, 1 still, 0 at 1 m/s' },
  ],
  bank: {
    successWords: 'standing on one leg',
    policies: WALKER2D.bankPolicies,
    trainedFailures: { baseline: 'environment', words: 'the robot\'s own gait: Walker2d-v5\'s reward\'s trained policy, walking forwards' },
  },
  // Measured on the person's first try, seeds 0-4 (docs/behaviours.md, Budgets): at 1,000,000 steps the reward decides, not the steps.
  budget: { steps: 1_000_000, evalEpisodes: 20, smokeSteps: 20_480, stepsPerSecond: 4_900 },
  behaviourFile: join(BUILT_IN_DIR, 'walker2d-one-leg', 'behaviour.ts'),
  story,
});
