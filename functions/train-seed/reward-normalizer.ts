/**
 * Gymnasium's NormalizeReward (with TransformReward's clip), as CleanRL's continuous PPO wraps its
 * environment: each env's discounted return, its running variance over all envs and updates, and
 * rewards divided by that standard deviation, then clipped to ±10.
 */
export class RewardNormalizer {
  private readonly discounted: Float64Array;
  private count = 1e-4;
  private mean = 0;
  private variance = 1;

  constructor(private readonly numEnvs: number, private readonly gamma: number) {
    this.discounted = new Float64Array(numEnvs);
  }

  /** The running statistics and each env's discounted return (a seed-run's checkpoint). */
  snapshot(): Float64Array {
    return Float64Array.of(this.count, this.mean, this.variance, ...this.discounted);
  }

  restore(snapshot: Float64Array): void {
    if (snapshot.length !== 3 + this.numEnvs) throw new Error(`a reward normalizer snapshot of ${snapshot.length - 3} envs, not ${this.numEnvs}`);
    [this.count, this.mean, this.variance] = [snapshot[0], snapshot[1], snapshot[2]];
    this.discounted.set(snapshot.subarray(3));
  }

  /** rewards and terminated in (steps, envs) order; returns the normalized rewards. */
  normalize(rewards: Float64Array, terminated: Uint8Array, numSteps: number): Float64Array {
    const out = new Float64Array(rewards.length);
    const n = this.numEnvs;
    for (let t = 0; t < numSteps; t++) {
      for (let e = 0; e < n; e++) this.discounted[e] = this.discounted[e] * this.gamma * (1 - terminated[t * n + e]) + rewards[t * n + e];
      this.update(this.discounted);
      const std = Math.sqrt(this.variance + 1e-8);
      for (let e = 0; e < n; e++) out[t * n + e] = Math.min(10, Math.max(-10, rewards[t * n + e] / std));
    }
    return out;
  }

  /** Chan's parallel update of the running mean and variance, as Gymnasium's RunningMeanStd. */
  private update(batch: Float64Array): void {
    let batchMean = 0;
    for (const x of batch) batchMean += x / batch.length;
    let batchVar = 0;
    for (const x of batch) batchVar += (x - batchMean) ** 2;
    batchVar /= batch.length;
    const total = this.count + batch.length;
    const delta = batchMean - this.mean;
    this.mean += (delta * batch.length) / total;
    this.variance = (this.variance * this.count + batchVar * batch.length + (delta * delta * this.count * batch.length) / total) / total;
    this.count = total;
  }
}
