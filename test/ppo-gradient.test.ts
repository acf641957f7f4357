/**
 * The trainer's hand-written gradient (mlp-gradient.ts through ppo-loss.ts) against tfjs's own
 * autodiff of the same loss written with stock ops (support/ppo-reference.ts), on every shape of
 * network the tasks make, with ratios on both sides of the clip and both signs of advantage.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { DEFAULT_PPO_CONFIG } from '../core/ppo-config.ts';
import { Random } from '../core/random.ts';
import { initBackend } from '../functions/train-seed/backend.ts';
import { useEngineOps } from '../functions/train-seed/matrix-ops.ts';
import { forwardJs, initialParameters, networkFor, prepareJs, type Network } from '../functions/train-seed/network.ts';
import { lossAndGradient } from '../functions/train-seed/network-passes.ts';
import type { Minibatch } from '../functions/train-seed/ppo-loss.ts';
import { getTask } from '../tasks/registry.ts';
import { referenceGradient } from './support/ppo-reference.ts';

/** Parameters away from their initial symmetries, and a minibatch whose old log-probabilities are off by up to ±0.5. */
function problem(net: Network, n: number, seed: number): { theta: Float32Array; mb: Minibatch } {
  const rng = new Random(seed);
  const theta = initialParameters(net, 'orthogonal', rng).map((v) => v + rng.uniform(-0.1, 0.1));
  const a = net.continuous ? net.actions : 1;
  const mb: Minibatch = {
    n,
    obs: Float32Array.from({ length: n * net.obsSize }, () => rng.uniform(-1.5, 1.5)),
    actions: Float32Array.from({ length: n * a }, () => (net.continuous ? rng.normal() : rng.int(net.actions))),
    logprobs: new Float32Array(n),
    advantages: Float32Array.from({ length: n }, () => rng.normal()),
    returns: Float32Array.from({ length: n }, () => 3 * rng.normal()),
  };
  const out = new Float32Array(n * net.actions);
  forwardJs(prepareJs(theta, net.actor), mb.obs, n, out);
  for (let i = 0; i < n; i++) mb.logprobs[i] = logprob(net, theta, out, mb.actions, i) + rng.uniform(-0.5, 0.5);
  return { theta, mb };
}

function logprob(net: Network, theta: Float32Array, out: Float32Array, actions: Float32Array, i: number): number {
  const k = net.actions;
  if (!net.continuous) {
    const row = Array.from(out.subarray(i * k, (i + 1) * k));
    const max = Math.max(...row);
    return row[actions[i]] - max - Math.log(row.reduce((s, x) => s + Math.exp(x - max), 0));
  }
  let sum = 0;
  for (let j = 0; j < k; j++) {
    const logStd = theta[net.logStd + j];
    const z = (actions[i * k + j] - out[i * k + j]) / Math.exp(logStd);
    sum += -0.5 * z * z - logStd - 0.5 * Math.log(2 * Math.PI);
  }
  return sum;
}

describe('Function: lossAndGradient', () => {
  before(() => initBackend());

  const cases: Array<[string, number]> = [['LunarLander-v3', 64], ['LunarLander-v3', 512], ['MountainCar-v0', 7], ['Pendulum-v1', 128], ['LunarLanderContinuous-v3', 64]];
  for (const [id, n] of cases) {
    it(`equals tfjs's autodiff to 1e-5 on ${id}, ${n} rows`, (t) => {
      // Prepare
      const net = networkFor(getTask(id));
      const { theta, mb } = problem(net, n, n);
      const config = { ...DEFAULT_PPO_CONFIG, entCoef: 0.01 };

      // Act
      const grad = new Float64Array(net.paramCount);
      const ours = lossAndGradient(net, theta, mb, config, grad);
      const reference = referenceGradient(net, theta, mb, config);

      // Assess: the same loss and, parameter by parameter, the same gradient.
      let worst = 0, largest = 0;
      reference.grad.forEach((g, i) => {
        worst = Math.max(worst, Math.abs(grad[i] - g));
        largest = Math.max(largest, Math.abs(g));
      });
      const ratios = Array.from({ length: n }, (_, i) => i).filter((i) => Math.abs(Math.exp(reference.logprobs[i] - mb.logprobs[i]) - 1) > config.clipCoef);
      t.diagnostic(`largest difference ${worst.toExponential(2)}, largest gradient ${largest.toExponential(2)}, ${ratios.length} of ${n} ratios outside the clip`);
      assert.ok(ratios.length > n / 4 && ratios.length < (3 * n) / 4, 'ratios on both sides of the clip');
      assert.ok(Math.abs(ours.loss - reference.loss) < 1e-5 * Math.max(1, Math.abs(reference.loss)), `loss ${ours.loss} vs ${reference.loss}`);
      assert.ok(worst < 1e-5, `largest difference ${worst} (largest gradient ${largest})`);
      assert.ok(largest > 1e-2, 'a gradient worth comparing');
    });
  }

  it('is the same on the project\'s kernel as through tfjs\'s ops (the tfjs-node way), to 1e-6', () => {
    const net = networkFor(getTask('LunarLanderContinuous-v3'));
    const { theta, mb } = problem(net, 64, 1);
    const [kernel, engine] = [false, true].map((throughEngine) => {
      useEngineOps(throughEngine);
      const grad = new Float64Array(net.paramCount);
      lossAndGradient(net, theta, mb, DEFAULT_PPO_CONFIG, grad);
      useEngineOps(false);
      return grad;
    });
    const worst = kernel.reduce((w, g, i) => Math.max(w, Math.abs(g - engine[i])), 0);
    assert.ok(worst < 1e-6, `largest difference ${worst}`);
    assert.ok(kernel.some((g, i) => g !== engine[i]), 'two computations, not one (they round differently)');
  });
});
