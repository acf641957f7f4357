/**
 * `eureka bank`'s trained successes (local/bank-make.ts) come from the baseline the task names:
 * the person's shaping by default, the environment's reward where `bank.trainedSuccesses` says so.
 * CartPole with a person's shaping that throws: only the environment's reward can train. Seed 1: one
 * where the environment's reward keeps the pole up at the budget (seed 0 does not).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeBank } from '../local/bank-make.ts';
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
});
