/**
 * Ant-v5's robot, as its task and the behaviours that reuse it (mujoco-common/behaviour.ts) see
 * it: the observation and actions Gymnasium gives it, its environment, its own reward.
 */
import { join } from 'node:path';
import type { ActionSpace } from '../contract.ts';
import type { GymnasiumRobot } from '../mujoco-common/behaviour.ts';
import { MUJOCO_PPO } from '../mujoco-common/ppo.ts';
import { TORSO_XYZ_HEADING } from '../mujoco-common/recorded.ts';
import { BUILT_IN_DIR } from '../task-files.ts';
import { AntEnv, MAX_EPISODE_STEPS } from './environment.ts';
import { ANT_OBSERVATION } from './observation.ts';
import { ANT_RENDERER, ANT_RENDERER_ANY_ENDING } from './render.ts';
import { ENVIRONMENT_REWARD } from './rewards.ts';
import { ANT_BANK } from './bank-policies.ts';

export const ANT_ACTION: ActionSpace = {
  kind: 'box',
  names: ['right back hip torque', 'right back ankle torque', 'front left hip torque', 'front left ankle torque',
    'front right hip torque', 'front right ankle torque', 'back hip torque', 'back ankle torque'],
  low: [-1, -1, -1, -1, -1, -1, -1, -1],
  high: [1, 1, 1, 1, 1, 1, 1, 1],
};

export const ANT: GymnasiumRobot = {
  name: 'Ant',
  task: 'Ant-v5',
  describe: 'a three-dimensional four-legged robot: a round torso and four legs of two links each (a hip and an ankle hinge with a motor each, eight in all); ' +
    'the torso is a free body (qpos[0..6]: its x, y, z and a quaternion), so it can walk, turn and flip in any direction. ' +
    'Its contact forces are observed but hidden from the policy.',
  env: AntEnv,
  environmentFile: join(BUILT_IN_DIR, 'ant', 'environment.ts'),
  observation: ANT_OBSERVATION,
  recorded: TORSO_XYZ_HEADING,
  action: ANT_ACTION,
  maxEpisodeSteps: MAX_EPISODE_STEPS,
  ppo: MUJOCO_PPO,
  render: ANT_RENDERER,
  renderAnyEnding: ANT_RENDERER_ANY_ENDING,
  environmentReward: ENVIRONMENT_REWARD,
  bankPolicies: ANT_BANK.policies ?? [],
};
