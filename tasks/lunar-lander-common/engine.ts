/**
 * What LunarLander asks of a Box2D engine, for one copy: build Gymnasium's world (reset), push
 * the lander (the engines), step, and read the lander's state and the contact detector's flags.
 * physics.ts keeps Gymnasium's order of operations around it; the engine only simulates.
 */

/** Indices into `LanderWorld.body` (the lander's values after the last build or step). */
export const X = 0;
export const Y = 1;
export const ANGLE = 2;
export const VX = 3;
export const VY = 4;
export const OMEGA = 5;

/** The world's terrain and the initial push of one episode (the values Gymnasium drew). */
export interface LanderScene {
  /** The terrain's CHUNKS points (metres). */
  chunkX: Float64Array;
  smoothY: Float64Array;
  /** The initial random force on the lander's centre, applied during reset's no-op step. */
  forceX: number;
  forceY: number;
}

export interface LanderWorld {
  /** A new world, as Gymnasium makes one per reset (the previous one is freed). */
  build(scene: LanderScene): void;
  /** x, y, angle, vx, vy, omega of the lander's body; `read()` refreshes it. */
  readonly body: Float64Array;
  /** Reads the lander's values into `body`. */
  read(): void;
  /** ApplyLinearImpulse(impulse, point, wake=True) on the lander. */
  applyImpulse(ix: number, iy: number, px: number, py: number): void;
  /** world.Step(1/FPS, 6*30, 2*30). */
  step(): void;
  /** The lander's body is awake (Gymnasium's +100 ending is `not lander.awake`). */
  awake(): boolean;
  /** Gymnasium's ContactDetector: leg k's ground_contact, and game_over (the body touched the moon). */
  readonly legContact: Uint8Array;
  gameOver: boolean;
  /** Frees what the engine holds outside the JavaScript heap (box2d-wasm's worlds; nothing for the others). */
  dispose(): void;
}
