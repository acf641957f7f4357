/**
 * Acrobot-v1, as Gymnasium 1.4.0 defines it (gymnasium/envs/classic_control/acrobot.py).
 *
 * ## Description
 * The system consists of two links connected linearly to form a chain, with one end of the chain
 * fixed. The joint between the two links is actuated. The goal is to apply torques on the
 * actuated joint to swing the free end of the linear chain above a given height while starting
 * from the initial state of hanging downwards.
 *
 * ## Observation space: Box(6), float32
 * | Num | Observation                  | Min                 | Max               |
 * |-----|------------------------------|---------------------|-------------------|
 * | 0   | Cosine of `theta1`           | -1                  | 1                 |
 * | 1   | Sine of `theta1`             | -1                  | 1                 |
 * | 2   | Cosine of `theta2`           | -1                  | 1                 |
 * | 3   | Sine of `theta2`             | -1                  | 1                 |
 * | 4   | Angular velocity of `theta1` | ~ -12.567 (-4 * pi) | ~ 12.567 (4 * pi) |
 * | 5   | Angular velocity of `theta2` | ~ -28.274 (-9 * pi) | ~ 28.274 (9 * pi) |
 * `theta1` is the angle of the first joint, where an angle of 0 indicates the first link is
 * pointing directly downwards; `theta2` is relative to the angle of the first link (0: both links
 * in line). A state of [1, 0, 1, 0, ..., ...] indicates that both links are pointing downwards.
 * The free end's height above the fixed joint is -cos(theta1) - cos(theta1 + theta2).
 *
 * ## Action space: Discrete(3)
 * - 0: apply -1 torque to the actuated joint
 * - 1: apply 0 torque to the actuated joint
 * - 2: apply 1 torque to the actuated joint
 *
 * ## Transition dynamics
 * The equations of motion of Sutton and Barto's book, integrated with one RK4 step of DT seconds;
 * then both angles are wrapped into [-pi, pi] and the angular velocities clipped to ±4π and ±9π.
 *
 * reward:begin (left out of what the model reads)
 * ## Rewards
 * The goal is to have the free end reach a designated target height in as few steps as possible,
 * and as such all steps that do not reach the goal incur a reward of -1. Achieving the target
 * height results in termination with a reward of 0. The reward threshold is -100.
 * reward:end
 *
 * ## Starting state
 * Each parameter in the underlying state (theta1, theta2, and the two angular velocities) is
 * initialized uniformly between -0.1 and 0.1 (as float32). Both links point downwards.
 *
 * ## Episode end
 * 1. Termination: the free end reaches the target height: -cos(theta1) - cos(theta2 + theta1) > 1.0.
 * 2. Truncation: 500 steps (Gymnasium's TimeLimit, applied by the vector environment).
 */
import type { Random } from '../../core/random.ts';
import { VectorEnv, type StepOutcome } from '../vector-env.ts';

export const DT = 0.2;
export const LINK_LENGTH_1 = 1.0;
export const LINK_LENGTH_2 = 1.0;
export const LINK_MASS_1 = 1.0;
export const LINK_MASS_2 = 1.0;
/** Position of the centre of mass of each link along it. */
export const LINK_COM_POS_1 = 0.5;
export const LINK_COM_POS_2 = 0.5;
/** Moment of inertia of both links. */
export const LINK_MOI = 1.0;
export const GRAVITY = 9.8;
export const MAX_VEL_1 = 4 * Math.PI;
export const MAX_VEL_2 = 9 * Math.PI;
export const AVAIL_TORQUE = [-1.0, 0.0, 1.0] as const;
export const TARGET_HEIGHT = 1.0;
export const RESET_LOW = -0.1;
export const RESET_HIGH = 0.1;
export const MAX_EPISODE_STEPS = 500;

/** [theta1, theta2, dtheta1, dtheta2], float64. */
export type AcrobotState = Float64Array;

/** Gymnasium's _dsdt (the book's equations) at y = [theta1, theta2, dtheta1, dtheta2, torque]. */
function dsdt(y: readonly number[]): number[] {
  const [m1, m2, l1, lc1, lc2, I1, I2, g] = [LINK_MASS_1, LINK_MASS_2, LINK_LENGTH_1, LINK_COM_POS_1, LINK_COM_POS_2, LINK_MOI, LINK_MOI, GRAVITY];
  const [theta1, theta2, dtheta1, dtheta2, a] = y;
  // Term by term as Gymnasium writes them: float64 rounds the same only in the same order.
  const d1 = m1 * lc1 ** 2 + m2 * (l1 ** 2 + lc2 ** 2 + 2 * l1 * lc2 * Math.cos(theta2)) + I1 + I2;
  const d2 = m2 * (lc2 ** 2 + l1 * lc2 * Math.cos(theta2)) + I2;
  const phi2 = m2 * lc2 * g * Math.cos(theta1 + theta2 - Math.PI / 2.0);
  const phi1 = -m2 * l1 * lc2 * (dtheta2 * dtheta2) * Math.sin(theta2)
    - 2 * m2 * l1 * lc2 * dtheta2 * dtheta1 * Math.sin(theta2)
    + (m1 * lc1 + m2 * l1) * g * Math.cos(theta1 - Math.PI / 2)
    + phi2;
  const ddtheta2 = (a + (d2 / d1) * phi1 - m2 * l1 * lc2 * (dtheta1 * dtheta1) * Math.sin(theta2) - phi2) /
    (m2 * lc2 ** 2 + I2 - (d2 * d2) / d1);
  const ddtheta1 = -(d2 * ddtheta2 + phi1) / d1;
  return [dtheta1, dtheta2, ddtheta1, ddtheta2, 0.0];
}

/** Gymnasium's rk4 over t = [0, DT]: one step, the torque carried along as a fifth component. */
function rk4(y0: readonly number[]): number[] {
  const dt = DT - 0;
  const dt2 = dt / 2.0;
  const k1 = dsdt(y0);
  const k2 = dsdt(y0.map((v, k) => v + dt2 * k1[k]));
  const k3 = dsdt(y0.map((v, k) => v + dt2 * k2[k]));
  const k4 = dsdt(y0.map((v, k) => v + dt * k3[k]));
  return y0.map((v, k) => v + (dt / 6.0) * (k1[k] + 2 * k2[k] + 2 * k3[k] + k4[k]));
}

/** Gymnasium's wrap: shifts x by whole turns until m <= x <= M. */
function wrap(x: number, m: number, M: number): number {
  const diff = M - m;
  while (x > M) x = x - diff;
  while (x < m) x = x + diff;
  return x;
}

/** Gymnasium's bound: clips x to [m, M]. */
function bound(x: number, m: number, M: number): number {
  return Math.min(Math.max(x, m), M);
}

export class AcrobotEnv extends VectorEnv<AcrobotState> {
  constructor(n: number, seed: number) {
    super(n, seed, { obsSize: 6, actionSize: 1, maxEpisodeSteps: MAX_EPISODE_STEPS });
  }

  protected createState(): AcrobotState {
    return new Float64Array(4);
  }

  protected resetState(s: AcrobotState, rng: Random): void {
    // Gymnasium casts the drawn start state to float32.
    for (let k = 0; k < 4; k++) s[k] = Math.fround(rng.uniform(RESET_LOW, RESET_HIGH));
  }

  protected stepState(s: AcrobotState, action: Float64Array): StepOutcome {
    const torque = AVAIL_TORQUE[action[0]];
    const ns = rk4([s[0], s[1], s[2], s[3], torque]);
    s[0] = wrap(ns[0], -Math.PI, Math.PI);
    s[1] = wrap(ns[1], -Math.PI, Math.PI);
    s[2] = bound(ns[2], -MAX_VEL_1, MAX_VEL_1);
    s[3] = bound(ns[3], -MAX_VEL_2, MAX_VEL_2);

    const terminated = -Math.cos(s[0]) - Math.cos(s[1] + s[0]) > TARGET_HEIGHT;
    // reward:begin (left out of what the model reads)
    const reward = terminated ? 0.0 : -1.0;
    // reward:end
    return { reward, terminated };
  }

  protected observeState(s: AcrobotState, out: Float32Array): void {
    out[0] = Math.cos(s[0]);
    out[1] = Math.sin(s[0]);
    out[2] = Math.cos(s[1]);
    out[3] = Math.sin(s[1]);
    out[4] = s[2];
    out[5] = s[3];
  }
}
