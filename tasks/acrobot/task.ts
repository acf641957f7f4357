/** Acrobot-v1: Gymnasium's register() entry, plus what the search needs to know of it. */
import { defineTask } from '../contract.ts';
import { AcrobotEnv, MAX_EPISODE_STEPS, MAX_VEL_1, MAX_VEL_2, TARGET_HEIGHT } from './environment.ts';
import { ACROBOT_RENDERER, tipHeight } from './render.ts';

const REWARD_THRESHOLD = -100;
/** Return -(k - 1) means the end reached the target on step k: >= -100 is within 101 steps. */
const WITHIN_STEPS = 1 - REWARD_THRESHOLD;

export default defineTask({
  id: 'Acrobot-v1',
  description:
    'Two links hang in a chain from a fixed joint; only the joint between them is driven, with a torque of -1, 0 or +1. ' +
    `The free end must be swung above a target line at height ${TARGET_HEIGHT.toFixed(1)} over the fixed joint (the links are 1 long each), which takes pumping energy in over several swings. ` +
    `The environment pays -1 per step until the end gets there; solved means a return of at least ${REWARD_THRESHOLD}, ` +
    `reaching the line within ${WITHIN_STEPS} of the ${MAX_EPISODE_STEPS} steps.`,
  maxEpisodeSteps: MAX_EPISODE_STEPS,
  rewardThreshold: REWARD_THRESHOLD,
  observation: [
    { name: 'cos theta1', low: -1, high: 1 },
    { name: 'sin theta1', low: -1, high: 1 },
    { name: 'cos theta2', low: -1, high: 1 },
    { name: 'sin theta2', low: -1, high: 1 },
    { name: 'angular velocity theta1', low: -MAX_VEL_1, high: MAX_VEL_1 },
    { name: 'angular velocity theta2', low: -MAX_VEL_2, high: MAX_VEL_2 },
  ],
  action: { kind: 'discrete', names: ['torque -1', 'torque 0', 'torque +1'], neutral: 1 },
  makeEnv: (n, seed) => new AcrobotEnv(n, seed),

  success: {
    clause: `swing the free end above the target line within ${WITHIN_STEPS} steps`,
    headline: `swings the free end above the target line within ${WITHIN_STEPS} steps`,
    describe: `An episode succeeds when its return on the environment's own reward (-1 per step until the free end is above height ${TARGET_HEIGHT.toFixed(1)}) ` +
      `is at least ${REWARD_THRESHOLD}: the end reaches the target line within ${WITHIN_STEPS} steps.`,
    returnFormula: `The environment's reward, exactly: -1 on every step, except 0 on the step where the free end gets above height ${TARGET_HEIGHT.toFixed(1)} (that step ends the episode), ` +
      `so an episode's return is minus the number of steps before that one (-${MAX_EPISODE_STEPS} when the time limit cuts it).`,
    test: (episode) => episode.return >= REWARD_THRESHOLD,
  },
  tieBreak: 'fewer-steps',
  progress: {
    describe: 'the highest the tip of the second link rose above the pivot (the line to cross is at 1.0)',
    label: 'mean highest tip height',
    measure(episode) {
      let highest = -Infinity;
      for (let t = 0; t + 6 <= episode.observations.length; t += episode.obsSize) highest = Math.max(highest, tipHeight(episode.observations, t));
      return highest;
    },
    format: (value) => `${value.toFixed(2)} (the target is at ${TARGET_HEIGHT.toFixed(1)}, hanging down is -2)`,
  },
  termination: 'success',

  baselines: {
    environment: {
      idea: 'The environment\'s own reward: -1 on every step until the free end reaches the target height, 0 on that step.',
      code: `// idea: The environment's own reward: -1 on every step until the free end reaches the target height, 0 on that step.
function computeReward(obs, action, nextObs, terminated) {
  const step = terminated ? 0 : -1;
  return [step, { step }];
}
`,
    },
    // Measured: 0.9-1.0 of episodes reach the line within 101 steps on 5 of 5 seeds at the budget and
    // `ppo` below. The height-only shaping it replaces scored 0.7, 0.95, 1.0, 0.95, 0.9 there: a
    // higher end pays only once the links swing high, the energy term pays for every pump before.
    human: {
      idea: 'Potential-based shaping on the links\' mechanical energy (up to the least that can lift the end to the target line) and on the free end\'s height, a goal bonus of 10 and the environment\'s -1 per step.',
      code: `// idea: Potential-based shaping on the links' mechanical energy (up to the least that can lift the end to the target line) and on the free end's height, a goal bonus of 10 and the environment's -1 per step.
function computeReward(obs, action, nextObs, terminated) {
  const GAMMA = 0.99;
  const HEIGHT_SCALE = 10;
  const ENERGY_SCALE = 20;
  const GOAL_BONUS = 10;
  // The end's height -cos(th1) - cos(th1 + th2), with cos(a + b) = cos a cos b - sin a sin b: -2 hanging, 1 at the target.
  function tipHeight(s) {
    return -s[0] - (s[0] * s[2] - s[1] * s[3]);
  }
  // Kinetic energy (the links' inertia matrix) plus potential energy: 0 at rest hanging down, 1 at
  // the 24.5 J above that the end needs to reach the line; more than that earns nothing more.
  function energy(s) {
    const kinetic = 0.5 * ((3.5 + s[2]) * s[4] * s[4] + 2 * (1.25 + 0.5 * s[2]) * s[4] * s[5] + 1.25 * s[5] * s[5]);
    const potential = 9.8 * (-1.5 * s[0] - 0.5 * (s[0] * s[2] - s[1] * s[3])) + 19.6;
    return Math.min(1, (kinetic + potential) / 24.5);
  }
  function potential(s) {
    return HEIGHT_SCALE * tipHeight(s) + ENERGY_SCALE * energy(s);
  }
  const step = terminated ? 0 : -1;
  const shaping = GAMMA * potential(nextObs) - potential(obs);
  const goal = terminated ? GOAL_BONUS : 0;
  return [step + shaping + goal, { step, shaping, goal }];
}
`,
    },
  },

  features: [
    {
      name: 'tipHeight',
      expression: '(-s[0] - (s[0] * s[2] - s[1] * s[3]) + 2) / 3',
      describe: 'the free end\'s height, 0 hanging straight down and 1 at the target line',
    },
    {
      name: 'energy',
      // Kinetic (the book's inertia matrix) plus potential energy, 0 at rest hanging down and 1 at
      // the least energy that can reach the target (24.5 J above the bottom); capped at 1.5.
      expression: 'Math.min(1.5, (0.5 * ((3.5 + s[2]) * s[4] * s[4] + 2 * (1.25 + 0.5 * s[2]) * s[4] * s[5] + 1.25 * s[5] * s[5]) + ' +
        '9.8 * (-1.5 * s[0] - 0.5 * (s[0] * s[2] - s[1] * s[3])) + 19.6) / 24.5)',
      describe: 'the links\' mechanical energy, 1 at the least that can lift the end to the target',
    },
    { name: 'firstLinkUp', expression: '(1 - s[0]) / 2', describe: 'how far the first link has swung up (0 hanging down, 1 straight up)' },
  ],

  render: ACROBOT_RENDERER,
  // The screen's bank (tasks/bank.ts). Torque with the second joint's swing reached the line in
  // 66-73 steps on seeds 7000-7003; no torque hangs to the 500-step limit.
  bank: {
    successWords: 'swinging the tip above the line',
    policies: [
      { name: 'pump', kind: 'success', words: 'pumping with the second joint\'s swing', act: (s) => (s[5] > 0 ? 2 : 0) },
      { name: 'nothing', kind: 'failure', words: 'hanging still to the time limit', act: () => 1 },
    ],
  },
  ppo: {
    // The default 2.5e-4 had not learned at 100,000 steps (height shaping, seed 0: 0 of 20) and
    // reached 0.85 and 0.6 on seeds 0 and 1 at 200,000.
    learningRate: 1e-3,
    // Height shaping on seed 1 at 150,000 steps, lr 1e-3: 0.7 with the 0.01 bonus, 0.95 without.
    entCoef: 0,
  },
  // Measured (tmp/run.ts, 20 greedy episodes, seeds 0-4, 150,000 steps, 10-23 s a run on 2 busy
  // cores): the person's shaping scores 0.95, 0.9, 1.0, 1.0, 0.9 (returns -76 to -88); the
  // environment's reward 0, 0, 0.85, 0, 0 (it rarely finds the line by chance).
  // stepsPerSecond: 49,323 measured by `npm run bench` on one idle core here, rounded down (it sizes the chunks)
  // raceSurvival: fitted to the raced search's 0.57 of the steps (README's race table, G=3 K=6 S=3)
  budget: { steps: 150_000, evalEpisodes: 20, smokeSteps: 60_000, stepsPerSecond: 40_000, raceSurvival: 0.55 },
  // Each step from the recorded state: a free run cannot match. V8's Math.sin/cos differ from
  // glibc's (what numpy calls) in the last bit for about 3% of arguments, and Gymnasium's x**2 is
  // pow(x, 2), which differs from x * x for about 0.1%; the double pendulum's chaos amplifies
  // those (to 9.7e-7 over a 500-step free run). Given numpy's values for those calls the free run
  // matches all 60 recorded episodes bit for bit, so the port's operations are Gymnasium's. The
  // default is chosen on its tuning episodes by the rule of test/conformance.test.ts and held on the held-out ones there.
  conformanceTolerance: { state: 1e-13, obs: 1e-5, reward: 1e-15, replayFrom: 'each-step' },
});
