/** HalfCheetah-Backward-v0: running backwards on Gymnasium's HalfCheetah (behaviour.ts says what and how it is judged). */
import { join } from 'node:path';
import type { EpisodeRecord } from '../contract.ts';
import { behaviour } from '../mujoco-common/behaviour.ts';
import { BUILT_IN_DIR } from '../task-files.ts';
import { HALF_CHEETAH } from '../half-cheetah/robot.ts';
import { metresBackward, ranBackward, SENTENCE, SUCCESS_METRES } from './behaviour.ts';
import { FIRST_TRY } from './first-try.ts';
import { CHEETAH_GAITS } from './gaits.ts';

function story(episode: EpisodeRecord): string {
  const r = episode.recorded ?? [];
  const back = r.length > 0 ? r[0][0] - (r.at(-1)?.[0] ?? 0) : 0;
  const steps = episode.actions.length;
  return `The cheetah ends ${Math.abs(back).toFixed(1)} m ${back >= 0 ? 'behind' : 'ahead of'} where it started (${(back / (steps * 0.05)).toFixed(2)} m/s backwards) in ${steps} steps.`;
}

export default behaviour({
  id: 'HalfCheetah-Backward-v0',
  robot: HALF_CHEETAH,
  sentence: SENTENCE,
  overrides: {},
  success: {
    clause: `run at least ${SUCCESS_METRES} m backwards in 1,000 steps`,
    headline: `runs ${SUCCESS_METRES} m backwards in 50 s`,
    describe: `An episode succeeds when the torso's recorded x at its end is at least ${SUCCESS_METRES} m behind (along -x) its x at the start, upright or not.`,
    test: ranBackward,
  },
  progress: {
    describe: 'metres the torso moved backwards over the episode: its recorded x at the start less at the end',
    label: 'mean metres backwards',
    measure: metresBackward,
    format: (value) => `${value.toFixed(1)} m backwards (success needs ${SUCCESS_METRES} m)`,
  },
  termination: 'never',
  firstTry: FIRST_TRY,
  features: [
    { name: 'backwardSpeed', expression: 'Math.min(1, Math.max(0, -s[8] / 3))', describe: 'the torso\'s speed backwards, 0 still or forwards, 1 at 3 m/s or more' },
    { name: 'level', expression: '1 - Math.min(1, Math.abs(s[1]) / 1.5)', describe: 'how level the torso is, 1 level, 0 at 1.5 rad (on its nose or its back)' },
    { name: 'calm', expression: '1 - Math.min(1, Math.abs(s[10]) / 5)', describe: 'how slowly the torso turns, 1 still, 0 at 5 rad/s' },
  ],
  bank: {
    successWords: `running ${SUCCESS_METRES} m backwards`,
    policies: CHEETAH_GAITS,
    trainedFailures: { baseline: 'environment', words: 'the robot\'s own gait: HalfCheetah-v5\'s reward\'s trained policy, running forwards' },
  },
  // Measured on the person's first try, seeds 0-4 (docs/behaviours.md, Budgets): at 1,000,000 steps the reward decides, not the steps.
  budget: { steps: 1_000_000, evalEpisodes: 20, smokeSteps: 20_480, stepsPerSecond: 10_000 },
  behaviourFile: join(BUILT_IN_DIR, 'half-cheetah-backward', 'behaviour.ts'),
  story,
});
