/**
 * HalfCheetah-v5's two baselines as reward files: the environment's own reward, written over what a
 * reward sees (the observation leaves out the torso's x, so the forward term is the torso's
 * forward velocity, averaged over the step's two ends), and a person's first shaping.
 */
import type { RewardSource } from '../contract.ts';

const ENV_IDEA = 'The environment\'s own reward: forward speed minus 0.1 times the squared torques.';

export const ENVIRONMENT_REWARD: RewardSource = {
  idea: ENV_IDEA,
  code: `// idea: ${ENV_IDEA}
function computeReward(obs, action, nextObs, terminated) {
  // Gymnasium's reward_forward is the torso's x displacement over the step / dt; the observation has
  // no x, so the mean of its x velocity (index 8) at the step's two ends stands in for it.
  const forward = (obs[8] + nextObs[8]) / 2;
  let squares = 0;
  for (let k = 0; k < 6; k++) squares += action[k] * action[k];
  const ctrl = -0.1 * squares;
  return [forward + ctrl, { forward, ctrl }];
}
`,
};

const HUMAN_IDEA = 'Forward speed, a penalty for pitching the torso (so it runs on its feet, not on its back), and a torque cost.';

export const HUMAN_SHAPING: RewardSource = {
  idea: HUMAN_IDEA,
  code: `// idea: ${HUMAN_IDEA}
function computeReward(obs, action, nextObs, terminated) {
  const forward = nextObs[8];
  // The torso's angle: 0 level; past about 1.5 rad it is on its back.
  const pitch = -0.5 * nextObs[1] * nextObs[1];
  let squares = 0;
  for (let k = 0; k < 6; k++) squares += action[k] * action[k];
  const torque = -0.05 * squares;
  return [forward + pitch + torque, { forward, pitch, torque }];
}
`,
};
