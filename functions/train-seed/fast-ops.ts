/**
 * Two tfjs ops with hand-written gradients, because the stock ones are slow on the wasm backend
 * (measured, 512x64 batch): the transposed matMul that autodiff uses for dense gradients takes
 * ~2-3 ms against ~0.3 ms for an explicit transpose followed by a plain matMul, and `tanh` takes
 * ~0.7 ms against ~0.05 ms for XNNPACK's `sigmoid` (tanh(x) = 2·sigmoid(2x) - 1).
 */
import * as tf from '@tensorflow/tfjs-core';

// Created on first use (after the backend is chosen) and kept: a number would be uploaded per op.
let constants: { two: tf.Scalar; one: tf.Scalar } | undefined;
const k = () => (constants ??= { two: tf.keep(tf.scalar(2)), one: tf.keep(tf.scalar(1)) });

/** x·w + b for x [batch, in], w [in, out], b [out]. */
export const dense = tf.customGrad((x, w, b, save) => {
  const [xt, wt, bt] = [x, w, b] as tf.Tensor2D[];
  (save as tf.GradSaveFunc)([xt, wt]);
  return {
    value: tf.add(tf.matMul(xt, wt), bt),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => {
      const [xs, ws] = saved as tf.Tensor2D[];
      const dy2 = dy as tf.Tensor2D;
      return [tf.matMul(dy2, tf.transpose(ws)), tf.matMul(tf.transpose(xs), dy2), tf.sum(dy2, 0)];
    },
  };
}) as (x: tf.Tensor2D, w: tf.Tensor2D, b: tf.Tensor1D) => tf.Tensor2D;

/** tanh through sigmoid, with the usual derivative 1 - y². */
export const fastTanh = tf.customGrad((x, save) => {
  const { two, one } = k();
  const y = tf.sub(tf.mul(tf.sigmoid(tf.mul(x as tf.Tensor, two)), two), one);
  (save as tf.GradSaveFunc)([y]);
  return {
    value: y,
    gradFunc: (dy: tf.Tensor, [ys]: tf.Tensor[]) => tf.mul(dy, tf.sub(k().one, tf.square(ys))),
  };
}) as (x: tf.Tensor2D) => tf.Tensor2D;
