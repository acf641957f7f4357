/**
 * The few operations the MLP's passes (mlp-gradient.ts) ask of TensorFlow.js, two ways:
 *
 * - through tfjs's ops (any backend: tfjs-node, cpu), each op a trip through the engine, which
 *   tracks, scopes and wraps every tensor;
 * - on the wasm backend, by calling its registered kernels directly on TensorInfos and freeing
 *   them at the end of the scope. The kernels (XNNPACK's matrix product with the sigmoid fused,
 *   Multiply, Sub) are the same ones the ops run; what goes is the engine's bookkeeping, about a
 *   quarter of a 64-row minibatch step (0.72 -> 0.54 ms of CPU, bench/minibatch.ts).
 */
import * as tf from '@tensorflow/tfjs-core';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';

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

/** The ops for the backend tfjs runs on now: its kernels directly on wasm, else tfjs's ops. */
export function matrixOps(): MatrixOps {
  if (tf.getBackend() === 'wasm' && !throughEngine) return (wasmOps ??= new WasmKernels(tf.backend() as unknown as BackendWasm));
  return engineOps;
}

/** Sends even the wasm backend's work through tfjs's ops (to compare the two: tests, bench). */
export function useEngineOps(on: boolean): void {
  throughEngine = on;
}

let throughEngine = false;
let wasmOps: WasmKernels | undefined;
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

type KernelFunc = (args: { inputs: Record<string, tf.TensorInfo>; backend: BackendWasm; attrs?: Record<string, unknown> }) => tf.TensorInfo;

class WasmKernels implements MatrixOps {
  private readonly fused: KernelFunc;
  private readonly multiply: KernelFunc;
  private readonly sub: KernelFunc;
  private readonly one: Mat;
  private made: Mat[] = [];

  constructor(private readonly backend: BackendWasm) {
    const kernel = (name: string) => {
      const config = tf.getKernel(name, 'wasm');
      if (!config) throw new Error(`the wasm backend has no ${name} kernel`);
      return config.kernelFunc as unknown as KernelFunc;
    };
    this.fused = kernel(tf._FusedMatMul);
    this.multiply = kernel(tf.Multiply);
    this.sub = kernel(tf.Sub);
    this.one = backend.makeOutput([], 'float32', undefined, Float32Array.of(1));
  }

  matrix(values: Float32Array, rows: number, cols: number): Mat {
    return this.keep(this.backend.makeOutput([rows, cols], 'float32', undefined, values));
  }

  matMul(a: Mat, b: Mat, sigmoid: boolean): Mat {
    // _FusedMatMul takes rank-3 operands; a [1, m, k] view of a [m, k] matrix is the same memory.
    const out = this.fused({
      inputs: { a: { ...a, shape: [1, ...a.shape] }, b: { ...b, shape: [1, ...b.shape] } },
      backend: this.backend,
      attrs: { transposeA: false, transposeB: false, activation: sigmoid ? 'sigmoid' : 'linear' },
    });
    return this.keep({ ...out, shape: [a.shape[0], b.shape[1]] });
  }

  sigmoidGrad(dh: Mat, s: Mat): Mat {
    const oneMinus = this.keep(this.sub({ inputs: { a: this.one, b: s }, backend: this.backend }));
    const slope = this.keep(this.multiply({ inputs: { a: s, b: oneMinus }, backend: this.backend }));
    return this.keep(this.multiply({ inputs: { a: dh, b: slope }, backend: this.backend }));
  }

  read(m: Mat, into: Float32Array): Float32Array {
    into.set(this.backend.typedArrayFromHeap(m) as Float32Array);
    return into;
  }

  scope<T>(f: () => T): T {
    const outer = this.made;
    this.made = [];
    try {
      return f();
    } finally {
      for (const m of this.made) this.backend.disposeData(m.dataId);
      this.made = outer;
    }
  }

  private keep(m: Mat): Mat {
    this.made.push(m);
    return m;
  }
}
