/**
 * Adam over the one flat parameter vector (PyTorch's and tfjs's update, bias-corrected), and the
 * global gradient-norm clip before it. Plain typed arrays: ten thousand parameters take
 * microseconds in JS where tfjs pays a dozen ops a step, and the whole optimizer state (the
 * step count and both moments) can be saved and restored exactly, as a checkpoint needs.
 */

export interface AdamState {
  /** Updates taken so far (the bias correction's t). */
  step: number;
  /** First and second moment estimates, one per parameter. */
  m: Float64Array;
  v: Float64Array;
}

export interface AdamSettings {
  learningRate: number;
  epsilon: number;
  /** @default 0.9 */
  beta1?: number;
  /** @default 0.999 */
  beta2?: number;
}

export class Adam {
  private readonly state: AdamState;
  private readonly beta1: number;
  private readonly beta2: number;

  constructor(size: number, private readonly settings: AdamSettings, state?: AdamState) {
    if (state && (state.m.length !== size || state.v.length !== size)) {
      throw new Error(`Adam state holds ${state.m.length} and ${state.v.length} moments for ${size} parameters`);
    }
    this.state = state
      ? { step: state.step, m: Float64Array.from(state.m), v: Float64Array.from(state.v) }
      : { step: 0, m: new Float64Array(size), v: new Float64Array(size) };
    this.beta1 = settings.beta1 ?? 0.9;
    this.beta2 = settings.beta2 ?? 0.999;
  }

  /** theta -= lr · m̂ / (√v̂ + ε), in place. */
  step(theta: Float32Array, grad: Float64Array): void {
    const { m, v } = this.state;
    const { beta1, beta2 } = this;
    const t = ++this.state.step;
    const stepSize = this.settings.learningRate / (1 - beta1 ** t);
    const invSqrtCorrection2 = 1 / Math.sqrt(1 - beta2 ** t);
    const epsilon = this.settings.epsilon;
    for (let i = 0; i < theta.length; i++) {
      const g = grad[i];
      const mi = beta1 * m[i] + (1 - beta1) * g;
      const vi = beta2 * v[i] + (1 - beta2) * g * g;
      m[i] = mi;
      v[i] = vi;
      theta[i] -= (stepSize * mi) / (Math.sqrt(vi) * invSqrtCorrection2 + epsilon);
    }
  }

  /** A copy of the state, for a checkpoint; `new Adam(size, settings, state)` resumes from it. */
  exportState(): AdamState {
    return { step: this.state.step, m: Float64Array.from(this.state.m), v: Float64Array.from(this.state.v) };
  }
}

/** Scales grad in place so that its L2 norm is at most maxNorm (PyTorch's clip_grad_norm_). */
export function clipGradNorm(grad: Float64Array, maxNorm: number): number {
  let sum = 0;
  for (let i = 0; i < grad.length; i++) sum += grad[i] * grad[i];
  const norm = Math.sqrt(sum);
  const scale = maxNorm / (norm + 1e-6);
  if (scale < 1) for (let i = 0; i < grad.length; i++) grad[i] *= scale;
  return norm;
}
