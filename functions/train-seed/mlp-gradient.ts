/**
 * One 3-layer tanh MLP (the actor or the critic, network.ts) through TensorFlow.js in as few and
 * as large operations as its algebra allows: the forward pass is three matrix products, the
 * backward pass six products and two sigmoid gradients, whatever the minibatch's size
 * (matrix-ops.ts runs them). The gradient is written by hand (the chain rule of a dense-tanh
 * stack) and checked against tfjs's own autodiff in test/ppo-gradient.test.ts.
 *
 * Why it is shaped like this (measured on the wasm backend; the README's trainer section):
 * - tanh is computed as 2·sigmoid(2z) - 1, and the sigmoid is fused into the matrix product
 *   (XNNPACK's); the factors 2 and the -1 are folded into the next layer's weights, built in JS.
 * - Biases ride in an extra input column of ones (sigmoid(40) is exactly 1 in float32), so a
 *   layer is one product and the weight gradient's last row is the bias gradient.
 * - Only plain [m,k]x[k,n] products run on XNNPACK; transposed or batched ones take a slow loop
 *   and a transpose of a 512x65 matrix costs more than a product with it. So nothing is
 *   transposed on the tfjs side: what the backward pass needs transposed is either built so in JS
 *   (inputs, weights, the loss's gradient) or computed so (the first layer once more, 9 inputs wide).
 */
import { matrixOps, type Mat, type MatrixOps } from './matrix-ops.ts';
import type { LayerSlot } from './network.ts';

/** sigmoid(ONE_LOGIT) is exactly 1 in float32: the constant column that carries the next bias. */
const ONE_LOGIT = 40;

/**
 * What is uploaded is built in buffers kept from step to step (fresh arrays would be ~140 KB of
 * garbage a step, 7 GB over a long seed-run). Safe because each buffer backs one matrix
 * at a time, and the caller's scope frees it before the buffer is written again (the wasm
 * backend copies on upload; tfjs's cpu backend holds the array until the tensor is disposed).
 * A buffer is always filled by the same builder, so the zeros it leaves alone stay zero. What is
 * read back lands in such buffers too, and is used before the next step reads into them again.
 */
const buffers = new Map<string, Float32Array>();

function buffer(key: string, size: number): Float32Array {
  let b = buffers.get(key);
  if (b === undefined || b.length !== size) buffers.set(key, (b = new Float32Array(size)));
  return b;
}

let sums = new Float64Array(64);

/** Scaled observations [n, d] with a column of ones, as rows [n, d+1] and (for a backward pass) as columns [d+1, n]. */
export interface MlpInput { ops: MatrixOps; n: number; d: number; x: Mat; xT: Mat | null }

/** Call inside matrixOps().scope, as every function here: what they make is freed with it. */
export function mlpInput(obs: Float32Array, n: number, d: number, columns = true): MlpInput {
  const ops = matrixOps();
  const rows = buffer(`x${n}`, n * (d + 1));
  const cols = columns ? buffer(`xT${n}`, n * (d + 1)) : null;
  for (let r = 0; r < n; r++) {
    rows.set(obs.subarray(r * d, (r + 1) * d), r * (d + 1));
    rows[r * (d + 1) + d] = 1;
  }
  if (cols) {
    for (let i = 0; i < d; i++) for (let r = 0; r < n; r++) cols[i * n + r] = obs[r * d + i];
    cols.fill(1, d * n);
  }
  return { ops, n, d, x: ops.matrix(rows, n, d + 1), xT: cols && ops.matrix(cols, d + 1, n) };
}

/** A forward pass kept for its backward pass: the sigmoid activations with their ones column. */
export interface MlpPass { input: MlpInput; slots: LayerSlot[]; theta: Float32Array; a1: Float32Array; s1: Mat; s2: Mat; out: Float32Array }

/** Outputs [n, outputs] of the MLP at theta's slots, row-major, and what backward needs. */
export function mlpForward(slots: LayerSlot[], theta: Float32Array, input: MlpInput): MlpPass {
  const [l1, l2, l3] = checkShape(slots);
  const { ops, n } = input;
  const a1 = firstLayer(theta, l1);
  const s1 = ops.matMul(input.x, ops.matrix(a1, l1.inputs + 1, l1.outputs + 1), true);
  const s2 = ops.matMul(s1, ops.matrix(afterTanh(theta, l2, 4, ONE_LOGIT), l2.inputs + 1, l2.outputs + 1), true);
  const out = ops.matMul(s2, ops.matrix(afterTanh(theta, l3, 2, null), l3.inputs + 1, l3.outputs), false);
  return { input, slots, theta, a1, s1, s2, out: ops.read(out, buffer(`out${l3.w}:${n}`, n * l3.outputs)) };
}

/** The outputs alone, for many rows at once (the critic's values of a whole rollout). */
export function mlpOutputs(slots: LayerSlot[], theta: Float32Array, obs: Float32Array, n: number, d: number): Float32Array {
  return matrixOps().scope(() => Float32Array.from(mlpForward(slots, theta, mlpInput(obs, n, d, false)).out));
}

/**
 * Adds the gradient of the loss with respect to the MLP's parameters into grad (at theta's
 * slots), given dOut, the loss's gradient with respect to the outputs [n, outputs], row-major.
 */
export function mlpBackward(pass: MlpPass, dOut: Float32Array, grad: Float64Array): void {
  const [l1, l2, l3] = pass.slots;
  const { ops, n, xT } = pass.input;
  if (xT === null) throw new Error('mlpBackward needs the input as columns too (mlpInput(..., true))');
  const o3 = l3.outputs;
  // s1 once more, computed as columns: the weight gradient of layer 2 needs s1ᵀ.
  const s1T = ops.matMul(ops.matrix(transpose(pass.a1, l1.inputs + 1, l1.outputs + 1, `a1T${l1.w}`), l1.outputs + 1, l1.inputs + 1), xT, true);
  const g3T = ops.matMul(ops.matrix(transpose(dOut, n, o3, `dT${l3.w}:${n}`), o3, n), pass.s2, false);
  // dL/dz2 = (dOut · W3ᵀ) ⊙ (1 - h2²), and 1 - h2² = 4·s2·(1 - s2): the 4 rides in the weights.
  const dh2 = ops.matMul(ops.matrix(dOut, n, o3), ops.matrix(backWeights(pass.theta, l3, false), o3, l3.inputs + 1), false);
  const dz2 = ops.sigmoidGrad(dh2, pass.s2);
  const g2 = ops.matMul(s1T, dz2, false);
  const dz1 = ops.sigmoidGrad(ops.matMul(dz2, ops.matrix(backWeights(pass.theta, l2, true), l2.outputs + 1, l2.inputs + 1), false), pass.s1);
  const g1 = ops.matMul(xT, dz1, false);
  addFirstLayerGrad(ops.read(g1, buffer(`g1${l1.w}`, (l1.inputs + 1) * (l1.outputs + 1))), l1, grad);
  addTanhLayerGrad(ops.read(g2, buffer(`g2${l2.w}`, (l2.inputs + 1) * (l2.outputs + 1))), l2, l2.outputs + 1, 1, grad);
  addTanhLayerGrad(ops.read(g3T, buffer(`g3${l3.w}`, o3 * (l3.inputs + 1))), l3, 1, l3.inputs + 1, grad);
}

function checkShape(slots: LayerSlot[]): [LayerSlot, LayerSlot, LayerSlot] {
  if (slots.length !== 3) throw new Error(`mlpForward takes 3 layers, got ${slots.length}`);
  return [slots[0], slots[1], slots[2]];
}

/** [d+1, o+1]: 2W over 2b, and a last column that is 0 but for ONE_LOGIT in the bias row. */
function firstLayer(theta: Float32Array, { inputs, outputs, w, b }: LayerSlot): Float32Array {
  const cols = outputs + 1;
  const a = buffer(`a1${w}`, (inputs + 1) * cols);
  for (let i = 0; i < inputs; i++) for (let j = 0; j < outputs; j++) a[i * cols + j] = 2 * theta[w + i * outputs + j];
  for (let j = 0; j < outputs; j++) a[inputs * cols + j] = 2 * theta[b + j];
  a[inputs * cols + outputs] = ONE_LOGIT;
  return a;
}

/**
 * A layer fed by s = (h + 1) / 2 instead of h = tanh: h·W + b = s·(2W) + (b - Σ_i W_i), times
 * `scale` (2 again if a sigmoid follows, so that it computes the next tanh). With a ones column
 * (ONE_LOGIT in the bias row) when `ones` is given.
 */
function afterTanh(theta: Float32Array, { inputs, outputs, w, b }: LayerSlot, scale: number, ones: number | null): Float32Array {
  const cols = ones === null ? outputs : outputs + 1;
  const a = buffer(`a${w}`, (inputs + 1) * cols);
  if (sums.length < outputs) sums = new Float64Array(outputs);
  for (let j = 0; j < outputs; j++) sums[j] = theta[b + j];
  for (let i = 0; i < inputs; i++) {
    const row = i * cols;
    const from = w + i * outputs;
    for (let j = 0; j < outputs; j++) {
      const x = theta[from + j];
      a[row + j] = scale * x;
      sums[j] -= x;
    }
  }
  for (let j = 0; j < outputs; j++) a[inputs * cols + j] = (scale / 2) * sums[j];
  if (ones !== null) a[inputs * cols + outputs] = ones;
  return a;
}

/** 4Wᵀ [outputs (+1 for a ones column), inputs + 1], zero where a ones column is. */
function backWeights(theta: Float32Array, { inputs, outputs, w }: LayerSlot, onesColumn: boolean): Float32Array {
  const cols = inputs + 1;
  const a = buffer(`b${w}`, (onesColumn ? outputs + 1 : outputs) * cols);
  for (let i = 0; i < inputs; i++) {
    const from = w + i * outputs;
    for (let j = 0; j < outputs; j++) a[j * cols + i] = 4 * theta[from + j];
  }
  return a;
}

/** g = [x, 1]ᵀ · dz1 [d+1, o+1]: the weight gradient over the bias gradient. */
function addFirstLayerGrad(g: Float32Array, { inputs, outputs, w, b }: LayerSlot, grad: Float64Array): void {
  const cols = outputs + 1;
  for (let i = 0; i < inputs; i++) for (let j = 0; j < outputs; j++) grad[w + i * outputs + j] += g[i * cols + j];
  for (let j = 0; j < outputs; j++) grad[b + j] += g[inputs * cols + j];
}

/**
 * g = [s, 1]ᵀ · dz, read with strides (rowStride, colStride) for (input i, output j) so that its
 * transpose reads as well. With h = 2s - 1: dW = 2·g[i, j] - g[ones, j], db = g[ones, j].
 */
function addTanhLayerGrad(g: Float32Array, { inputs, outputs, w, b }: LayerSlot, rowStride: number, colStride: number, grad: Float64Array): void {
  const ones = inputs * rowStride;
  for (let j = 0; j < outputs; j++) grad[b + j] += g[ones + j * colStride];
  for (let i = 0; i < inputs; i++) {
    const row = i * rowStride;
    const to = w + i * outputs;
    for (let j = 0; j < outputs; j++) grad[to + j] += 2 * g[row + j * colStride] - g[ones + j * colStride];
  }
}

function transpose(a: Float32Array, rows: number, cols: number, key: string): Float32Array {
  const t = buffer(key, rows * cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) t[c * rows + r] = a[r * cols + c];
  return t;
}
