/** LunarLander-v3 (discrete): Gymnasium's register() entry, plus what the search needs to know of it. */
import { defineTask } from '../contract.ts';
import { ACTION_NAMES, LunarLanderDiscreteEnv } from './environment.ts';
import { replayLunarLander } from '../lunar-lander-common/replay.ts';
import { bankDeclaration } from '../lunar-lander-common/bank-policies.ts';
import { MAX_EPISODE_STEPS } from '../lunar-lander-common/physics.ts';
import { LUNAR_LANDER_RENDERER } from '../lunar-lander-common/render.ts';
import { BUDGET, CONFORMANCE_TOLERANCE, PROGRESS, FEATURES, OBSERVATION, PPO, REWARD_THRESHOLD, success, baselines, description } from '../lunar-lander-common/spec-parts.ts';

export default defineTask({
  id: 'LunarLander-v3',
  description: description('discrete'),
  maxEpisodeSteps: MAX_EPISODE_STEPS,
  rewardThreshold: REWARD_THRESHOLD,
  observation: OBSERVATION,
  action: { kind: 'discrete', names: ACTION_NAMES, neutral: 0 },
  makeEnv: (n, seed) => new LunarLanderDiscreteEnv(n, seed),
  success: success('discrete'),
  progress: PROGRESS,
  termination: 'mixed',
  baselines: baselines('discrete'),
  features: FEATURES,
  render: LUNAR_LANDER_RENDERER,
  ppo: PPO,
  budget: BUDGET,
  conformanceTolerance: CONFORMANCE_TOLERANCE,
  bank: bankDeclaration('discrete'),
  replay: (episode) => replayLunarLander(new LunarLanderDiscreteEnv(1, 0), episode),
});
