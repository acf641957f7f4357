/**
 * The actor's and the critic's passes on this project's own WebAssembly kernel
 * (assembly/mlp-kernel.ts: SIMD float32, compiled into mlp-kernel-wasm.ts by `npm run build:wasm`),
 * the default way the trainer computes a minibatch's gradient and a rollout's values.
 *
 * Why a kernel of our own: a PPO minibatch is small (64 rows on some tasks), and through
 * TensorFlow.js every operation pays a fixed cost whatever its size (about 2 ms a step for two
 * dozen ops, 0.84 ms with the wasm backend's kernels called directly). Here a whole pass is a
 * handful of calls into one module whose memory already holds the parameters and activations, so
 * the cost follows the arithmetic. The gradient is checked against tfjs's autodiff to 1e-5
 * (test/ppo-gradient.test.ts); tfjs stays the policy's format (policy-io.ts) and, with
 * EUREKA_TFJS_BACKEND=tfjs-node, the trainer's matrix products go through tfjs's ops instead
 * (mlp-gradient.ts).
 *
 * Memory: the parameters, their gradient, the input rows and each network's activations at fixed
 * offsets for up to `capacity` rows; a larger batch lays the memory out again.
 */
import { instantiateKernel, memoryOfAtLeast, type KernelMemory } from '../../core/wasm.ts';
import { MLP_KERNEL_WASM } from './mlp-kernel-wasm.ts';
import type { AdamSettings, AdamState } from './adam.ts';
import type { LayerSlot } from './network.ts';

interface Exports {
  dense(x: number, n: number, inputs: number, w: number, b: number, outputs: number, y: number, tanh: boolean): void;
  denseT(x: number, n: number, inputs: number, wT: number, b: number, outputs: number, y: number): void;
  tanhGrad(dh: number, h: number, count: number): void;
  gradWeights(a: number, n: number, inputs: number, d: number, outputs: number, g: number): void;
  gradWeightsNarrow(a: number, n: number, inputs: number, d: number, outputs: number, g: number): void;
  columnSums(d: number, n: number, outputs: number, g: number): void;
  transpose(src: number, rows: number, cols: number, dst: number): void;
  tanhInPlace(p: number, count: number): void;
  sumSquares(g: number, count: number): number;
  adam(theta: number, g: number, m: number, v: number, count: number, gradScale: number, beta1: number, beta2: number, stepSize: number, invSqrtCorrection2: number, epsilon: number): void;
}

/** Byte offsets of one network's activations: h1, h2 [rows, hidden], out and dOut [rows, outputs]. */
interface NetRegion { h1: number; h2: number; out: number; dOut: number; hiddenT: number; headT: number }

export class MlpKernel {
  private readonly wasm: Exports & { memory: KernelMemory };
  private heap = new Float32Array(0);
  private capacity = 0;
  private paramCount = 0;
  private obsSize = 0;
  private theta = 0;
  private grad = 0;
  private x = 0;
  private dz1 = 0;
  private dz2 = 0;
  private readonly nets = new Map<LayerSlot[], NetRegion>();
  private rows = 0;
  /** Adam's moments (float64) and step count, when the kernel runs the optimizer too. */
  private m = 0;
  private v = 0;
  private adamStep = 0;

  constructor() {
    this.wasm = instantiateKernel<Exports>(MLP_KERNEL_WASM);
  }

  /** Copies theta in and lays memory out for `rows` rows of `obsSize` inputs (the networks' slots). */
  load(theta: Float32Array, obsSize: number, rows: number, networks: LayerSlot[][]): void {
    if (rows > this.capacity || theta.length !== this.paramCount || obsSize !== this.obsSize || networks.some((s) => !this.nets.has(s))) {
      this.layout(theta.length, obsSize, Math.max(rows, this.capacity), networks);
    }
    this.heap.set(theta, this.theta >> 2);
    this.rows = rows;
  }

  /** The input rows [rows, obsSize] (already scaled). */
  input(obs: Float32Array): void {
    this.heap.set(obs.subarray(0, this.rows * this.obsSize), this.x >> 2);
  }

  /** The MLP's outputs [rows, outputs] for the input rows; its activations stay for backward(). */
  forward(slots: LayerSlot[]): Float32Array {
    const [l1, l2, l3] = slots;
    const r = this.region(slots);
    const { wasm, rows: n } = this;
    const at = (i: number): number => this.theta + 4 * i;
    wasm.dense(this.x, n, l1.inputs, at(l1.w), at(l1.b), l1.outputs, r.h1, true);
    wasm.dense(r.h1, n, l2.inputs, at(l2.w), at(l2.b), l2.outputs, r.h2, true);
    wasm.transpose(at(l3.w), l3.inputs, l3.outputs, r.headT);
    wasm.denseT(r.h2, n, l3.inputs, r.headT, at(l3.b), l3.outputs, r.out);
    return this.heap.subarray(r.out >> 2, (r.out >> 2) + n * l3.outputs);
  }

  /** Sets the gradient to 0 (call once per minibatch, before the networks' backward passes). */
  zeroGrad(): void {
    this.heap.fill(0, this.grad >> 2, (this.grad >> 2) + this.paramCount);
  }

  /** Adds the gradient of the loss into the kernel's gradient, given dOut [rows, outputs], after forward(). */
  backward(slots: LayerSlot[], dOut: Float32Array): void {
    const [l1, l2, l3] = slots;
    const r = this.region(slots);
    const { wasm, rows: n } = this;
    const at = (i: number): number => this.theta + 4 * i;
    const g = (i: number): number => this.grad + 4 * i;
    this.heap.set(dOut.subarray(0, n * l3.outputs), r.dOut >> 2);
    // Head: dW3 = h2ᵀ·dOut, db3 = Σ dOut; back into the hidden layer through W3ᵀ (kept by forward).
    wasm.gradWeightsNarrow(r.h2, n, l3.inputs, r.dOut, l3.outputs, g(l3.w));
    wasm.columnSums(r.dOut, n, l3.outputs, g(l3.b));
    wasm.dense(r.dOut, n, l3.outputs, r.headT, 0, l3.inputs, this.dz2, false);
    wasm.tanhGrad(this.dz2, r.h2, n * l2.outputs);
    // Second layer: dW2 = h1ᵀ·dz2, db2 = Σ dz2; dz1 = (dz2·W2ᵀ) ⊙ (1 - h1²).
    wasm.gradWeights(r.h1, n, l2.inputs, this.dz2, l2.outputs, g(l2.w));
    wasm.columnSums(this.dz2, n, l2.outputs, g(l2.b));
    wasm.transpose(at(l2.w), l2.inputs, l2.outputs, r.hiddenT);
    wasm.dense(this.dz2, n, l2.outputs, r.hiddenT, 0, l2.inputs, this.dz1, false);
    wasm.tanhGrad(this.dz1, r.h1, n * l1.outputs);
    // First layer: dW1 = xᵀ·dz1, db1 = Σ dz1.
    wasm.gradWeights(this.x, n, l1.inputs, this.dz1, l1.outputs, g(l1.w));
    wasm.columnSums(this.dz1, n, l1.outputs, g(l1.b));
  }

  /** Adds the kernel's gradient into grad over [from, to) of the parameters. */
  addGrad(grad: Float64Array, from = 0, to = this.paramCount): void {
    const base = this.grad >> 2;
    for (let i = from; i < to; i++) grad[i] += this.heap[base + i];
  }

  /**
   * Runs the optimizer here from now on, from a checkpoint's state (or zeros), after load(): the
   * parameters, their gradient and both moments then stay in this memory between steps.
   */
  initAdam(state: AdamState): void {
    if (state.m.length !== this.paramCount) throw new Error(`Adam state holds ${state.m.length} moments for ${this.paramCount} parameters`);
    if (this.m === 0) this.layout(this.paramCount, this.obsSize, this.capacity, [...this.nets.keys()], true);
    const f64 = new Float64Array(this.wasm.memory.buffer);
    f64.set(state.m, this.m >> 3);
    f64.set(state.v, this.v >> 3);
    this.adamStep = state.step;
  }

  /**
   * The global norm clip of the kernel's gradient (the logStd's, if any, written by setGrad) and
   * one Adam step, as adam.ts's clipGradNorm and Adam.step compute them; theta (the caller's copy)
   * gets the new parameters. Returns the gradient's norm before the clip.
   */
  clipAndStep(theta: Float32Array, settings: AdamSettings, maxGradNorm: number): number {
    const { wasm } = this;
    const beta1 = settings.beta1 ?? 0.9, beta2 = settings.beta2 ?? 0.999;
    const t = ++this.adamStep;
    const norm = Math.sqrt(wasm.sumSquares(this.grad, this.paramCount));
    const scale = maxGradNorm / (norm + 1e-6);
    wasm.adam(this.theta, this.grad, this.m, this.v, this.paramCount, scale, beta1, beta2,
      settings.learningRate / (1 - beta1 ** t), 1 / Math.sqrt(1 - beta2 ** t), settings.epsilon);
    theta.set(this.heap.subarray(this.theta >> 2, (this.theta >> 2) + this.paramCount));
    return norm;
  }

  /** Adam's state, for a checkpoint. */
  adamState(): AdamState {
    const f64 = new Float64Array(this.wasm.memory.buffer);
    return { step: this.adamStep, m: f64.slice(this.m >> 3, (this.m >> 3) + this.paramCount), v: f64.slice(this.v >> 3, (this.v >> 3) + this.paramCount) };
  }

  /** Sets the gradient of the parameters from `at` to these values (the log-std's, computed in JS). */
  setGrad(at: number, values: ArrayLike<number>): void {
    this.heap.set(values, (this.grad >> 2) + at);
  }

  private region(slots: LayerSlot[]): NetRegion {
    const r = this.nets.get(slots);
    if (r === undefined) throw new Error('MlpKernel: a network that load() was not given');
    return r;
  }

  private layout(paramCount: number, obsSize: number, capacity: number, networks: LayerSlot[][], withAdam = false): void {
    const hidden = Math.max(...networks.flatMap(([l1, l2]) => [l1.outputs, l2.outputs]));
    if (networks.some(([l1, l2, l3]) => l1.outputs % 4 !== 0 || l2.outputs % 4 !== 0 || l3.inputs % 4 !== 0)) {
      throw new Error('MlpKernel: hidden widths must be multiples of 4');
    }
    let top = 64;
    const take = (floats: number): number => {
      const at = top;
      top += Math.ceil((4 * floats) / 16) * 16;
      return at;
    };
    // The optimizer's moments survive a new layout (a larger batch after the first steps).
    const moments = this.m === 0 ? null : this.adamState();
    const adam = withAdam || moments !== null;
    const thetaBefore = this.heap.slice(this.theta >> 2, (this.theta >> 2) + this.paramCount);
    this.theta = take(paramCount);
    this.grad = take(paramCount);
    this.m = adam ? take(2 * paramCount) : 0;
    this.v = adam ? take(2 * paramCount) : 0;
    this.x = take(capacity * obsSize);
    this.dz1 = take(capacity * hidden);
    this.dz2 = take(capacity * hidden);
    this.nets.clear();
    for (const slots of networks) {
      const [, l2, l3] = slots;
      this.nets.set(slots, {
        h1: take(capacity * hidden), h2: take(capacity * hidden), out: take(capacity * l3.outputs), dOut: take(capacity * l3.outputs),
        hiddenT: take(l2.inputs * l2.outputs), headT: take(l3.inputs * l3.outputs),
      });
    }
    this.heap = new Float32Array(memoryOfAtLeast(this.wasm.memory, top));
    this.capacity = capacity;
    this.paramCount = paramCount;
    this.obsSize = obsSize;
    if (thetaBefore.length === paramCount) this.heap.set(thetaBefore, this.theta >> 2);
    if (moments !== null) this.initAdam(moments);
  }
}

let shared: MlpKernel | undefined;

/** The process's one kernel instance (its memory is reused from minibatch to minibatch). */
export function mlpKernel(): MlpKernel {
  return (shared ??= new MlpKernel());
}
