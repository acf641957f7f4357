/**
 * Walker2d-v5's robot, as its task and the behaviours that reuse it (mujoco-common/behaviour.ts)
 * see it: the observation and actions Gymnasium gives it, its environment, its own reward.
 */
import { join } from 'node:path';
import type { ActionSpace, ObservationDim } from '../contract.ts';
import type { GymnasiumRobot } from '../mujoco-common/behaviour.ts';
import { MUJOCO_PPO } from '../mujoco-common/ppo.ts';
import { UPRIGHT_TORSO_XZ_ANGLE } from '../mujoco-common/recorded.ts';
import { BUILT_IN_DIR } from '../task-files.ts';
import { Walker2dEnv, MAX_EPISODE_STEPS } from './environment.ts';
import { WALKER2D_RENDERER, WALKER2D_RENDERER_ANY_ENDING } from './render.ts';
import { ENVIRONMENT_REWARD } from './rewards.ts';
import { WALKER2D_BANK } from './bank-policies.ts';

const ANGLES = [-2.6, 0] as const;

export const WALKER2D_OBSERVATION: readonly ObservationDim[] = [
  { name: 'torso height z (m)', low: -Infinity, high: Infinity, typical: [0.8, 1.5] },
  { name: 'torso angle (rad)', low: -Infinity, high: Infinity, typical: [-1, 1] },
  { name: 'right thigh joint angle (rad)', low: -Infinity, high: Infinity, typical: ANGLES },
  { name: 'right leg joint angle (rad)', low: -Infinity, high: Infinity, typical: ANGLES },
  { name: 'right foot joint angle (rad)', low: -Infinity, high: Infinity, typical: [-0.8, 0.8] },
  { name: 'left thigh joint angle (rad)', low: -Infinity, high: Infinity, typical: ANGLES },
  { name: 'left leg joint angle (rad)', low: -Infinity, high: Infinity, typical: ANGLES },
  { name: 'left foot joint angle (rad)', low: -Infinity, high: Infinity, typical: [-0.8, 0.8] },
  { name: 'torso x velocity (m/s)', low: -10, high: 10, typical: [-2, 5] },
  { name: 'torso z velocity (m/s)', low: -10, high: 10, typical: [-3, 3] },
  { name: 'torso angular velocity (rad/s)', low: -10, high: 10, typical: [-5, 5] },
  { name: 'right thigh hinge angular velocity (rad/s)', low: -10, high: 10, typical: [-10, 10] },
  { name: 'right leg hinge angular velocity (rad/s)', low: -10, high: 10, typical: [-10, 10] },
  { name: 'right foot hinge angular velocity (rad/s)', low: -10, high: 10, typical: [-10, 10] },
  { name: 'left thigh hinge angular velocity (rad/s)', low: -10, high: 10, typical: [-10, 10] },
  { name: 'left leg hinge angular velocity (rad/s)', low: -10, high: 10, typical: [-10, 10] },
  { name: 'left foot hinge angular velocity (rad/s)', low: -10, high: 10, typical: [-10, 10] },
];

export const WALKER2D_ACTION: ActionSpace = {
  kind: 'box',
  names: ['right thigh torque', 'right leg torque', 'right foot torque', 'left thigh torque', 'left leg torque', 'left foot torque'],
  low: [-1, -1, -1, -1, -1, -1],
  high: [1, 1, 1, 1, 1, 1],
};

export const WALKER2D: GymnasiumRobot = {
  name: 'Walker2d',
  task: 'Walker2d-v5',
  describe: 'a two-dimensional two-legged robot in the x-z plane: a torso and two legs of thigh, leg and foot (right: thigh, leg, foot; left: thigh_left, leg_left, foot_left), six hinges with a motor each; the torso\'s x, height and angle (qpos[0..2]) leave it free to move and turn in the plane.',
  env: Walker2dEnv,
  environmentFile: join(BUILT_IN_DIR, 'walker2d', 'environment.ts'),
  observation: WALKER2D_OBSERVATION,
  recorded: UPRIGHT_TORSO_XZ_ANGLE,
  action: WALKER2D_ACTION,
  maxEpisodeSteps: MAX_EPISODE_STEPS,
  ppo: MUJOCO_PPO,
  render: WALKER2D_RENDERER,
  renderAnyEnding: WALKER2D_RENDERER_ANY_ENDING,
  environmentReward: ENVIRONMENT_REWARD,
  bankPolicies: WALKER2D_BANK.policies ?? [],
};
