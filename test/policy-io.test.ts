import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as tf from '@tensorflow/tfjs-core';
import { FsBlobStore } from '../functions/shared/store/blob-fs.ts';
import { Random } from '../core/random.ts';
import { initBackend } from '../functions/train-seed/backend.ts';
import { forwardJs, initialParameters, networkFor, prepareJs, scaleObservations } from '../functions/train-seed/network.ts';
import { loadPolicy, savePolicy } from '../functions/train-seed/policy-io.ts';
import { getTask } from '../tasks/registry.ts';

describe('Function: savePolicy', () => {
  let dir: string;
  before(async () => {
    await initBackend();
    dir = await mkdtemp(join(tmpdir(), 'policy-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const cases: Array<[string, number[][]]> = [
    ['MountainCar-v0', [[-0.5, 0], [-1.1, -0.05], [0.45, 0.06]]],
    ['Pendulum-v1', [[1, 0, 0], [-1, 0, 3.5], [0.6, -0.8, -7]]],
    ['CartPole-v1', [[0, 0, 0, 0], [1.2, -2, 0.1, 1.5]]],
  ];
  // Hopper's running observation normalization: a statistic, and the ±10 clip (the last row is far outside it).
  // Ant's: the same, and its 78 hidden contact forces (an infinite scale: input 0) stay hidden.
  const normalized = (net: ReturnType<typeof networkFor>) => {
    net.offset.set(net.offset.map((o, k) => (Number.isFinite(net.scale[k]) ? 0.1 * k - 0.3 : o)));
    net.scale.set(net.scale.map((s, k) => (Number.isFinite(s) ? 0.5 + 0.2 * k : s)));
    net.clip = 10;
    return net;
  };
  cases.push(['Hopper-v5', [[1.25, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0.9, 0.1, -1, -0.5, 0.3, 2, -1, 3, 4, -5, 6], [60, -40, 30, -20, 10, -90, 80, 70, -60, 50, -40]]]);
  cases.push(['Ant-v5', [Array.from({ length: 105 }, (_, k) => (k < 27 ? 0.1 * k : 0)), Array.from({ length: 105 }, (_, k) => (k < 27 ? -0.2 * k : 1)), Array.from({ length: 105 }, (_, k) => 40 * Math.sin(k))]]);
  const withNormalization = ['Hopper-v5', 'Ant-v5'];
  for (const [id, raw] of cases) {
    it(`writes a LayersModel that tf.loadLayersModel loads and that takes raw ${id} observations${withNormalization.includes(id) ? ' (normalized and clipped)' : ''}`, async () => {
      // Prepare: random (non-trivial) parameters, perturbed so biases are not zero.
      const net = withNormalization.includes(id) ? normalized(networkFor(getTask(id))) : networkFor(getTask(id));
      const theta = initialParameters(net, 'orthogonal', new Random(7)).map((v, i) => v + 0.05 * Math.sin(i));
      const blobs = new FsBlobStore(dir);

      // Act
      await savePolicy(net, theta, blobs, id);
      const model = await loadPolicy(blobs, id);

      // Assess: the files are the standard format, and the outputs equal the trainer's own forward pass.
      const manifest = JSON.parse(await readFile(join(dir, id, 'model.json'), 'utf8'));
      assert.equal(manifest.format, 'layers-model');
      assert.deepEqual(manifest.weightsManifest[0].paths, ['./weights.bin']);
      const predicted = (model.predict(tf.tensor2d(raw)) as tf.Tensor).dataSync();
      const scaled = new Float32Array(raw.length * net.obsSize);
      scaleObservations(net, Float32Array.from(raw.flat()), raw.length, scaled);
      const expected = new Float32Array(raw.length * net.actions);
      forwardJs(prepareJs(theta, net.actor), scaled, raw.length, expected);
      assert.equal(predicted.length, expected.length);
      expected.forEach((x, k) => assert.ok(Math.abs(predicted[k] - x) < 1e-4, `output ${k}: ${predicted[k]} vs ${x}`));
      if (id === 'Ant-v5') {
        // The hidden contact forces change nothing: the last row with its contacts zeroed acts the same.
        const zeroed = raw[2].map((x, k) => (k < 27 ? x : 0));
        const again = (model.predict(tf.tensor2d([zeroed])) as tf.Tensor).dataSync();
        again.forEach((x, k) => assert.ok(Math.abs(x - predicted[2 * net.actions + k]) < 1e-6, `hidden entries moved output ${k}`));
      }
    });
  }
});
