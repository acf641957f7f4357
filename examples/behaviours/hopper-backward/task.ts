/** Hopper-Backward-v0: hopping backwards on Gymnasium's Hopper, from a folder of your own (behaviour.ts says how it is judged). */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { behaviour, HOPPER } from 'eureka-serverless/task';
import { hoppedBackward, MAX_EPISODE_STEPS, metresBackward, SENTENCE, SUCCESS_METRES } from './behaviour.ts';

export default behaviour({
  id: 'Hopper-Backward-v0',
  robot: HOPPER,
  sentence: SENTENCE,
  overrides: { maxEpisodeSteps: MAX_EPISODE_STEPS },
  success: {
    clause: `hop at least ${SUCCESS_METRES} m backwards without falling`,
    headline: `hops ${SUCCESS_METRES} m backwards`,
    describe: `An episode succeeds when the hopper stays healthy all ${MAX_EPISODE_STEPS} steps and its torso's recorded x at the end is at least ${SUCCESS_METRES} m behind its x at the start.`,
    test: hoppedBackward,
  },
  progress: {
    describe: 'metres the torso moved backwards: its recorded x at the start less at the end',
    label: 'mean metres backwards',
    measure: metresBackward,
    format: (value) => `${value.toFixed(2)} m backwards (success needs ${SUCCESS_METRES} m and all ${MAX_EPISODE_STEPS} steps)`,
  },
  termination: 'failure',
  firstTry: {
    idea: 'Pay the torso\'s backward speed and each healthy step, less a small torque cost.',
    code: readFileSync(fileURLToPath(new URL('./first-try.js', import.meta.url)), 'utf8'),
  },
  features: [
    { name: 'backwardSpeed', expression: 'Math.min(1, Math.max(0, -s[5] / 2))', describe: 'the torso\'s speed backwards, 1 at 2 m/s' },
    { name: 'upright', expression: '1 - Math.min(1, Math.abs(s[1]) / 0.2)', describe: 'how upright the torso is, 0 at the 0.2 rad tilt that ends the episode' },
  ],
  budget: { steps: 1_000_000, evalEpisodes: 20, smokeSteps: 20_480, stepsPerSecond: 6_900 },
  behaviourFile: fileURLToPath(new URL('./behaviour.ts', import.meta.url)),
});
