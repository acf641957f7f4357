/**
 * The two baselines every search trains beside its candidates (DESIGN §5), through the same
 * pipeline and on the same seeds. Their names are fixed ids.
 */
import type { Candidate } from './reflection.ts';

export const ENVIRONMENT_REWARD_ID = 'environment_reward';
export const HUMAN_ENERGY_SHAPING_ID = 'human_energy_shaping';

/** MountainCar-v0's own reward: -1 every step until the flag. PPO does not find the flag with it. */
export const ENVIRONMENT_REWARD: Candidate = {
  name: ENVIRONMENT_REWARD_ID,
  idea: 'The environment\'s own reward: -1 on every step until the flag ends the episode.',
  code: `// idea: The environment's own reward: -1 on every step until the flag ends the episode.
function computeReward(obs, action, nextObs, terminated) {
  const step = -1;
  return [step, { step }];
}
`,
};

/**
 * What a person writes after a look at the physics: potential-based shaping on the car's mechanical
 * energy, plus a goal bonus. Reaches the flag in at least 90% of greedy episodes (DESIGN §8).
 */
export const HUMAN_ENERGY_SHAPING: Candidate = {
  name: HUMAN_ENERGY_SHAPING_ID,
  idea: 'Potential-based shaping on mechanical energy (kinetic plus potential), a goal bonus of 10 and the environment\'s -1 per step.',
  code: `// idea: Potential-based shaping on mechanical energy (kinetic plus potential), a goal bonus of 10 and the environment's -1 per step.
function computeReward(obs, action, nextObs, terminated) {
  const GAMMA = 0.99;
  const SHAPING_SCALE = 100;
  const GOAL_BONUS = 10;
  // Kinetic 0.5 v^2 plus potential g/3 sin(3p) (g = 0.0025), scaled by 400 to about [-0.33, 1.3].
  function energy(s) {
    return 0.5 * s[1] * s[1] * 400 + Math.sin(3 * s[0]) * 0.0025 / 3 * 400;
  }
  const step = -1;
  const shaping = SHAPING_SCALE * (GAMMA * energy(nextObs) - energy(obs));
  const goal = terminated ? GOAL_BONUS : 0;
  return [step + shaping + goal, { step, shaping, goal }];
}
`,
};

export const BASELINES: readonly Candidate[] = [ENVIRONMENT_REWARD, HUMAN_ENERGY_SHAPING];
