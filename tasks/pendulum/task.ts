/** Pendulum-v1: Gymnasium's register() entry, plus what the search needs to know of it. */
import { defineTask, type Episode } from '../contract.ts';
import { HOLD_STEPS, MAX_EPISODE_STEPS, MAX_SPEED, MAX_TORQUE, PendulumEnv, UPRIGHT_ANGLE } from './environment.ts';
import { PENDULUM_RENDERER } from './render.ts';

/** The angle from upright of observation t (0 the first), from its cos and sin. */
function angleAt(episode: Episode, t: number): number {
  const at = t * episode.obsSize;
  return Math.atan2(episode.observations[at + 1], episode.observations[at]);
}

export default defineTask({
  id: 'Pendulum-v1',
  description:
    'A pendulum hangs from a fixed pivot and starts at a random angle; a torque on it, too weak to lift it straight up, must swing it up and balance it upright. ' +
    `Gymnasium gives it no reward threshold: solved here means holding the pendulum within ${UPRIGHT_ANGLE} rad of upright for the last ${HOLD_STEPS} of its ${MAX_EPISODE_STEPS} steps.`,
  maxEpisodeSteps: MAX_EPISODE_STEPS,
  observation: [
    { name: 'cos(theta)', low: -1, high: 1 },
    { name: 'sin(theta)', low: -1, high: 1 },
    { name: 'angular velocity', low: -MAX_SPEED, high: MAX_SPEED },
  ],
  action: { kind: 'box', names: ['torque'], low: [-MAX_TORQUE], high: [MAX_TORQUE] },
  makeEnv: (n, seed) => new PendulumEnv(n, seed),

  success: {
    clause: `hold the pendulum upright for the last ${HOLD_STEPS} steps`,
    headline: 'holds the pendulum upright',
    describe: `An episode succeeds when the pendulum is within ${UPRIGHT_ANGLE} rad of upright (angle = atan2(sin, cos) from the observation) ` +
      `for each of the last ${HOLD_STEPS} steps of the ${MAX_EPISODE_STEPS}-step episode.`,
    test(episode) {
      if (episode.length < HOLD_STEPS) return false;
      for (let t = episode.length - HOLD_STEPS + 1; t <= episode.length; t++) {
        if (!(Math.abs(angleAt(episode, t)) < UPRIGHT_ANGLE)) return false;
      }
      return true;
    },
  },
  progress: {
    describe: "the share of the episode's steps the pendulum spent upright",
    label: 'mean share of steps upright',
    measure(episode) {
      let upright = 0;
      for (let t = 1; t <= episode.length; t++) if (Math.abs(angleAt(episode, t)) < UPRIGHT_ANGLE) upright += 1;
      return episode.length === 0 ? 0 : upright / episode.length;
    },
    format: (value) => `${(100 * value).toFixed(1)}% of steps within ${UPRIGHT_ANGLE} rad of upright (success needs the last ${HOLD_STEPS} of ${MAX_EPISODE_STEPS})`,
  },
  termination: 'never',

  baselines: {
    environment: {
      idea: 'The environment\'s own reward: minus the squared angle from upright, 0.1 times the squared angular velocity and 0.001 times the squared torque.',
      code: `// idea: The environment's own reward: minus the squared angle from upright, 0.1 times the squared angular velocity and 0.001 times the squared torque.
function computeReward(obs, action, nextObs, terminated) {
  // The environment charges the state the torque was applied in: obs, not nextObs. Read from the
  // float32 observation, this is within about 1e-6 of its float64 reward, not exact.
  const theta = Math.atan2(obs[1], obs[0]);
  const angle = -(theta * theta);
  const velocity = -0.1 * obs[2] * obs[2];
  const torque = -0.001 * action[0] * action[0];
  return [angle + velocity + torque, { angle, velocity, torque }];
}
`,
    },
    // Measured: 5 of 5 seeds hold the pendulum up (success 0.95-1.0) at the budget and `ppo` below.
    human: {
      idea: 'The environment\'s cost, a bonus for every step near upright, and potential-based shaping that pulls the pendulum\'s energy toward the energy of resting upright.',
      code: `// idea: The environment's cost, a bonus for every step near upright, and potential-based shaping that pulls the pendulum's energy toward the energy of resting upright.
function computeReward(obs, action, nextObs, terminated) {
  const GAMMA = 0.99;
  const SHAPING_SCALE = 10;
  const UPRIGHT_BONUS = 2;
  // Energy per unit inertia, 0.5 thdot^2 + (3g / 2l) cos(theta) with 3g / 2l = 15: 15 at rest
  // upright, -15 at rest hanging. The gap to 15, scaled to [0, ~1], is 0 only on the swing that ends upright.
  function energyGap(s) {
    return Math.abs(0.5 * s[2] * s[2] + 15 * s[0] - 15) / 30;
  }
  const theta = Math.atan2(obs[1], obs[0]);
  const cost = -(theta * theta + 0.1 * obs[2] * obs[2] + 0.001 * action[0] * action[0]);
  const upright = Math.abs(Math.atan2(nextObs[1], nextObs[0])) < 0.2 ? UPRIGHT_BONUS : 0;
  const shaping = SHAPING_SCALE * (GAMMA * -energyGap(nextObs) + energyGap(obs));
  return [cost + upright + shaping, { cost, upright, shaping }];
}
`,
    },
  },

  features: [
    { name: 'upright', expression: '(s[0] + 1) / 2', describe: 'how upright the pendulum is, (cos(theta) + 1) / 2 (1 upright, 0 hanging)' },
    { name: 'still', expression: '1 - Math.abs(s[2]) / 8', describe: 'how slowly it turns, 1 - |angular velocity| / 8' },
    {
      name: 'energy',
      // 1 at the energy of resting upright (the swing that ends there), 0 resting at the bottom.
      expression: '1 - Math.abs(0.5 * s[2] * s[2] + 15 * s[0] - 15) / 30',
      describe: 'how close its energy, 0.5 thdot^2 + 15 cos(theta), is to that of resting upright',
    },
  ],

  render: PENDULUM_RENDERER,
  // The screen's bank (tasks/bank.ts). Full torque one way spins the pendulum round at its top speed.
  bank: {
    successWords: 'holding the pendulum upright',
    policies: [
      { name: 'nothing', kind: 'failure', words: 'hanging down', act: () => [0] },
      { name: 'spin', kind: 'failure', words: 'spinning round and round', act: () => [MAX_TORQUE] },
    ],
  },
  // RL Zoo's tuned PPO for Pendulum-v1 (gamma 0.9, lr 1e-3, 10 epochs, no entropy bonus) with
  // CleanRL's reward normalization and 16 minibatches. Measured with the person's shaping at 70,000
  // steps on seed 0 (1.0 of episodes with all of these), putting back one default at a time:
  ppo: {
    // 0.99: 0 of 20 (return -1134).
    gamma: 0.9,
    // 2.5e-4: 0 of 20.
    learningRate: 1e-3,
    // 4: 0 of 20.
    updateEpochs: 10,
    // 0.01: 0.9 on seed 0, and 0.85 on seed 4 (seeds 0-4: 0.9, 1.0, 1.0, 1.0, 0.85).
    entCoef: 0,
    // Off: 0.9, with training success still 0.13 at the end (0.88 with it).
    normReward: true,
    // 4: 0 of 20 at 70,000 steps (it needed 100,000); 16 minibatches of 128 learn by 80% of the run.
    numMinibatches: 16,
  },
  // Measured (tmp/run.ts, 20 greedy episodes, seeds 0-4, 70,000 steps, 13-24 s a run on 2 busy
  // cores): the person's shaping holds it up in 1.0, 1.0, 0.95, 1.0, 1.0 of episodes; the
  // environment's reward in 0.95, 0.85, 0.9, 1.0, 1.0.
  // stepsPerSecond: 27,529 measured by `npm run bench` on one idle core here, rounded down (it sizes the chunks)
  // raceSurvival: fitted to the raced search's 0.87 of the steps (README's race table, G=3 K=6 S=3)
  budget: { steps: 70_000, evalEpisodes: 20, smokeSteps: 30_000, stepsPerSecond: 25_000, raceSurvival: 0.9 },
  // Each step from the recorded state: replaying a balancing heuristic's actions open loop
  // keeps the pendulum at its unstable top, where a last-bit difference of Math.sin against
  // glibc's grows by the linearised step's eigenvalue, 1.2134 per step (to 6.6e-2 by step 200).
  // Given numpy's sin/cos the free run matches all 60 recorded episodes bit for bit. The reward's
  // float32 term 0.001 * u**2 may be one float32 ulp off (numpy's powf at an exact tie). The default
  // is chosen on its tuning episodes by the rule of test/conformance.test.ts and held on the held-out ones there.
  conformanceTolerance: { state: 1e-14, obs: 1e-6, reward: 1e-9, replayFrom: 'each-step' },
});
