/**
 * Gymnasium's NormalizeObservation (with TransformObservation's clip), as CleanRL's continuous PPO
 * wraps its environment: a running mean and variance of every observation the policy is shown,
 * updated as the observations arrive, and each observation scaled to (x - mean) / sqrt(var + 1e-8),
 * then clipped to ±10. One statistic for all the copies (CleanRL keeps one per copy; a policy has
 * one input layer, so one statistic is what it is trained and exported with).
 *
 * The statistic lives in the network's offset and scale (network.ts), so the rollout, grading and
 * the exported policy all read the same numbers; it is frozen once training stops. The entries
 * the task hides from the policy keep the network's infinite scale (network.ts): their input stays 0.
 */
import type { Network } from './network.ts';

export const OBS_CLIP = 10;
const EPSILON = 1e-8;

export class ObsNormalizer {
  private count = 1e-4;
  private readonly mean: Float64Array;
  private readonly variance: Float64Array;
  /** The hidden entries (an infinite scale in the network), left as the network has them. */
  private readonly hidden: number[];

  constructor(private readonly net: Network) {
    this.mean = new Float64Array(net.obsSize);
    this.variance = new Float64Array(net.obsSize).fill(1);
    this.hidden = Array.from(net.scale.keys()).filter((k) => net.scale[k] === Infinity);
    this.apply();
  }

  /** Count, then the mean and variance of each dimension (a seed-run's checkpoint). */
  snapshot(): Float64Array {
    return Float64Array.of(this.count, ...this.mean, ...this.variance);
  }

  restore(snapshot: Float64Array): void {
    const d = this.net.obsSize;
    if (snapshot.length !== 1 + 2 * d) throw new Error(`an observation normalizer snapshot of ${(snapshot.length - 1) / 2} dimensions, not ${d}`);
    this.count = snapshot[0];
    this.mean.set(snapshot.subarray(1, 1 + d));
    this.variance.set(snapshot.subarray(1 + d));
    this.apply();
  }

  /** Chan's parallel update with `rows` observations (rows × obsSize), as Gymnasium's RunningMeanStd. */
  update(batch: Float32Array, rows: number): void {
    const d = this.net.obsSize;
    const total = this.count + rows;
    for (let k = 0; k < d; k++) {
      let batchMean = 0;
      for (let r = 0; r < rows; r++) batchMean += batch[r * d + k];
      batchMean /= rows;
      let batchVar = 0;
      for (let r = 0; r < rows; r++) batchVar += (batch[r * d + k] - batchMean) ** 2;
      batchVar /= rows;
      const delta = batchMean - this.mean[k];
      this.mean[k] += (delta * rows) / total;
      this.variance[k] = (this.variance[k] * this.count + batchVar * rows + (delta * delta * this.count * rows) / total) / total;
    }
    this.count = total;
    this.apply();
  }

  /** The network scales observations with the current statistic. */
  private apply(): void {
    this.net.offset.set(this.mean);
    for (let k = 0; k < this.net.obsSize; k++) this.net.scale[k] = Math.sqrt(this.variance[k] + EPSILON);
    for (const k of this.hidden) {
      this.net.offset[k] = 0;
      this.net.scale[k] = Infinity;
    }
    this.net.clip = OBS_CLIP;
  }
}
