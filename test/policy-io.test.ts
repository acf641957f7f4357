import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as tf from '@tensorflow/tfjs-core';
import { FsBlobStore } from '../functions/shared/blob-fs.ts';
import { Random } from '../functions/shared/random.ts';
import { initBackend } from '../functions/train-seed/backend.ts';
import { ACTOR_SLOTS, NUM_ACTIONS, forwardJs, initialParameters, prepareJs, scaleObservation } from '../functions/train-seed/network.ts';
import { loadPolicy, savePolicy } from '../functions/train-seed/policy-io.ts';

describe('Function: savePolicy', () => {
  let dir: string;
  before(async () => {
    await initBackend();
    dir = await mkdtemp(join(tmpdir(), 'policy-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('writes a LayersModel that tf.loadLayersModel loads and that takes raw observations', async () => {
    // Prepare: random (non-trivial) parameters, perturbed so biases are not zero.
    const theta = initialParameters('orthogonal', new Random(7)).map((v, i) => v + 0.05 * Math.sin(i));
    const blobs = new FsBlobStore(dir);

    // Act
    await savePolicy(theta, blobs, 'p');
    const model = await loadPolicy(blobs, 'p');

    // Assess: the files are the standard format, and the logits equal the trainer's own forward pass.
    const manifest = JSON.parse(await readFile(join(dir, 'p', 'model.json'), 'utf8'));
    assert.equal(manifest.format, 'layers-model');
    assert.deepEqual(manifest.weightsManifest[0].paths, ['./weights.bin']);
    const raw = [[-0.5, 0], [-1.1, -0.05], [0.45, 0.06]];
    const predicted = (model.predict(tf.tensor2d(raw)) as tf.Tensor).dataSync();
    const scaled = new Float32Array(raw.length * 2);
    raw.forEach(([p, v], n) => scaleObservation(p, v, scaled, 2 * n));
    const expected = new Float32Array(raw.length * NUM_ACTIONS);
    forwardJs(prepareJs(theta, ACTOR_SLOTS), scaled, raw.length, expected);
    expected.forEach((x, k) => assert.ok(Math.abs(predicted[k] - x) < 1e-4, `logit ${k}: ${predicted[k]} vs ${x}`));
  });
});
