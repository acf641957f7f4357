/**
 * The actor and the critic: two separate 64-64 tanh MLPs (CleanRL's PPO agent), with all their
 * parameters in ONE flat Float32 vector: one Adam update and one gradient norm over it, and one
 * copy to refresh the plain-JS forward pass that the rollout and the grader use (batches of 16 are
 * faster in JS than through tfjs op dispatch). The minibatch update's passes are mlp-gradient.ts.
 *
 * The shape follows the task: the actor outputs one logit per action (discrete) or the mean of a
 * diagonal Gaussian per action dimension (continuous), whose log-std is a state-independent
 * parameter at the end of the vector (CleanRL's ppo_continuous_action.py).
 */
import { Random } from '../../core/random.ts';
import type { Task } from '../../tasks/contract.ts';

export const HIDDEN = 64;

interface LayerShape { inputs: number; outputs: number; gain: number }

/** Where each layer's weights [inputs, outputs] (row-major) and bias sit in the flat vector. */
export interface LayerSlot extends LayerShape { w: number; b: number }

export interface Network {
  obsSize: number;
  /** Actor outputs: logits (discrete) or Gaussian means (continuous). */
  actions: number;
  continuous: boolean;
  actor: LayerSlot[];
  critic: LayerSlot[];
  /** Offset of the log-std vector (continuous only; `actions` values), else -1. */
  logStd: number;
  paramCount: number;
  /** Observations are scaled to about [-1, 1]: (x - offset) / scale, per dimension; a hidden entry's scale is Infinity (its input is 0). */
  offset: Float64Array;
  scale: Float64Array;
  /** Scaled observations are clipped to ±clip (a running normalization's ±10; Infinity: none). */
  clip: number;
}

function layout(shapes: LayerShape[], start: number): { slots: LayerSlot[]; end: number } {
  let offset = start;
  const slots = shapes.map((s) => {
    const slot = { ...s, w: offset, b: offset + s.inputs * s.outputs };
    offset = slot.b + s.outputs;
    return slot;
  });
  return { slots, end: offset };
}

function mlp(inputs: number, outputs: number, lastGain: number): LayerShape[] {
  return [
    { inputs, outputs: HIDDEN, gain: Math.SQRT2 },
    { inputs: HIDDEN, outputs: HIDDEN, gain: Math.SQRT2 },
    { inputs: HIDDEN, outputs, gain: lastGain },
  ];
}

/** The network for a task's spaces, with its observation scaling from the spaces' typical ranges. */
export function networkFor(task: Pick<Task, 'observation' | 'action'>): Network {
  const obsSize = task.observation.length;
  const continuous = task.action.kind === 'box';
  const actions = task.action.names.length;
  const actor = layout(mlp(obsSize, actions, 0.01), 0);
  const critic = layout(mlp(obsSize, 1, 1), actor.end);
  const logStd = continuous ? critic.end : -1;
  const ranges = task.observation.map((d) => d.typical ?? [d.low, d.high]);
  return {
    obsSize, actions, continuous, actor: actor.slots, critic: critic.slots, logStd,
    paramCount: critic.end + (continuous ? actions : 0),
    offset: Float64Array.from(ranges, ([lo, hi], k) => (task.observation[k].hidden ? 0 : (lo + hi) / 2)),
    scale: Float64Array.from(ranges, ([lo, hi], k) => (task.observation[k].hidden ? Infinity : (hi - lo) / 2)),
    clip: Infinity,
  };
}

/**
 * 'orthogonal': orthogonal weights with the layer's gain and zero biases (CleanRL's layer_init).
 * 'uniform': weights and biases uniform in ±1/sqrt(fan_in) (PyTorch's nn.Linear default, the reference).
 * The log-std starts at 0 (a standard deviation of 1), as CleanRL's.
 */
export function initialParameters(net: Network, kind: 'orthogonal' | 'uniform', rng: Random): Float32Array {
  const theta = new Float32Array(net.paramCount);
  for (const slot of [...net.actor, ...net.critic]) {
    if (kind === 'orthogonal') {
      theta.set(orthogonal(slot.inputs, slot.outputs, slot.gain, rng), slot.w);
    } else {
      const bound = 1 / Math.sqrt(slot.inputs);
      for (let i = slot.w; i < slot.b + slot.outputs; i++) theta[i] = rng.uniform(-bound, bound);
    }
  }
  return theta;
}

/** A rows x cols matrix with orthonormal rows or columns (whichever is fewer), times gain. */
function orthogonal(rows: number, cols: number, gain: number, rng: Random): Float64Array {
  const n = Math.max(rows, cols);
  const k = Math.min(rows, cols);
  const q = Array.from({ length: k }, () => Float64Array.from({ length: n }, () => rng.normal()));
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < i; j++) {
      let dot = 0;
      for (let t = 0; t < n; t++) dot += q[i][t] * q[j][t];
      for (let t = 0; t < n; t++) q[i][t] -= dot * q[j][t];
    }
    let norm = 0;
    for (let t = 0; t < n; t++) norm += q[i][t] * q[i][t];
    norm = Math.sqrt(norm);
    for (let t = 0; t < n; t++) q[i][t] /= norm;
  }
  const out = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) out[r * cols + c] = gain * (rows >= cols ? q[c][r] : q[r][c]);
  }
  return out;
}

/** Scales `count` raw observations (count x obsSize, from `from`) into out. */
export function scaleObservations(net: Network, raw: Float32Array, count: number, out: Float32Array): void {
  const d = net.obsSize;
  const { clip } = net;
  for (let n = 0; n < count; n++) {
    for (let k = 0; k < d; k++) out[n * d + k] = Math.min(Math.max((raw[n * d + k] - net.offset[k]) / net.scale[k], -clip), clip);
  }
}

/** One MLP ready for plain-JS forward passes: each layer's weights transposed to [outputs, inputs]. */
export interface JsMlp {
  layers: Array<{ inputs: number; outputs: number; wT: Float64Array; b: Float64Array; tanh: boolean }>;
}

/**
 * Copies one MLP out of theta for forwardJs. Done once per update: with the weights transposed,
 * each output is a dot product along contiguous memory that V8 keeps in a register.
 */
export function prepareJs(theta: Float32Array, slots: LayerSlot[]): JsMlp {
  return {
    layers: slots.map(({ inputs, outputs, w, b }, l) => {
      const wT = new Float64Array(inputs * outputs);
      for (let i = 0; i < inputs; i++) for (let o = 0; o < outputs; o++) wT[o * inputs + i] = theta[w + i * outputs + o];
      return { inputs, outputs, wT, b: Float64Array.from(theta.subarray(b, b + outputs)), tanh: l < slots.length - 1 };
    }),
  };
}

/** Scratch rows for forwardJs, grown on demand: the rollout calls it 2 x 128 times per update. */
let scratch = [new Float64Array(0), new Float64Array(0), new Float64Array(0)];

/** Plain-JS forward pass for `count` scaled observations; writes count x outputs to out. */
export function forwardJs(mlp: JsMlp, x: Float32Array, count: number, out: Float32Array): void {
  const width = Math.max(HIDDEN, mlp.layers[0].inputs) * count;
  if (scratch[0].length < width) scratch = [new Float64Array(width), new Float64Array(width), new Float64Array(width)];
  const [input0, a, b] = scratch;
  for (let k = 0; k < count * mlp.layers[0].inputs; k++) input0[k] = x[k];
  let input = input0;
  let result = a;
  for (const layer of mlp.layers) {
    denseJs(layer.wT, layer.b, layer.inputs, layer.outputs, layer.tanh, input, count, result);
    input = result;
    result = result === a ? b : a;
  }
  const outputs = mlp.layers[mlp.layers.length - 1].outputs;
  for (let k = 0; k < count * outputs; k++) out[k] = input[k];
}

/**
 * result = input · W + b (then tanh). Four outputs at a time: four independent sums hide the
 * latency of floating-point adds and share each input load (measured 2x over one sum at a time).
 */
function denseJs(wT: Float64Array, bias: Float64Array, inputs: number, outputs: number, tanh: boolean, input: Float64Array, count: number, result: Float64Array): void {
  for (let n = 0; n < count; n++) {
    const x = n * inputs;
    const r = n * outputs;
    let o = 0;
    for (; o + 4 <= outputs; o += 4) {
      const w0 = o * inputs, w1 = w0 + inputs, w2 = w1 + inputs, w3 = w2 + inputs;
      let s0 = bias[o], s1 = bias[o + 1], s2 = bias[o + 2], s3 = bias[o + 3];
      for (let i = 0; i < inputs; i++) {
        const xi = input[x + i];
        s0 += xi * wT[w0 + i];
        s1 += xi * wT[w1 + i];
        s2 += xi * wT[w2 + i];
        s3 += xi * wT[w3 + i];
      }
      result[r + o] = s0;
      result[r + o + 1] = s1;
      result[r + o + 2] = s2;
      result[r + o + 3] = s3;
    }
    for (; o < outputs; o++) {
      const w = o * inputs;
      let sum = bias[o];
      for (let i = 0; i < inputs; i++) sum += input[x + i] * wT[w + i];
      result[r + o] = sum;
    }
    if (tanh) for (let k = r; k < r + outputs; k++) result[k] = Math.tanh(result[k]);
  }
}
