/** CartPole-v1: Gymnasium's register() entry, plus what the search needs to know of it. */
import { defineTask } from '../contract.ts';
import { CartPoleEnv, MAX_EPISODE_STEPS, THETA_BOUND, THETA_THRESHOLD_RADIANS, X_BOUND, X_THRESHOLD } from './environment.ts';
import { CART_POLE_RENDERER } from './render.ts';

const REWARD_THRESHOLD = 475;
/** Gymnasium bounds the two velocities by ±inf; `typical` is what the trainer scales them by. */
const UNBOUNDED = Infinity;

export default defineTask({
  id: 'CartPole-v1',
  description:
    'A pole stands on a cart that moves along a frictionless track; pushing the cart left or right is the only control. ' +
    `The episode ends when the pole leans more than 12° or the cart leaves the track (|x| > ${X_THRESHOLD}), and after ${MAX_EPISODE_STEPS} steps. ` +
    `The environment pays +1 for every step, so solved means keeping the pole up for at least ${REWARD_THRESHOLD} of the ${MAX_EPISODE_STEPS} steps.`,
  maxEpisodeSteps: MAX_EPISODE_STEPS,
  rewardThreshold: REWARD_THRESHOLD,
  // Typical ranges: the non-failing states (|x| <= 2.4, |angle| <= 12°) and the velocities seen there.
  observation: [
    { name: 'cart position', low: -X_BOUND, high: X_BOUND, typical: [-X_THRESHOLD, X_THRESHOLD] },
    { name: 'cart velocity', low: -UNBOUNDED, high: UNBOUNDED, typical: [-3, 3] },
    { name: 'pole angle', low: -THETA_BOUND, high: THETA_BOUND, typical: [-THETA_THRESHOLD_RADIANS, THETA_THRESHOLD_RADIANS] },
    { name: 'pole angular velocity', low: -UNBOUNDED, high: UNBOUNDED, typical: [-3.5, 3.5] },
  ],
  action: { kind: 'discrete', names: ['push left', 'push right'] },
  makeEnv: (n, seed) => new CartPoleEnv(n, seed),

  success: {
    clause: `keep the pole up for at least ${REWARD_THRESHOLD} steps`,
    headline: `keeps the pole up for ${REWARD_THRESHOLD} steps`,
    describe: `An episode succeeds when its return on the environment's own reward (+1 per step) reaches ${REWARD_THRESHOLD}: ` +
      `the pole stays within 12° and the cart on the track for at least ${REWARD_THRESHOLD} of the ${MAX_EPISODE_STEPS} steps.`,
    returnFormula: 'The environment\'s reward, exactly: +1 on every step, the step that ends the episode included, so an episode\'s return is its length in steps.',
    test: (episode) => episode.return >= REWARD_THRESHOLD,
  },
  progress: {
    describe: "steps the pole stayed up: the episode's length",
    label: 'mean episode length',
    measure: (episode) => episode.length,
    format: (value) => `${value.toFixed(1)} steps (solved at ${REWARD_THRESHOLD}, the limit is ${MAX_EPISODE_STEPS})`,
  },
  termination: 'failure',

  baselines: {
    environment: {
      idea: 'The environment\'s own reward: +1 on every step, the one where the pole falls included.',
      code: `// idea: The environment's own reward: +1 on every step, the one where the pole falls included.
function computeReward(obs, action, nextObs, terminated) {
  const alive = 1;
  return [alive, { alive }];
}
`,
    },
    human: {
      idea: 'The environment\'s +1 per step, minus penalties that grow as the pole angle and the cart position near their limits, and a penalty of 10 for falling.',
      code: `// idea: The environment's +1 per step, minus penalties that grow as the pole angle and the cart position near their limits, and a penalty of 10 for falling.
function computeReward(obs, action, nextObs, terminated) {
  const ANGLE_LIMIT = 0.2095; // 12 degrees: the pole falls past it
  const X_LIMIT = 2.4;        // the cart leaves the track past it
  const ANGLE_WEIGHT = 0.5;
  const POSITION_WEIGHT = 0.3;
  const FALL_PENALTY = 10;
  const alive = 1;
  // Squared, so a pole near upright and a cart near the centre cost almost nothing.
  const angle = -ANGLE_WEIGHT * Math.min(1, (nextObs[2] / ANGLE_LIMIT) ** 2);
  const position = -POSITION_WEIGHT * Math.min(1, (nextObs[0] / X_LIMIT) ** 2);
  const fall = terminated ? -FALL_PENALTY : 0;
  return [alive + angle + position + fall, { alive, angle, position, fall }];
}
`,
    },
  },

  features: [
    { name: 'upright', expression: '1 - Math.abs(s[2]) / 0.2095', describe: 'how upright the pole is (0 at the 12° limit, 1 straight up)' },
    { name: 'centered', expression: '1 - Math.abs(s[0]) / 2.4', describe: 'how close the cart is to the centre (0 at the track\'s edge)' },
    { name: 'still', expression: '1 - Math.min(1, Math.abs(s[3]) / 3.5)', describe: 'how still the pole is (1 at no angular velocity, 0 at 3.5 rad/s or more)' },
  ],

  render: CART_POLE_RENDERER,
  // The screen's bank (tasks/bank.ts). Pushing against the pole's lean and spin kept it up for 500
  // steps; held 0.05 rad off upright the same controller accelerates the cart off the track within
  // 170-330 steps; pushing left only lets the pole fall in 9-10.
  bank: {
    successWords: 'keeping the pole up',
    policies: [
      { name: 'balance', kind: 'success', words: 'balancing the pole', act: (s) => (s[2] + 0.5 * s[3] > 0 ? 1 : 0) },
      { name: 'let-fall', kind: 'failure', words: 'letting the pole fall', act: () => 0 },
      { name: 'drive-off', kind: 'failure', words: 'balancing the pole while driving off the track', act: (s) => (s[2] - 0.05 + 0.5 * s[3] > 0 ? 1 : 0) },
    ],
  },
  // RL Zoo's tuned PPO for CartPole-v1 (short rollouts, gamma 0.98, GAE 0.8, lr 1e-3, no entropy
  // bonus), constant where RL Zoo anneals. With the defaults at 100,000 steps, training success
  // rose and fell again: the person's shaping solved 4 of 5 seeds, the environment's reward 2 of 5.
  // Even with these, runs that have reached 500 steps sometimes fall back (bootstrapping the time
  // limit's last step, tried outside the trainer, did not stop it).
  ppo: {
    // 16 x 32 steps and 10 passes over the one 512-step minibatch: 4x as many updates as 16 x 128
    // (RL Zoo: 8 x 32 steps, 20 epochs of 256).
    numSteps: 32,
    numMinibatches: 1,
    updateEpochs: 10,
    learningRate: 1e-3,
    // Measured one at a time on seeds 0 and 1 (environment's reward, 100,000 steps): back at 0.99,
    // at GAE 0.95 or with the 0.01 entropy bonus, seed 1 (or both) failed; with all three, both solved.
    gamma: 0.98,
    gaeLambda: 0.8,
    entCoef: 0,
    // RL Zoo anneals its clip range from 0.2 to 0. At a constant 0.2 the runs that had reached 500
    // steps fell back (person's shaping at 100,000 steps: 0, 0, 1.0, 0.2, 1.0 on seeds 0-4); at
    // 0.1: 1.0, 1.0, 0, 1.0, 1.0. 0.05, 4 epochs, lr 5e-4 and 64-step rollouts were no better.
    clipCoef: 0.1,
  },
  // Measured (tmp/run.ts, 20 greedy episodes, seeds 0-4, 80,000 steps, ~10 s a run on 2 cores): the
  // person's shaping keeps the pole up in 1.0 of episodes on 5 of 5 seeds (10 of 10 with seeds 5-9);
  // the environment's reward 1.0, 1.0, 0, 0.05, 1.0 (6 of 10 seeds at 0.9 or more). At 100,000
  // steps: the environment's reward 4 of 5, the shaping 4 of 5; at 60,000: 2 of 5 and 4 of 5.
  // That was an earlier trainer: today's figures at 80,000 steps (docs/figures.md, `npm run
  // bench:learning`) are lower on some seeds, the environment's reward 0, 1, 0, 0, 1 and the
  // shaping 0, 1, 0.55, 1, 0 (PPO at a constant learning rate collapsing after it has solved it).
  // stepsPerSecond: 31,490 measured by `npm run bench` on one idle core here, rounded down (it sizes the chunks)
  // raceSurvival: fitted to the raced search's 0.59 of the steps (README's race table, G=3 K=6 S=3)
  budget: { steps: 80_000, evalEpisodes: 20, smokeSteps: 30_000, stepsPerSecond: 25_000, raceSurvival: 0.6 },
  // The free run matches to the last bit (tuning 2.2e-16, held out 0): its angles stay small,
  // where V8's Math.sin/cos and glibc's rarely differ. The default is chosen on its tuning episodes by the rule of test/conformance.test.ts and held on the held-out ones there.
  conformanceTolerance: { state: 1e-14, obs: 1e-6, reward: 1e-15 },
});
