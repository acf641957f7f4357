/**
 * bench/minibatch.ts's "block" way: the actor and the critic as one MLP whose hidden layers are
 * side by side (128 wide) and whose weights are block-diagonal, so that both run through the
 * same three matrix products; one fused loss on its outputs, tfjs's autodiff and Adam. The
 * off-diagonal blocks stay zero (their gradient is masked, so Adam never moves them). A layer's
 * gradient transposes explicitly (as the trainer's dense op did before): the stock gradient of
 * matMul multiplies by a transpose, which the wasm backend runs in a scalar loop.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { PpoConfig } from '../core/ppo-config.ts';
import type { Network } from '../functions/train-seed/network.ts';
import type { Minibatch } from '../functions/train-seed/ppo-loss.ts';
import { lossOfOutputs } from '../test/support/ppo-reference.ts';

/** tanh(x) = 2·sigmoid(2x) - 1: the wasm backend's tanh is ~15x slower than XNNPACK's sigmoid. */
const tanh = (x: tf.Tensor): tf.Tensor => tf.sub(tf.mul(tf.sigmoid(tf.mul(x, 2)), 2), 1);

/** x·w + b, its gradient through explicit transposes. */
const dense = tf.customGrad((x, w, b, save) => {
  const [xt, wt, bt] = [x, w, b] as tf.Tensor2D[];
  (save as tf.GradSaveFunc)([xt, wt]);
  return {
    value: tf.add(tf.matMul(xt, wt), bt),
    gradFunc: (dy: tf.Tensor, [xs, ws]: tf.Tensor[]) => [
      tf.matMul(dy as tf.Tensor2D, tf.transpose(ws as tf.Tensor2D)), tf.matMul(tf.transpose(xs as tf.Tensor2D), dy as tf.Tensor2D), tf.sum(dy, 0),
    ],
  };
}) as (x: tf.Tensor, w: tf.Tensor, b: tf.Tensor) => tf.Tensor2D;

export function blockStep(net: Network, theta: Float32Array, config: PpoConfig): (mb: Minibatch) => void {
  const [a1, a2, a3] = net.actor;
  const [c1, c2, c3] = net.critic;
  const h = a1.outputs, k = net.actions, d = net.obsSize;
  const shapes: Array<[number, number]> = [[d, 2 * h], [2 * h, 2 * h], [2 * h, k + 1]];
  const w = shapes.map(([r, c]) => new Float32Array(r * c));
  const b = shapes.map(([, c]) => new Float32Array(c));
  const mask = shapes.map(([r, c]) => new Float32Array(r * c));
  // Place each of the actor's and the critic's layers in its block.
  [[a1, c1], [a2, c2], [a3, c3]].forEach(([actor, critic], l) => {
    const cols = shapes[l][1];
    for (const [slot, row0, col0] of [[actor, 0, 0], [critic, l === 0 ? 0 : h, actor.outputs]] as const) {
      for (let i = 0; i < slot.inputs; i++) for (let j = 0; j < slot.outputs; j++) {
        w[l][(row0 + i) * cols + col0 + j] = theta[slot.w + i * slot.outputs + j];
        mask[l][(row0 + i) * cols + col0 + j] = 1;
      }
      b[l].set(theta.subarray(slot.b, slot.b + slot.outputs), col0);
    }
  });
  const vars = [...w.flatMap((x, l) => [tf.variable(tf.tensor2d(x, shapes[l])), tf.variable(tf.tensor1d(b[l]))])];
  if (net.continuous) vars.push(tf.variable(tf.tensor1d(theta.subarray(net.logStd, net.logStd + k))));
  const masks = mask.map((m, l) => tf.keep(tf.tensor2d(m, shapes[l])));
  const adam = tf.train.adam(config.learningRate, 0.9, 0.999, config.adamEpsilon);

  return (mb) => tf.tidy(() => {
    const x = tf.tensor2d(mb.obs, [mb.n, d]);
    const loss = (...p: tf.Tensor[]): tf.Scalar => {
      const h1 = tanh(dense(x, p[0], p[1]));
      const h2 = tanh(dense(h1, p[2], p[3]));
      const out = dense(h2, p[4], p[5]);
      const actor = tf.slice(out, [0, 0], [mb.n, k]) as tf.Tensor2D;
      const value = tf.reshape(tf.slice(out, [0, k], [mb.n, 1]), [-1]) as tf.Tensor1D;
      return lossOfOutputs(net, actor, value, (p[6] as tf.Tensor1D | undefined) ?? null, mb, config);
    };
    const grads = tf.grads(loss)(vars).map((g, i) => (i % 2 === 0 && i < 6 ? tf.mul(g, masks[i / 2]) : g));
    const norm = tf.sqrt(tf.addN(grads.map((g) => tf.sum(tf.square(g)))));
    const scale = tf.minimum(1, tf.div(config.maxGradNorm, tf.add(norm, 1e-6)));
    adam.applyGradients(vars.map((v, i) => ({ name: v.name, tensor: tf.mul(grads[i], scale) })));
  });
}
