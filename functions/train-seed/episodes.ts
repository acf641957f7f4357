/**
 * Follows the episodes of a vectorized environment as it steps: each copy's observations and
 * recorded state, the environment's own return and its length, handed over as an Episode
 * (tasks/contract.ts) when the copy's episode ends. The trainer counts training successes with it;
 * the grader grades with it.
 */
import type { Episode, VecEnv } from '../../tasks/contract.ts';

export interface TrackerSnapshot {
  /** Every copy's observations so far, one after the other; counts[i] values are copy i's. */
  observations: Float32Array;
  counts: Int32Array;
  /** Every copy's recorded state so far, likewise; recordCounts[i] values are copy i's (absent: a checkpoint from before records). */
  recorded?: Float64Array;
  recordCounts?: Int32Array;
  returns: Float64Array;
  lengths: Int32Array;
}

export class EpisodeTracker {
  private readonly observations: number[][];
  private readonly recorded: number[][];
  private readonly returns: Float64Array;
  private readonly lengths: Int32Array;

  constructor(private readonly env: VecEnv, private readonly obsSize: number) {
    this.observations = Array.from({ length: env.n }, (_, i) => this.firstObservation(i));
    this.recorded = Array.from({ length: env.n }, (_, i) => this.firstRecord(i));
    this.returns = new Float64Array(env.n);
    this.lengths = new Int32Array(env.n);
  }

  /** Call after every env.step: returns the episodes that ended on it, by copy. */
  afterStep(): Array<{ copy: number; episode: Episode }> {
    const { env, obsSize } = this;
    const recordSize = env.recordSize;
    const ended: Array<{ copy: number; episode: Episode }> = [];
    for (let i = 0; i < env.n; i++) {
      const seen = this.observations[i];
      for (let k = 0; k < obsSize; k++) seen.push(env.finalObs[i * obsSize + k]);
      const kept = this.recorded[i];
      for (let k = 0; k < recordSize; k++) kept.push(env.finalRecord[i * recordSize + k]);
      this.returns[i] += env.reward[i];
      this.lengths[i] += 1;
      if (env.terminated[i] === 0 && env.truncated[i] === 0) continue;
      ended.push({
        copy: i,
        episode: {
          observations: Float32Array.from(seen),
          obsSize,
          recorded: Float64Array.from(kept),
          recordSize,
          length: this.lengths[i],
          return: this.returns[i],
          terminated: env.terminated[i] === 1,
          truncated: env.truncated[i] === 1,
        },
      });
      this.observations[i] = this.firstObservation(i);
      this.recorded[i] = this.firstRecord(i);
      this.returns[i] = 0;
      this.lengths[i] = 0;
    }
    return ended;
  }

  /** The running episodes so far (a seed-run's checkpoint): what each copy saw and recorded, its return and length. */
  snapshot(): TrackerSnapshot {
    return {
      observations: Float32Array.from(this.observations.flat()),
      counts: Int32Array.from(this.observations, (o) => o.length),
      recorded: Float64Array.from(this.recorded.flat()),
      recordCounts: Int32Array.from(this.recorded, (r) => r.length),
      returns: Float64Array.from(this.returns),
      lengths: Int32Array.from(this.lengths),
    };
  }

  restore(snapshot: TrackerSnapshot): void {
    unflatten(this.observations, snapshot.observations, snapshot.counts);
    if (this.env.recordSize > 0) {
      if (!snapshot.recorded || !snapshot.recordCounts) throw new Error('a checkpoint without the recorded state this task keeps');
      unflatten(this.recorded, snapshot.recorded, snapshot.recordCounts);
    }
    this.returns.set(snapshot.returns);
    this.lengths.set(snapshot.lengths);
  }

  /** The observation copy i's running episode started from (after an auto-reset: the new one). */
  private firstObservation(i: number): number[] {
    return Array.from(this.env.obs.subarray(i * this.obsSize, (i + 1) * this.obsSize));
  }

  private firstRecord(i: number): number[] {
    const r = this.env.recordSize;
    return Array.from(this.env.record.subarray(i * r, (i + 1) * r));
  }
}

/** Each copy's values back from one flat array and its counts. */
function unflatten(into: number[][], flat: ArrayLike<number> & { subarray(a: number, b: number): ArrayLike<number> }, counts: Int32Array): void {
  let offset = 0;
  for (let i = 0; i < into.length; i++) {
    into[i] = Array.from(flat.subarray(offset, offset + counts[i]));
    offset += counts[i];
  }
}
