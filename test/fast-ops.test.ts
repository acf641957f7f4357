/** The hand-written gradients of dense and fastTanh agree with tfjs's own ops and autodiff. */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-layers';
import { initBackend } from '../functions/train-seed/backend.ts';
import { dense, fastTanh } from '../functions/train-seed/fast-ops.ts';

function maxDiff(a: tf.Tensor, b: tf.Tensor): number {
  return tf.tidy(() => tf.max(tf.abs(tf.sub(a, b))).dataSync()[0]);
}

describe('Function: dense and fastTanh', () => {
  before(() => initBackend());

  it('compute what matMul + add and tanh compute', () => {
    const x = tf.randomNormal([32, 5], 0, 1, 'float32', 1) as tf.Tensor2D;
    const w = tf.randomNormal([5, 7], 0, 1, 'float32', 2) as tf.Tensor2D;
    const b = tf.randomNormal([7], 0, 1, 'float32', 3) as tf.Tensor1D;
    assert.ok(maxDiff(dense(x, w, b), tf.add(tf.matMul(x, w), b)) < 1e-5);
    assert.ok(maxDiff(fastTanh(x), tf.tanh(x)) < 1e-6);
  });

  it('have the gradients of the stock ops, for every input', () => {
    const x = tf.randomNormal([32, 5], 0, 1, 'float32', 4) as tf.Tensor2D;
    const w = tf.randomNormal([5, 7], 0, 1, 'float32', 5) as tf.Tensor2D;
    const b = tf.randomNormal([7], 0, 1, 'float32', 6) as tf.Tensor1D;
    const target = tf.randomNormal([32, 7], 0, 1, 'float32', 7);
    const loss = (layer: (x: tf.Tensor2D, w: tf.Tensor2D, b: tf.Tensor1D) => tf.Tensor2D) =>
      (xs: tf.Tensor, ws: tf.Tensor, bs: tf.Tensor) => tf.sum(tf.mul(layer(xs as tf.Tensor2D, ws as tf.Tensor2D, bs as tf.Tensor1D), target)) as tf.Scalar;
    const ours = tf.grads(loss((xs, ws, bs) => fastTanh(dense(xs, ws, bs))))([x, w, b]);
    const stock = tf.grads(loss((xs, ws, bs) => tf.tanh(tf.add(tf.matMul(xs, ws), bs)) as tf.Tensor2D))([x, w, b]);
    ours.forEach((g, i) => assert.ok(maxDiff(g, stock[i]) < 1e-4, `gradient ${i} differs by ${maxDiff(g, stock[i])}`));
  });
});
