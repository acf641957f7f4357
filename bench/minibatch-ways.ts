/**
 * The ways of taking one minibatch step that bench/minibatch.ts compares (see there), and the
 * timing both it and `npm run bench` use.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { PpoConfig } from '../core/ppo-config.ts';
import { Random } from '../core/random.ts';
import { Adam, clipGradNorm } from '../functions/train-seed/adam.ts';
import { matrixOps, useEngineOps } from '../functions/train-seed/matrix-ops.ts';
import { mlpBackward, mlpForward, mlpInput } from '../functions/train-seed/mlp-gradient.ts';
import type { Network } from '../functions/train-seed/network.ts';
import { lossAndGradient } from '../functions/train-seed/network-passes.ts';
import type { Minibatch } from '../functions/train-seed/ppo-loss.ts';
import { referenceLoss } from '../test/support/ppo-reference.ts';
import { headLoss } from './minibatch-custom-grad.ts';

export type Step = (mb: Minibatch) => void;

/** A minibatch of made-up rows (the step's cost does not depend on their values). */
export function randomMinibatch(net: Network, n: number, rng: Random): Minibatch {
  const a = net.continuous ? net.actions : 1;
  return {
    n,
    obs: Float32Array.from({ length: n * net.obsSize }, () => rng.uniform(-1, 1)),
    actions: Float32Array.from({ length: n * a }, () => (net.continuous ? rng.normal() : rng.int(net.actions))),
    logprobs: Float32Array.from({ length: n }, () => -1.4 + rng.uniform(-0.3, 0.3)),
    advantages: Float32Array.from({ length: n }, () => rng.normal()),
    returns: Float32Array.from({ length: n }, () => rng.normal()),
  };
}

/** The trainer's own step; throughEngine sends it through tfjs's ops even on wasm. */
export function oursStep(net: Network, theta: Float32Array, config: PpoConfig, throughEngine = false): Step {
  const adam = new Adam(net.paramCount, { learningRate: config.learningRate, epsilon: config.adamEpsilon });
  const grad = new Float64Array(net.paramCount);
  return (mb) => {
    useEngineOps(throughEngine);
    lossAndGradient(net, theta, mb, config, grad);
    useEngineOps(false);
    clipGradNorm(grad, config.maxGradNorm);
    adam.step(theta, grad);
  };
}

/** Stock ops and autodiff over one parameter variable, tfjs's Adam. */
export function autodiffStep(net: Network, theta0: Float32Array, config: PpoConfig): Step {
  const theta = tf.variable(tf.tensor1d(theta0));
  const adam = tf.train.adam(config.learningRate, 0.9, 0.999, config.adamEpsilon);
  return (mb) => tf.tidy(() => {
    const grad = tf.grads((t: tf.Tensor) => referenceLoss(net, t as tf.Tensor1D, mb, config))([theta])[0];
    adam.applyGradients([{ name: theta.name, tensor: clip(grad, config.maxGradNorm) }]);
  });
}

/** Our passes, the loss and its gradient in tfjs ops through tf.customGrad. */
export function customGradStep(net: Network, theta: Float32Array, config: PpoConfig): Step {
  const adam = new Adam(net.paramCount, { learningRate: config.learningRate, epsilon: config.adamEpsilon });
  const grad = new Float64Array(net.paramCount);
  return (mb) => {
    grad.fill(0);
    matrixOps().scope(() => tf.tidy(() => {
      const input = mlpInput(mb.obs, mb.n, net.obsSize);
      const actor = mlpForward(net.actor, theta, input);
      const critic = mlpForward(net.critic, theta, input);
      const logStd = net.continuous ? tf.tensor1d(theta.subarray(net.logStd, net.logStd + net.actions)) : tf.zeros([net.actions]);
      const outs = [tf.tensor2d(actor.out, [mb.n, net.actions]), tf.tensor2d(critic.out, [mb.n, 1]), logStd];
      const [dActor, dValues, dLogStd] = tf.grads((...x: tf.Tensor[]) => headLoss(net, mb, config)(x[0], x[1], x[2]))(outs);
      mlpBackward(actor, dActor.dataSync() as Float32Array, grad);
      mlpBackward(critic, dValues.dataSync() as Float32Array, grad);
      if (net.continuous) grad.set(dLogStd.dataSync(), net.logStd);
    }));
    clipGradNorm(grad, config.maxGradNorm);
    adam.step(theta, grad);
  };
}

function clip(grad: tf.Tensor, maxNorm: number): tf.Tensor {
  const norm = tf.sqrt(tf.sum(tf.square(grad)));
  return tf.mul(grad, tf.minimum(1, tf.div(maxNorm, tf.add(norm, 1e-6))));
}

/** Milliseconds per step at n rows: the least of 7 trials of 40 steps, wall and CPU. */
export function measureStep(net: Network, step: Step, n: number): { wall: number; cpu: number } {
  const rng = new Random(n);
  const batches = Array.from({ length: 8 }, () => randomMinibatch(net, n, rng));
  let wall = Infinity, cpu = Infinity;
  for (let trial = 0; trial < 7; trial++) {
    const started = performance.now();
    const usage = process.cpuUsage();
    for (let i = 0; i < 40; i++) step(batches[i % batches.length]);
    const used = process.cpuUsage(usage);
    wall = Math.min(wall, (performance.now() - started) / 40);
    cpu = Math.min(cpu, (used.user + used.system) / 1000 / 40);
  }
  return { wall, cpu };
}

/** Runs each step at each size for `ms` first: tfjs sets XNNPACK up on first use, V8 optimizes the JS. */
export function warmUp(net: Network, steps: Step[], rows: number[], ms: number): void {
  const until = performance.now() + ms;
  const rng = new Random(1);
  while (performance.now() < until) for (const step of steps) for (const n of rows) step(randomMinibatch(net, n, rng));
}
