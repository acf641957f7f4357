/**
 * Swimmer-v5's robot, as its task and the behaviours that reuse it (mujoco-common/behaviour.ts)
 * see it: the observation and actions Gymnasium gives it, what it records, its environment and
 * its own reward. It has no healthy test: nothing ends its episodes unless a behaviour's
 * overrides give healthy ranges.
 */
import { join } from 'node:path';
import type { ActionSpace, ObservationDim, RecordedDim } from '../contract.ts';
import type { GymnasiumRobot } from '../mujoco-common/behaviour.ts';
import { MUJOCO_PPO } from '../mujoco-common/ppo.ts';
import { BUILT_IN_DIR } from '../task-files.ts';
import { MAX_EPISODE_STEPS, SwimmerEnv } from './environment.ts';
import { SWIMMER_BANK } from './bank-policies.ts';
import { SWIMMER_RENDERER } from './render.ts';
import { ENVIRONMENT_REWARD } from './rewards.ts';

export const SWIMMER_OBSERVATION: readonly ObservationDim[] = [
  { name: 'torso heading (rad)', low: -Infinity, high: Infinity, typical: [-1.5, 1.5] },
  { name: 'first hinge angle (rad)', low: -Infinity, high: Infinity, typical: [-1.7, 1.7] },
  { name: 'second hinge angle (rad)', low: -Infinity, high: Infinity, typical: [-1.7, 1.7] },
  { name: 'torso x velocity (m/s)', low: -Infinity, high: Infinity, typical: [-0.5, 0.5] },
  { name: 'torso y velocity (m/s)', low: -Infinity, high: Infinity, typical: [-0.5, 0.5] },
  { name: 'torso angular velocity (rad/s)', low: -Infinity, high: Infinity, typical: [-2, 2] },
  { name: 'first hinge angular velocity (rad/s)', low: -Infinity, high: Infinity, typical: [-4, 4] },
  { name: 'second hinge angular velocity (rad/s)', low: -Infinity, high: Infinity, typical: [-4, 4] },
];

export const SWIMMER_RECORDED: readonly RecordedDim[] = [
  { name: 'torso x (m), qpos[0]: forward from the origin' },
  { name: 'torso y (m), qpos[1]: to the left of the origin' },
  { name: 'torso heading (rad), qpos[2]: a hinge, so it keeps counting past ±π (the observation\'s entry 0 too)' },
];

export const SWIMMER_ACTION: ActionSpace = { kind: 'box', names: ['first hinge torque', 'second hinge torque'], low: [-1, -1], high: [1, 1] };

export const SWIMMER: GymnasiumRobot = {
  name: 'Swimmer',
  task: 'Swimmer-v5',
  describe: 'a three-segment swimmer on the surface of a viscous fluid, seen from above: three capsules in a chain (torso, mid, back) joined by two hinges with a motor each (motor1_rot, motor2_rot); the torso\'s x, y and heading (qpos[0..2], two slides and a hinge) leave it free to move and turn in the horizontal plane.',
  env: SwimmerEnv,
  environmentFile: join(BUILT_IN_DIR, 'swimmer', 'environment.ts'),
  observation: SWIMMER_OBSERVATION,
  recorded: SWIMMER_RECORDED,
  action: SWIMMER_ACTION,
  maxEpisodeSteps: MAX_EPISODE_STEPS,
  ppo: MUJOCO_PPO,
  render: SWIMMER_RENDERER,
  environmentReward: ENVIRONMENT_REWARD,
  bankPolicies: SWIMMER_BANK.policies ?? [],
};
