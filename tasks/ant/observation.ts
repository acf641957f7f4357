/** Ant-v5's 105 observation entries, named as environment.ts's table says (Gymnasium's Box(-inf, inf, (105,))). */
import type { ObservationDim } from '../contract.ts';

const any = (name: string, typical: readonly [number, number]): ObservationDim => ({ name, low: -Infinity, high: Infinity, typical });

/** The leg each hinge pair moves, in qpos order (hip_1/ankle_1 ... hip_4/ankle_4). */
const LEGS = ['front left', 'front right', 'back', 'right back'] as const;
/** Ankle ranges (rad): the front left and right back ankles bend one way, the other two the other. */
const ANKLE: Record<(typeof LEGS)[number], readonly [number, number]> = {
  'front left': [0, 1.3], 'front right': [-1.3, 0], back: [-1.3, 0], 'right back': [0, 1.3],
};
/** MuJoCo's bodies 1-13, whose contact forces the observation ends with. */
const BODIES = ['torso', ...LEGS.flatMap((leg) => [`${leg} hip link`, `${leg} upper leg`, `${leg} lower leg`])];
const COMPONENTS = ['torque x', 'torque y', 'torque z', 'force x', 'force y', 'force z'];

export const ANT_OBSERVATION: readonly ObservationDim[] = [
  any('torso height z (m)', [0.2, 1]),
  any('torso orientation quaternion w', [-1, 1]),
  any('torso orientation quaternion x', [-1, 1]),
  any('torso orientation quaternion y', [-1, 1]),
  any('torso orientation quaternion z', [-1, 1]),
  ...LEGS.flatMap((leg) => [any(`${leg} hip angle (rad)`, [-0.6, 0.6]), any(`${leg} ankle angle (rad)`, ANKLE[leg])]),
  any('torso x velocity (m/s)', [-3, 3]),
  any('torso y velocity (m/s)', [-3, 3]),
  any('torso z velocity (m/s)', [-3, 3]),
  any('torso angular velocity x (rad/s)', [-10, 10]),
  any('torso angular velocity y (rad/s)', [-10, 10]),
  any('torso angular velocity z (rad/s)', [-10, 10]),
  ...LEGS.flatMap((leg) => [any(`${leg} hip angular velocity (rad/s)`, [-20, 20]), any(`${leg} ankle angular velocity (rad/s)`, [-20, 20])]),
  // Hidden from the policy (the reward and the success test read them): seen, normalized or at
  // their ±1 scale, they kept the ant from learning to walk (docs/mujoco.md, "What Ant's policy sees").
  ...BODIES.flatMap((body) => COMPONENTS.map((c) => ({ ...any(`contact ${c} on the ${body} (clipped to ±1)`, [-1, 1]), hidden: true }))),
];
