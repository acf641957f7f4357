/**
 * Pendulum-v1, as Gymnasium 1.4.0 defines it (gymnasium/envs/classic_control/pendulum.py).
 *
 * ## Description
 * The inverted pendulum swingup problem is based on the classic problem in control theory. The
 * system consists of a pendulum attached at one end to a fixed point, and the other end being
 * free. The pendulum starts in a random position and the goal is to apply torque on the free end
 * to swing it into an upright position, with its center of gravity right above the fixed point.
 * - theta: angle in radians, 0 upright, positive counter-clockwise.
 * - tau: torque in N m, positive counter-clockwise.
 *
 * ## Observation space: Box(3), float32
 * | Num | Observation      | Min  | Max |
 * |-----|------------------|------|-----|
 * | 0   | x = cos(theta)   | -1.0 | 1.0 |
 * | 1   | y = sin(theta)   | -1.0 | 1.0 |
 * | 2   | Angular Velocity | -8.0 | 8.0 |
 *
 * ## Action space: Box(-2.0, 2.0, (1,)), float32
 * | Num | Action | Min  | Max |
 * |-----|--------|------|-----|
 * | 0   | Torque | -2.0 | 2.0 |
 * The torque is clipped to [-MAX_TORQUE, MAX_TORQUE].
 *
 * ## Transition dynamics
 * thdot += (3 g / (2 l) * sin(theta) + 3 / (m l^2) * torque) * dt, clipped to ±MAX_SPEED;
 * theta += thdot * dt (theta itself is not wrapped; the observation's cos and sin are).
 *
 * reward:begin (left out of what the model reads)
 * ## Rewards
 * r = -(theta^2 + 0.1 * theta_dt^2 + 0.001 * torque^2), where theta is the pendulum's angle
 * normalized between [-pi, pi] (with 0 being in the upright position), taken before the step.
 * The minimum reward is -(pi^2 + 0.1 * 8^2 + 0.001 * 2^2) = -16.2736044; the maximum is zero
 * (pendulum upright with zero velocity and no torque applied).
 * reward:end
 *
 * ## Starting state
 * A random angle in [-pi, pi] and a random angular velocity in [-1, 1].
 *
 * ## Episode end
 * 1. Termination: never.
 * 2. Truncation: 200 steps (Gymnasium's TimeLimit, applied by the vector environment).
 */
import type { Random } from '../../core/random.ts';
import { VectorEnv, type StepOutcome } from '../vector-env.ts';

export const MAX_SPEED = 8;
export const MAX_TORQUE = 2.0;
export const DT = 0.05;
export const G = 10.0;
export const M = 1.0;
export const L = 1.0;
export const MAX_EPISODE_STEPS = 200;
// Not Gymnasium's (it has no reward threshold for Pendulum): this project's success test holds
// the pendulum within UPRIGHT_ANGLE rad of upright for the last HOLD_STEPS steps.
export const UPRIGHT_ANGLE = 0.2;
export const HOLD_STEPS = 100;

/** [theta, thdot], float64; theta is not wrapped. */
export type PendulumState = Float64Array;

/** Gymnasium's angle_normalize: ((x + pi) % (2 pi)) - pi, with Python's floor modulo (JavaScript's % keeps the sign of x). */
export function angleNormalize(x: number): number {
  let mod = (x + Math.PI) % (2 * Math.PI);
  if (mod < 0) mod += 2 * Math.PI;
  return mod - Math.PI;
}

export class PendulumEnv extends VectorEnv<PendulumState> {
  constructor(n: number, seed: number) {
    super(n, seed, { obsSize: 3, actionSize: 1, maxEpisodeSteps: MAX_EPISODE_STEPS });
  }

  protected createState(): PendulumState {
    return new Float64Array(2);
  }

  protected resetState(s: PendulumState, rng: Random): void {
    s[0] = rng.uniform(-Math.PI, Math.PI);
    s[1] = rng.uniform(-1, 1);
  }

  protected stepState(s: PendulumState, action: Float64Array): StepOutcome {
    const [th, thdot] = s;
    // Gymnasium gets the torque as a float32 array; np.clip keeps it float32 (±2 are exact).
    const u = Math.min(Math.max(Math.fround(action[0]), -MAX_TORQUE), MAX_TORQUE);
    action[0] = u;

    // reward:begin (left out of what the model reads)
    // numpy: u**2 and 0.001 * u**2 stay float32 (a float32 scalar with a Python float).
    const costs = angleNormalize(th) * angleNormalize(th) + 0.1 * (thdot * thdot) + Math.fround(Math.fround(0.001) * Math.fround(u * u));
    const reward = -costs;
    // reward:end

    // 3 g / (2 l) = 15 in float64; 3 / (m l^2) * u is float32 in numpy, as above.
    let newthdot = thdot + ((3 * G) / (2 * L) * Math.sin(th) + Math.fround((3.0 / (M * L * L)) * u)) * DT;
    newthdot = Math.min(Math.max(newthdot, -MAX_SPEED), MAX_SPEED);
    const newth = th + newthdot * DT;

    s[0] = newth;
    s[1] = newthdot;
    return { reward, terminated: false };
  }

  protected observeState(s: PendulumState, out: Float32Array): void {
    out[0] = Math.cos(s[0]);
    out[1] = Math.sin(s[0]);
    out[2] = s[1];
  }
}
