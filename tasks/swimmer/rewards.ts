/**
 * Swimmer-v5's two baselines as reward files: the environment's own reward, written over what a
 * reward sees (the observation leaves out the torso's x, so the forward term is the torso's
 * forward velocity, averaged over the step's two ends), and a person's first shaping.
 */
import type { RewardSource } from '../contract.ts';

const ENV_IDEA = 'The environment\'s own reward: forward speed minus 0.0001 times the squared torques.';

export const ENVIRONMENT_REWARD: RewardSource = {
  idea: ENV_IDEA,
  code: `// idea: ${ENV_IDEA}
function computeReward(obs, action, nextObs, terminated) {
  // Gymnasium's reward_forward is the torso's x displacement over the step / dt; the observation has
  // no x, so the mean of its x velocity (index 3) at the step's two ends stands in for it.
  const forward = (obs[3] + nextObs[3]) / 2;
  const ctrl = -0.0001 * (action[0] * action[0] + action[1] * action[1]);
  return [forward + ctrl, { forward, ctrl }];
}
`,
};

const HUMAN_IDEA = 'Forward speed, and a penalty for turning away from +x.';

export const HUMAN_SHAPING: RewardSource = {
  idea: HUMAN_IDEA,
  code: `// idea: ${HUMAN_IDEA}
function computeReward(obs, action, nextObs, terminated) {
  const forward = nextObs[3];
  // The torso's heading: 0 facing +x.
  const heading = -0.05 * nextObs[0] * nextObs[0];
  return [forward + heading, { forward, heading }];
}
`,
};
