/** Ant-TurnInPlace-v0: turning on the spot on Gymnasium's Ant (behaviour.ts says what and how it is judged). */
import { join } from 'node:path';
import type { EpisodeRecord } from '../contract.ts';
import { behaviour } from '../mujoco-common/behaviour.ts';
import { BUILT_IN_DIR } from '../task-files.ts';
import { ANT } from '../ant/robot.ts';
import { CIRCLE_RADIUS, MAX_EPISODE_STEPS, SENTENCE, turnedInPlace, turnProgress } from './behaviour.ts';
import { FIRST_TRY } from './first-try.ts';

function story(episode: EpisodeRecord): string {
  const r = episode.recorded ?? [];
  const start = r[0] ?? [0, 0, 0, 0];
  const turned = Math.max(0, ...r.map((v) => v[3] - start[3]));
  const away = Math.max(0, ...r.map((v) => Math.hypot(v[0] - start[0], v[1] - start[1])));
  return `The ant turns at most ${(turned / (2 * Math.PI)).toFixed(2)} of a turn to the left and strays at most ${away.toFixed(2)} m from where it started` +
    `${episode.terminated ? `; it falls at step ${episode.actions.length}` : ''}.`;
}

export default behaviour({
  id: 'Ant-TurnInPlace-v0',
  robot: ANT,
  sentence: SENTENCE,
  overrides: { maxEpisodeSteps: MAX_EPISODE_STEPS },
  success: {
    clause: `turn a full turn left in place, within ${CIRCLE_RADIUS} m of the start, without falling`,
    headline: 'turns a full turn on the spot',
    describe: `An episode succeeds when the ant stays healthy all ${MAX_EPISODE_STEPS} steps (never terminated), its recorded heading reaches at least 2π rad ` +
      `to the left (counterclockwise) of the start's, and its torso never moves more than ${CIRCLE_RADIUS} m in x and y from where it started.`,
    test: turnedInPlace,
  },
  progress: {
    describe: `the largest left turn of the heading (rad) reached before the torso first left the ${CIRCLE_RADIUS} m circle around its start`,
    label: 'mean left turn in place (rad)',
    measure: turnProgress,
    format: (value) => `${value.toFixed(2)} rad turned left in place (success needs ${(2 * Math.PI).toFixed(2)}, a full turn, and all ${MAX_EPISODE_STEPS} steps)`,
  },
  termination: 'failure',
  firstTry: FIRST_TRY,
  features: [
    // Observation 18 is the torso's angular velocity about its own z axis (qvel[5]); 13 and 14 its x and y velocity.
    { name: 'turning', expression: 'Math.min(1, Math.max(0, s[18] / 2))', describe: 'how fast it turns left, 1 at 2 rad/s' },
    { name: 'still', expression: '1 - Math.min(1, Math.sqrt(s[13] * s[13] + s[14] * s[14]) / 0.5)', describe: 'how little the torso moves, 1 still, 0 at 0.5 m/s' },
    { name: 'upright', expression: 'Math.min(1, Math.max(0, (s[0] - 0.2) / 0.55))', describe: 'how high the torso is, 0 at the 0.2 m where the episode ends' },
  ],
  bank: {
    successWords: 'turning a full turn on the spot',
    policies: [{ name: 'nothing', kind: 'failure', words: 'standing still to the time limit', episodes: 1, act: () => [0, 0, 0, 0, 0, 0, 0, 0] }],
    trainedFailures: { baseline: 'environment', words: 'the robot\'s own gait: Ant-v5\'s reward\'s trained policy, walking forwards' },
    noSuccessesYet: 'no policy has turned a full turn in place yet: the screen can rank only the ways to fail',
  },
  // Measured on the person's first try, seeds 0-4 (docs/behaviours.md, Budgets): at 1,000,000 steps the reward decides, not the steps.
  budget: { steps: 1_000_000, evalEpisodes: 20, smokeSteps: 20_480, stepsPerSecond: 2_400 },
  behaviourFile: join(BUILT_IN_DIR, 'ant-turn-in-place', 'behaviour.ts'),
  story,
});
