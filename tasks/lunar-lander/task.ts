/** LunarLander-v3 (discrete): Gymnasium's register() entry, plus what the search needs to know of it. */
import { defineTask } from '../contract.ts';
import { ACTION_NAMES, LunarLanderDiscreteEnv } from './environment.ts';
import { replayLunarLander } from './replay.ts';
import { MAX_EPISODE_STEPS } from './physics.ts';
import { LUNAR_LANDER_RENDERER } from './render.ts';
import { DIAGNOSTIC, FEATURES, OBSERVATION, REWARD_THRESHOLD, SUCCESS, baselines, description } from './spec-parts.ts';

export default defineTask({
  id: 'LunarLander-v3',
  description: description('discrete'),
  maxEpisodeSteps: MAX_EPISODE_STEPS,
  rewardThreshold: REWARD_THRESHOLD,
  observation: OBSERVATION,
  action: { kind: 'discrete', names: ACTION_NAMES, neutral: 0 },
  makeEnv: (n, seed) => new LunarLanderDiscreteEnv(n, seed),
  success: SUCCESS,
  tieBreak: 'higher-return',
  diagnostic: DIAGNOSTIC,
  termination: 'mixed',
  baselines: baselines('discrete'),
  features: FEATURES,
  render: LUNAR_LANDER_RENDERER,
  // Measured on Gymnasium's shaping (which is this task's reward too), seeds 0-4: CleanRL's
  // gamma 0.99 / lambda 0.95 lands 20-60% of evaluation episodes at 400k-600k steps; a longer
  // horizon (0.995 / 0.98, as RL Zoo's 0.999 / 0.98 but with a 256-step rollout) lands
  // 95, 55, 90, 100, 100% at 800k. RL Zoo's 1,024-step rollouts reached 0-20% at 1M steps. At
  // 150k-250k nothing lands: the smoke budget runs the loop, it does not solve the task.
  ppo: {
    gamma: 0.995,
    gaeLambda: 0.98,
    numSteps: 256,
    numMinibatches: 64,
    updateEpochs: 4,
    learningRate: 3e-4,
    entCoef: 0.01,
  },
  budget: { steps: 800_000, evalEpisodes: 20, smokeSteps: 100_000 },
  replay: (episode) => replayLunarLander(new LunarLanderDiscreteEnv(1, 0), episode),
});
