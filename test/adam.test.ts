/** Adam over plain typed arrays: tfjs's update, and a state that saves and resumes exactly. */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import * as tf from '@tensorflow/tfjs-core';
import { Random } from '../core/random.ts';
import { Adam, clipGradNorm } from '../functions/train-seed/adam.ts';
import { initBackend } from '../functions/train-seed/backend.ts';

const SETTINGS = { learningRate: 3e-4, epsilon: 1e-8 };

function gradients(size: number, steps: number, seed: number): Float64Array[] {
  const rng = new Random(seed);
  return Array.from({ length: steps }, () => Float64Array.from({ length: size }, () => 0.05 * rng.normal()));
}

describe('Function: Adam', () => {
  before(() => initBackend());

  it("takes tf.train.adam's steps", () => {
    // Prepare
    const start = Float32Array.from({ length: 200 }, (_, i) => Math.sin(i));
    const grads = gradients(start.length, 25, 1);
    const ours = Float32Array.from(start);
    const adam = new Adam(start.length, SETTINGS);
    const theirs = tf.variable(tf.tensor1d(start));
    const reference = tf.train.adam(SETTINGS.learningRate, 0.9, 0.999, SETTINGS.epsilon);

    // Act
    for (const g of grads) {
      adam.step(ours, g);
      tf.tidy(() => reference.applyGradients([{ name: theirs.name, tensor: tf.tensor1d(Float32Array.from(g)) }]));
    }

    // Assess: tfjs updates in float32, we in float64; both move each parameter by ~25 learning rates.
    const expected = theirs.dataSync();
    let worst = 0;
    ours.forEach((x, i) => { worst = Math.max(worst, Math.abs(x - expected[i])); });
    assert.ok(worst < 1e-6, `largest difference ${worst}`);
    assert.ok(Math.abs(ours[3] - start[3]) > 10 * SETTINGS.learningRate, 'the parameters moved');
  });

  it('resumes from an exported state exactly where an uninterrupted run would be', () => {
    const grads = gradients(50, 20, 2);
    const straight = new Float32Array(50).fill(0.5);
    const adam = new Adam(50, SETTINGS);
    for (const g of grads) adam.step(straight, g);

    const resumed = new Float32Array(50).fill(0.5);
    const first = new Adam(50, SETTINGS);
    grads.slice(0, 7).forEach((g) => first.step(resumed, g));
    const state = first.exportState();
    const second = new Adam(50, SETTINGS, { step: state.step, m: Float64Array.from(state.m), v: Float64Array.from(state.v) });
    grads.slice(7).forEach((g) => second.step(resumed, g));

    assert.deepEqual(resumed, straight);
    assert.equal(second.exportState().step, 20);
  });

  it('refuses a state of another size, naming both sizes', () => {
    assert.throws(() => new Adam(3, SETTINGS, { step: 1, m: new Float64Array(2), v: new Float64Array(2) }), /2 and 2 moments for 3 parameters/);
  });
});

describe('Function: clipGradNorm', () => {
  it('scales a long gradient to the norm and leaves a short one alone', () => {
    const long = Float64Array.from([3, 4]);
    assert.equal(clipGradNorm(long, 0.5), 5);
    assert.ok(Math.abs(Math.hypot(long[0], long[1]) - 0.5) < 1e-6);
    const short = Float64Array.from([0.3, 0.1]);
    clipGradNorm(short, 0.5);
    assert.deepEqual(Array.from(short), [0.3, 0.1]);
  });
});
