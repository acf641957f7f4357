/**
 * PPO's loss on one minibatch (CleanRL's clipped surrogate, entropy bonus and value loss) and its
 * gradient with respect to the networks' outputs, in plain JS: a few numbers per row, where
 * TensorFlow.js would spend two dozen ops forward and as many back whatever the rows.
 * mlp-gradient.ts carries the gradient on into the weights; test/ppo-gradient.test.ts checks the
 * two against tfjs's autodiff of the same loss written with stock ops.
 */
import type { PpoConfig } from '../../core/ppo-config.ts';

const LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);

/** One minibatch of the rollout, gathered and (if asked) with its advantages normalized. */
export interface Minibatch {
  n: number;
  /** Scaled observations [n, obsSize]. */
  obs: Float32Array;
  /** Discrete: the action index [n]; continuous: the sampled action [n, actions]. */
  actions: Float32Array;
  logprobs: Float32Array;
  advantages: Float32Array;
  returns: Float32Array;
}

/** What the network computed on the minibatch. */
export interface Outputs {
  /** [n, actions]: logits (discrete) or the Gaussian's means (continuous). */
  actor: Float32Array;
  /** [n]: the critic's values. */
  values: Float32Array;
  /** The Gaussian's log-std [actions], or null (discrete). */
  logStd: Float32Array | null;
}

export interface LossAndGradient {
  loss: number;
  pgLoss: number;
  vLoss: number;
  entropy: number;
  /** dLoss/dOutputs, shaped as Outputs. */
  dActor: Float32Array;
  dValues: Float32Array;
  dLogStd: Float64Array | null;
}

type LossConfig = Pick<PpoConfig, 'clipCoef' | 'entCoef' | 'vfCoef'>;

export function ppoLoss(out: Outputs, mb: Minibatch, k: number, config: LossConfig): LossAndGradient {
  const { n } = mb;
  const dActor = new Float32Array(n * k);
  const dValues = new Float32Array(n);
  const policy = out.logStd === null ? new Categorical(out.actor, k) : new DiagonalGaussian(out.actor, out.logStd, k);
  let pgLoss = 0, vLoss = 0;
  for (let i = 0; i < n; i++) {
    // Policy loss: the clipped surrogate; its gradient flows through the unclipped side only.
    const newlogprob = policy.logprob(i, mb.actions);
    const ratio = Math.exp(newlogprob - mb.logprobs[i]);
    const pg_loss1 = -mb.advantages[i] * ratio;
    const pg_loss2 = -mb.advantages[i] * Math.min(Math.max(ratio, 1 - config.clipCoef), 1 + config.clipCoef);
    pgLoss += Math.max(pg_loss1, pg_loss2);
    if (pg_loss1 >= pg_loss2) policy.addLogprobGrad(i, mb.actions, pg_loss1 / n, dActor);

    // Value loss
    const diff = out.values[i] - mb.returns[i];
    vLoss += 0.5 * diff * diff;
    dValues[i] = (config.vfCoef * diff) / n;
  }
  const entropy = policy.addEntropyGrad(-config.entCoef, dActor);
  pgLoss /= n;
  vLoss /= n;
  return {
    loss: pgLoss - config.entCoef * entropy + config.vfCoef * vLoss,
    pgLoss, vLoss, entropy, dActor, dValues, dLogStd: policy.dLogStd,
  };
}

/** Softmax over each row's k logits. */
class Categorical {
  private readonly logp: Float64Array;
  readonly dLogStd = null;

  constructor(logits: Float32Array, private readonly k: number) {
    this.logp = new Float64Array(logits.length);
    for (let r = 0; r < logits.length; r += k) {
      let max = -Infinity;
      for (let j = 0; j < k; j++) max = Math.max(max, logits[r + j]);
      let total = 0;
      for (let j = 0; j < k; j++) total += Math.exp(logits[r + j] - max);
      const logZ = max + Math.log(total);
      for (let j = 0; j < k; j++) this.logp[r + j] = logits[r + j] - logZ;
    }
  }

  logprob(i: number, actions: Float32Array): number {
    return this.logp[i * this.k + actions[i]];
  }

  /** d(scale·logp(a_i))/dlogits = scale·(onehot(a_i) - p). */
  addLogprobGrad(i: number, actions: Float32Array, scale: number, d: Float32Array): void {
    const r = i * this.k;
    for (let j = 0; j < this.k; j++) d[r + j] -= scale * Math.exp(this.logp[r + j]);
    d[r + actions[i]] += scale;
  }

  /** Mean entropy; adds d(scale·mean H)/dlogits, where dH/dz_j = -p_j·(logp_j + H). */
  addEntropyGrad(scale: number, d: Float32Array): number {
    const n = this.logp.length / this.k;
    let sum = 0;
    for (let r = 0; r < this.logp.length; r += this.k) {
      let h = 0;
      for (let j = 0; j < this.k; j++) h -= Math.exp(this.logp[r + j]) * this.logp[r + j];
      sum += h;
      for (let j = 0; j < this.k; j++) d[r + j] -= (scale / n) * Math.exp(this.logp[r + j]) * (this.logp[r + j] + h);
    }
    return sum / n;
  }
}

/** A Gaussian per action dimension with a state-independent log-std (CleanRL's continuous agent). */
class DiagonalGaussian {
  readonly dLogStd: Float64Array;
  private readonly std: Float64Array;

  constructor(private readonly mean: Float32Array, private readonly logStd: Float32Array, private readonly k: number) {
    this.std = Float64Array.from(logStd, Math.exp);
    this.dLogStd = new Float64Array(k);
  }

  logprob(i: number, actions: Float32Array): number {
    let logprob = 0;
    for (let j = 0; j < this.k; j++) {
      const z = (actions[i * this.k + j] - this.mean[i * this.k + j]) / this.std[j];
      logprob += -0.5 * z * z - this.logStd[j] - LOG_SQRT_2PI;
    }
    return logprob;
  }

  /** dlogp/dmean_j = z_j / std_j and dlogp/dlogStd_j = z_j² - 1, with z = (a - mean) / std. */
  addLogprobGrad(i: number, actions: Float32Array, scale: number, d: Float32Array): void {
    for (let j = 0; j < this.k; j++) {
      const z = (actions[i * this.k + j] - this.mean[i * this.k + j]) / this.std[j];
      d[i * this.k + j] += (scale * z) / this.std[j];
      this.dLogStd[j] += scale * (z * z - 1);
    }
  }

  /** The entropy, Σ_j logStd_j + 1/2 + log √(2π), depends on the log-std alone. */
  addEntropyGrad(scale: number): number {
    let entropy = 0;
    for (let j = 0; j < this.k; j++) {
      entropy += this.logStd[j] + 0.5 + LOG_SQRT_2PI;
      this.dLogStd[j] += scale;
    }
    return entropy;
  }
}
