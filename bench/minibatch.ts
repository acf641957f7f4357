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
 * - ours, engine: the trainer's passes (mlp-gradient.ts) with their matrices through tfjs's ops,
 *   as on tfjs-node.
 * - ours: what the trainer runs on wasm (network-passes.ts lossAndGradient, then adam.ts): the passes on the
 *   project's own WebAssembly kernel (mlp-kernel.ts, SIMD), the loss in JS.
 *
 * Times are the least of 7 trials of 40 steps each, after a warm-up (the machine is shared):
 * wall and CPU milliseconds per step. Flags: --task ID (default LunarLander-v3), --rows 1,64,512.
 */
import { DEFAULT_PPO_CONFIG } from '../core/ppo-config.ts';
import { Random } from '../core/random.ts';
import { initBackend } from '../functions/train-seed/backend.ts';
import { initialParameters, networkFor } from '../functions/train-seed/network.ts';
import { getTask } from '../tasks/registry.ts';
import { blockStep } from './minibatch-block.ts';
import { autodiffStep, customGradStep, measureStep, oursStep, warmUp, type Step } from './minibatch-ways.ts';
import { benchArgs } from './args.ts';

const { values: args } = benchArgs(import.meta.url, { options: { task: { type: 'string', default: 'LunarLander-v3' }, rows: { type: 'string', default: '1,64,512' } } });
const task = getTask(args.task);
const rows = args.rows.split(',').map(Number);
const config = { ...DEFAULT_PPO_CONFIG, ...task.ppo, seed: 0, totalTimesteps: 0 };
const backend = await initBackend();
const net = networkFor(task);

const theta = initialParameters(net, config.init, new Random(0));
const ways: Array<[string, Step]> = [
  ["autodiff", autodiffStep(net, theta, config)],
  ['block', blockStep(net, theta, config)],
  ['customGrad', customGradStep(net, Float32Array.from(theta), config)],
  ['ours, engine', oursStep(net, Float32Array.from(theta), config, true)],
  ['ours', oursStep(net, Float32Array.from(theta), config)],
];
warmUp(net, ways.map(([, step]) => step), rows, 4000);

process.stdout.write(`${task.id}, backend ${backend}: ms per minibatch step (least of 7 trials), wall / CPU\n`);
process.stdout.write(`${'rows'.padEnd(12)}${ways.map(([name]) => name.padStart(16)).join('')}\n`);
for (const n of rows) {
  const cells = ways.map(([, step]) => measureStep(net, step, n)).map(({ wall, cpu }) => `${wall.toFixed(2)} / ${cpu.toFixed(2)}`.padStart(16));
  process.stdout.write(`${String(n).padEnd(12)}${cells.join('')}\n`);
}
