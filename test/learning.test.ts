/**
 * Training proves learning: a known-good reward reaches the flag, the environment's own reward
 * does not, and nothing a reward does to its globals changes how the policy is graded.
 * Each case is a full 150,000-step seed-run (about 10 s on one core).
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { grade } from '../functions/train-seed/grade.ts';
import { runSeed } from '../functions/train-seed/seed-run.ts';
import { getTask } from '../tasks/registry.ts';

const MOUNTAIN_CAR = getTask('MountainCar-v0');

const BUDGET = { steps: 150_000, evalEpisodes: 20 };
const example = (name: string) => readFile(new URL(`../examples/${name}`, import.meta.url), 'utf8');

const TAMPERER = `
// idea: the environment's reward, plus every trick to look successful
Math.random = () => 0; JSON.stringify = () => '{"success":1}'; JSON.parse = () => ({ success: 1 });
Number.isFinite = () => true; Object.keys = () => ['success']; Array.prototype.push = function () { return 0; };
Object.defineProperty(Object.prototype, 'success', { get() { return 1; }, configurable: true });
globalThis.grade = () => 1;
function computeReward(obs, action, nextObs, terminated) { return [-1, { step: -1 }]; }
`;

describe('Training: learning on MountainCar', () => {
  for (const seed of [0, 1]) {
    it(`energy shaping reaches the flag in at least 90% of greedy episodes (seed ${seed})`, async () => {
      const { result, policy } = await runSeed({ task: MOUNTAIN_CAR, candidateId: 'energy', source: await example('energy.js'), seed, budget: BUDGET });
      assert.equal(result.outcome, 'trained', result.reason);
      assert.ok(result.success >= 0.9, `success ${result.success}`);
      assert.ok(result.meanSuccessSteps !== null && result.meanSuccessSteps < 200);
      assert.ok(result.meanReturn !== null && result.meanReturn > -200, 'the environment\'s own return beats the time limit');
      assert.deepEqual(Object.keys(result.terms).sort(), ['goal', 'shaping', 'step']);
      assert.equal(result.terms.step.series.length, 10);
      assert.equal(result.trainSuccessSeries.length, 10);
      assert.ok(result.trainSuccessSeries[9] > result.trainSuccessSeries[0], 'training success rises');
      assert.equal(result.success, grade(MOUNTAIN_CAR, policy!.network, policy!.theta, seed, BUDGET.evalEpisodes).success, 'the score is the grader\'s');
    });
  }

  it("the environment's own reward reaches the flag in 0% of greedy episodes", async () => {
    const { result } = await runSeed({ task: MOUNTAIN_CAR, candidateId: 'environment', source: await example('environment.js'), seed: 0, budget: BUDGET });
    assert.equal(result.outcome, 'trained', result.reason);
    assert.equal(result.success, 0);
  });

  it('a reward that tampers with its globals is still graded on the true task', async () => {
    const { result, policy } = await runSeed({ task: MOUNTAIN_CAR, candidateId: 'tamperer', source: TAMPERER, seed: 0, budget: { steps: 60_000, evalEpisodes: 20 } });
    assert.equal(result.outcome, 'trained', result.reason);
    assert.equal(result.success, 0);
    assert.equal(result.success, grade(MOUNTAIN_CAR, policy!.network, policy!.theta, 0, 20).success);
    assert.deepEqual(Object.keys(result.terms), ['step']);
  });
});
