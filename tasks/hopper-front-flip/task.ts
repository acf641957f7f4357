/** Hopper-FrontFlip-v0: a forward somersault on Gymnasium's Hopper (behaviour.ts says what and how it is judged). */
import { join } from 'node:path';
import type { EpisodeRecord } from '../contract.ts';
import { behaviour } from '../mujoco-common/behaviour.ts';
import { BUILT_IN_DIR } from '../task-files.ts';
import { HOPPER } from '../hopper/robot.ts';
import { flipped, flipProgress, FULL_TURN, LANDED_STEPS, MAX_EPISODE_STEPS, SENTENCE } from './behaviour.ts';
import { FIRST_TRY } from './first-try.ts';

/** The card's sentence: how far it turned, and whether it landed. */
function story(episode: EpisodeRecord): string {
  const angles = (episode.recorded ?? []).map((r) => r[2] - (episode.recorded?.[0]?.[2] ?? 0));
  const most = Math.max(0, ...angles);
  const end = angles.at(-1) ?? 0;
  const turns = (x: number) => `${(x / FULL_TURN).toFixed(2)} of a turn`;
  return `The hopper turns at most ${turns(most)} forwards and ends at ${turns(end)}; ` +
    `${episode.success ? `it lands on its foot and stands the last ${LANDED_STEPS} steps` : 'it does not land a full turn on its foot'}.`;
}

export default behaviour({
  id: 'Hopper-FrontFlip-v0',
  robot: HOPPER,
  sentence: SENTENCE,
  overrides: { termination: 'none', maxEpisodeSteps: MAX_EPISODE_STEPS },
  success: {
    clause: 'turn one full turn forwards and land on the foot, standing',
    headline: 'does a front flip and lands on its foot',
    describe: `An episode succeeds when, in each of its last ${LANDED_STEPS} steps (0.8 s of ${MAX_EPISODE_STEPS}), the torso is higher than 0.7 m ` +
      'and its angle (recorded, counting past ±π; positive leaning forward) is within 0.2 rad of 2π: it turned one full turn forwards and stands on its foot.',
    test: flipped,
  },
  progress: {
    describe: `the largest forward turn of the torso as a share of a full turn (at most 1), plus the share of the last ${LANDED_STEPS} steps spent landed upright after a full turn (0 to 2)`,
    label: 'mean flip progress',
    measure: flipProgress,
    format: (value) => `${value.toFixed(2)} of 2 (1 is a full forward turn, 2 a full turn landed; success needs 2)`,
  },
  termination: 'never',
  firstTry: FIRST_TRY,
  features: [
    { name: 'turn', expression: 'Math.min(1, Math.max(0, s[1] / (2 * Math.PI)))', describe: 'how far the torso has turned forwards, 0 upright, 1 a full turn' },
    { name: 'spin', expression: 'Math.min(1, Math.max(0, s[7] / 10))', describe: 'how fast the torso turns forwards, 1 at 10 rad/s' },
    { name: 'height', expression: 'Math.min(1, Math.max(0, (s[0] - 0.7) / 0.8))', describe: 'how high the torso is, 0 at 0.7 m, 1 at 1.5 m' },
    { name: 'landed', expression: '(s[0] > 0.7 ? 1 : 0) * Math.max(0, 1 - Math.abs(s[1] - 2 * Math.PI) / 0.5)', describe: 'standing after a full forward turn, 1 upright at 2π' },
  ],
  bank: {
    successWords: 'a front flip landed on the foot',
    policies: HOPPER.bankPolicies,
    trainedFailures: { baseline: 'environment', words: 'the robot\'s own gait: Hopper-v5\'s reward\'s trained policy' },
  },
  // Measured on the person's first try, seeds 0-4 (docs/behaviours.md, Budgets): at 1,000,000 steps the reward decides, not the steps.
  budget: { steps: 1_000_000, evalEpisodes: 20, smokeSteps: 20_480, stepsPerSecond: 6_900 },
  behaviourFile: join(BUILT_IN_DIR, 'hopper-front-flip', 'behaviour.ts'),
  story,
});
