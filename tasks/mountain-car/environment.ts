/**
 * MountainCar-v0, as Gymnasium 1.4.0 defines it (gymnasium/envs/classic_control/mountain_car.py).
 *
 * ## Description
 * A car is placed at the bottom of a sinusoidal valley; the only actions are accelerations to the
 * left or the right. The goal is to reach the flag on top of the right hill. The engine is too
 * weak to drive straight up: the car has to swing back and forth to build up momentum.
 *
 * ## Observation space: Box(2), float32
 * | Num | Observation                          | Min   | Max  |
 * |-----|--------------------------------------|-------|------|
 * | 0   | position of the car along the x-axis | -1.2  | 0.6  |
 * | 1   | velocity of the car                  | -0.07 | 0.07 |
 * The track's height at position x is sin(3x).
 *
 * ## Action space: Discrete(3)
 * - 0: accelerate to the left
 * - 1: don't accelerate
 * - 2: accelerate to the right
 *
 * ## Transition dynamics
 * velocity += (action - 1) * FORCE - cos(3 * position) * GRAVITY, clipped to ±MAX_SPEED;
 * position += velocity, clipped to [MIN_POSITION, MAX_POSITION]; the left wall is inelastic
 * (velocity set to 0 when the car hits it moving left).
 *
 * ## Starting state
 * Position uniform in [-0.6, -0.4), velocity 0.
 *
 * ## Episode end
 * 1. Termination: position >= 0.5 (the flag) with velocity >= 0.
 * 2. Truncation: 200 steps (Gymnasium's TimeLimit, applied by the vector environment).
 */
import type { Random } from '../../core/random.ts';
import { VectorEnv, type StepOutcome } from '../vector-env.ts';

export const MIN_POSITION = -1.2;
export const MAX_POSITION = 0.6;
export const MAX_SPEED = 0.07;
export const GOAL_POSITION = 0.5;
export const GOAL_VELOCITY = 0;
export const FORCE = 0.001;
export const GRAVITY = 0.0025;
export const MAX_EPISODE_STEPS = 200;

/** [position, velocity], float64. */
export type MountainCarState = Float64Array;

export class MountainCarEnv extends VectorEnv<MountainCarState> {
  constructor(n: number, seed: number) {
    super(n, seed, { obsSize: 2, actionSize: 1, maxEpisodeSteps: MAX_EPISODE_STEPS });
  }

  protected createState(): MountainCarState {
    return new Float64Array(2);
  }

  protected resetState(s: MountainCarState, rng: Random): void {
    s[0] = rng.uniform(-0.6, -0.4);
    s[1] = 0;
  }

  protected stepState(s: MountainCarState, action: Float64Array): StepOutcome {
    let [position, velocity] = s;
    velocity += (action[0] - 1) * FORCE + Math.cos(3 * position) * -GRAVITY;
    velocity = Math.min(Math.max(velocity, -MAX_SPEED), MAX_SPEED);
    position += velocity;
    position = Math.min(Math.max(position, MIN_POSITION), MAX_POSITION);
    if (position === MIN_POSITION && velocity < 0) velocity = 0;

    const terminated = position >= GOAL_POSITION && velocity >= GOAL_VELOCITY;
    // reward:begin (left out of what the model reads)
    const reward = -1.0;
    // reward:end

    s[0] = position;
    s[1] = velocity;
    return { reward, terminated };
  }

  protected observeState(s: MountainCarState, out: Float32Array): void {
    out[0] = s[0];
    out[1] = s[1];
  }
}
