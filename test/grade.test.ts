/** The grader: the task's own environment and success test, greedy actions, the candidate's reward never called. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Random } from '../core/random.ts';
import { EVAL_SEED_OFFSET, grade } from '../functions/train-seed/grade.ts';
import { initialParameters, networkFor } from '../functions/train-seed/network.ts';
import { getTask } from '../tasks/registry.ts';

const MOUNTAIN_CAR = getTask('MountainCar-v0');
const PENDULUM = getTask('Pendulum-v1');

/** A policy whose output is its last layer's bias: always the same action (or Gaussian mean). */
function constantPolicy(id: string, output: number[]): Float32Array {
  const net = networkFor(getTask(id));
  const theta = new Float32Array(initialParameters(net, 'orthogonal', new Random(0)).length);
  theta.set(output, net.actor[2].b);
  return theta;
}

describe('Function: grade', () => {
  it('gives 0 to a policy that never reaches the flag and keeps the episode for the card', () => {
    const result = grade(MOUNTAIN_CAR, networkFor(MOUNTAIN_CAR), constantPolicy('MountainCar-v0', [0, 1, 0]), 0, 20);
    assert.equal(result.success, 0);
    assert.equal(result.meanSuccessSteps, null);
    assert.equal(result.meanReturn, -200);
    assert.equal(result.episode.observations.length, 201, 'reset plus 200 steps');
    assert.deepEqual(new Set(result.episode.actions), new Set([1]));
    assert.equal(result.episode.truncated, true);
    assert.equal(result.episode.success, false);
    assert.ok(result.progress < 0, 'the highest position stays in the valley');
  });

  it('is deterministic for a seed and uses evaluation seeds far from training seeds', () => {
    const theta = constantPolicy('MountainCar-v0', [0, 0, 1]);
    assert.deepEqual(grade(MOUNTAIN_CAR, networkFor(MOUNTAIN_CAR), theta, 3, 5), grade(MOUNTAIN_CAR, networkFor(MOUNTAIN_CAR), theta, 3, 5));
    assert.ok(EVAL_SEED_OFFSET > 1_000_000);
  });

  it('drives a continuous task with the Gaussian\'s mean, clipped to the bounds, and records what was applied', () => {
    const result = grade(PENDULUM, networkFor(PENDULUM), constantPolicy('Pendulum-v1', [5]), 0, 4);
    assert.equal(result.episode.actions.length, 200);
    assert.ok(result.episode.actions.every((a) => Array.isArray(a) && a[0] === 2), 'a mean of 5 is applied as the bound, 2');
    assert.equal(result.success, 0, 'full torque one way never holds it upright');
    assert.ok(result.meanReturn !== null && result.meanReturn < -100);
  });
});
