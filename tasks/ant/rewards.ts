/**
 * Ant-v5's two baselines as reward files: the environment's own reward, written over what a
 * reward sees (the observation leaves out the torso's x, so the forward term is the torso's x
 * velocity, averaged over the step's two ends; the contact forces are in the observation, clipped
 * as Gymnasium clips them), and a person's first shaping.
 */
import type { RewardSource } from '../contract.ts';

const ENV_IDEA = 'The environment\'s own reward: forward speed, 1 for every healthy step, minus 0.5 times the squared torques and 5e-4 times the squared contact forces.';

export const ENVIRONMENT_REWARD: RewardSource = {
  idea: ENV_IDEA,
  code: `// idea: ${ENV_IDEA}
function computeReward(obs, action, nextObs, terminated) {
  // Gymnasium's reward_forward is the torso's x displacement over the step / dt; the observation has
  // no x, so the mean of its x velocity (index 13) at the step's two ends stands in for it.
  const forward = (obs[13] + nextObs[13]) / 2;
  // 1 while healthy; the step that ends the episode is the one where the ant stopped being healthy.
  const survive = terminated ? 0 : 1;
  let squares = 0;
  for (let k = 0; k < 8; k++) squares += action[k] * action[k];
  const ctrl = -0.5 * squares;
  // Entries 27-104: the contact forces, already clipped to [-1, 1].
  let forces = 0;
  for (let k = 27; k < 105; k++) forces += nextObs[k] * nextObs[k];
  const contact = -5e-4 * forces;
  return [forward + survive + ctrl + contact, { forward, survive, ctrl, contact }];
}
`,
};

const HUMAN_IDEA = 'Forward speed, a bonus for staying alive, penalties for tilting the torso and for drifting sideways, and a small torque cost.';

export const HUMAN_SHAPING: RewardSource = {
  idea: HUMAN_IDEA,
  code: `// idea: ${HUMAN_IDEA}
function computeReward(obs, action, nextObs, terminated) {
  const forward = 1.5 * nextObs[13];
  const alive = terminated ? -2 : 1;
  // The torso's up axis has world z component 1 - 2 (qx^2 + qy^2): 1 level, below 0 upside down.
  const up = 1 - 2 * (nextObs[2] * nextObs[2] + nextObs[3] * nextObs[3]);
  const tilt = -0.5 * (1 - up);
  const sideways = -0.3 * Math.abs(nextObs[14]);
  let squares = 0;
  for (let k = 0; k < 8; k++) squares += action[k] * action[k];
  const torque = -0.1 * squares;
  return [forward + alive + tilt + sideways + torque, { forward, alive, tilt, sideways, torque }];
}
`,
};
