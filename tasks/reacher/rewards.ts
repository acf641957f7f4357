/**
 * Reacher-v5's two baselines as reward files: the environment's own reward, written over what a
 * reward sees (the fingertip's offset from the target is observation 8 and 9), and a person's
 * first shaping.
 */
import type { RewardSource } from '../contract.ts';

const ENV_IDEA = 'The environment\'s own reward: minus the fingertip\'s distance to the target, minus the squared torques.';

export const ENVIRONMENT_REWARD: RewardSource = {
  idea: ENV_IDEA,
  code: `// idea: ${ENV_IDEA}
function computeReward(obs, action, nextObs, terminated) {
  const dist = -Math.sqrt(nextObs[8] * nextObs[8] + nextObs[9] * nextObs[9]);
  const ctrl = -(action[0] * action[0] + action[1] * action[1]);
  return [dist + ctrl, { dist, ctrl }];
}
`,
};

const HUMAN_IDEA = 'Get closer to the target every step, a bonus for touching it, a brake on the arm\'s speed near it, and a small torque cost.';

export const HUMAN_SHAPING: RewardSource = {
  idea: HUMAN_IDEA,
  code: `// idea: ${HUMAN_IDEA}
function computeReward(obs, action, nextObs, terminated) {
  const before = Math.sqrt(obs[8] * obs[8] + obs[9] * obs[9]);
  const after = Math.sqrt(nextObs[8] * nextObs[8] + nextObs[9] * nextObs[9]);
  const closer = 10 * (before - after);
  const touch = after < 0.02 ? 0.5 : 0;
  const brake = after < 0.05 ? -0.01 * (nextObs[6] * nextObs[6] + nextObs[7] * nextObs[7]) : 0;
  const torque = -0.1 * (action[0] * action[0] + action[1] * action[1]);
  return [closer + touch + brake + torque, { closer, touch, brake, torque }];
}
`,
};
