/** Swimmer-v5: Gymnasium's register() entry, plus what the search needs to know of it. */
import { defineTask } from '../contract.ts';
import { prepareMujoco } from '../mujoco-common/mujoco-env.ts';
import { MUJOCO_PPO } from '../mujoco-common/ppo.ts';
import { CTRL_COST_WEIGHT, FRAME_SKIP, MAX_EPISODE_STEPS, SwimmerEnv } from './environment.ts';
import { SWIMMER_CONFORMANCE } from './conformance.ts';
import { SWIMMER_BANK } from './bank-policies.ts';
import { SWIMMER_RENDERER } from './render.ts';
import { ENVIRONMENT_REWARD, HUMAN_SHAPING } from './rewards.ts';

/** Gymnasium's register(): reward_threshold 360. */
export const REWARD_THRESHOLD = 360;
/** One metre forward is worth 1 / dt = 25 of forward reward (dt = 0.04 s). */
const PER_METRE = 1 / (0.01 * FRAME_SKIP);
/** The return a successful episode reaches (fixed before any run: see docs/mujoco.md); it guarantees SUCCESS_METRES. */
export const SUCCESS_RETURN = 100;
export const SUCCESS_METRES = SUCCESS_RETURN / PER_METRE;

export default defineTask({
  id: 'Swimmer-v5',
  description:
    'A three-segment swimmer (three capsules in a chain, two hinge motors) lies on the surface of a viscous fluid and must swim forward along +x by undulating. ' +
    `Nothing ends an episode early: it swims ${MAX_EPISODE_STEPS} steps (40 s). ` +
    `Solved here means a return of at least ${SUCCESS_RETURN} on the environment's reward, which takes at least ${SUCCESS_METRES} m forward (Gymnasium's reward_threshold is a return of ${REWARD_THRESHOLD}).`,
  maxEpisodeSteps: MAX_EPISODE_STEPS,
  rewardThreshold: REWARD_THRESHOLD,
  observation: [
    { name: 'torso heading (rad)', low: -Infinity, high: Infinity, typical: [-1.5, 1.5] },
    { name: 'first hinge angle (rad)', low: -Infinity, high: Infinity, typical: [-1.7, 1.7] },
    { name: 'second hinge angle (rad)', low: -Infinity, high: Infinity, typical: [-1.7, 1.7] },
    { name: 'torso x velocity (m/s)', low: -Infinity, high: Infinity, typical: [-0.5, 0.5] },
    { name: 'torso y velocity (m/s)', low: -Infinity, high: Infinity, typical: [-0.5, 0.5] },
    { name: 'torso angular velocity (rad/s)', low: -Infinity, high: Infinity, typical: [-2, 2] },
    { name: 'first hinge angular velocity (rad/s)', low: -Infinity, high: Infinity, typical: [-4, 4] },
    { name: 'second hinge angular velocity (rad/s)', low: -Infinity, high: Infinity, typical: [-4, 4] },
  ],
  action: { kind: 'box', names: ['first hinge torque', 'second hinge torque'], low: [-1, -1], high: [1, 1] },
  makeEnv: (n, seed) => new SwimmerEnv(n, seed),
  prepare: prepareMujoco,

  success: {
    clause: `swim at least ${SUCCESS_METRES} m forward in ${MAX_EPISODE_STEPS} steps (a return of ${SUCCESS_RETURN})`,
    headline: `swims ${SUCCESS_METRES} m in 40 s`,
    describe: `An episode succeeds when its return on the environment's own reward reaches ${SUCCESS_RETURN}: ${PER_METRE} per metre forward minus a control cost of at most 0.0002 a step, ` +
      `so at least ${SUCCESS_METRES} m forward in its ${MAX_EPISODE_STEPS} steps.`,
    returnFormula: `The environment's reward of each step, exactly (Gymnasium's Swimmer-v5 with its defaults; x is the torso's x position, qpos[0], which the observation leaves out):
  reward_forward = (x after the step - x before) / 0.04
  reward_ctrl = -${CTRL_COST_WEIGHT} * (action[0]^2 + action[1]^2)
  reward = reward_forward + reward_ctrl
Summed over an episode: return = 25 * (metres travelled forward) - (control cost, at most 0.2 an episode), so a return of ${SUCCESS_RETURN} takes at least ${SUCCESS_METRES} m forward.`,
    test: (episode) => episode.return >= SUCCESS_RETURN,
  },
  tieBreak: 'higher-return',
  diagnostic: {
    label: 'mean metres forward (from the return)',
    // return = 25 * metres - control cost (at most 0.2 an episode): metres to 1 cm.
    measure: (episode) => episode.return / PER_METRE,
    format: (value) => `${value.toFixed(2)} m forward (success needs ${SUCCESS_METRES} m)`,
  },
  termination: 'never',

  baselines: { environment: ENVIRONMENT_REWARD, human: HUMAN_SHAPING },

  features: [
    { name: 'forwardSpeed', expression: 'Math.min(1, Math.max(0, s[3] / 0.3))', describe: 'the torso\'s forward speed, 0 still or backwards, 1 at 0.3 m/s or more' },
    { name: 'heading', expression: '1 - Math.min(1, Math.abs(s[0]) / 1.5)', describe: 'how straight ahead the torso faces, 1 along +x, 0 at 1.5 rad away' },
    { name: 'undulation', expression: 'Math.min(1, (Math.abs(s[6]) + Math.abs(s[7])) / 4)', describe: 'how fast the two hinges bend, 0 still, 1 at 4 rad/s together' },
  ],

  render: SWIMMER_RENDERER,
  bank: SWIMMER_BANK,
  ppo: MUJOCO_PPO,
  // CleanRL's budget; the learning table on seeds 0-9 is in docs/mujoco.md. The smoke budget runs the loop (10 updates), it does not swim.
  // stepsPerSecond and raceSurvival: fitted to its medium search (`npx tsx bench/estimate-fit.ts DIR`,
  // docs/estimate-and-costs.md): 5,312 steps per seed-run-second two at once (beside other work at times), 5,902 as one
  // idle core, rounded down; 0.6 gives its raced steps to 1%. They were 1,500 and none (1).
  budget: { steps: 1_000_000, evalEpisodes: 20, smokeSteps: 20_480, stepsPerSecond: 5_900, raceSurvival: 0.6 },
  conformance: SWIMMER_CONFORMANCE,
});
