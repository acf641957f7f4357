/** LunarLanderContinuous-v3: Gymnasium's register() entry, plus what the search needs to know of it. */
import { defineTask } from '../contract.ts';
import { MAX_EPISODE_STEPS } from '../lunar-lander-common/physics.ts';
import { LUNAR_LANDER_RENDERER } from '../lunar-lander-common/render.ts';
import { replayLunarLander } from '../lunar-lander-common/replay.ts';
import { bankDeclaration } from '../lunar-lander-common/bank-policies.ts';
import { BUDGET, CONFORMANCE_TOLERANCE, PROGRESS, FEATURES, OBSERVATION, PPO, REWARD_THRESHOLD, success, baselines, description } from '../lunar-lander-common/spec-parts.ts';
import { ACTION_NAMES, LunarLanderContinuousEnv } from './environment.ts';

export default defineTask({
  id: 'LunarLanderContinuous-v3',
  description: description('continuous'),
  maxEpisodeSteps: MAX_EPISODE_STEPS,
  rewardThreshold: REWARD_THRESHOLD,
  observation: OBSERVATION,
  action: { kind: 'box', names: ACTION_NAMES, low: [-1, -1], high: [1, 1] },
  makeEnv: (n, seed) => new LunarLanderContinuousEnv(n, seed),
  success: success('continuous'),
  progress: PROGRESS,
  termination: 'mixed',
  baselines: baselines('continuous'),
  features: FEATURES,
  render: LUNAR_LANDER_RENDERER,
  ppo: PPO,
  budget: BUDGET,
  conformanceTolerance: CONFORMANCE_TOLERANCE,
  bank: bankDeclaration('continuous'),
  replay: (episode) => replayLunarLander(new LunarLanderContinuousEnv(1, 0), episode),
});
