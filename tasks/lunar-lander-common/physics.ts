/**
 * LunarLander's physics, shared by LunarLander-v3 (tasks/lunar-lander) and
 * LunarLanderContinuous-v3 (tasks/lunar-lander-continuous): a port of Gymnasium 1.4.0's
 * gymnasium/envs/box2d/lunar_lander.py (no wind, its default). Each variant's environment.ts
 * maps its action to engine throttles (`throttle`); everything else is here, in Gymnasium's
 * order, and the engine (engine.ts: build the world, push, step, read) simulates.
 *
 * The engine is physics/box2d-f32/: the Box2D 2.3 that pybox2d 2.3.10 compiles, ported operation by
 * operation in float32, with glibc's sinf and cosf. Fed the recorded draws, it replays every
 * recorded Gymnasium episode (the 12 of shared/golden and 120 more on other seeds) bit for bit:
 * the lander's state, the observation, the reward and the ending of every step, through the
 * landings. planck (float64) drifted from the first step and ended 7 of those 120 episodes
 * differently; box2d-wasm (Box2D 2.4.1, another solver) ended 76 differently
 * (bench/lunar-engines/compare.ts).
 *
 * Random numbers: every value the environment draws goes through one `Uniform` source per copy,
 * in Gymnasium's call order (reset: 12 terrain heights, the 2 components of the initial force,
 * then the 2 dispersions of reset's no-op step; every step: its 2 dispersions). In normal use the
 * source is the VectorEnv's seeded generator; a replay injects the draws a recording made.
 *
 * Engine flames: Gymnasium makes them Box2D bodies (colliding with the ground only) only when it
 * renders (`render_mode` set); training and the recordings run without, and so does this port.
 *
 * Two details that matter: pybox2d's revoluteJointDef sets referenceAngle to bodyB.angle -
 * bodyA.angle when it is not given (Box2D's C++ default is 0; the legs start at ±0.05 rad, so
 * with 0 they reach their limits 8 steps early), and Python's height[i - 1] at i = 0 smooths the
 * first chunk with the last of the 12 heights.
 */
import type { Random } from '../../core/random.ts';
import { VectorEnv, type StepOutcome } from '../vector-env.ts';
import { Float32LanderWorld } from './box2d-f32-world.ts';
import { CHUNKS, FPS, H, HELIPAD_Y, INITIAL_RANDOM, LEG_DOWN, MAIN_ENGINE_POWER, MAIN_ENGINE_Y_LOCATION, MAX_EPISODE_STEPS, OBS_SIZE, SCALE, SIDE_ENGINE_AWAY, SIDE_ENGINE_HEIGHT, SIDE_ENGINE_POWER, VIEWPORT_H, VIEWPORT_W, W } from './constants.ts';
import { ANGLE, OMEGA, VX, VY, X, Y, type LanderScene, type LanderWorld } from './engine.ts';

export * from './constants.ts';

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

/** Makes one copy's engine world (the engine LunarLander runs on). */
export type EngineFactory = () => LanderWorld;

/** One copy: its Box2D world and what Gymnasium keeps on the env object. */
export interface LanderState {
  world: LanderWorld;
  /** Gymnasium's prev_shaping (NaN: none yet). */
  prevShaping: number;
  helipadX1: number;
  helipadX2: number;
  helipadY: number;
  /** The episode's terrain (chunkX, smoothY) and initial push, as the engine builds it. */
  scene: LanderScene;
  /** Gymnasium's 12 terrain heights before smoothing (scratch). */
  height: Float64Array;
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
  const b = state.world.body;
  const legs = state.world.legContact;
  return [b[X], b[Y], b[ANGLE], b[VX], b[VY], b[OMEGA], legs[0], legs[1]];
}

/**
 * Gymnasium's LunarLander: n copies, each its own Box2D world. The variant (discrete or
 * continuous) gives `throttle`; nothing it declares as an instance field is needed before its
 * constructor ends (VectorEnv resets every copy inside super()).
 */
export abstract class LunarLanderEnv extends VectorEnv<LanderState> {
  constructor(n: number, seed: number, actionSize: number, engine: EngineFactory = defaultEngine) {
    engineForNextStates = engine;
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
      terrain: Array.from(s.scene.chunkX, (x, k) => [x, s.scene.smoothY[k]] as [number, number]),
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

  /** Frees the copies' engine worlds (box2d-wasm's live outside the JavaScript heap). */
  dispose(): void {
    for (const s of this.states) s.world.dispose();
  }

  protected createState(): LanderState {
    return {
      world: engineForNextStates(), prevShaping: NaN, helipadX1: 0, helipadX2: 0, helipadY: HELIPAD_Y,
      scene: { chunkX: new Float64Array(CHUNKS), smoothY: new Float64Array(CHUNKS), forceX: 0, forceY: 0 },
      height: new Float64Array(CHUNKS + 1), s: new Float64Array(OBS_SIZE),
      uniform: null, lastMain: 0, lastSide: 0,
    };
  }

  protected resetState(state: LanderState, rng: Random): void {
    state.prevShaping = NaN;
    // Terrain: CHUNKS + 1 heights, the five around the middle flattened to the pad, then smoothed
    // (Python's height[i - 1] at i = 0 is the last height).
    const { scene, height } = state;
    for (let k = 0; k <= CHUNKS; k++) height[k] = draw(state, rng, 0, H / 2);
    for (let k = 0; k < CHUNKS; k++) scene.chunkX[k] = (W / (CHUNKS - 1)) * k;
    const half = Math.floor(CHUNKS / 2);
    state.helipadX1 = scene.chunkX[half - 1];
    state.helipadX2 = scene.chunkX[half + 1];
    state.helipadY = H / 4;
    for (let k = half - 2; k <= half + 2; k++) height[k] = state.helipadY;
    for (let k = 0; k < CHUNKS; k++) {
      scene.smoothY[k] = 0.33 * (height[(k - 1 + height.length) % height.length] + height[k] + height[k + 1]);
    }
    // The initial random push (x drawn before y, as Python evaluates the tuple), applied by the
    // engine to the lander right after creating it and before the legs, as Gymnasium does.
    scene.forceX = draw(state, rng, -INITIAL_RANDOM, INITIAL_RANDOM);
    scene.forceY = draw(state, rng, -INITIAL_RANDOM, INITIAL_RANDOM);
    state.world.build(scene);
    // Gymnasium's reset ends with one no-op step: its observation is the first one.
    this.stepState(state, this.noop());
  }

  protected stepState(state: LanderState, action: Float64Array): StepOutcome {
    const throttle = THROTTLE;
    this.throttle(action, throttle);
    const world = state.world;
    const body = world.body;

    // Engines. tip: the lander's up direction; side: its right, as Gymnasium's (-tip.y, tip.x).
    // `body` holds the lander's state after the last step (or build): what lander.angle and
    // lander.position read now.
    const angle = body[ANGLE];
    const tip0 = Math.sin(angle);
    const tip1 = Math.cos(angle);
    const side0 = -tip1;
    const side1 = tip0;
    // Two dispersions in [-1/SCALE, 1/SCALE], drawn every step.
    const d0 = draw(state, this.rng, -1.0, +1.0) / SCALE;
    const d1 = draw(state, this.rng, -1.0, +1.0) / SCALE;
    const px = body[X];
    const py = body[Y];

    const mPower = throttle.main;
    if (mPower > 0) {
      // The main engine: 4 pixels below the centre, ±2 for randomness.
      const ox = tip0 * (MAIN_ENGINE_Y_LOCATION / SCALE + 2 * d0) + side0 * d1;
      const oy = -tip1 * (MAIN_ENGINE_Y_LOCATION / SCALE + 2 * d0) - side1 * d1;
      world.applyImpulse(-ox * MAIN_ENGINE_POWER * mPower, -oy * MAIN_ENGINE_POWER * mPower, px + ox, py + oy);
    }

    const sPower = throttle.side;
    if (sPower > 0) {
      // An orientation engine; Gymnasium's 17 (not SIDE_ENGINE_HEIGHT) makes the push point move with the tilt.
      const direction = throttle.direction;
      const ox = tip0 * d0 + side0 * (3 * d1 + (direction * SIDE_ENGINE_AWAY) / SCALE);
      const oy = -tip1 * d0 - side1 * (3 * d1 + (direction * SIDE_ENGINE_AWAY) / SCALE);
      world.applyImpulse(-ox * SIDE_ENGINE_POWER * sPower, -oy * SIDE_ENGINE_POWER * sPower,
        px + ox - (tip0 * 17) / SCALE, py + oy + (tip1 * SIDE_ENGINE_HEIGHT) / SCALE);
    }
    state.lastMain = mPower;
    state.lastSide = sPower;

    world.step();
    world.read();

    const s = state.s;
    s[0] = (body[X] - VIEWPORT_W / SCALE / 2) / (VIEWPORT_W / SCALE / 2);
    s[1] = (body[Y] - (state.helipadY + LEG_DOWN / SCALE)) / (VIEWPORT_H / SCALE / 2);
    s[2] = (body[VX] * (VIEWPORT_W / SCALE / 2)) / FPS;
    s[3] = (body[VY] * (VIEWPORT_H / SCALE / 2)) / FPS;
    s[4] = body[ANGLE];
    s[5] = (20.0 * body[OMEGA]) / FPS;
    s[6] = world.legContact[0];
    s[7] = world.legContact[1];

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
    if (world.gameOver || Math.abs(s[0]) >= 1.0) {
      terminated = true;
      // reward:begin (left out of what the model reads)
      reward = -100;
      // reward:end
    }
    if (!world.awake()) {
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

/** The engine LunarLander runs on. */
const defaultEngine: EngineFactory = () => new Float32LanderWorld();
/** VectorEnv creates the states inside super(): the engine is handed to createState through here. */
let engineForNextStates: EngineFactory = defaultEngine;

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
