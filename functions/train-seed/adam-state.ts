/**
 * TensorFlow.js's Adam, saved and restored to the last bit for a seed-run's checkpoint. Its own
 * getWeights/setWeights keep the moments but recompute beta1^t as pow(beta1, t + 1), while every
 * update multiplies the running product by beta1 in float32: a restored run would drift in the
 * last bits. So the running products are read and written too (fields of tfjs-core 4.22.0's
 * AdamOptimizer; the version is pinned).
 */
import * as tf from '@tensorflow/tfjs-core';

export interface AdamState {
  /** Updates applied so far. */
  iterations: number;
  /** First and second moments, one entry per variable (ours: the one flat parameter vector). */
  m: Float32Array[];
  v: Float32Array[];
  /** The running products beta1^t and beta2^t, as float32 scalars. */
  accBeta1: number;
  accBeta2: number;
}

interface AdamInternals {
  iterations_: number;
  accBeta1: tf.Variable;
  accBeta2: tf.Variable;
  accumulatedFirstMoment: Array<{ originalName: string; variable: tf.Variable }>;
  accumulatedSecondMoment: Array<{ originalName: string; variable: tf.Variable }>;
}

const internals = (optimizer: tf.AdamOptimizer): AdamInternals => optimizer as unknown as AdamInternals;

export function saveAdam(optimizer: tf.AdamOptimizer): AdamState {
  const o = internals(optimizer);
  return {
    iterations: o.iterations_,
    m: o.accumulatedFirstMoment.map((x) => Float32Array.from(x.variable.dataSync())),
    v: o.accumulatedSecondMoment.map((x) => Float32Array.from(x.variable.dataSync())),
    accBeta1: o.accBeta1.dataSync()[0],
    accBeta2: o.accBeta2.dataSync()[0],
  };
}

/** Restores a saved state into a fresh optimizer for the same variables (in the same order). */
export function restoreAdam(optimizer: tf.AdamOptimizer, variables: tf.Variable[], state: AdamState): void {
  const o = internals(optimizer);
  if (state.m.length !== variables.length || state.v.length !== variables.length) {
    throw new Error(`an Adam state of ${state.m.length} variables, not ${variables.length}`);
  }
  const moment = (values: Float32Array[], suffix: string) => values.map((x, i) => ({
    originalName: `${variables[i].name}/${suffix}`,
    variable: tf.tidy(() => tf.tensor(x, variables[i].shape, 'float32').variable(false)),
  }));
  o.accumulatedFirstMoment = moment(state.m, 'm');
  o.accumulatedSecondMoment = moment(state.v, 'v');
  tf.tidy(() => {
    o.accBeta1.assign(tf.scalar(state.accBeta1, 'float32'));
    o.accBeta2.assign(tf.scalar(state.accBeta2, 'float32'));
  });
  o.iterations_ = state.iterations;
}
