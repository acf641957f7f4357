/**
 * The running observation normalization (Gymnasium's NormalizeObservation with its ±10 clip, as
 * CleanRL's continuous PPO), and the entries a task hides from the policy (`hidden`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OBS_CLIP, ObsNormalizer } from '../functions/train-seed/obs-normalizer.ts';
import { networkFor, scaleObservations } from '../functions/train-seed/network.ts';
import type { ObservationDim } from '../tasks/contract.ts';
import { getTask } from '../tasks/registry.ts';

const box = { kind: 'box' as const, names: ['a'], low: [-1], high: [1] };
const dims = (hide: boolean[]): ObservationDim[] => hide.map((hidden, k) => ({ name: `x${k}`, low: -Infinity, high: Infinity, typical: [-2, 2], hidden }));

/** Gymnasium's RunningMeanStd from its start (count 1e-4, mean 0, variance 1), over all rows at once. */
function reference(rows: number[][]): { mean: number[]; variance: number[] } {
  const n = rows.length;
  const count = 1e-4;
  return {
    mean: rows[0].map((_, k) => {
      const m = rows.reduce((s, r) => s + r[k], 0) / n;
      return (m * n) / (count + n);
    }),
    variance: rows[0].map((_, k) => {
      const m = rows.reduce((s, r) => s + r[k], 0) / n;
      const v = rows.reduce((s, r) => s + (r[k] - m) ** 2, 0) / n;
      return (1 * count + v * n + (m * m * count * n) / (count + n)) / (count + n);
    }),
  };
}

describe('Function: the running observation normalization', () => {
  it('scales by the running mean and deviation, as RunningMeanStd, clipped to ±10', () => {
    // Prepare
    const net = networkFor({ observation: dims([false, false]), action: box });
    const normalizer = new ObsNormalizer(net);
    const rows = [[1, 100], [3, 104], [2, 96], [6, 100]];

    // Act: two batches of two rows (Chan's update equals one batch of four).
    normalizer.update(Float32Array.from(rows.slice(0, 2).flat()), 2);
    normalizer.update(Float32Array.from(rows.slice(2).flat()), 2);

    // Assess
    const { mean, variance } = reference(rows);
    mean.forEach((m, k) => assert.ok(Math.abs(net.offset[k] - m) < 1e-9, `mean ${k}: ${net.offset[k]} against ${m}`));
    variance.forEach((v, k) => assert.ok(Math.abs(net.scale[k] - Math.sqrt(v + 1e-8)) < 1e-9, `scale ${k}`));
    const out = new Float32Array(2);
    scaleObservations(net, Float32Array.of(1e6, -1e6), 1, out);
    assert.deepEqual(Array.from(out), [OBS_CLIP, -OBS_CLIP]);
  });

  it('gives the policy 0 for a hidden entry, however its values run, and normalizes the others', () => {
    // Prepare: entry 1 is hidden; it is mostly 0 with one rare 1.
    const net = networkFor({ observation: dims([false, true]), action: box });
    const normalizer = new ObsNormalizer(net);
    const rows = Array.from({ length: 1000 }, (_, r) => [r % 7, r === 500 ? 1 : 0]);

    // Act
    normalizer.update(Float32Array.from(rows.flat()), rows.length);
    const out = new Float32Array(4);
    scaleObservations(net, Float32Array.of(3, 1, 3, -250), 2, out);

    // Assess
    assert.ok(out[1] === 0 && out[3] === 0, `hidden inputs ${out[1]}, ${out[3]}`);
    assert.ok(Math.abs(net.offset[0] - reference(rows).mean[0]) < 1e-9, 'the other entry is normalized');
    assert.ok(out[0] !== 0 && out[0] === out[2]);
  });

  it('gives the policy 0 for a hidden entry without a running normalization too', () => {
    const net = networkFor({ observation: dims([true, false]), action: box });
    const out = new Float32Array(2);
    scaleObservations(net, Float32Array.of(7, 1), 1, out);
    assert.deepEqual(Array.from(out), [0, 0.5]);
  });

  it('comes back from its snapshot with the hidden entries still hidden', () => {
    const net = networkFor({ observation: dims([true, false]), action: box });
    const normalizer = new ObsNormalizer(net);
    normalizer.update(Float32Array.of(5, 5, 7, 9), 2);
    const snapshot = normalizer.snapshot();
    const again = networkFor({ observation: dims([true, false]), action: box });
    new ObsNormalizer(again).restore(snapshot);
    assert.deepEqual([Array.from(again.offset), Array.from(again.scale)], [Array.from(net.offset), Array.from(net.scale)]);
    assert.deepEqual([again.offset[0], again.scale[0]], [0, Infinity]);
  });

  it('Ant-v5 hides its 78 contact forces (observations 27-104) from the policy, and no other MuJoCo task hides any', () => {
    const hidden = getTask('Ant-v5').observation.map((d) => d.hidden === true);
    assert.deepEqual([hidden.slice(0, 27).some(Boolean), hidden.slice(27).every(Boolean), hidden.length], [false, true, 105]);
    for (const id of ['Hopper-v5', 'Walker2d-v5', 'HalfCheetah-v5']) assert.ok(getTask(id).observation.every((d) => d.hidden !== true), id);
  });
});
