/**
 * The running observation normalization (Gymnasium's NormalizeObservation with its ±10 clip, as
 * CleanRL's continuous PPO), and the entries a task keeps at their fixed scale (`fixedScale`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OBS_CLIP, ObsNormalizer } from '../functions/train-seed/obs-normalizer.ts';
import { networkFor, scaleObservations } from '../functions/train-seed/network.ts';
import type { ObservationDim } from '../tasks/contract.ts';
import { getTask } from '../tasks/registry.ts';

const box = { kind: 'box' as const, names: ['a'], low: [-1], high: [1] };
const dims = (fixed: boolean[]): ObservationDim[] => fixed.map((fixedScale, k) => ({ name: `x${k}`, low: -Infinity, high: Infinity, typical: [-2, 2], fixedScale }));

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

  it('leaves a fixedScale entry at its typical range\'s scale, however its values run', () => {
    // Prepare: entry 1 is fixed, [-2, 2] -> offset 0, scale 2; it is mostly 0 with one rare 1.
    const net = networkFor({ observation: dims([false, true]), action: box });
    const normalizer = new ObsNormalizer(net, [false, true]);
    const rows = Array.from({ length: 1000 }, (_, r) => [r % 7, r === 500 ? 1 : 0]);

    // Act
    normalizer.update(Float32Array.from(rows.flat()), rows.length);
    const out = new Float32Array(2);
    scaleObservations(net, Float32Array.of(3, 1), 1, out);

    // Assess: the running deviation of entry 1 (about 0.03) would have made the rare 1 a 10.
    assert.equal(net.offset[1], 0);
    assert.equal(net.scale[1], 2);
    assert.equal(out[1], 0.5);
    assert.ok(Math.abs(net.offset[0] - reference(rows).mean[0]) < 1e-9, 'the other entry is normalized');
  });

  it('comes back from its snapshot with the fixed entries still fixed', () => {
    const net = networkFor({ observation: dims([true, false]), action: box });
    const normalizer = new ObsNormalizer(net, [true, false]);
    normalizer.update(Float32Array.of(5, 5, 7, 9), 2);
    const snapshot = normalizer.snapshot();
    const again = networkFor({ observation: dims([true, false]), action: box });
    new ObsNormalizer(again, [true, false]).restore(snapshot);
    assert.deepEqual([Array.from(again.offset), Array.from(again.scale)], [Array.from(net.offset), Array.from(net.scale)]);
    assert.deepEqual([again.offset[0], again.scale[0]], [0, 2]);
  });

  it('Ant-v5 keeps its 78 contact forces (observations 27-104, clipped to ±1) at their scale, the rest normalized', () => {
    const fixed = getTask('Ant-v5').observation.map((d) => d.fixedScale === true);
    assert.deepEqual([fixed.slice(0, 27).some(Boolean), fixed.slice(27).every(Boolean), fixed.length], [false, true, 105]);
    for (const id of ['Hopper-v5', 'Walker2d-v5', 'HalfCheetah-v5']) assert.ok(getTask(id).observation.every((d) => d.fixedScale !== true), id);
  });
});
