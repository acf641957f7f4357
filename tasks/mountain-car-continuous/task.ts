/** MountainCarContinuous-v0: Gymnasium's register() entry, plus what the search needs to know of it. */
import { defineTask } from '../contract.ts';
import {
  GOAL_POSITION, MAX_ACTION, MAX_EPISODE_STEPS, MAX_POSITION, MAX_SPEED, MIN_ACTION, MIN_POSITION, MountainCarContinuousEnv,
} from './environment.ts';
import { MOUNTAIN_CAR_CONTINUOUS_RENDERER } from './render.ts';

/** Gymnasium's reward_threshold for MountainCarContinuous-v0. */
export const REWARD_THRESHOLD = 90;

export default defineTask({
  id: 'MountainCarContinuous-v0',
  description:
    `A car starts at the bottom of a valley between two hills and must reach the goal on top of the right hill (position ${GOAL_POSITION}). ` +
    'Its engine, a continuous force in [-1, 1], is too weak to drive straight up: it has to swing back and forth to build up momentum, ' +
    'and every step costs 0.1 times the squared force while reaching the goal earns 100. ' +
    `Solved means an episode return of at least ${REWARD_THRESHOLD} (Gymnasium's reward threshold) within the ${MAX_EPISODE_STEPS}-step time limit.`,
  maxEpisodeSteps: MAX_EPISODE_STEPS,
  rewardThreshold: REWARD_THRESHOLD,
  observation: [
    { name: 'position', low: MIN_POSITION, high: MAX_POSITION },
    { name: 'velocity', low: -MAX_SPEED, high: MAX_SPEED },
  ],
  action: { kind: 'box', names: ['force'], low: [MIN_ACTION], high: [MAX_ACTION] },
  makeEnv: (n, seed) => new MountainCarContinuousEnv(n, seed),

  success: {
    clause: `reach the goal with a return of at least ${REWARD_THRESHOLD}`,
    headline: `reaches the goal with a return of ${REWARD_THRESHOLD} or more`,
    describe: `An episode succeeds when its return on the environment's own reward (100 for reaching the goal at position >= ${GOAL_POSITION}, ` +
      `minus 0.1 times the squared action, as sent before clipping to [-1, 1], on every step) is at least ${REWARD_THRESHOLD}, Gymnasium's reward threshold, within ${MAX_EPISODE_STEPS} steps.`,
    returnFormula: `The environment's reward, exactly: -0.1 * action[0]^2 on every step (action[0] the force as applied, within [${MIN_ACTION}, ${MAX_ACTION}]), ` +
      `plus 100 on the step where the car reaches position >= ${GOAL_POSITION} (that step ends the episode), so an episode's return is 100 if it reaches the goal, minus 0.1 times the sum of the squared forces.`,
    test: (episode) => episode.return >= REWARD_THRESHOLD,
  },
  progress: {
    describe: 'the highest position the car reached along the track (the flag is at 0.45)',
    label: 'mean highest position',
    measure(episode) {
      let highest = -Infinity;
      for (let t = 0; t < episode.observations.length; t += episode.obsSize) highest = Math.max(highest, episode.observations[t]);
      return highest;
    },
    format: (value) => `${value.toFixed(3)} (the goal is at ${GOAL_POSITION})`,
  },
  termination: 'success',

  baselines: {
    environment: {
      idea: 'The environment\'s own reward: minus 0.1 times the squared force on every step, plus 100 when the car reaches the goal.',
      code: `// idea: The environment's own reward: minus 0.1 times the squared force on every step, plus 100 when the car reaches the goal.
function computeReward(obs, action, nextObs, terminated) {
  // Gymnasium charges the action as sent, this sees the force clipped to [-1, 1]: exact within the bounds.
  const actionCost = -(action[0] * action[0]) * 0.1;
  const goal = terminated ? 100 : 0;
  return [goal + actionCost, { goal, actionCost }];
}
`,
    },
    // Measured: reaches the goal with a return of 90 or more in 0.95-1.0 of episodes on 5 of 5 seeds
    // at the budget and `ppo` below (returns 91-93: below full throttle, which scores ~89.4).
    human: {
      idea: 'Potential-based shaping on mechanical energy (kinetic plus potential), with the environment\'s action cost and goal bonus.',
      code: `// idea: Potential-based shaping on mechanical energy (kinetic plus potential), with the environment's action cost and goal bonus.
function computeReward(obs, action, nextObs, terminated) {
  const GAMMA = 0.99;
  const SHAPING_SCALE = 100;
  // Kinetic 0.5 v^2 plus potential g/3 sin(3p) (g = 0.0025), scaled by 400 to about [-0.33, 1.3].
  // A full push along the velocity adds about power * |v| = 0.0015 * 0.05 a step, 0.03 scaled:
  // shaping of about 3, well above the action cost of 0.1, so pumping pays before the goal is found.
  function energy(s) {
    return 0.5 * s[1] * s[1] * 400 + Math.sin(3 * s[0]) * 0.0025 / 3 * 400;
  }
  const actionCost = -(action[0] * action[0]) * 0.1;
  const shaping = SHAPING_SCALE * (GAMMA * energy(nextObs) - energy(obs));
  const goal = terminated ? 100 : 0;
  return [actionCost + shaping + goal, { actionCost, shaping, goal }];
}
`,
    },
  },

  features: [
    {
      name: 'energy',
      // Kinetic plus potential energy, 0 at rest at the valley's bottom, 1 at rest at the goal (x = 0.45).
      expression: '(0.5 * s[1] * s[1] + (0.0025 / 3) * (Math.sin(3 * s[0]) + 1)) / ((0.0025 / 3) * (Math.sin(1.35) + 1))',
      describe: 'the car\'s mechanical energy (kinetic plus potential), 1 at rest at the goal',
    },
    { name: 'height', expression: '(Math.sin(3 * s[0]) + 1) / 2', describe: 'the car\'s height on the track, sin(3x)' },
    { name: 'position', expression: '(s[0] + 1.2) / 1.65', describe: 'how far right the car is (1 at the goal)' },
    { name: 'speed', expression: 'Math.abs(s[1]) / 0.07', describe: 'the car\'s speed, |v| / 0.07' },
  ],

  render: MOUNTAIN_CAR_CONTINUOUS_RENDERER,
  // The screen's bank (tasks/bank.ts). Pushing with the velocity at 0.6 reached the flag with returns of
  // 95.5-95.6 on seeds 7000-7003 (at full throttle 89.5: a failure, yet faster, so under discounting a
  // reward that charges fuel as Gymnasium does pays more for it: it is left out); full force right never leaves the valley.
  bank: {
    successWords: 'reaching the flag',
    policies: [
      { name: 'swing', kind: 'success', words: 'swinging with its velocity up to the flag', act: (s) => [s[1] >= 0 ? 0.6 : -0.6] },
      { name: 'nothing', kind: 'failure', words: 'staying at the bottom of the valley', act: () => [0] },
      { name: 'push-right', kind: 'failure', words: 'driving straight at the hill', act: () => [1] },
    ],
  },
  // CleanRL's continuous-action settings (10 epochs, no entropy bonus, normalized rewards) at the
  // default learning rate. Measured with the person's shaping at 100,000 steps, seeds 0-4: the
  // defaults scored 0.95, 1.0, 0.9, 0.5, 0.95 (returns 90.1-91.8, close to full throttle's 89.4).
  ppo: {
    // With 10 epochs added: 1.0, 0.95, 1.0, 0.95, 1.0 (returns 90.6-92.4); without, seed 1 scored 0.25.
    updateEpochs: 10,
    // Seed 3: 0.5 with the 0.01 bonus, 0.95 without (a wider Gaussian pushes harder, at 0.1 a^2 a step).
    entCoef: 0,
    // Seed 3, with entCoef 0: 0.95 unnormalized, 1.0 normalized.
    normReward: true,
  },
  // Measured (tmp/run.ts, 20 greedy episodes, seeds 0-4, 70,000 steps, 8-10 s a run on 2 cores):
  // the person's shaping scores 1.0, 1.0, 0.95, 0.95, 1.0; the environment's reward 0.55, 0.45, 0,
  // 0.6, 0. Longer training only hurts the environment's reward, which learns to save force (mean
  // 0.56 at 50,000 steps, 0.32 at 70,000, 0.08 at 100,000); the shaping scored 0.95-1.0 at each.
  // stepsPerSecond: 32,978 measured by `npm run bench` on one idle core here, rounded down (it sizes the chunks)
  // raceSurvival: fitted to the raced search's 0.81 of the steps (README's race table, G=3 K=6 S=3)
  budget: { steps: 70_000, evalEpisodes: 20, smokeSteps: 30_000, stepsPerSecond: 30_000, raceSurvival: 0.75 },
  // The free run matches bit for bit on every recorded episode (float32 where numpy computes in
  // float32). The default is chosen on its tuning episodes by the rule of test/conformance.test.ts and held on the held-out ones there.
  conformanceTolerance: { state: 1e-15, obs: 1e-6, reward: 1e-13 },
});
