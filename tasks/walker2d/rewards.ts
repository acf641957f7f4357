/**
 * Walker2d-v5's two baselines as reward files: the environment's own reward, written over what a
 * reward sees (the observation leaves out the torso's x, so the forward term is the torso's
 * forward velocity, averaged over the step's two ends), and a person's first shaping.
 */
import type { RewardSource } from '../contract.ts';

const ENV_IDEA = 'The environment\'s own reward: forward speed, 1 for every healthy step, minus 0.001 times the squared torques.';

export const ENVIRONMENT_REWARD: RewardSource = {
  idea: ENV_IDEA,
  code: `// idea: ${ENV_IDEA}
function computeReward(obs, action, nextObs, terminated) {
  // Gymnasium's reward_forward is the torso's x displacement over the step / dt; the observation has
  // no x, so the mean of its x velocity (index 8) at the step's two ends stands in for it.
  const forward = (obs[8] + nextObs[8]) / 2;
  // 1 while healthy; the step that ends the episode is the one where the walker stopped being healthy.
  const survive = terminated ? 0 : 1;
  let squares = 0;
  for (let k = 0; k < 6; k++) squares += action[k] * action[k];
  const ctrl = -0.001 * squares;
  return [forward + survive + ctrl, { forward, survive, ctrl }];
}
`,
};

const HUMAN_IDEA = 'Forward speed, a bonus for staying alive, a penalty for tilting the torso and for losing height, and a small torque cost.';

export const HUMAN_SHAPING: RewardSource = {
  idea: HUMAN_IDEA,
  code: `// idea: ${HUMAN_IDEA}
function computeReward(obs, action, nextObs, terminated) {
  const forward = 1.5 * nextObs[8];
  const alive = terminated ? -1 : 1;
  // Keep the torso upright (it ends the episode past 1 rad) and high (it ends at 0.8 m).
  const tilt = -0.5 * nextObs[1] * nextObs[1];
  const height = -Math.max(0, 1.1 - nextObs[0]);
  let squares = 0;
  for (let k = 0; k < 6; k++) squares += action[k] * action[k];
  const torque = -0.001 * squares;
  return [forward + alive + tilt + height + torque, { forward, alive, tilt, height, torque }];
}
`,
};
