/**
 * Training proves learning on every task but MountainCar (test/learning.test.ts): the person's
 * shaping (the task's human baseline) reaches at least 90% greedy success, graded by the task's
 * own test; the environment's own reward is shown where it fails (Acrobot, MountainCarContinuous)
 * and where it also learns (CartPole). Budgets and seeds are short ones measured on seeds 0-4
 * (`npm run bench:learning` gives the 5-seed tables at the default budgets); each case is one
 * seed-run of 5-20 s.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { grade } from '../functions/train-seed/grade.ts';
import { runSeed } from '../functions/train-seed/seed-run.ts';
import { getTask } from '../tasks/registry.ts';

interface Case {
  task: string;
  baseline: 'human' | 'environment';
  steps: number;
  seed: number;
  /** Success at least (or exactly, for a reward that fails). */
  expect: { atLeast: number } | { exactly: number };
}

const CASES: Case[] = [
  { task: 'CartPole-v1', baseline: 'human', steps: 50_000, seed: 0, expect: { atLeast: 0.9 } },
  { task: 'CartPole-v1', baseline: 'environment', steps: 80_000, seed: 0, expect: { atLeast: 0.9 } },
  { task: 'Acrobot-v1', baseline: 'human', steps: 150_000, seed: 0, expect: { atLeast: 0.9 } },
  { task: 'Acrobot-v1', baseline: 'environment', steps: 150_000, seed: 0, expect: { exactly: 0 } },
  { task: 'Pendulum-v1', baseline: 'human', steps: 70_000, seed: 0, expect: { atLeast: 0.9 } },
  { task: 'MountainCarContinuous-v0', baseline: 'human', steps: 30_000, seed: 0, expect: { atLeast: 0.9 } },
  { task: 'MountainCarContinuous-v0', baseline: 'environment', steps: 70_000, seed: 4, expect: { exactly: 0 } },
];

describe('Training: learning on every task', () => {
  for (const c of CASES) {
    const words = 'atLeast' in c.expect ? `reaches at least ${c.expect.atLeast * 100}%` : `stays at ${c.expect.exactly * 100}%`;
    it(`${c.task}: the ${c.baseline === 'human' ? 'person\'s shaping' : 'environment\'s reward'} ${words} at ${c.steps} steps (seed ${c.seed})`, async (t) => {
      const task = getTask(c.task);
      const source = task.baselines[c.baseline].code;
      const budget = { steps: c.steps, evalEpisodes: task.budget.evalEpisodes };
      const { result, policy } = await runSeed({ task, candidateId: c.baseline, source, seed: c.seed, budget });
      t.diagnostic(`success ${result.success}, return ${result.meanReturn}, ${result.wallSeconds.toFixed(1)} s`);
      assert.equal(result.outcome, 'trained', result.reason);
      if ('atLeast' in c.expect) assert.ok(result.success >= c.expect.atLeast, `success ${result.success}`);
      else assert.equal(result.success, c.expect.exactly);
      assert.equal(result.success, grade(task, policy!.network, policy!.theta, c.seed, budget.evalEpisodes).success, 'the score is the grader\'s');
    });
  }
});
