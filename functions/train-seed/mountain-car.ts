/**
 * MountainCar-v0, exactly as Gymnasium defines it, vectorized over n environments.
 * State is float64; observations are rounded to float32 as Gymnasium's Box(float32) does.
 * When an episode ends, the environment resets itself; the final observation of the ending
 * episode is kept in `finalObs` so the reward sees it, not the reset of the next episode.
 */
import { Random } from '../shared/random.ts';

export const MOUNTAIN_CAR = {
  minPosition: -1.2,
  maxPosition: 0.6,
  maxSpeed: 0.07,
  goalPosition: 0.5,
  goalVelocity: 0,
  force: 0.001,
  gravity: 0.0025,
  maxEpisodeSteps: 200,
  resetLow: -0.6,
  resetHigh: -0.4,
} as const;

/** One step of the dynamics on float64 state; returns [position, velocity]. */
export function dynamics(position: number, velocity: number, action: number): [number, number] {
  const c = MOUNTAIN_CAR;
  // Gymnasium: velocity += (action - 1) * force + cos(3p) * -gravity (the sum is formed first).
  let v = velocity + ((action - 1) * c.force + Math.cos(3 * position) * -c.gravity);
  v = Math.min(Math.max(v, -c.maxSpeed), c.maxSpeed);
  let p = position + v;
  p = Math.min(Math.max(p, c.minPosition), c.maxPosition);
  if (p === c.minPosition && v < 0) v = 0;
  return [p, v];
}

export function isTerminal(position: number, velocity: number): boolean {
  return position >= MOUNTAIN_CAR.goalPosition && velocity >= MOUNTAIN_CAR.goalVelocity;
}

export class VecMountainCar {
  readonly position: Float64Array;
  readonly velocity: Float64Array;
  readonly elapsed: Int32Array;
  /** Observation for the next action: after an auto-reset, the new episode's first one. */
  readonly obs: Float32Array;
  /** Observation the last step produced, before any auto-reset: what the reward must see. */
  readonly finalObs: Float32Array;
  readonly terminated: Uint8Array;
  readonly truncated: Uint8Array;
  private readonly rng: Random;

  constructor(readonly n: number, seed: number) {
    this.position = new Float64Array(n);
    this.velocity = new Float64Array(n);
    this.elapsed = new Int32Array(n);
    this.obs = new Float32Array(2 * n);
    this.finalObs = new Float32Array(2 * n);
    this.terminated = new Uint8Array(n);
    this.truncated = new Uint8Array(n);
    this.rng = new Random(seed);
    for (let i = 0; i < n; i++) this.resetOne(i);
  }

  /** Start environment i at the given state (tests use this to replay golden trajectories). */
  setState(i: number, position: number, velocity: number): void {
    this.position[i] = position;
    this.velocity[i] = velocity;
    this.elapsed[i] = 0;
    this.writeObs(this.obs, i);
  }

  step(actions: ArrayLike<number>): void {
    for (let i = 0; i < this.n; i++) {
      const [p, v] = dynamics(this.position[i], this.velocity[i], actions[i]);
      this.position[i] = p;
      this.velocity[i] = v;
      this.elapsed[i] += 1;
      this.writeObs(this.finalObs, i);
      const terminated = isTerminal(p, v);
      const truncated = this.elapsed[i] >= MOUNTAIN_CAR.maxEpisodeSteps;
      this.terminated[i] = terminated ? 1 : 0;
      this.truncated[i] = truncated ? 1 : 0;
      if (terminated || truncated) this.resetOne(i);
      else this.writeObs(this.obs, i);
    }
  }

  private resetOne(i: number): void {
    this.setState(i, this.rng.uniform(MOUNTAIN_CAR.resetLow, MOUNTAIN_CAR.resetHigh), 0);
  }

  private writeObs(out: Float32Array, i: number): void {
    out[2 * i] = this.position[i];
    out[2 * i + 1] = this.velocity[i];
  }
}
