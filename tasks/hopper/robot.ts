/**
 * Hopper-v5's robot, as its task and the behaviours that reuse it (mujoco-common/behaviour.ts)
 * see it: the observation and actions Gymnasium gives it, its environment, its own reward.
 */
import { join } from 'node:path';
import type { ActionSpace, ObservationDim } from '../contract.ts';
import type { GymnasiumRobot } from '../mujoco-common/behaviour.ts';
import { MUJOCO_PPO } from '../mujoco-common/ppo.ts';
import { UPRIGHT_TORSO_XZ_ANGLE } from '../mujoco-common/recorded.ts';
import { BUILT_IN_DIR } from '../task-files.ts';
import { HopperEnv, MAX_EPISODE_STEPS } from './environment.ts';
import { HOPPER_RENDERER, HOPPER_RENDERER_ANY_ENDING } from './render.ts';
import { ENVIRONMENT_REWARD } from './rewards.ts';
import { HOPPER_BANK } from './bank-policies.ts';

export const HOPPER_OBSERVATION: readonly ObservationDim[] = [
  { name: 'torso height z (m)', low: -Infinity, high: Infinity, typical: [0.7, 1.7] },
  { name: 'torso angle (rad)', low: -Infinity, high: Infinity, typical: [-0.2, 0.2] },
  { name: 'thigh joint angle (rad)', low: -Infinity, high: Infinity, typical: [-2.6, 0] },
  { name: 'leg joint angle (rad)', low: -Infinity, high: Infinity, typical: [-2.6, 0] },
  { name: 'foot joint angle (rad)', low: -Infinity, high: Infinity, typical: [-0.8, 0.8] },
  { name: 'torso x velocity (m/s)', low: -10, high: 10, typical: [-3, 5] },
  { name: 'torso z velocity (m/s)', low: -10, high: 10, typical: [-5, 5] },
  { name: 'torso angular velocity (rad/s)', low: -10, high: 10, typical: [-10, 10] },
  { name: 'thigh hinge angular velocity (rad/s)', low: -10, high: 10, typical: [-10, 10] },
  { name: 'leg hinge angular velocity (rad/s)', low: -10, high: 10, typical: [-10, 10] },
  { name: 'foot hinge angular velocity (rad/s)', low: -10, high: 10, typical: [-10, 10] },
];

export const HOPPER_ACTION: ActionSpace = { kind: 'box', names: ['thigh torque', 'leg torque', 'foot torque'], low: [-1, -1, -1], high: [1, 1, 1] };

export const HOPPER: GymnasiumRobot = {
  name: 'Hopper',
  task: 'Hopper-v5',
  describe: 'a two-dimensional one-legged robot in the x-z plane: a torso on top, a thigh, a leg and a foot, joined by three hinges with a motor each (the thigh, the knee and the ankle); the torso\'s x, height and angle (qpos[0..2], a slide, a slide and a hinge) leave it free to move and turn in the plane.',
  env: HopperEnv,
  environmentFile: join(BUILT_IN_DIR, 'hopper', 'environment.ts'),
  observation: HOPPER_OBSERVATION,
  recorded: UPRIGHT_TORSO_XZ_ANGLE,
  action: HOPPER_ACTION,
  maxEpisodeSteps: MAX_EPISODE_STEPS,
  ppo: MUJOCO_PPO,
  render: HOPPER_RENDERER,
  renderAnyEnding: HOPPER_RENDERER_ANY_ENDING,
  environmentReward: ENVIRONMENT_REWARD,
  bankPolicies: HOPPER_BANK.policies ?? [],
};
