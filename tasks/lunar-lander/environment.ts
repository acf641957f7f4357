/**
 * LunarLander-v3 (discrete actions), as Gymnasium 1.4.0 defines it
 * (gymnasium/envs/box2d/lunar_lander.py), simulated with Box2D 2.3 in float32 (a port of the
 * pybox2d build Gymnasium runs: recorded episodes replay bit for bit). The physics it shares with
 * LunarLanderContinuous-v3 is in ../lunar-lander-common/physics.ts; this file gives the actions.
 *
 * ## Description
 * A rocket-trajectory problem: a lander starts at the top centre of a 20 x 13.3 m world with a
 * random initial push and falls under gravity (-10 m/s²). The landing pad is always at the
 * observation's origin (x = 0, y = 0), from x = -0.2 to 0.2; the moon's surface around it is random
 * (11 chunks, the middle ones flattened into the pad). Landing outside the pad is possible. Fuel is
 * infinite.
 *
 * ## Physics (Box2D, 50 steps per second, world.Step(1/50, 180, 60))
 * - The lander body: a polygon (34 x 27 px, 30 px per metre), density 5, friction 0.1; it collides
 *   only with the ground.
 * - Two legs (boxes, density 1, 20 px to each side) hang from revolute joints whose motors
 *   (torque 40, speed ±0.3) press them down against their joint limits: springs that give a little
 *   when the lander sets down on them. A leg touching the ground sets that leg's contact value; the
 *   lander's body touching the ground is a crash.
 * - Every step two dispersions u0, u1 are drawn uniformly in [-1/30, 1/30].
 * - Main engine: an impulse of 13 * power (power 1 here) along the lander's own up axis, applied
 *   4 px below the body's origin (± the dispersion), so it pushes the lander "up" in its frame
 *   (and tilts it a little, at random).
 * - Orientation engines: an impulse of 0.6 * power, applied 12 px to one side and high on the body.
 *   The left engine (action 1) pushes the lander to the left and turns it counter-clockwise (angle
 *   increases); the right engine (action 3) pushes it right and turns it clockwise. The push
 *   point moves with the tilt (a known Gymnasium quirk: 17 px where 14 was meant).
 * - Per step, in observation units (upright lander): gravity lowers the vertical velocity (obs 3)
 *   by about 0.027; the main engine at full power raises it by about 0.047 (net +0.020); an
 *   orientation engine changes the horizontal velocity (obs 2) by about ±0.010 and the angular
 *   velocity (obs 5) by about ±0.04.
 *
 * ## Observation space: Box(8), float32
 * | Num | Observation                                   | Formula (Box2D values, metres)            | Bounds  |
 * |-----|-----------------------------------------------|-------------------------------------------|---------|
 * | 0   | horizontal position (pad centre 0, edges ±1)  | (x - 10) / 10                             | ±2.5    |
 * | 1   | height above the pad (legs' length removed)   | (y - (13.33/4 + 18/30)) / 6.67            | ±2.5    |
 * | 2   | horizontal velocity                           | vx * 10 / 50                              | ±10     |
 * | 3   | vertical velocity                             | vy * 6.67 / 50                            | ±10     |
 * | 4   | angle (radians, 0 upright, positive = counter-clockwise) | angle                          | ±2π     |
 * | 5   | angular velocity                              | 20 * ω / 50                               | ±10     |
 * | 6   | 1 if the right leg (+x side) touches ground   | Gymnasium's legs[0].ground_contact        | 0..1    |
 * | 7   | 1 if the left leg touches the ground, else 0  | legs[1].ground_contact                    | 0..1    |
 * The pad's edges are at x = ±0.2. Resting on the pad, y is about 0 and the legs are usually 1
 * (a leg resting across two terrain segments can read 0: Gymnasium's contact detector clears
 * the value when either of its two contacts ends).
 *
 * ## Action space: Discrete(4)
 * - 0: do nothing
 * - 1: fire the left orientation engine
 * - 2: fire the main engine
 * - 3: fire the right orientation engine
 *
 * ## Starting state
 * The lander at the top centre (x = 0, y about 1.4) with a random force of up to ±1000 N on each
 * axis for the first step; the observation after one no-op step is the first one.
 *
 * ## Episode end
 * 1. Termination: the lander's body touches the ground (a crash), or |x| >= 1 (out of the world).
 * 2. Termination: the lander comes to rest: Box2D puts it to sleep once its speed stayed below
 *    0.01 m/s and 2°/s for 0.5 s; the velocities in that observation are exactly 0.
 * 3. Truncation: 1000 steps (Gymnasium's TimeLimit, applied by the vector environment).
 */
import { LunarLanderEnv, type EngineFactory, type Throttle } from '../lunar-lander-common/physics.ts';

export const ACTION_NAMES = ['do nothing', 'fire left engine', 'fire main engine', 'fire right engine'] as const;

export class LunarLanderDiscreteEnv extends LunarLanderEnv {
  constructor(n: number, seed: number, engine?: EngineFactory) {
    super(n, seed, 1, engine);
  }

  protected throttle(action: Float64Array, out: Throttle): void {
    const a = action[0];
    if (!(a === 0 || a === 1 || a === 2 || a === 3)) throw new RangeError(`LunarLander-v3: action ${a} is not one of 0, 1, 2, 3`);
    out.main = a === 2 ? 1.0 : 0.0;
    out.side = a === 1 || a === 3 ? 1.0 : 0.0;
    // Action 1 is the left engine, 3 the right one.
    out.direction = a - 2;
  }

  protected noop(): Float64Array {
    return new Float64Array([0]);
  }
}
