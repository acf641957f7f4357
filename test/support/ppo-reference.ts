/**
 * PPO's loss written the plain way, with stock TensorFlow.js ops (matMul, add, tanh, logSoftmax)
 * on slices of one parameter tensor, so that tfjs's own autodiff gives the gradient the trainer's
 * hand-written one must equal (test/ppo-gradient.test.ts; bench/minibatch.ts times it as the
 * trainer did before). The same formulas as CleanRL's ppo.py and ppo_continuous_action.py.
 */
import * as tf from '@tensorflow/tfjs-core';
// tfjs-core's Node bundle registers no gradients; tfjs-layers' bundle registers them all.
import '@tensorflow/tfjs-layers';
import type { PpoConfig } from '../../core/ppo-config.ts';
import type { LayerSlot, Network } from '../../functions/train-seed/network.ts';
import type { Minibatch } from '../../functions/train-seed/ppo-loss.ts';

const LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);

function mlp(theta: tf.Tensor1D, slots: LayerSlot[], x: tf.Tensor2D): tf.Tensor2D {
  let h = x;
  slots.forEach(({ inputs, outputs, w, b }, l) => {
    const weights = tf.reshape(tf.slice(theta, w, inputs * outputs), [inputs, outputs]) as tf.Tensor2D;
    h = tf.add(tf.matMul(h, weights), tf.slice(theta, b, outputs));
    if (l < slots.length - 1) h = tf.tanh(h);
  });
  return h;
}

type LossConfig = Pick<PpoConfig, 'clipCoef' | 'entCoef' | 'vfCoef'>;

/** The scalar loss at theta: clipped surrogate - entCoef · entropy + vfCoef · value loss. */
export function referenceLoss(net: Network, theta: tf.Tensor1D, mb: Minibatch, config: LossConfig, seeLogprobs?: (newlogprob: tf.Tensor1D) => void): tf.Scalar {
  const obs = tf.tensor2d(mb.obs, [mb.n, net.obsSize]);
  const logStd = net.continuous ? tf.slice(theta, net.logStd, net.actions) : null;
  return lossOfOutputs(net, mlp(theta, net.actor, obs), tf.reshape(mlp(theta, net.critic, obs), [-1]), logStd, mb, config, seeLogprobs);
}

/** The same loss given the actor's outputs [n, actions], the values [n] and the log-std (continuous). */
export function lossOfOutputs(net: Network, out: tf.Tensor2D, newvalue: tf.Tensor1D, logStd: tf.Tensor1D | null, mb: Minibatch, config: LossConfig, seeLogprobs?: (newlogprob: tf.Tensor1D) => void): tf.Scalar {
  let newlogprob: tf.Tensor1D, entropy: tf.Scalar;
  if (logStd === null) {
    const logp = tf.logSoftmax(out);
    const onehot = tf.oneHot(tf.tensor1d(mb.actions, 'int32'), net.actions);
    newlogprob = tf.sum(tf.mul(logp, onehot), 1);
    entropy = tf.mean(tf.neg(tf.sum(tf.mul(tf.exp(logp), logp), 1)));
  } else {
    const z = tf.div(tf.sub(tf.tensor2d(mb.actions, [mb.n, net.actions]), out), tf.exp(logStd));
    newlogprob = tf.sum(tf.sub(tf.mul(-0.5, tf.square(z)), tf.add(logStd, LOG_SQRT_2PI)), 1);
    entropy = tf.sum(tf.add(logStd, 0.5 + LOG_SQRT_2PI));
  }
  seeLogprobs?.(newlogprob);
  const advantages = tf.tensor1d(mb.advantages);
  const ratio = tf.exp(tf.sub(newlogprob, tf.tensor1d(mb.logprobs)));
  const pg_loss1 = tf.mul(tf.neg(advantages), ratio);
  const pg_loss2 = tf.mul(tf.neg(advantages), tf.clipByValue(ratio, 1 - config.clipCoef, 1 + config.clipCoef));
  const pg_loss = tf.mean(tf.maximum(pg_loss1, pg_loss2));
  const v_loss = tf.mul(0.5, tf.mean(tf.square(tf.sub(newvalue, tf.tensor1d(mb.returns)))));
  return tf.add(tf.sub(pg_loss, tf.mul(config.entCoef, entropy)), tf.mul(config.vfCoef, v_loss)) as tf.Scalar;
}

/** The loss and tfjs's autodiff gradient with respect to every parameter, and the new log-probabilities. */
export function referenceGradient(net: Network, theta: Float32Array, mb: Minibatch, config: LossConfig): { loss: number; grad: Float32Array; logprobs: Float32Array } {
  let logprobs: Float32Array = new Float32Array(0);
  const result = tf.tidy(() => {
    const { value, grads } = tf.valueAndGrads((t: tf.Tensor) => referenceLoss(net, t as tf.Tensor1D, mb, config, (l) => { logprobs = l.dataSync() as Float32Array; }))([tf.tensor1d(theta)]);
    return { loss: value.dataSync()[0], grad: grads[0].dataSync() as Float32Array };
  });
  return { ...result, logprobs };
}
