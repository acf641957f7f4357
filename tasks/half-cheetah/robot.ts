/**
 * HalfCheetah-v5's robot, as its task and the behaviours that reuse it (mujoco-common/behaviour.ts)
 * see it: the observation and actions Gymnasium gives it, its environment, its own reward.
 */
import { join } from 'node:path';
import type { ActionSpace, ObservationDim } from '../contract.ts';
import type { GymnasiumRobot } from '../mujoco-common/behaviour.ts';
import { MUJOCO_PPO } from '../mujoco-common/ppo.ts';
import { CHEETAH_RECORDED } from './recorded.ts';
import { BUILT_IN_DIR } from '../task-files.ts';
import { HalfCheetahEnv, MAX_EPISODE_STEPS } from './environment.ts';
import { HALF_CHEETAH_RENDERER } from './render.ts';
import { ENVIRONMENT_REWARD } from './rewards.ts';
import { HALF_CHEETAH_BANK } from './bank-policies.ts';

const ANGLE = [-1.2, 1.2] as const;
const SPIN = [-20, 20] as const;

export const HALF_CHEETAH_OBSERVATION: readonly ObservationDim[] = [
  { name: 'torso height relative to the start (m)', low: -Infinity, high: Infinity, typical: [-0.4, 0.4] },
  { name: 'torso angle (rad)', low: -Infinity, high: Infinity, typical: [-1, 1] },
  { name: 'back thigh angle (rad)', low: -Infinity, high: Infinity, typical: [-0.5, 1] },
  { name: 'back shin angle (rad)', low: -Infinity, high: Infinity, typical: [-0.8, 0.8] },
  { name: 'back foot angle (rad)', low: -Infinity, high: Infinity, typical: [-0.4, 0.8] },
  { name: 'front thigh angle (rad)', low: -Infinity, high: Infinity, typical: [-1, 0.7] },
  { name: 'front shin angle (rad)', low: -Infinity, high: Infinity, typical: ANGLE },
  { name: 'front foot angle (rad)', low: -Infinity, high: Infinity, typical: [-0.5, 0.5] },
  { name: 'torso x velocity (m/s)', low: -Infinity, high: Infinity, typical: [-2, 8] },
  { name: 'torso z velocity (m/s)', low: -Infinity, high: Infinity, typical: [-3, 3] },
  { name: 'torso angular velocity (rad/s)', low: -Infinity, high: Infinity, typical: [-5, 5] },
  { name: 'back thigh angular velocity (rad/s)', low: -Infinity, high: Infinity, typical: SPIN },
  { name: 'back shin angular velocity (rad/s)', low: -Infinity, high: Infinity, typical: SPIN },
  { name: 'back foot angular velocity (rad/s)', low: -Infinity, high: Infinity, typical: SPIN },
  { name: 'front thigh angular velocity (rad/s)', low: -Infinity, high: Infinity, typical: SPIN },
  { name: 'front shin angular velocity (rad/s)', low: -Infinity, high: Infinity, typical: SPIN },
  { name: 'front foot angular velocity (rad/s)', low: -Infinity, high: Infinity, typical: SPIN },
];

export const HALF_CHEETAH_ACTION: ActionSpace = {
  kind: 'box',
  names: ['back thigh torque', 'back shin torque', 'back foot torque', 'front thigh torque', 'front shin torque', 'front foot torque'],
  low: [-1, -1, -1, -1, -1, -1],
  high: [1, 1, 1, 1, 1, 1],
};

export const HALF_CHEETAH: GymnasiumRobot = {
  name: 'HalfCheetah',
  task: 'HalfCheetah-v5',
  describe: 'a two-dimensional cat-like robot in the x-z plane: a torso with a head, a back leg and a front leg of thigh, shin and foot, six hinges with a motor each; the torso\'s x, height and angle (qpos[0..2]) leave it free to move and turn in the plane.',
  env: HalfCheetahEnv,
  environmentFile: join(BUILT_IN_DIR, 'half-cheetah', 'environment.ts'),
  observation: HALF_CHEETAH_OBSERVATION,
  recorded: CHEETAH_RECORDED,
  action: HALF_CHEETAH_ACTION,
  maxEpisodeSteps: MAX_EPISODE_STEPS,
  ppo: MUJOCO_PPO,
  render: HALF_CHEETAH_RENDERER,
  environmentReward: ENVIRONMENT_REWARD,
  bankPolicies: HALF_CHEETAH_BANK.policies ?? [],
};
