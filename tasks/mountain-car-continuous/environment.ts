/**
 * MountainCarContinuous-v0, as Gymnasium 1.4.0 defines it
 * (gymnasium/envs/classic_control/continuous_mountain_car.py).
 *
 * ## Description
 * The Mountain Car MDP is a deterministic MDP that consists of a car placed stochastically at the
 * bottom of a sinusoidal valley, with the only possible actions being the accelerations that can
 * be applied to the car in either direction. The goal of the MDP is to strategically accelerate
 * the car to reach the goal state on top of the right hill. This version is the one with
 * continuous actions.
 *
 * ## Observation space: Box(2), float32
 * | Num | Observation                          | Min   | Max  |
 * |-----|--------------------------------------|-------|------|
 * | 0   | position of the car along the x-axis | -1.2  | 0.6  |
 * | 1   | velocity of the car                  | -0.07 | 0.07 |
 * The track's height at position x is sin(3x).
 *
 * ## Action space: Box(-1.0, 1.0, (1,)), float32
 * The action is the directional force applied on the car. It is clipped in the range [-1, 1] and
 * multiplied by a power of 0.0015.
 *
 * ## Transition dynamics
 * velocity += force * POWER - 0.0025 * cos(3 * position), clipped to ±MAX_SPEED;
 * position += velocity, clipped to [MIN_POSITION, MAX_POSITION]. The collisions at either end are
 * inelastic (the left wall sets the velocity to 0). Force is the action clipped to [-1, 1].
 *
 * reward:begin (left out of what the model reads)
 * ## Reward
 * A negative reward of -0.1 * action^2 is received at each timestep to penalise for taking actions
 * of large magnitude (the action as sent, before clipping). If the mountain car reaches the goal
 * then a positive reward of +100 is added to the negative reward for that timestep.
 * reward:end
 *
 * ## Starting state
 * Position uniform in [-0.6, -0.4], velocity 0.
 *
 * ## Episode end
 * 1. Termination: position >= 0.45 (the goal position on top of the right hill) with velocity >= 0.
 * 2. Truncation: 999 steps (Gymnasium's TimeLimit, applied by the vector environment).
 */
import type { Random } from '../../core/random.ts';
import { VectorEnv, type StepOutcome } from '../vector-env.ts';

export const MIN_ACTION = -1.0;
export const MAX_ACTION = 1.0;
export const MIN_POSITION = -1.2;
export const MAX_POSITION = 0.6;
export const MAX_SPEED = 0.07;
export const GOAL_POSITION = 0.45;
export const GOAL_VELOCITY = 0;
export const POWER = 0.0015;
export const GRAVITY = 0.0025;
export const MAX_EPISODE_STEPS = 999;

/** [position, velocity], float64 holding Gymnasium's values (float32 ones after the first step). */
export type MountainCarContinuousState = Float64Array;

const identity = (x: number): number => x;

export class MountainCarContinuousEnv extends VectorEnv<MountainCarContinuousState> {
  constructor(n: number, seed: number) {
    super(n, seed, { obsSize: 2, actionSize: 1, maxEpisodeSteps: MAX_EPISODE_STEPS });
  }

  protected createState(): MountainCarContinuousState {
    return new Float64Array(2);
  }

  protected resetState(s: MountainCarContinuousState, rng: Random): void {
    s[0] = rng.uniform(-0.6, -0.4);
    s[1] = 0;
  }

  protected stepState(s: MountainCarContinuousState, action: Float64Array): StepOutcome {
    let [position, velocity] = s;
    // Gymnasium stores the state as float32 after a step (float64 only after reset), and numpy
    // computes a float32 scalar with a Python float in float32, comparisons included: `round`
    // follows that. A float64 reset state that happens to be float32-exact is taken as float32.
    const round = Math.fround(position) === position && Math.fround(velocity) === velocity ? Math.fround : identity;
    const sent = Math.fround(action[0]); // Gymnasium receives the action as a float32 array
    // min(max(a, -1.0), 1.0) is the float32 itself unless clipped, then the Python float ±1.0.
    const clipped = sent < MIN_ACTION || sent > MAX_ACTION;
    const force = Math.min(Math.max(sent, MIN_ACTION), MAX_ACTION);
    action[0] = force;

    const gravity = GRAVITY * Math.cos(round(3 * position));
    const dv = clipped ? force * POWER - gravity : Math.fround(Math.fround(force * Math.fround(POWER)) - Math.fround(gravity));
    velocity = round(velocity + round(dv));
    if (velocity > round(MAX_SPEED)) velocity = round(MAX_SPEED);
    if (velocity < round(-MAX_SPEED)) velocity = round(-MAX_SPEED);
    position = round(position + velocity);
    if (position > round(MAX_POSITION)) position = round(MAX_POSITION);
    if (position < round(MIN_POSITION)) position = round(MIN_POSITION);
    if (position === round(MIN_POSITION) && velocity < 0) velocity = 0;

    const terminated = position >= round(GOAL_POSITION) && velocity >= GOAL_VELOCITY;
    // reward:begin (left out of what the model reads)
    // Gymnasium charges the action as sent, not the clipped force.
    let reward = terminated ? 100.0 : 0;
    reward -= sent * sent * 0.1;
    // reward:end

    s[0] = Math.fround(position);
    s[1] = Math.fround(velocity);
    return { reward, terminated };
  }

  protected observeState(s: MountainCarContinuousState, out: Float32Array): void {
    out[0] = s[0];
    out[1] = s[1];
  }
}
