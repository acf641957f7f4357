/**
 * LunarLanderContinuous-v3, as Gymnasium 1.4.0 defines it (gymnasium/envs/box2d/lunar_lander.py,
 * continuous=True), simulated with Box2D 2.3 in float32 (a port of the pybox2d build Gymnasium
 * runs: recorded episodes replay bit for bit). The physics it shares with LunarLander-v3 is in
 * ../lunar-lander-common/physics.ts; this file gives the actions: two throttles.
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
 * - Main engine: an impulse of 13 * main power (0.5..1, see the action space) along the lander's
 *   own up axis, applied 4 px below the body's origin (± the dispersion), so it pushes the lander
 *   "up" in its frame (and tilts it a little, at random).
 * - Orientation engines: an impulse of 0.6 * side power (0.5..1), applied 12 px to one side and
 *   high on the body. The left engine (lateral < -0.5) pushes the lander to the left and turns it
 *   counter-clockwise (angle increases); the right engine (lateral > 0.5) pushes it right and
 *   turns it clockwise. The push point moves with the tilt (a known Gymnasium quirk: 17 px where
 *   14 was meant).
 * - Per step, in observation units (upright lander): gravity lowers the vertical velocity (obs 3)
 *   by about 0.027; the main engine at full power (main = 1) raises it by about 0.047 (net
 *   +0.020); an orientation engine at full power changes the horizontal velocity (obs 2) by about
 *   ±0.010 and the angular velocity (obs 5) by about ±0.04.
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
 * ## Action space: Box(-1, 1, (2,)), float32; clipped to [-1, 1]
 * - action[0], main engine: off for main <= 0; for 0 < main <= 1 it fires at power (main + 1) / 2,
 *   from 50% to 100% (it cannot run below 50%).
 * - action[1], lateral engines: off for -0.5 <= lateral <= 0.5; below -0.5 the left engine fires,
 *   above 0.5 the right one, at power |lateral| (50% to 100%).
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

export const ACTION_NAMES = ['main engine', 'lateral engine'] as const;

export class LunarLanderContinuousEnv extends LunarLanderEnv {
  constructor(n: number, seed: number, engine?: EngineFactory) {
    super(n, seed, 2, engine);
  }

  protected throttle(action: Float64Array, out: Throttle): void {
    // np.clip(action, -1, +1): what the environment applied.
    action[0] = Math.min(Math.max(action[0], -1), 1);
    action[1] = Math.min(Math.max(action[1], -1), 1);
    const main = action[0];
    const lateral = action[1];
    out.main = main > 0.0 ? (Math.min(Math.max(main, 0.0), 1.0) + 1.0) * 0.5 : 0.0; // 0.5..1.0
    const away = Math.abs(lateral);
    out.side = away > 0.5 ? Math.min(Math.max(away, 0.5), 1.0) : 0.0; // 0.5..1.0
    out.direction = Math.sign(lateral);
  }

  protected noop(): Float64Array {
    return new Float64Array([0, 0]);
  }
}
