/** InvertedDoublePendulum-v5: Gymnasium's register() entry, plus what the search needs to know of it. */
import { defineTask } from '../contract.ts';
import { prepareMujoco } from '../mujoco-common/mujoco-env.ts';
import { MUJOCO_PPO } from '../mujoco-common/ppo.ts';
import { HEALTHY_REWARD, InvertedDoublePendulumEnv, MAX_EPISODE_STEPS, MIN_TIP_HEIGHT } from './environment.ts';
import { INVERTED_DOUBLE_PENDULUM_BANK } from './bank-policies.ts';
import { INVERTED_DOUBLE_PENDULUM_RENDERER } from './render.ts';
import { INVERTED_DOUBLE_PENDULUM_CONFORMANCE } from './conformance.ts';
import { ENVIRONMENT_REWARD, HUMAN_SHAPING } from './rewards.ts';

/** Gymnasium's register(): reward_threshold 9100. */
export const REWARD_THRESHOLD = 9100;

export default defineTask({
  id: 'InvertedDoublePendulum-v5',
  description:
    'A cart on a 2 m rail carries two poles, one hinged on top of the other; pushing the cart left or right (a force of up to 500 N) must keep them upright. ' +
    `The episode ends when the tip of the second pole drops to ${MIN_TIP_HEIGHT} m (upright it is at 1.2 m), or after ${MAX_EPISODE_STEPS} steps. ` +
    `Solved means balancing all ${MAX_EPISODE_STEPS} steps (Gymnasium's reward_threshold is a return of ${REWARD_THRESHOLD}: ${HEALTHY_REWARD} a step balanced, less the tip's distance from 2 m squared and the poles' spin).`,
  maxEpisodeSteps: MAX_EPISODE_STEPS,
  rewardThreshold: REWARD_THRESHOLD,
  observation: [
    { name: 'cart position (m)', low: -Infinity, high: Infinity, typical: [-1, 1] },
    { name: 'sine of the first pole\'s angle', low: -Infinity, high: Infinity, typical: [-1, 1] },
    { name: 'sine of the second pole\'s angle to the first', low: -Infinity, high: Infinity, typical: [-1, 1] },
    { name: 'cosine of the first pole\'s angle', low: -Infinity, high: Infinity, typical: [-1, 1] },
    { name: 'cosine of the second pole\'s angle to the first', low: -Infinity, high: Infinity, typical: [-1, 1] },
    { name: 'cart velocity (m/s, clipped to ±10)', low: -Infinity, high: Infinity, typical: [-10, 10] },
    { name: 'first pole angular velocity (rad/s, clipped to ±10)', low: -Infinity, high: Infinity, typical: [-10, 10] },
    { name: 'second pole angular velocity (rad/s, clipped to ±10)', low: -Infinity, high: Infinity, typical: [-10, 10] },
    { name: 'constraint force on the cart (N, clipped to ±10; 0 off the rail\'s ends)', low: -Infinity, high: Infinity, typical: [-10, 10] },
  ],
  action: { kind: 'box', names: ['force on the cart'], low: [-1], high: [1] },
  makeEnv: (n, seed) => new InvertedDoublePendulumEnv(n, seed),
  prepare: prepareMujoco,

  success: {
    clause: `balance both poles all ${MAX_EPISODE_STEPS} steps`,
    headline: 'balances both poles to the time limit',
    describe: `An episode succeeds when the tip of the second pole stays above ${MIN_TIP_HEIGHT} m for all ${MAX_EPISODE_STEPS} steps (the time limit ends it, never a fall).`,
    test: (episode) => !episode.terminated && episode.length >= MAX_EPISODE_STEPS,
  },
  progress: {
    describe: "steps the poles stayed up: the episode's length, less the step that ended it when the tip fell",
    label: 'mean steps balanced',
    measure: (episode) => (episode.terminated ? episode.length - 1 : episode.length),
    format: (value) => `${value.toFixed(0)} steps balanced (success needs all ${MAX_EPISODE_STEPS})`,
  },
  termination: 'failure',

  baselines: { environment: ENVIRONMENT_REWARD, human: HUMAN_SHAPING },

  features: [
    // The tip's height: 0.6 cos(a1) + 0.6 cos(a1 + a2), with cos(a1 + a2) = cos a1 cos a2 - sin a1 sin a2.
    { name: 'tipHeight', expression: 'Math.min(1, Math.max(0, (0.6 * (s[3] + s[3] * s[4] - s[1] * s[2]) - 1) / 0.2))', describe: 'how high the second pole\'s tip is, 0 at the 1 m where the episode ends, 1 at its upright 1.2 m' },
    { name: 'still', expression: '1 - Math.min(1, (Math.abs(s[6]) + Math.abs(s[7])) / 4)', describe: 'how slowly the poles turn, 1 still, 0 at 4 rad/s together' },
    { name: 'centred', expression: '1 - Math.min(1, Math.abs(s[0]))', describe: 'how close the cart is to the rail\'s centre, 0 at its ends' },
  ],

  render: INVERTED_DOUBLE_PENDULUM_RENDERER,
  bank: INVERTED_DOUBLE_PENDULUM_BANK,
  ppo: MUJOCO_PPO,
  // Chosen on the environment's reward, seeds 0-4 (`npx tsx bench/learning.ts --task InvertedDoublePendulum-v5
  // --reward environment --seeds 0,1,2,3,4 --steps N`), where it succeeds on some seeds, not all: at 61,440 steps (30 updates
  // of 2,048) 25%, 0, 0, 0, 0 of a seed's episodes; at 65,536 (32) 20%, 85%, 45%, 0, 0; at 69,632 20%, 100%, 80%, 35%,
  // 50%; at 71,680 all five. It was 61,440 until the medium search's fresh seeds 10000-10004 showed that below the line:
  // no reward balanced there on any of them (Gymnasium's, the person's, the winner's), nor Gymnasium's at 61,440 again;
  // at 65,536 Gymnasium's balances on one of the five (20%), at 81,920 on all (docs/mujoco.md). So 65,536, held out on
  // seeds 5-9: 5%, 15%, 0, 0, 100%.
  // stepsPerSecond and raceSurvival: fitted to its medium search (`npx tsx bench/estimate-fit.ts DIR`,
  // docs/estimate-and-costs.md): 3,473 steps per seed-run-second two at once (grading and start-up included), 3,859 as
  // one idle core, rounded down; 0.75 gives its raced steps to 2%. (A 61,440-step seed-run took 32-56 s on the loaded
  // machine, whence the 1,000 it had.)
  budget: { steps: 65_536, evalEpisodes: 20, smokeSteps: 6_144, stepsPerSecond: 3_800, raceSurvival: 0.75 },
  conformance: INVERTED_DOUBLE_PENDULUM_CONFORMANCE,
});
