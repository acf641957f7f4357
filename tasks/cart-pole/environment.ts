/**
 * CartPole-v1, as Gymnasium 1.4.0 defines it (gymnasium/envs/classic_control/cartpole.py).
 *
 * ## Description
 * This environment corresponds to the version of the cart-pole problem described by Barto,
 * Sutton, and Anderson in "Neuronlike Adaptive Elements That Can Solve Difficult Learning Control
 * Problem". A pole is attached by an un-actuated joint to a cart, which moves along a frictionless
 * track. The pendulum is placed upright on the cart and the goal is to balance the pole by
 * applying forces in the left and right direction on the cart.
 *
 * ## Observation space: Box(4), float32
 * | Num | Observation           | Min                 | Max               |
 * |-----|-----------------------|---------------------|-------------------|
 * | 0   | Cart Position         | -4.8                | 4.8               |
 * | 1   | Cart Velocity         | -Inf                | Inf               |
 * | 2   | Pole Angle            | ~ -0.418 rad (-24°) | ~ 0.418 rad (24°) |
 * | 3   | Pole Angular Velocity | -Inf                | Inf               |
 * The cart x-position can take values in (-4.8, 4.8), but the episode terminates if the cart
 * leaves (-2.4, 2.4); the pole angle can be observed in (-0.418, 0.418) radians, but the episode
 * terminates if the angle leaves (-0.2095, 0.2095) (±12°).
 *
 * ## Action space: Discrete(2)
 * - 0: Push cart to the left
 * - 1: Push cart to the right
 * The velocity that is reduced or increased by the applied force is not fixed: it depends on the
 * angle the pole is pointing, as the pole's centre of gravity changes the energy needed to move
 * the cart underneath it.
 *
 * ## Transition dynamics
 * A force of ±FORCE_MAG acts on the cart; the accelerations follow the cart-pole equations of
 * motion (https://coneural.org/florian/papers/05_cart_pole.pdf) and are integrated with explicit
 * Euler over TAU seconds: positions advance by the old velocities, velocities by the accelerations.
 *
 * reward:begin (left out of what the model reads)
 * ## Rewards
 * Since the goal is to keep the pole upright for as long as possible, a reward of +1 is given for
 * every step taken, including the termination step. The reward threshold is 475 for v1 (its
 * register() entry; the manual's text says 500, the time limit).
 * reward:end
 *
 * ## Starting state
 * All observations are assigned a uniformly random value in (-0.05, 0.05).
 *
 * ## Episode end
 * 1. Termination: Pole Angle is greater than ±12°.
 * 2. Termination: Cart Position is greater than ±2.4 (center of the cart reaches the edge of the display).
 * 3. Truncation: 500 steps (Gymnasium's TimeLimit, applied by the vector environment).
 */
import type { Random } from '../../core/random.ts';
import { VectorEnv, type StepOutcome } from '../vector-env.ts';

export const GRAVITY = 9.8;
export const MASSCART = 1.0;
export const MASSPOLE = 0.1;
export const TOTAL_MASS = MASSPOLE + MASSCART;
/** Actually half the pole's length. */
export const LENGTH = 0.5;
export const POLEMASS_LENGTH = MASSPOLE * LENGTH;
export const FORCE_MAG = 10.0;
/** Seconds between state updates. */
export const TAU = 0.02;
/** Angle at which the episode fails: 12 degrees, computed as Gymnasium does. */
export const THETA_THRESHOLD_RADIANS = (12 * 2 * Math.PI) / 360;
export const X_THRESHOLD = 2.4;
/** The observation space's bounds: twice the failure limits, so a failing observation is still inside. */
export const X_BOUND = X_THRESHOLD * 2;
export const THETA_BOUND = THETA_THRESHOLD_RADIANS * 2;
export const RESET_LOW = -0.05;
export const RESET_HIGH = 0.05;
export const MAX_EPISODE_STEPS = 500;

/** [x, x_dot, theta, theta_dot], float64. */
export type CartPoleState = Float64Array;

export class CartPoleEnv extends VectorEnv<CartPoleState> {
  constructor(n: number, seed: number) {
    super(n, seed, { obsSize: 4, actionSize: 1, maxEpisodeSteps: MAX_EPISODE_STEPS });
  }

  protected createState(): CartPoleState {
    return new Float64Array(4);
  }

  protected resetState(s: CartPoleState, rng: Random): void {
    for (let k = 0; k < 4; k++) s[k] = rng.uniform(RESET_LOW, RESET_HIGH);
  }

  protected stepState(s: CartPoleState, action: Float64Array): StepOutcome {
    let [x, xDot, theta, thetaDot] = s;
    const force = action[0] === 1 ? FORCE_MAG : -FORCE_MAG;
    const costheta = Math.cos(theta);
    const sintheta = Math.sin(theta);

    // Gymnasium's expressions term by term, so the float64 results round the same way.
    const temp = (force + POLEMASS_LENGTH * (thetaDot * thetaDot) * sintheta) / TOTAL_MASS;
    const thetaacc = (GRAVITY * sintheta - costheta * temp) /
      (LENGTH * (4.0 / 3.0 - (MASSPOLE * (costheta * costheta)) / TOTAL_MASS));
    const xacc = temp - (POLEMASS_LENGTH * thetaacc * costheta) / TOTAL_MASS;

    // Explicit Euler (Gymnasium's default kinematics_integrator): positions move by the old velocities.
    x = x + TAU * xDot;
    xDot = xDot + TAU * xacc;
    theta = theta + TAU * thetaDot;
    thetaDot = thetaDot + TAU * thetaacc;

    const terminated = x < -X_THRESHOLD || x > X_THRESHOLD || theta < -THETA_THRESHOLD_RADIANS || theta > THETA_THRESHOLD_RADIANS;
    // reward:begin (left out of what the model reads)
    // The vector environment resets after termination, so Gymnasium's "stepped after
    // termination" branch (reward 0) never runs: every step, the terminating one included, pays 1.
    const reward = 1.0;
    // reward:end

    s[0] = x;
    s[1] = xDot;
    s[2] = theta;
    s[3] = thetaDot;
    return { reward, terminated };
  }

  protected observeState(s: CartPoleState, out: Float32Array): void {
    out[0] = s[0];
    out[1] = s[1];
    out[2] = s[2];
    out[3] = s[3];
  }
}
