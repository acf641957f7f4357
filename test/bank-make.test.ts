/**
 * `eureka bank`'s trained successes (local/bank-make.ts) come from the baseline the task names:
 * the person's shaping by default, the environment's reward where `bank.trainedSuccesses` says so.
 * CartPole with a person's shaping that throws: only the environment's reward can train. Seed 1: one
 * where the environment's reward keeps the pole up at the budget (seed 0 does not). A task that
 * names a baseline for failures (a behaviour's robot's own gait) gets them too; and a stored
 * policy (a search winner's) adds its successes to a stored bank, training nothing.
 */
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FsBlobStore } from '../functions/shared/store/blob-fs.ts';
import { savePolicy } from '../functions/train-seed/policy-io.ts';
import { runSeed } from '../functions/train-seed/seed-run.ts';
import { addPolicySuccesses } from '../local/bank-add.ts';
import { bankFile, readStoredBank, storedMade, writeBank } from '../tasks/bank-file.ts';
import { makeBank, OWN_GAIT } from '../local/bank-make.ts';
import { passes } from '../tasks/bank.ts';
import type { Task } from '../tasks/contract.ts';
import { getTask } from '../tasks/registry.ts';
import { describeSpecIssues, TaskSpecSchema } from '../tasks/spec-schema.ts';
import cartPoleSpec from '../tasks/cart-pole/task.ts';

const cartPole = getTask('CartPole-v1');
const broken: Task = {
  ...cartPole,
  baselines: { ...cartPole.baselines, human: { idea: 'throws', code: 'function computeReward() { throw new Error("not this one"); }' } },
};

describe('The bank\'s trained successes', () => {
  it('come from the environment\'s reward where the task names it, stored as its policy and made with its budget', async () => {
    const task: Task = { ...broken, bank: { ...cartPole.bank, trainedSuccesses: 'environment' } };
    const outcomes: string[] = [];
    const { bank, made } = await makeBank(task, { seeds: [1], starts: 2, onSeed: (_s, r) => outcomes.push(r.outcome) });
    assert.deepEqual(outcomes, ['trained']);
    assert.equal(bank.policies[0].name, 'environment');
    assert.match(bank.policies[0].words, /environment's reward/);
    const trained = bank.episodes.filter((e) => e.policy === 'environment');
    assert.equal(trained.length, 2, 'two successful episodes of the trained policy');
    for (const episode of trained) assert.ok(episode.kind === 'success' && passes(task, episode));
    assert.ok(!bank.episodes.some((e) => e.policy === 'human'));
    assert.deepEqual(made.environment, { seeds: [1], steps: task.budget.steps, startsPerSeed: 2 });
    assert.equal(made.human, undefined);
  });

  it('come from the person\'s shaping by default: here it throws, so none are trained', async () => {
    const outcomes: string[] = [];
    const { bank, made } = await makeBank(broken, { seeds: [1], starts: 2, onSeed: (_s, r) => outcomes.push(r.outcome) });
    assert.equal(outcomes.length, 1);
    assert.notEqual(outcomes[0], 'trained');
    assert.equal(bank.policies[0].name, 'human');
    assert.ok(!bank.episodes.some((e) => e.policy === 'human' || e.policy === 'environment'));
    assert.ok(made.human);
  });

  it('are refused by name from any other baseline, where a task folder says so', () => {
    const parsed = TaskSpecSchema.safeParse({ ...cartPoleSpec, bank: { ...cartPoleSpec.bank, trainedSuccesses: 'heuristic' } });
    assert.equal(parsed.success, false);
    assert.match(describeSpecIssues(parsed.error!), /^bank\.trainedSuccesses: .*"human".*"environment"/);
  });

  it('also come from the baseline a task names for failures, its episodes that fail kept as their own kind', async () => {
    // CartPole as a behaviour would declare it: the environment's reward's policy for failures. On seed 0 it drops the pole.
    const task: Task = { ...broken, bank: { ...cartPole.bank, trainedSuccesses: 'environment', trainedFailures: { baseline: 'environment', words: 'its own way' } } };
    const { bank, made } = await makeBank(task, { seeds: [0], starts: 2 });
    const gait = bank.episodes.filter((e) => e.policy === OWN_GAIT);
    assert.ok(gait.length > 0 && gait.every((e) => e.kind === 'failure' && !passes(task, e)));
    assert.deepEqual(bank.policies.find((p) => p.name === OWN_GAIT), { name: OWN_GAIT, kind: 'failure', words: 'its own way' });
    assert.ok(made[OWN_GAIT]);
  });
});

describe('A stored policy\'s successes added to a stored bank (eureka bank --add-policy)', () => {
  it('plays the policy from resets of its own and keeps the episodes that pass, beside the bank it had', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bank-add-'));
    try {
      // Prepare: CartPole's bank copied to a folder of its own; the environment's reward's policy of seed 1 saved as a search publishes it.
      await copyFile(bankFile(cartPole), join(dir, 'bank.json.gz'));
      const task: Task = { ...cartPole, directory: dir };
      const before = readStoredBank(task);
      assert.ok(before);
      const run = await runSeed({ task, candidateId: 'environment_reward', source: cartPole.baselines.environment.code, seed: 1,
        budget: { steps: cartPole.budget.steps, evalEpisodes: cartPole.budget.evalEpisodes } });
      assert.ok(run.policy && run.result.success > 0.5, `seed 1 keeps the pole up: ${run.result.success}`);
      await savePolicy(run.policy.network, run.policy.theta, new FsBlobStore(dir), 'policy');

      // Act
      const madeBefore = storedMade(task);
      const { bank, made, added } = await addPolicySuccesses(task, join(dir, 'policy'), { starts: 3, name: 'winner' });
      writeBank(bankFile(task), bank, made);

      // Assess: its successes added, the rest as it was; the file reads back, every episode replayed.
      assert.ok(added > 0);
      const after = readStoredBank(task);
      assert.ok(after);
      const winners = after.episodes.filter((e) => e.policy === 'winner');
      assert.equal(winners.length, added);
      assert.ok(winners.every((e) => e.kind === 'success' && passes(task, e)));
      assert.equal(after.episodes.length, before.episodes.length + added);
      // How the rest was made is kept: the trained successes' seeds beside the added policy's folder.
      assert.deepEqual(storedMade(task), { ...madeBefore, winner: { policy: join(dir, 'policy'), starts: 3, kept: added } });
      assert.ok(Object.keys(madeBefore).length > 0);
      await assert.rejects(addPolicySuccesses(task, join(dir, 'policy'), { name: 'winner' }), /already has a policy named winner/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
