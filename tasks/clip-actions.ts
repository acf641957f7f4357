/**
 * Gymnasium's ClipAction wrapper for vectorized environments, as CleanRL's continuous PPO wraps
 * its environment: a Box action is clipped to the space's bounds before the environment sees it,
 * so the environment's own reward, its dynamics and what the candidate's reward is shown all
 * agree on one action (MountainCarContinuous charges the unclipped action otherwise).
 */
import type { EnvSnapshot, VecEnv } from './contract.ts';

export class ClipActions implements VecEnv {
  private readonly clipped: Float64Array;

  constructor(private readonly env: VecEnv, private readonly low: readonly number[], private readonly high: readonly number[]) {
    this.clipped = new Float64Array(env.n * low.length);
  }

  get n(): number { return this.env.n; }
  get obs(): Float32Array { return this.env.obs; }
  get finalObs(): Float32Array { return this.env.finalObs; }
  get applied(): Float64Array { return this.env.applied; }
  get reward(): Float64Array { return this.env.reward; }
  get terminated(): Uint8Array { return this.env.terminated; }
  get truncated(): Uint8Array { return this.env.truncated; }
  get elapsed(): Int32Array { return this.env.elapsed; }
  get recordSize(): number { return this.env.recordSize; }
  get record(): Float64Array { return this.env.record; }
  get finalRecord(): Float64Array { return this.env.finalRecord; }

  step(actions: ArrayLike<number>): void {
    const k = this.low.length;
    for (let i = 0; i < this.clipped.length; i++) {
      this.clipped[i] = Math.min(Math.max(actions[i], this.low[i % k]), this.high[i % k]);
    }
    this.env.step(this.clipped);
  }

  episodeInfo(i: number): unknown {
    return this.env.episodeInfo?.(i);
  }

  dispose(): void {
    this.env.dispose?.();
  }

  snapshot(): EnvSnapshot | null {
    return this.env.snapshot?.() ?? null;
  }

  restore(snapshot: EnvSnapshot): void {
    if (!this.env.restore) throw new Error('this environment cannot be restored from a snapshot');
    this.env.restore(snapshot);
  }
}
