import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Random } from '../functions/shared/random.ts';
import { EVAL_SEED_OFFSET, grade } from '../functions/train-seed/grade.ts';
import { ACTOR_SLOTS, initialParameters } from '../functions/train-seed/network.ts';

/** A policy that always pushes one way: only the last layer's bias decides the argmax. */
function constantPolicy(action: number): Float32Array {
  const theta = new Float32Array(initialParameters('orthogonal', new Random(0)).length);
  theta[ACTOR_SLOTS[2].b + action] = 1;
  return theta;
}

describe('Function: grade', () => {
  it('gives 0 to a policy that never reaches the flag and keeps the episode for the card', () => {
    const result = grade(constantPolicy(1), 0, 20);
    assert.equal(result.success, 0);
    assert.equal(result.meanStepsToFlag, null);
    assert.equal(result.episode.positions.length, 201, 'reset plus 200 steps');
    assert.ok(result.meanMaxPosition < 0);
  });

  it('is deterministic for a seed and uses evaluation seeds far from training seeds', () => {
    assert.deepEqual(grade(constantPolicy(2), 3, 5), grade(constantPolicy(2), 3, 5));
    assert.ok(EVAL_SEED_OFFSET > 1_000_000);
  });
});
