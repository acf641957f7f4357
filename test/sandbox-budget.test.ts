/**
 * The sandbox's budgets are counts (functions/train-seed/sandbox-quickjs.ts): the work a reward
 * does is counted in QuickJS's operations, so the same reward on the same seed ends the same way on
 * any machine and under any load; the wall clock is only a backstop. Its caps have one source, the
 * deployment's SANDBOX_CAPS (infra/config.ts), and QuickJS's start-up in every chunk is not the
 * reward's work. They grow with the observation (sandbox-budget.ts), and leave at least twice what
 * the heaviest of each MuJoCo robot's baselines and five model-written rewards does (issue 42, item 7).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { describe, it } from 'node:test';
import { SANDBOX_CAPS } from '../infra/config.ts';
import { sampleTransitions } from '../functions/train-seed/check-reward.ts';
import { operations } from '../functions/train-seed/sandbox-report.ts';
import { DEFAULT_SANDBOX_LIMITS, layoutOf, OPERATIONS_PER_TICK, openRewardSandbox, RewardFault } from '../functions/train-seed/sandbox.ts';
import { runSeed, runSeedChunk, type SeedCheckpoint } from '../functions/train-seed/seed-run.ts';
import { sandboxCallOperations, sandboxOperationsFor, sandboxOperationsPerStep } from '../functions/train-seed/sandbox-budget.ts';
import { stepsAtBudget } from '../functions/shared/search/chunk-size.ts';
import type { SeedResult } from '../functions/shared/search/types.ts';
import { ppoConfigFor } from '../core/ppo-config.ts';
import type { Task } from '../tasks/contract.ts';
import { getTask } from '../tasks/registry.ts';
import { MODEL_REWARD_TASKS, modelRewards, recordedBatch, rewardOperations } from './support/model-rewards.ts';

const MOUNTAIN_CAR = getTask('MountainCar-v0');
const ENERGY = MOUNTAIN_CAR.baselines.human.code;

/**
 * An honest reward that is slow for its operations (objects and arrays made in an inner loop):
 * ~1.3 million operations a rollout, well inside every cap, but ~0.6 s of wall clock a rollout on
 * the project's machine, so a deadline of wall-clock time would pass it or stop it with the load.
 */
const HEAVY = `function computeReward(obs, action, nextObs) {
  let acc = 0;
  for (let i = 0; i < 300; i++) { const p = { x: obs[0] * i, v: [obs[1], i] }; acc += p.v[0] * p.x; }
  return [-1 + 1e-9 * acc, { step: -1, acc: 1e-9 * acc }];
}`;

/** Another process that keeps both cores busy (four spinning threads), until stopped. */
function burnBothCores(): ChildProcess {
  const spin = 'for (;;) {}';
  const script = `const { Worker } = require('node:worker_threads'); for (let i = 0; i < 3; i++) new Worker(${JSON.stringify(spin)}, { eval: true }); ${spin}`;
  return spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
}

async function withBurner<T>(run: () => Promise<T>): Promise<T> {
  const burner = burnBothCores();
  try {
    return await run();
  } finally {
    burner.kill('SIGKILL');
  }
}

/** What a seed-run's outcome is made of; the wall-clock measures are not. */
function outcomeOf(r: SeedResult) {
  return { outcome: r.outcome, reason: r.reason, stepsTrained: r.stepsTrained, success: r.success, thetaSha256: r.thetaSha256, sandboxOperations: r.sandboxOperations };
}

describe('Function: the sandbox budgets what a reward does, not how long it takes', () => {
  it('has one source for its caps: the defaults are the deployment\'s SANDBOX_CAPS', () => {
    assert.equal(DEFAULT_SANDBOX_LIMITS.callDeadlineMs, SANDBOX_CAPS.callDeadlineMs);
    assert.deepEqual(DEFAULT_SANDBOX_LIMITS, {
      maxSourceBytes: SANDBOX_CAPS.maxSourceBytes, memoryBytes: SANDBOX_CAPS.memoryBytes, stackBytes: SANDBOX_CAPS.stackBytes,
      callOperations: SANDBOX_CAPS.callOperations, callDeadlineMs: SANDBOX_CAPS.callDeadlineMs, totalOperations: SANDBOX_CAPS.seedRunMinOperations,
      maxTerms: SANDBOX_CAPS.maxTerms, maxTermNameLength: SANDBOX_CAPS.maxTermNameLength,
    });
    // MountainCar's 2 observation entries, Ant's 105: a fixed share a step, and a share an entry.
    assert.equal(sandboxOperationsFor(1_000_000, 2), 1_000_000 * (SANDBOX_CAPS.seedRunOperationsPerStep + 2 * SANDBOX_CAPS.seedRunOperationsPerObservation));
    assert.equal(sandboxOperationsFor(1_000_000, 105), 1_000_000 * (SANDBOX_CAPS.seedRunOperationsPerStep + 105 * SANDBOX_CAPS.seedRunOperationsPerObservation));
    assert.equal(sandboxOperationsFor(2048, 105), SANDBOX_CAPS.seedRunMinOperations);
    assert.equal(sandboxCallOperations(2), SANDBOX_CAPS.callOperations);
    assert.equal(sandboxCallOperations(105), SANDBOX_CAPS.callTransitions * sandboxOperationsPerStep(105));
  });

  it("a seed-run's sandbox stops a call at the configured cap", async () => {
    const source = 'function computeReward() { for (;;) {} }';
    const out = await runSeedChunk({ task: MOUNTAIN_CAR, candidateId: 'loop', source, seed: 0, budget: { steps: 2048, evalEpisodes: 1 } });
    assert.ok(out.done);
    assert.equal(out.result.outcome, 'timeout');
    assert.equal(out.result.reason, `reward did not return within ${operations(SANDBOX_CAPS.callOperations)} at step 0`);
    assert.equal(out.result.sandboxOperations, SANDBOX_CAPS.callOperations);
  });

  it('the wall-clock backstop stops a call whose operations are slow (a loop around a native search)', async () => {
    // One operation an iteration, each a search of a kilobyte: ~40 ms between two interrupt calls.
    const source = `const text = 'x'.repeat(1024); function computeReward() { for (;;) text.indexOf('y'); }`;
    const sandbox = await openRewardSandbox(source, layoutOf(MOUNTAIN_CAR), { callDeadlineMs: 200 });
    const batch = sampleTransitions(MOUNTAIN_CAR, 16, 0);
    assert.throws(() => sandbox.evaluate(batch), (error) => error instanceof RewardFault && error.outcome === 'timeout' &&
      error.message === 'reward did not return within 200 ms at step 0');
    assert.ok(sandbox.usedOperations < SANDBOX_CAPS.callOperations, 'stopped by the clock, not by its operations');
    sandbox.dispose();
  });

  it('counts the same operations for the same work, every time; the wrapper\'s set-up counts none', async () => {
    const batch = sampleTransitions(MOUNTAIN_CAR, 2048, 3);
    const counts: number[] = [];
    for (let run = 0; run < 2; run++) {
      const sandbox = await openRewardSandbox(HEAVY, layoutOf(MOUNTAIN_CAR));
      assert.equal(sandbox.usedOperations, 0, 'nothing counted before the reward ran');
      sandbox.evaluate(batch);
      counts.push(sandbox.usedOperations);
      sandbox.dispose();
    }
    assert.ok(counts[0] > 1_000_000, `a rollout of HEAVY is over a million operations (${counts[0]})`);
    assert.equal(counts[1], counts[0]);
  });

  it('charges no chunk for QuickJS\'s start-up: a seed-run in chunks counts what one in a piece counts, within a tick a chunk', async () => {
    const budget = { steps: 6 * 2048, evalEpisodes: 1 };
    const whole = await runSeed({ task: MOUNTAIN_CAR, candidateId: 'whole', source: ENERGY, seed: 1, budget });
    let resume: SeedCheckpoint | undefined;
    let chunked: SeedResult | undefined;
    while (chunked === undefined) {
      const out = await runSeedChunk({ task: MOUNTAIN_CAR, candidateId: 'chunked', source: ENERGY, seed: 1, budget, chunkSteps: 2048, resume });
      if (out.done) chunked = out.result;
      else resume = out.checkpoint;
    }
    assert.equal(chunked.chunks, 6);
    assert.equal(chunked.thetaSha256, whole.result.thetaSha256);
    const [a, b] = [whole.result.sandboxOperations ?? -1, chunked.sandboxOperations ?? -1];
    assert.ok(a > 0 && b > 0);
    assert.ok(Math.abs(a - b) <= chunked.chunks * OPERATIONS_PER_TICK, `whole ${a}, in chunks ${b}`);
  });

  it('trains one reward to the same outcome with and without another process burning both cores', async () => {
    const budget = { steps: 4 * 2048, evalEpisodes: 2 };
    const train = async () => (await runSeed({ task: MOUNTAIN_CAR, candidateId: 'heavy', source: HEAVY, seed: 2, budget })).result;
    const idle = await train();
    const loaded = await withBurner(train);
    assert.equal(idle.outcome, 'trained', idle.reason);
    assert.deepEqual(outcomeOf(loaded), outcomeOf(idle));
  });

  it('ends a reward that runs out of its seed-run\'s budget at the same step with and without the load', async () => {
    const budget = { steps: 4 * 2048, evalEpisodes: 2 };
    const limits = { totalOperations: 3_000_000 };
    const train = async () => (await runSeed({ task: MOUNTAIN_CAR, candidateId: 'heavy', source: HEAVY, seed: 2, budget, limits })).result;
    const idle = await train();
    const loaded = await withBurner(train);
    assert.equal(idle.outcome, 'timeout');
    assert.match(idle.reason, /^reward used up its seed-run's budget of 3 million operations at step \d+$/);
    assert.deepEqual(outcomeOf(loaded), outcomeOf(idle));
  });
});

type Measured = Array<{ name: string; code: string; perStep: number }>;
const measured = new Map<string, Promise<Measured>>();

/** What each of a task's rewards does a step (two calls of its recorded rollout): its two baselines and its five model-written rewards. */
function rewardsOf(task: Task): Promise<Measured> {
  const known = measured.get(task.id);
  if (known) return known;
  const measuring = (async () => {
    const batch = await recordedBatch(task);
    const rewards = [
      { name: 'the environment\'s reward', code: task.baselines.environment.code },
      { name: 'the person\'s shaping', code: task.baselines.human.code },
      ...(await modelRewards(task.id)),
    ];
    const out: Measured = [];
    for (const r of rewards) out.push({ name: r.name, code: r.code, perStep: await rewardOperations(task, r.code, batch, 2) });
    return out;
  })();
  measured.set(task.id, measuring);
  return measuring;
}

describe('Function: the sandbox\'s budgets, against the rewards a model writes (issue 42, item 7)', () => {
  // Chosen on Ant's and Walker2d's rewards (the longest observations of either kind), checked on the six other robots'.
  for (const id of MODEL_REWARD_TASKS) {
    it(`leaves ${id}'s heaviest ordinary reward at least twice its operations, a step and a call`, async (t) => {
      const task = getTask(id);
      const rewards = await rewardsOf(task);
      assert.equal(rewards.length, 7, 'two baselines and five model-written rewards');
      const heaviest = rewards.reduce((a, b) => (b.perStep > a.perStep ? b : a));
      const perStep = sandboxOperationsPerStep(task.obsSize);
      t.diagnostic(`${id}: ${rewards.map((r) => `${r.name} ${Math.round(r.perStep)}`).join(', ')}; budget ${perStep} a step`);
      assert.ok(perStep >= 2 * heaviest.perStep, `${heaviest.name}: ${heaviest.perStep.toFixed(0)} a step, budget ${perStep}`);
      // A rollout of it fits one call twice over (the MuJoCo tasks' rollout: 2,048 steps of one copy).
      const { numEnvs, numSteps } = ppoConfigFor(task, 0, task.budget.steps);
      assert.ok(sandboxCallOperations(task.obsSize) >= 2 * numEnvs * numSteps * heaviest.perStep, `${heaviest.name}'s rollout against ${sandboxCallOperations(task.obsSize)} a call`);
    });
  }

  /**
   * A full default seed-run of the heaviest reward, in the sandbox as TrainSeed runs it, without the
   * training: the budget bounds the sandbox's work only, and its count does not depend on the machine.
   * Every call replays the same recorded rollout, so every call counts what the first counted; the
   * calls between the first and the last are carried into the last as a resumed chunk carries what its
   * earlier chunks did (SandboxUsage), each with the code's loading counted again (more than a run
   * in one piece). Ant's whole 1,000,000 steps, all 488 calls, were run once too (docs/figures.md):
   * 33 s of CPU, too long for each CI run.
   */
  for (const id of MODEL_REWARD_TASKS) {
    it(`runs ${id}'s heaviest ordinary reward through a full default seed-run's sandbox without a fault`, async () => {
      const task = getTask(id);
      const heaviest = (await rewardsOf(task)).reduce((a, b) => (b.perStep > a.perStep ? b : a));
      const batch = await recordedBatch(task);
      const calls = Math.ceil(stepsAtBudget(task, task.budget.steps) / batch.count);
      const limits = { totalOperations: sandboxOperationsFor(task.budget.steps, task.obsSize) };
      const first = await openRewardSandbox(heaviest.code, layoutOf(task), limits);
      first.evaluate(batch, 0);
      const perCall = first.usedOperations;
      first.dispose();
      const last = await openRewardSandbox(heaviest.code, layoutOf(task), limits, { ms: 0, operations: perCall * (calls - 1) });
      try {
        last.evaluate(batch, (calls - 1) * batch.count);
        assert.ok(last.usedOperations <= limits.totalOperations);
        assert.ok(last.usedOperations >= calls * perCall - calls * OPERATIONS_PER_TICK, `${calls} calls counted ${last.usedOperations}`);
      } finally {
        last.dispose();
      }
    });
  }
});
