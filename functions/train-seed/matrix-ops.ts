/**
 * The few operations the MLP's passes on TensorFlow.js (mlp-gradient.ts) ask of it, through tfjs's
 * ops: the trainer's way on a backend other than wasm (tfjs-node), and on wasm when asked
 * (`useEngineOps`, for tests and the bench). On wasm the trainer otherwise runs its own kernel
 * (mlp-kernel.ts), which `ownKernel()` tells.
 */
import * as tf from '@tensorflow/tfjs-core';

/** A matrix living on the backend. */
export type Mat = tf.TensorInfo;

export interface MatrixOps {
  /** A [rows, cols] matrix of these values (row-major). */
  matrix(values: Float32Array, rows: number, cols: number): Mat;
  /** a · b, then the sigmoid if asked. */
  matMul(a: Mat, b: Mat, sigmoid: boolean): Mat;
  /** dh ⊙ s ⊙ (1 - s): the gradient through a sigmoid whose output was s. */
  sigmoidGrad(dh: Mat, s: Mat): Mat;
  /** Copies the values (row-major) into `into` and returns it. */
  read(m: Mat, into: Float32Array): Float32Array;
  /** Runs f, then frees every matrix made inside it. */
  scope<T>(f: () => T): T;
}

/** The ops: tfjs's, on whichever backend it runs. */
export function matrixOps(): MatrixOps {
  return engineOps;
}

/** Whether the trainer runs its passes on its own wasm kernel: on the wasm backend, unless told not to. */
export function ownKernel(): boolean {
  return tf.getBackend() === 'wasm' && !throughEngine;
}

/** Sends even the wasm backend's work through tfjs's ops (to compare the two: tests, bench). */
export function useEngineOps(on: boolean): void {
  throughEngine = on;
}

let throughEngine = false;
let one: tf.Scalar | undefined;

const engineOps: MatrixOps = {
  matrix: (values, rows, cols) => tf.tensor2d(values, [rows, cols]),
  matMul: (a, b, sigmoid) => tf.fused.matMul({ a: a as tf.Tensor2D, b: b as tf.Tensor2D, activation: sigmoid ? 'sigmoid' : 'linear' }),
  sigmoidGrad: (dh, s) => {
    one ??= tf.keep(tf.scalar(1));
    return tf.mul(dh as tf.Tensor, tf.mul(s as tf.Tensor, tf.sub(one, s as tf.Tensor)));
  },
  read: (m, into) => {
    into.set((m as tf.Tensor).dataSync() as Float32Array);
    return into;
  },
  scope: <T>(f: () => T): T => {
    tf.engine().startScope();
    try {
      return f();
    } finally {
      tf.engine().endScope();
    }
  },
};
