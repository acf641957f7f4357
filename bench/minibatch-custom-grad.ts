/**
 * bench/minibatch.ts's "customGrad" way: PPO's loss on the networks' outputs, with its
 * hand-written gradient, as a tf.customGrad of tfjs ops (the same formulas as ppo-loss.ts).
 */
import * as tf from '@tensorflow/tfjs-core';
import type { PpoConfig } from '../core/ppo-config.ts';
import type { Network } from '../functions/train-seed/network.ts';
import type { Minibatch } from '../functions/train-seed/ppo-loss.ts';

const LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);

/** (actor outputs [n, k], values [n, 1], log-std [k]) -> the loss, with the gradient for all three. */
export function headLoss(net: Network, mb: Minibatch, config: Pick<PpoConfig, 'clipCoef' | 'entCoef' | 'vfCoef'>) {
  const n = mb.n;
  const k = net.actions;
  return tf.customGrad((outArg, valuesArg, logStdArg, save) => {
    const [out, values, logStd] = [outArg, valuesArg, logStdArg] as tf.Tensor[];
    const old = tf.tensor1d(mb.logprobs);
    const adv = tf.tensor1d(mb.advantages);
    let newlogprob: tf.Tensor, entropy: tf.Tensor, saved: tf.Tensor[];
    if (!net.continuous) {
      const logp = tf.logSoftmax(out);
      const onehot = tf.oneHot(tf.tensor1d(mb.actions, 'int32'), k);
      const p = tf.exp(logp);
      const h = tf.neg(tf.sum(tf.mul(p, logp), 1, true));
      newlogprob = tf.sum(tf.mul(logp, onehot), 1);
      entropy = tf.mean(h);
      saved = [onehot, p, tf.add(logp, h)];
    } else {
      const std = tf.exp(logStd);
      const z = tf.div(tf.sub(tf.tensor2d(mb.actions, [n, k]), out), std);
      newlogprob = tf.sum(tf.sub(tf.mul(-0.5, tf.square(z)), tf.add(logStd, LOG_SQRT_2PI)), 1);
      entropy = tf.sum(tf.add(logStd, 0.5 + LOG_SQRT_2PI));
      saved = [tf.div(z, std), tf.sub(tf.square(z), 1)];
    }
    const ratio = tf.exp(tf.sub(newlogprob, old));
    const pg1 = tf.mul(tf.neg(adv), ratio);
    const pg2 = tf.mul(tf.neg(adv), tf.clipByValue(ratio, 1 - config.clipCoef, 1 + config.clipCoef));
    const diff = tf.sub(tf.reshape(values, [-1]), tf.tensor1d(mb.returns));
    const loss = tf.add(tf.sub(tf.mean(tf.maximum(pg1, pg2)), tf.mul(config.entCoef, entropy)), tf.mul(config.vfCoef * 0.5, tf.mean(tf.square(diff))));
    // dLoss/dlogp per row: the unclipped side's, where it is the larger.
    const g = tf.reshape(tf.where(tf.greaterEqual(pg1, pg2), tf.div(pg1, n), tf.zerosLike(pg1)), [n, 1]);
    (save as tf.GradSaveFunc)([g, diff, ...saved]);
    return {
      value: loss as tf.Scalar,
      gradFunc: (dy: tf.Tensor, [gs, diffs, a, b, c]: tf.Tensor[]) => {
        const dValues = tf.mul(dy, tf.reshape(tf.mul(config.vfCoef / n, diffs), [n, 1]));
        if (!net.continuous) {
          // g·(onehot - p) + (entCoef / n)·p·(logp + H)
          const dOut = tf.add(tf.mul(gs, tf.sub(a, b)), tf.mul(config.entCoef / n, tf.mul(b, c)));
          return [tf.mul(dy, dOut), dValues, tf.zeros([k])];
        }
        const dLogStd = tf.sub(tf.sum(tf.mul(gs, b), 0), config.entCoef);
        return [tf.mul(dy, tf.mul(gs, a)), dValues, tf.mul(dy, dLogStd)];
      },
    };
  }) as (out: tf.Tensor, values: tf.Tensor, logStd: tf.Tensor) => tf.Scalar;
}
