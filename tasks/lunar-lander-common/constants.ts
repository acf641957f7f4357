/** Gymnasium 1.4.0's lunar_lander.py constants (no wind, its default). */
export const FPS = 50;
/** Pixels per metre: Gymnasium's world is 20 x 13.3 metres. */
export const SCALE = 30.0;
export const MAIN_ENGINE_POWER = 13.0;
export const SIDE_ENGINE_POWER = 0.6;
export const INITIAL_RANDOM = 1000.0;
export const LANDER_POLY: ReadonlyArray<readonly [number, number]> = [[-14, +17], [-17, 0], [-17, -10], [+17, -10], [+17, 0], [+14, +17]];
export const LEG_AWAY = 20;
export const LEG_DOWN = 18;
export const LEG_W = 2;
export const LEG_H = 8;
export const LEG_SPRING_TORQUE = 40;
export const SIDE_ENGINE_HEIGHT = 14;
export const SIDE_ENGINE_AWAY = 12;
export const MAIN_ENGINE_Y_LOCATION = 4;
export const VIEWPORT_W = 600;
export const VIEWPORT_H = 400;
export const GRAVITY = -10.0;
export const CHUNKS = 11;
/** The world's width and height in metres. */
export const W = VIEWPORT_W / SCALE;
export const H = VIEWPORT_H / SCALE;
export const HELIPAD_Y = H / 4;
export const MAX_EPISODE_STEPS = 1000;
/** Box2D's world.Step(1/FPS, 6*30, 2*30). */
export const VELOCITY_ITERATIONS = 6 * 30;
export const POSITION_ITERATIONS = 2 * 30;
export const OBS_SIZE = 8;

/** Gymnasium's observation bounds (v3). */
export const OBS_LOW = [-2.5, -2.5, -10, -10, -2 * Math.PI, -10, 0, 0] as const;
export const OBS_HIGH = [2.5, 2.5, 10, 10, 2 * Math.PI, 10, 1, 1] as const;
