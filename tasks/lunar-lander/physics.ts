/**
 * LunarLander's physics, shared by LunarLander-v3 (tasks/lunar-lander) and
 * LunarLanderContinuous-v3 (tasks/lunar-lander-continuous): a port of Gymnasium 1.4.0's
 * gymnasium/envs/box2d/lunar_lander.py (no wind, its default) onto planck, the TypeScript
 * rewrite of Box2D. Each variant's environment.ts maps its action to engine throttles
 * (`throttle`); everything else is here, in Gymnasium's order.
 *
 * Random numbers: every value the environment draws goes through one `Uniform` source per copy,
 * in Gymnasium's call order (reset: 12 terrain heights, the 2 components of the initial force,
 * then the 2 dispersions of reset's no-op step; every step: its 2 dispersions). In normal use the
 * source is the VectorEnv's seeded generator; a replay injects the draws a recording made.
 *
 * Box2D 2.3.10 computes in float32, planck in float64: fed the recorded draws, a replay follows
 * Gymnasium's free flight to within 1e-4 in the observation (test/task-lunar-lander.test.ts);
 * contacts can amplify the difference, though the 12 recorded episodes also land (or crash) on
 * the same step with the same ending.
 *
 * Two details that matter: pybox2d's revoluteJointDef sets referenceAngle to bodyB.angle -
 * bodyA.angle when it is not given (Box2D's C++ default is 0; the legs start at ±0.05 rad, so
 * with 0 they reach their limits 8 steps early), and Python's height[i - 1] at i = 0 smooths the
 * first chunk with the last of the 12 heights.
 */
import { Box, Edge, Polygon, RevoluteJoint, World, type Body, type Contact, type Vec2Value } from 'planck';
import type { Random } from '../../core/random.ts';
import { VectorEnv, type StepOutcome } from '../vector-env.ts';

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

/** numpy's Generator.uniform(low, high): the one source of randomness of a copy. */
export type Uniform = (low: number, high: number) => number;

/** What the engines do in one step, from the action: Gymnasium's m_power, s_power and direction. */
export interface Throttle {
  /** Main engine: 0 (off) or 0.5..1. */
  main: number;
  /** Side engines: 0 (off) or 0.5..1. */
  side: number;
  /** Which orientation engine: -1 the left one (discrete action 1), +1 the right one (action 3). */
  direction: number;
}

/** The terrain and the pad of one episode (for the card; not in the observation). */
export interface LanderEpisodeInfo {
  /** The terrain's polyline in metres: x from 0 to W in CHUNKS points. */
  terrain: Array<[number, number]>;
  helipad: { x1: number; x2: number; y: number };
  /** The world's size in metres (the observation's x = 0 is its centre). */
  world: { width: number; height: number };
}

/** One copy: its Box2D world and what Gymnasium keeps on the env object. */
export interface LanderState {
  world: World;
  moon: Body;
  lander: Body;
  legs: [Body, Body];
  /** Gymnasium's leg.ground_contact, set by the contact detector. */
  groundContact: [boolean, boolean];
  /** Set when the lander's body touches the moon. */
  gameOver: boolean;
  /** Gymnasium's prev_shaping (NaN: none yet). */
  prevShaping: number;
  helipadX1: number;
  helipadX2: number;
  helipadY: number;
  /** Terrain heights at chunkX. */
  chunkX: Float64Array;
  smoothY: Float64Array;
  /** Gymnasium's float64 `state` list after the last step (observeState rounds it to float32). */
  s: Float64Array;
  /** Injected draws (replay); null: draw from the VectorEnv's generator. */
  uniform: Uniform | null;
  /** Fuel of the last step (m_power, s_power), for tests. */
  lastMain: number;
  lastSide: number;
}

/** The lander body's values in the order of the golden recordings' `lander` record. */
export function landerValues(state: LanderState): number[] {
  const p = state.lander.getPosition();
  const v = state.lander.getLinearVelocity();
  return [p.x, p.y, state.lander.getAngle(), v.x, v.y, state.lander.getAngularVelocity(),
    state.groundContact[0] ? 1 : 0, state.groundContact[1] ? 1 : 0];
}

// Scratch vectors for the impulses: no allocation per step (planck reads them, keeps nothing).
const impulse: Vec2Value = { x: 0, y: 0 };
const point: Vec2Value = { x: 0, y: 0 };

/**
 * Gymnasium's LunarLander on planck: n copies, each its own world. The variant (discrete or
 * continuous) gives `throttle`; nothing it declares as an instance field is needed before its
 * constructor ends (VectorEnv resets every copy inside super()).
 */
export abstract class LunarLanderEnv extends VectorEnv<LanderState> {
  constructor(n: number, seed: number, actionSize: number) {
    super(n, seed, { obsSize: OBS_SIZE, actionSize, maxEpisodeSteps: MAX_EPISODE_STEPS });
  }

  /** The action's engine throttles; a box action is clipped in place first. */
  protected abstract throttle(action: Float64Array, out: Throttle): void;
  /** The action that fires nothing (reset ends with one such step). */
  protected abstract noop(): Float64Array;

  /** Copy i's terrain and pad, for the card. */
  episodeInfo(i: number): LanderEpisodeInfo {
    const s = this.states[i];
    return {
      terrain: Array.from(s.chunkX, (x, k) => [x, s.smoothY[k]] as [number, number]),
      helipad: { x1: s.helipadX1, x2: s.helipadX2, y: s.helipadY },
      world: { width: W, height: H },
    };
  }

  /**
   * Resets copy i with recorded draws (a replay) and restarts its episode; later steps keep
   * drawing from `uniform` until `useGenerator(i)`.
   */
  resetWith(i: number, uniform: Uniform): void {
    this.states[i].uniform = uniform;
    this.resetState(this.states[i], this.rng);
    this.restartFromState(i);
  }

  /** Copy i draws from the VectorEnv's generator again. */
  useGenerator(i: number): void {
    this.states[i].uniform = null;
  }

  protected createState(): LanderState {
    // A placeholder world: resetState builds the episode's (Gymnasium makes a new world per reset).
    const world = new World({ x: 0, y: GRAVITY });
    const body = world.createBody();
    return {
      world, moon: body, lander: body, legs: [body, body], groundContact: [false, false], gameOver: false,
      prevShaping: NaN, helipadX1: 0, helipadX2: 0, helipadY: HELIPAD_Y,
      chunkX: new Float64Array(CHUNKS), smoothY: new Float64Array(CHUNKS), s: new Float64Array(OBS_SIZE),
      uniform: null, lastMain: 0, lastSide: 0,
    };
  }

  protected resetState(state: LanderState, rng: Random): void {
    const uniform = (low: number, high: number): number => draw(state, rng, low, high);
    const world = new World({ x: 0, y: GRAVITY });
    state.world = world;
    state.gameOver = false;
    state.prevShaping = NaN;
    state.groundContact[0] = false;
    state.groundContact[1] = false;
    // The contact detector.
    world.on('begin-contact', (contact: Contact) => {
      const a = contact.getFixtureA().getBody();
      const b = contact.getFixtureB().getBody();
      if (a === state.lander || b === state.lander) state.gameOver = true;
      for (let k = 0; k < 2; k++) if (a === state.legs[k] || b === state.legs[k]) state.groundContact[k] = true;
    });
    world.on('end-contact', (contact: Contact) => {
      const a = contact.getFixtureA().getBody();
      const b = contact.getFixtureB().getBody();
      for (let k = 0; k < 2; k++) if (a === state.legs[k] || b === state.legs[k]) state.groundContact[k] = false;
    });

    // Terrain: CHUNKS + 1 heights, the five around the middle flattened to the pad, then smoothed
    // (Python's height[i - 1] at i = 0 is the last height).
    const height = new Float64Array(CHUNKS + 1);
    for (let k = 0; k <= CHUNKS; k++) height[k] = uniform(0, H / 2);
    for (let k = 0; k < CHUNKS; k++) state.chunkX[k] = (W / (CHUNKS - 1)) * k;
    const half = Math.floor(CHUNKS / 2);
    state.helipadX1 = state.chunkX[half - 1];
    state.helipadX2 = state.chunkX[half + 1];
    state.helipadY = H / 4;
    for (let k = half - 2; k <= half + 2; k++) height[k] = state.helipadY;
    for (let k = 0; k < CHUNKS; k++) {
      state.smoothY[k] = 0.33 * (height[(k - 1 + height.length) % height.length] + height[k] + height[k + 1]);
    }

    const moon = world.createBody();
    moon.createFixture({ shape: new Edge({ x: 0, y: 0 }, { x: W, y: 0 }) });
    for (let k = 0; k < CHUNKS - 1; k++) {
      const p1 = { x: state.chunkX[k], y: state.smoothY[k] };
      const p2 = { x: state.chunkX[k + 1], y: state.smoothY[k + 1] };
      moon.createFixture({ shape: new Edge(p1, p2), density: 0, friction: 0.1 });
    }
    state.moon = moon;

    // The lander.
    const initialY = VIEWPORT_H / SCALE;
    const initialX = VIEWPORT_W / SCALE / 2;
    const lander = world.createDynamicBody({ position: { x: initialX, y: initialY }, angle: 0 });
    lander.createFixture({
      shape: new Polygon(LANDER_POLY.map(([x, y]) => ({ x: x / SCALE, y: y / SCALE }))),
      density: 5.0, friction: 0.1, filterCategoryBits: 0x0010, filterMaskBits: 0x001, restitution: 0.0,
    });
    state.lander = lander;
    // The initial random push (x drawn before y, as Python evaluates the tuple).
    const fx = uniform(-INITIAL_RANDOM, INITIAL_RANDOM);
    const fy = uniform(-INITIAL_RANDOM, INITIAL_RANDOM);
    lander.applyForceToCenter({ x: fx, y: fy }, true);

    // The legs, on motorized revolute joints with limits.
    for (const [k, i] of [[0, -1], [1, +1]] as const) {
      const leg = world.createDynamicBody({ position: { x: initialX - (i * LEG_AWAY) / SCALE, y: initialY }, angle: i * 0.05 });
      leg.createFixture({
        shape: new Box(LEG_W / SCALE, LEG_H / SCALE),
        density: 1.0, restitution: 0.0, filterCategoryBits: 0x0020, filterMaskBits: 0x001,
      });
      world.createJoint(new RevoluteJoint({
        bodyA: lander, bodyB: leg,
        localAnchorA: { x: 0, y: 0 },
        localAnchorB: { x: (i * LEG_AWAY) / SCALE, y: LEG_DOWN / SCALE },
        // pybox2d's revoluteJointDef sets referenceAngle = bodyB.angle - bodyA.angle (i * 0.05) when
        // it is not given; Box2D's own default would be 0.
        referenceAngle: leg.getAngle() - lander.getAngle(),
        enableMotor: true, enableLimit: true,
        maxMotorTorque: LEG_SPRING_TORQUE,
        motorSpeed: +0.3 * i, // low enough not to jump back into the sky
        lowerAngle: i === -1 ? +0.9 - 0.5 : -0.9,
        upperAngle: i === -1 ? +0.9 : -0.9 + 0.5,
      }));
      state.legs[k] = leg;
    }

    // Gymnasium's reset ends with one no-op step: its observation is the first one.
    this.stepState(state, this.noop());
  }

  protected stepState(state: LanderState, action: Float64Array): StepOutcome {
    const throttle = THROTTLE;
    this.throttle(action, throttle);
    const lander = state.lander;

    // Engines. tip: the lander's up direction; side: its right... as Gymnasium (-tip.y, tip.x).
    const angle = lander.getAngle();
    const tip0 = Math.sin(angle);
    const tip1 = Math.cos(angle);
    const side0 = -tip1;
    const side1 = tip0;
    // Two dispersions in [-1/SCALE, 1/SCALE], drawn every step.
    const d0 = draw(state, this.rng, -1.0, +1.0) / SCALE;
    const d1 = draw(state, this.rng, -1.0, +1.0) / SCALE;
    const pos = lander.getPosition();

    const mPower = throttle.main;
    if (mPower > 0) {
      // The main engine: 4 pixels below the centre, ±2 for randomness.
      const ox = tip0 * (MAIN_ENGINE_Y_LOCATION / SCALE + 2 * d0) + side0 * d1;
      const oy = -tip1 * (MAIN_ENGINE_Y_LOCATION / SCALE + 2 * d0) - side1 * d1;
      point.x = pos.x + ox;
      point.y = pos.y + oy;
      impulse.x = -ox * MAIN_ENGINE_POWER * mPower;
      impulse.y = -oy * MAIN_ENGINE_POWER * mPower;
      lander.applyLinearImpulse(impulse, point, true);
    }

    const sPower = throttle.side;
    if (sPower > 0) {
      // An orientation engine; Gymnasium's 17 (not SIDE_ENGINE_HEIGHT) makes the push point move with the tilt.
      const direction = throttle.direction;
      const ox = tip0 * d0 + side0 * (3 * d1 + (direction * SIDE_ENGINE_AWAY) / SCALE);
      const oy = -tip1 * d0 - side1 * (3 * d1 + (direction * SIDE_ENGINE_AWAY) / SCALE);
      point.x = pos.x + ox - (tip0 * 17) / SCALE;
      point.y = pos.y + oy + (tip1 * SIDE_ENGINE_HEIGHT) / SCALE;
      impulse.x = -ox * SIDE_ENGINE_POWER * sPower;
      impulse.y = -oy * SIDE_ENGINE_POWER * sPower;
      lander.applyLinearImpulse(impulse, point, true);
    }
    state.lastMain = mPower;
    state.lastSide = sPower;

    state.world.step(1.0 / FPS, VELOCITY_ITERATIONS, POSITION_ITERATIONS);

    const p = lander.getPosition();
    const v = lander.getLinearVelocity();
    const s = state.s;
    s[0] = (p.x - VIEWPORT_W / SCALE / 2) / (VIEWPORT_W / SCALE / 2);
    s[1] = (p.y - (state.helipadY + LEG_DOWN / SCALE)) / (VIEWPORT_H / SCALE / 2);
    s[2] = (v.x * (VIEWPORT_W / SCALE / 2)) / FPS;
    s[3] = (v.y * (VIEWPORT_H / SCALE / 2)) / FPS;
    s[4] = lander.getAngle();
    s[5] = (20.0 * lander.getAngularVelocity()) / FPS;
    s[6] = state.groundContact[0] ? 1.0 : 0.0;
    s[7] = state.groundContact[1] ? 1.0 : 0.0;

    // reward:begin (left out of what the model reads)
    let reward = 0;
    const shaping =
      -100 * Math.sqrt(s[0] * s[0] + s[1] * s[1]) -
      100 * Math.sqrt(s[2] * s[2] + s[3] * s[3]) -
      100 * Math.abs(s[4]) +
      10 * s[6] +
      10 * s[7];
    if (!Number.isNaN(state.prevShaping)) reward = shaping - state.prevShaping;
    state.prevShaping = shaping;
    reward -= mPower * 0.30;
    reward -= sPower * 0.03;
    // reward:end

    let terminated = false;
    if (state.gameOver || Math.abs(s[0]) >= 1.0) {
      terminated = true;
      // reward:begin (left out of what the model reads)
      reward = -100;
      // reward:end
    }
    if (!lander.isAwake()) {
      terminated = true;
      // reward:begin (left out of what the model reads)
      reward = +100;
      // reward:end
    }
    OUTCOME.reward = reward;
    OUTCOME.terminated = terminated;
    return OUTCOME;
  }

  protected observeState(state: LanderState, out: Float32Array): void {
    out.set(state.s);
  }
}

// Reused every step (the VectorEnv reads the outcome at once): no allocation of ours per step.
const THROTTLE: Throttle = { main: 0, side: 0, direction: 0 };
const OUTCOME: StepOutcome = { reward: 0, terminated: false };

/** One uniform draw: the injected source's, or the generator's. */
function draw(state: LanderState, rng: Random, low: number, high: number): number {
  return state.uniform === null ? rng.uniform(low, high) : state.uniform(low, high);
}

/**
 * Recorded draws handed out in order (a replay of a Gymnasium episode). Each must lie in the
 * bounds asked for, or the replay has lost step with the recording.
 */
export class RecordedDraws {
  private at = 0;
  constructor(private readonly values: readonly number[]) {}

  readonly uniform: Uniform = (low, high) => {
    if (this.at >= this.values.length) throw new Error(`the recording has no draw ${this.at + 1} (it holds ${this.values.length})`);
    const v = this.values[this.at++];
    if (!(v >= low && v <= high)) throw new Error(`recorded draw ${this.at} = ${v} is outside [${low}, ${high}]: out of step with the recording`);
    return v;
  };

  get used(): number {
    return this.at;
  }
}
