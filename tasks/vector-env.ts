/**
 * The vectorization every environment shares, so a task's environment file holds only its
 * physics (reset, step, observe), as Gymnasium's do: n copies, Gymnasium's TimeLimit outside the
 * physics, and an auto-reset that keeps the ending episode's final observation in `finalObs`.
 *
 * S is one copy's state: a Float64Array for the classic-control tasks, an object for others.
 */
import { Random } from '../core/random.ts';
import type { EnvSnapshot, VecEnv } from './contract.ts';

export interface VectorEnvShape {
  obsSize: number;
  /** discrete: 1; box: its dimension. */
  actionSize: number;
  /** Gymnasium's TimeLimit: the episode is truncated after this many steps. */
  maxEpisodeSteps: number;
  /** Values per copy the task records beside the observation (recordState fills them). @default 0 */
  recordSize?: number;
}

/** What one step of one copy returns. */
export interface StepOutcome {
  reward: number;
  terminated: boolean;
}

export abstract class VectorEnv<S> implements VecEnv {
  readonly obs: Float32Array;
  readonly finalObs: Float32Array;
  readonly applied: Float64Array;
  readonly reward: Float64Array;
  readonly terminated: Uint8Array;
  readonly truncated: Uint8Array;
  readonly elapsed: Int32Array;
  readonly recordSize: number;
  readonly record: Float64Array;
  readonly finalRecord: Float64Array;
  /** Each copy's state; tests set it to replay recorded episodes (then call `observeState`). */
  readonly states: S[];
  /** Off only to replay recorded episodes: an ending copy then keeps its final state. */
  autoReset = true;
  protected readonly rng: Random;
  private readonly obsViews: Float32Array[];
  private readonly finalViews: Float32Array[];
  private readonly actionViews: Float64Array[];
  private readonly recordViews: Float64Array[];
  private readonly finalRecordViews: Float64Array[];

  constructor(readonly n: number, seed: number, readonly shape: VectorEnvShape) {
    const { obsSize, actionSize } = shape;
    this.obs = new Float32Array(n * obsSize);
    this.finalObs = new Float32Array(n * obsSize);
    this.applied = new Float64Array(n * actionSize);
    this.reward = new Float64Array(n);
    this.terminated = new Uint8Array(n);
    this.truncated = new Uint8Array(n);
    this.elapsed = new Int32Array(n);
    this.recordSize = shape.recordSize ?? 0;
    this.record = new Float64Array(n * this.recordSize);
    this.finalRecord = new Float64Array(n * this.recordSize);
    this.rng = new Random(seed);
    this.obsViews = Array.from({ length: n }, (_, i) => this.obs.subarray(i * obsSize, (i + 1) * obsSize));
    this.finalViews = Array.from({ length: n }, (_, i) => this.finalObs.subarray(i * obsSize, (i + 1) * obsSize));
    this.actionViews = Array.from({ length: n }, (_, i) => this.applied.subarray(i * actionSize, (i + 1) * actionSize));
    const r = this.recordSize;
    this.recordViews = Array.from({ length: n }, (_, i) => this.record.subarray(i * r, (i + 1) * r));
    this.finalRecordViews = Array.from({ length: n }, (_, i) => this.finalRecord.subarray(i * r, (i + 1) * r));
    this.states = Array.from({ length: n }, () => this.createState());
    for (let i = 0; i < n; i++) this.resetCopy(i);
  }

  /** A fresh state object for one copy (not yet reset). */
  protected abstract createState(): S;
  /** Gymnasium's reset: draw the start state from `rng` into `state`. */
  protected abstract resetState(state: S, rng: Random): void;
  /**
   * Gymnasium's step without its TimeLimit. `action` holds this copy's action (discrete: [index]);
   * clip it in place to what the environment applied.
   */
  protected abstract stepState(state: S, action: Float64Array): StepOutcome;
  /** The float32 observation of a state. */
  protected abstract observeState(state: S, out: Float32Array): void;
  /**
   * The task's recorded state of a state (TaskSpec.recorded), where shape.recordSize is not 0.
   * `previous` is the record before this step (null at a reset), for what accumulates over an
   * episode (an angle unwrapped across ±π).
   */
  protected recordState(_state: S, _out: Float64Array, _previous: Float64Array | null): void {}

  step(actions: ArrayLike<number>): void {
    const { actionSize, maxEpisodeSteps } = this.shape;
    for (let i = 0; i < this.n; i++) {
      const action = this.actionViews[i];
      for (let k = 0; k < actionSize; k++) action[k] = actions[i * actionSize + k];
      const { reward, terminated } = this.stepState(this.states[i], action);
      this.elapsed[i] += 1;
      // As Gymnasium's TimeLimit: truncated at the limit even when the same step terminated.
      const truncated = this.elapsed[i] >= maxEpisodeSteps;
      this.reward[i] = reward;
      this.terminated[i] = terminated ? 1 : 0;
      this.truncated[i] = truncated ? 1 : 0;
      this.observeState(this.states[i], this.finalViews[i]);
      if (this.recordSize > 0) this.recordState(this.states[i], this.finalRecordViews[i], this.recordViews[i]);
      if ((terminated || truncated) && this.autoReset) this.resetCopy(i);
      else {
        this.obsViews[i].set(this.finalViews[i]);
        this.recordViews[i].set(this.finalRecordViews[i]);
      }
    }
  }

  /**
   * The copies' states, step counts, observations and generator: where a Float64Array is each
   * copy's whole state (the classic-control tasks), that is everything. An environment whose state
   * is more (a physics engine's world) says null, or overrides both methods.
   */
  snapshot(): EnvSnapshot | null {
    if (!this.states.every((s) => s instanceof Float64Array)) return null;
    const states = this.states as unknown as Float64Array[];
    const size = states[0]?.length ?? 0;
    const all = new Float64Array(this.n * size);
    states.forEach((s, i) => all.set(s, i * size));
    return { states: all, elapsed: Int32Array.from(this.elapsed), obs: Float32Array.from(this.obs), record: Float64Array.from(this.record), rng: this.rng.state() };
  }

  restore(snapshot: EnvSnapshot): void {
    const { states: all, elapsed, obs, record, rng } = snapshot;
    const states = this.states as unknown as Float64Array[];
    const size = states[0]?.length ?? 0;
    if (!(all instanceof Float64Array) || all.length !== this.n * size || elapsed?.length !== this.n || obs?.length !== this.obs.length || !rng) {
      throw new Error(`a snapshot of another environment shape (${this.n} copies of ${size} state values expected)`);
    }
    states.forEach((s, i) => s.set(all.subarray(i * size, (i + 1) * size)));
    this.elapsed.set(elapsed);
    this.obs.set(obs);
    restoreRecord(this.record, record);
    this.rng.restore(rng);
  }

  /** Starts copy i's episode again from its current `states[i]` (tests replaying recorded episodes). */
  restartFromState(i: number): void {
    this.elapsed[i] = 0;
    this.observeState(this.states[i], this.obsViews[i]);
    if (this.recordSize > 0) this.recordState(this.states[i], this.recordViews[i], null);
  }

  private resetCopy(i: number): void {
    this.resetState(this.states[i], this.rng);
    this.restartFromState(i);
  }
}

/** A snapshot's recorded state back in place; one from before records were kept has none, and none is needed where nothing is recorded. */
export function restoreRecord(into: Float64Array, saved: EnvSnapshot[string] | undefined): void {
  if (into.length === 0) return;
  if (!(saved instanceof Float64Array) || saved.length !== into.length) throw new Error(`a snapshot without this environment's ${into.length} recorded values`);
  into.set(saved);
}
