/**
 * The trainer's own WebAssembly kernel (functions/train-seed/mlp-kernel.ts) where it is not
 * covered by the gradient's check against tfjs (test/ppo-gradient.test.ts): its tanh, and its
 * optimizer against adam.ts's, which it must follow bit for bit.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Random } from '../core/random.ts';
import { instantiateKernel } from '../core/wasm.ts';
import { Adam, clipGradNorm } from '../functions/train-seed/adam.ts';
import { MlpKernel } from '../functions/train-seed/mlp-kernel.ts';
import { MLP_KERNEL_WASM } from '../functions/train-seed/mlp-kernel-wasm.ts';
import { networkFor } from '../functions/train-seed/network.ts';
import { getTask } from '../tasks/registry.ts';

describe('Function: MlpKernel', () => {
  it('computes tanh within 1e-6 of Math.tanh from -20 to 20', () => {
    // Prepare
    const raw = instantiateKernel<{ tanhInPlace(p: number, count: number): void }>(MLP_KERNEL_WASM);
    const count = 40_000;
    const xs = Float32Array.from({ length: count }, (_, i) => -20 + (40 * i) / count);
    raw.memory.grow(4);
    new Float32Array(raw.memory.buffer, 1024, count).set(xs);

    // Act
    raw.tanhInPlace(1024, count);

    // Assess
    const ys = new Float32Array(raw.memory.buffer, 1024, count);
    let worst = 0;
    xs.forEach((x, i) => (worst = Math.max(worst, Math.abs(ys[i] - Math.tanh(x)))));
    assert.ok(worst < 1e-6, `largest error ${worst}`);
  });

  it('clips and steps Adam exactly as adam.ts does, and keeps its moments when it lays its memory out again', () => {
    // Prepare: the same parameters and gradients on both sides, some steps clipped, some not.
    const net = networkFor(getTask('LunarLander-v3'));
    const rng = new Random(3);
    const theta0 = Float32Array.from({ length: net.paramCount }, () => rng.uniform(-1, 1));
    const settings = { learningRate: 3e-4, epsilon: 1e-8 };
    const kernel = new MlpKernel();
    const ours = Float32Array.from(theta0);
    kernel.load(ours, net.obsSize, 64, [net.actor, net.critic]);
    kernel.initAdam({ step: 0, m: new Float64Array(net.paramCount), v: new Float64Array(net.paramCount) });
    const theirs = Float32Array.from(theta0);
    const adam = new Adam(net.paramCount, settings);

    // Act
    for (let step = 0; step < 6; step++) {
      const size = step % 2 === 0 ? 1e-3 : 1;
      const g = Float32Array.from({ length: net.paramCount }, () => rng.normal() * size);
      if (step === 3) kernel.load(ours, net.obsSize, 4096, [net.actor, net.critic]);
      kernel.load(ours, net.obsSize, 64, [net.actor, net.critic]);
      kernel.setGrad(0, g);
      kernel.clipAndStep(ours, settings, 0.5);
      const grad = Float64Array.from(g);
      clipGradNorm(grad, 0.5);
      adam.step(theirs, grad);
    }

    // Assess
    assert.deepEqual(ours, theirs);
    const state = kernel.adamState(), reference = adam.exportState();
    assert.equal(state.step, reference.step);
    assert.deepEqual(state.m, reference.m);
    assert.deepEqual(state.v, reference.v);
    assert.notDeepEqual(ours, theta0);
  });
});
