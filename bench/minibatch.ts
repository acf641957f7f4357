/**
 * `npx tsx bench/minibatch.ts`: what one minibatch step costs (PPO's loss and its gradient, the
 * norm clip and Adam), at each size, for each way of computing it that was measured (README,
 * "The trainer's minibatch step"):
 *
 * - autodiff: stock ops (matMul, add, tanh, logSoftmax) on slices of one parameter tensor,
 *   tf.grads and tfjs's Adam: test/support/ppo-reference.ts, the way the loss reads in CleanRL.
 * - block: fewer, larger ops: the actor and the critic as ONE block-diagonal MLP (three matrix
 *   products for both, tanh through sigmoid), one fused loss, tf.grads, tfjs's Adam.
 * - customGrad: the trainer's passes (mlp-gradient.ts), with the loss and its hand-written
 *   gradient as a tf.customGrad of tfjs ops in place of ppo-loss.ts.
 * - ours: what the trainer runs (ppo.ts lossAndGradient, then adam.ts).
 *
 * Times are the least of 7 trials of 40 steps each, after a warm-up (the machine is shared):
 * wall and CPU milliseconds per step. Flags: --task ID (default LunarLander-v3), --rows 1,64,512.
 */
import * as tf from '@tensorflow/tfjs-core';
import { DEFAULT_PPO_CONFIG } from '../core/ppo-config.ts';
import { Random } from '../core/random.ts';
import { Adam, clipGradNorm } from '../functions/train-seed/adam.ts';
import { initBackend } from '../functions/train-seed/backend.ts';
import { mlpBackward, mlpForward, mlpInput } from '../functions/train-seed/mlp-gradient.ts';
import { initialParameters, networkFor, type Network } from '../functions/train-seed/network.ts';
import { lossAndGradient } from '../functions/train-seed/ppo.ts';
import type { Minibatch } from '../functions/train-seed/ppo-loss.ts';
import { getTask } from '../tasks/registry.ts';
import { referenceLoss } from '../test/support/ppo-reference.ts';
import { blockStep } from './minibatch-block.ts';
import { headLoss } from './minibatch-custom-grad.ts';

const argv = process.argv.slice(2);
const flag = (name: string, fallback: string): string => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : fallback);
const task = getTask(flag('task', 'LunarLander-v3'));
const rows = flag('rows', '1,64,512').split(',').map(Number);
const config = { ...DEFAULT_PPO_CONFIG, ...task.ppo, seed: 0, totalTimesteps: 0 };
const backend = await initBackend();
const net = networkFor(task);

function minibatch(n: number, rng: Random): Minibatch {
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

type Step = (mb: Minibatch) => void;

/** The trainer's own step. */
function ours(theta: Float32Array): Step {
  const adam = new Adam(net.paramCount, { learningRate: config.learningRate, epsilon: config.adamEpsilon });
  const grad = new Float64Array(net.paramCount);
  return (mb) => {
    lossAndGradient(net, theta, mb, config, grad);
    clipGradNorm(grad, config.maxGradNorm);
    adam.step(theta, grad);
  };
}

/** Stock ops and autodiff over one parameter variable, tfjs's Adam. */
function autodiff(theta0: Float32Array): Step {
  const theta = tf.variable(tf.tensor1d(theta0));
  const adam = tf.train.adam(config.learningRate, 0.9, 0.999, config.adamEpsilon);
  return (mb) => tf.tidy(() => {
    const grad = tf.grads((t: tf.Tensor) => referenceLoss(net, t as tf.Tensor1D, mb, config))([theta])[0];
    adam.applyGradients([{ name: theta.name, tensor: clip(grad) }]);
  });
}

/** Our passes, the loss and its gradient in tfjs ops through tf.customGrad. */
function customGrad(theta: Float32Array, netOf: Network): Step {
  const adam = new Adam(netOf.paramCount, { learningRate: config.learningRate, epsilon: config.adamEpsilon });
  const grad = new Float64Array(netOf.paramCount);
  return (mb) => {
    grad.fill(0);
    tf.tidy(() => {
      const input = mlpInput(mb.obs, mb.n, netOf.obsSize);
      const actor = mlpForward(netOf.actor, theta, input);
      const critic = mlpForward(netOf.critic, theta, input);
      const logStd = netOf.continuous ? tf.tensor1d(theta.subarray(netOf.logStd, netOf.logStd + netOf.actions)) : tf.zeros([netOf.actions]);
      const outs = [tf.tensor2d(actor.out, [mb.n, netOf.actions]), tf.tensor2d(critic.out, [mb.n, 1]), logStd];
      const [dActor, dValues, dLogStd] = tf.grads((...x: tf.Tensor[]) => headLoss(netOf, mb, config)(x[0], x[1], x[2]))(outs);
      mlpBackward(actor, dActor.dataSync() as Float32Array, grad);
      mlpBackward(critic, dValues.dataSync() as Float32Array, grad);
      if (netOf.continuous) grad.set(dLogStd.dataSync(), netOf.logStd);
    });
    clipGradNorm(grad, config.maxGradNorm);
    adam.step(theta, grad);
  };
}

function clip(grad: tf.Tensor): tf.Tensor {
  const norm = tf.sqrt(tf.sum(tf.square(grad)));
  return tf.mul(grad, tf.minimum(1, tf.div(config.maxGradNorm, tf.add(norm, 1e-6))));
}

function measure(step: Step, n: number): { wall: number; cpu: number } {
  const rng = new Random(n);
  const batches = Array.from({ length: 8 }, () => minibatch(n, rng));
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

const theta = initialParameters(net, config.init, new Random(0));
const ways: Array<[string, Step]> = [
  ['autodiff', autodiff(theta)],
  ['block', blockStep(net, theta, config)],
  ['customGrad', customGrad(Float32Array.from(theta), net)],
  ['ours', ours(Float32Array.from(theta))],
];
// Warm-up: tfjs compiles and XNNPACK sizes its buffers on first use; V8 optimizes the JS.
const warmUntil = performance.now() + 4000;
while (performance.now() < warmUntil) for (const [, step] of ways) for (const n of rows) step(minibatch(n, new Random(1)));

process.stdout.write(`${task.id}, backend ${backend}: ms per minibatch step (least of 7 trials), wall / CPU\n`);
process.stdout.write(`${'rows'.padEnd(12)}${ways.map(([name]) => name.padStart(16)).join('')}\n`);
for (const n of rows) {
  const cells = ways.map(([, step]) => measure(step, n)).map(({ wall, cpu }) => `${wall.toFixed(2)} / ${cpu.toFixed(2)}`.padStart(16));
  process.stdout.write(`${String(n).padEnd(12)}${cells.join('')}\n`);
}
