/**
 * The pieces of "Repair rewards" and the budget: which answer repairs which failed candidate, the
 * offline proposer's replacements, the worst case of a request, and the ceiling on a real table.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BudgetRefused, checkBudget, spentUsd } from '../functions/propose/budget.ts';
import { searchLedger } from '../functions/propose/ledger.ts';
import { ProposeOutOfTime, type Proposer } from '../functions/propose/proposer.ts';
import { createAnthropicProposer } from '../functions/propose/anthropic.ts';
import { answer, startMessagesApiServer, type MessagesApiServer } from './support/messages-api-server.ts';
import { realStore } from './support/real-store.ts';
import { worstCaseCostUsd } from '../functions/propose/model-answer.ts';
import { buildPrompt, buildRepairPrompt } from '../functions/propose/prompt.ts';
import { repair, repaired } from '../functions/propose/repair.ts';
import { propose } from '../functions/propose/propose.ts';
import { createProposer, offlineProposer } from '../functions/propose/proposers.ts';
import { checkKey } from '../functions/shared/store/keys.ts';
import type { CheckRecord, CheckSummary } from '../functions/shared/search/types.ts';
import { initSearch } from '../functions/reflect/init.ts';
import { checkReward } from '../functions/train-seed/check-reward.ts';
import { GEN1, GEN2 } from './support/contexts.ts';
import { DEFAULT_MAX_COST_USD } from '../infra/config.ts';
import { getTask, TASKS } from '../tasks/registry.ts';

const failed = (name: string, candidateId: string) =>
  ({ candidateId, name, idea: `idea of ${name}`, code: 'broken', codeHash: 'x', origin: 'proposer' as const, reason: 'it threw' });

describe('Function: repaired', () => {
  const a = failed('alpha', '01-alpha');
  const b = failed('beta', '02-beta');
  const c = failed('gamma', '03-gamma');

  it('pairs each answer with the failed candidate of its name, then the rest in order', () => {
    const out = repaired([a, b, c], { candidates: [
      { name: 'gamma', idea: 'fixed gamma', code: 'G' }, { name: 'renamed', idea: '', code: 'X' }, { name: 'alpha', idea: 'fixed alpha', code: 'A' },
    ] });
    assert.deepEqual(out.map((r) => [r.candidateId, r.name, r.repairOf, r.code, r.idea]), [
      ['03-gamma-repaired', 'gamma', '03-gamma', 'G', 'fixed gamma'],
      ['01-alpha-repaired', 'alpha', '01-alpha', 'A', 'fixed alpha'],
      ['02-beta-repaired', 'beta', '02-beta', 'X', 'idea of beta'],
    ]);
    assert.ok(out.every((r) => r.origin === 'proposer'));
  });

  it('leaves a failed candidate the answer does not cover failed, and drops answers beyond them', () => {
    assert.deepEqual(repaired([a, b], { candidates: [{ name: 'beta', idea: '', code: 'B' }] }).map((r) => r.candidateId), ['02-beta-repaired']);
    assert.equal(repaired([a], { candidates: [{ name: 'x', idea: '', code: '1' }, { name: 'y', idea: '', code: '2' }] }).length, 1);
  });
});

describe('Function: the offline proposer\'s repair', () => {
  it('samples one working replacement per failed candidate, under its name, the same every time', async () => {
    const context = { ...GEN1, failed: [failed('alpha', '01-alpha'), failed('beta', '02-beta')] };
    const first = await offlineProposer.repair(context);
    const again = await offlineProposer.repair(context);
    assert.deepEqual(first.candidates, again.candidates);
    assert.deepEqual(first.candidates.map((c) => c.name), ['alpha', 'beta']);
    assert.match(first.notes[0], /sampled 2 replacements/);
    assert.equal(offlineProposer.worstCaseCostUsd(context), 0);
    for (const c of first.candidates) {
      assert.match(c.idea, /^A replacement for \w+, which failed its check: /);
      assert.equal((await checkReward(getTask('MountainCar-v0'), c.code)).verdict, 'ok', c.name);
    }
  });
});

describe('Function: worstCaseCostUsd', () => {
  it('prices the prompt and every output token the cap allows, twice, for a known model; null for an unknown one', () => {
    const prompt = buildPrompt(GEN1);
    const worst = worstCaseCostUsd({ model: 'claude-sonnet-5-5', maxTokens: 32_000 }, prompt);
    const outputOnly = (2 * 32_000 * 10) / 1e6;
    assert.ok(worst !== null && worst > outputOnly && worst < outputOnly + 0.2, `${worst}`);
    const longer = worstCaseCostUsd({ model: 'claude-sonnet-5-5', maxTokens: 32_000 }, buildRepairPrompt({ ...GEN1, failed: [{ ...failed('a', 'a'), code: 'x'.repeat(30_000) }] }));
    assert.ok(longer !== null && longer > worst, 'a longer prompt costs more');
    assert.equal(worstCaseCostUsd({ model: 'some-other-model', maxTokens: 32_000 }, prompt), null);
  });
});

describe('The stack\'s default ceiling', () => {
  it('covers the worst case of a default search on every task (chosen on MountainCar-v0, checked on the others)', (t) => {
    const options = { model: 'claude-sonnet-5-5', maxTokens: 32_000 };
    for (const task of TASKS) {
      // G=4, K=6: four requests and four repairs of all six, a 4 KB best reward and 3 KB failed ones.
      const best = { ...GEN2.best!, candidate: { ...GEN2.best!.candidate, code: 'x'.repeat(4000) } };
      const first = { ...GEN1, task: task.id, k: 6 };
      const later = { ...GEN2, task: task.id, k: 6, best };
      const failed = Array.from({ length: 6 }, (_, i) => ({ name: `c${i}`, idea: 'two sentences of an idea', code: 'x'.repeat(3000), reason: 'r'.repeat(300) }));
      const worst = (prompt: ReturnType<typeof buildPrompt>) => worstCaseCostUsd(options, prompt) ?? Number.NaN;
      const search = worst(buildPrompt(first)) + worst(buildRepairPrompt({ ...first, failed }))
        + 3 * (worst(buildPrompt(later)) + worst(buildRepairPrompt({ ...later, failed })));
      t.diagnostic(`${task.id}: a default search could cost at most $${search.toFixed(2)}`);
      assert.ok(search <= DEFAULT_MAX_COST_USD, `${task.id}: $${search}`);
    }
  });
});


describe('Function: checkBudget on a real table', () => {
  const storeOf = realStore('eureka-budget-').store;
  const start = async (searchId: string, input: Record<string, unknown>) =>
    (await initSearch(storeOf(), { kind: 'init', executionName: searchId, input: { proposer: 'anthropic', ...input } }, 'anthropic')).config;


  it('lets a request through with no ceiling, or within it', async () => {
    assert.equal(await checkBudget(storeOf(), 'free', await start('free', {}), 2, 'propose', 5), null);
    assert.equal(await checkBudget(storeOf(), 'within', await start('within', { maxCostUsd: 1 }), 1, 'propose', 0.99), null);
  });

  it('refuses a first request it cannot cover, and a model it cannot price, with a clear error', async () => {
    const config = await start('small', { maxCostUsd: 0.1 });
    await assert.rejects(checkBudget(storeOf(), 'small', config, 1, 'propose', 0.72), /maxCostUsd \$0\.1000 does not cover the first request, which could cost up to \$0\.7200/);
    const unpriced = await start('unpriced', { maxCostUsd: 5, model: 'claude-next-unreleased' });
    await assert.rejects(checkBudget(storeOf(), 'unpriced', unpriced, 1, 'propose', null), /model "claude-next-unreleased" has no price in the price table/);
  });

  it('stops a later request past the ceiling, once, and records it', async () => {
    const config = await start('later', { maxCostUsd: 0.5 });
    const stop = await checkBudget(storeOf(), 'later', config, 3, 'repair', 0.6);
    assert.equal(stop?.reason, 'budget');
    assert.match(stop?.detail ?? '', /generation 3's repair request could cost up to \$0\.6000; \$0\.0000 of the \$0\.5000 budget was spent/);
    assert.deepEqual((await storeOf().meta('later')).stoppedBy, stop);
    const again = await checkBudget(storeOf(), 'later', config, 4, 'propose', 0.6);
    assert.deepEqual(again, stop, 'the first stop stands');
  });
});

describe('Function: the budget\'s reservation, one conditional write on a real table', () => {
  const storeOf = realStore('eureka-reserve-').store;
  const start = async (searchId: string, maxCostUsd: number) =>
    (await initSearch(storeOf(), { kind: 'init', executionName: searchId, input: { proposer: 'anthropic', maxCostUsd } }, 'anthropic')).config;
  const reply = { text: '{}', stopReason: 'end_turn', stopDetails: null, usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }, promptHash: 'h' };

  it('lets only one of two requests through when both passed the check and the ceiling covers one', async () => {
    const config = await start('twice', 1);
    // Both read the same spending: the check alone would send both, $1.20 against a $1 ceiling.
    assert.deepEqual(await Promise.all([1, 2].map(() => checkBudget(storeOf(), 'twice', config, 2, 'propose', 0.6))), [null, null]);
    const ledgers = [1, 2].map(() => searchLedger(storeOf(), 'twice', 2, 'proposal', config.model, config.maxCostUsd));
    const held = await Promise.allSettled(ledgers.map((l) => l.reserve(1, 0.6, 'h')));
    assert.deepEqual(held.map((h) => h.status).sort(), ['fulfilled', 'rejected']);
    const refused = held.find((h) => h.status === 'rejected') as PromiseRejectedResult;
    assert.ok(refused.reason instanceof BudgetRefused);
    assert.match(refused.reason.message, /^generation 2's request \(step 1\) could cost up to \$0\.6000, more than the \$1\.00 budget has left/);
    assert.equal(await spentUsd(storeOf(), 'twice'), 0.6, 'one reservation, at its worst case');
  });

  it('settles a reservation at its bill and frees a released one, so later requests fit', async () => {
    const config = await start('settles', 1);
    const ledger = searchLedger(storeOf(), 'settles', 1, 'proposal', config.model, config.maxCostUsd);
    const first = await ledger.reserve(1, 0.6, 'h');
    await assert.rejects(ledger.reserve(2, 0.6, 'h'), BudgetRefused);
    await first.billed(reply, 0.1);
    const second = await ledger.reserve(2, 0.6, 'h');
    await assert.rejects(ledger.reserve(3, 0.6, 'h'), BudgetRefused);
    await second.released();
    await ledger.reserve(3, 0.6, 'h');
    assert.ok(Math.abs((await spentUsd(storeOf(), 'settles') ?? 0) - 0.7) < 1e-9);
  });

  it('stops the search when Propose\'s reservation is refused: its generation is not proposed', async () => {
    await start('refused', 1);
    const held = await searchLedger(storeOf(), 'refused', 1, 'proposal', 'claude-sonnet-5-5', 1).reserve(1, 0.9, 'h');
    assert.ok(held);
    const reserving: Proposer = {
      propose: async (_context, ledger) => { await ledger?.reserve(1, 0.5, 'h'); throw new Error('sent anyway'); },
      repair: async () => { throw new Error('no repair'); },
      worstCaseCostUsd: () => 0.05,
    };
    const out = await propose(storeOf(), { searchId: 'refused', generation: 1 }, async () => reserving);
    assert.deepEqual(out, { generation: 1, checks: [], stopped: 'budget' });
    assert.match((await storeOf().meta('refused')).stoppedBy?.detail ?? '', /could cost up to \$0\.5000, more than the \$1\.00 budget has left/);
  });
});

describe('Function: repair on a real table', () => {
  const storeOf = realStore('eureka-repair-').store;

  it('sends only the failures the code caused, never a check that failed for an infrastructure reason', async () => {
    const searchId = 'infra-faults';
    await initSearch(storeOf(), { kind: 'init', executionName: searchId, input: { proposer: 'offline', candidates: 5, includeHostile: false } }, 'offline');
    const ids = (await propose(storeOf(), { searchId, generation: 1 }, createProposer)).checks.map((c) => c.candidateId);
    const sandbox = async (id: string, verdict: CheckRecord['verdict'], reason: string): Promise<CheckSummary> => {
      await storeOf().blobs.put(checkKey(searchId, 1, id), JSON.stringify({ candidateId: id, verdict, reason, terms: {} }), 'application/json');
      return { candidateId: id, verdict, reason };
    };
    // The sandbox judged the first two (check.json); the others' process failed before it could
    // say (what the Map's Catch states make): out of memory, the function's timeout, a retired container.
    const checks: CheckSummary[] = [
      await sandbox(ids[0], 'error', 'reward threw at step 0: ReferenceError: \'velocty\' is not defined'),
      await sandbox(ids[1], 'timeout', 'reward call exceeded its 250 ms deadline at step 0'),
      { candidateId: ids[2], verdict: 'memory', reason: 'the check exceeded its 1769 MB memory cap (Runtime.OutOfMemory)' },
      { candidateId: ids[3], verdict: 'timeout', reason: 'the check did not finish within its 600 s time cap (States.Timeout)' },
      { candidateId: ids[4], verdict: 'error', reason: 'the check failed with Runtime.ExitError (its Cause is in the execution history)' },
    ];
    const out = await repair(storeOf(), { kind: 'repair', searchId, generation: 1, checks }, createProposer);
    const repairedIds = out.checks.map((c) => c.candidateId).sort();
    assert.deepEqual(repairedIds, [ids[0], ids[1], ids[2]].map((id) => `${id}-repaired`).sort());
  });
});

describe('Function: propose and repair against Lambda\'s deadline (the real SDK on a loopback server, a real table)', () => {
  const storeOf = realStore('eureka-deadline-').store;
  let server: MessagesApiServer;
  before(async () => { server = await startMessagesApiServer(); });
  after(() => server.close());
  const model = 'claude-sonnet-5-5';
  const anthropic = async () => createAnthropicProposer({ apiKey: 'sk-ant-test-deadline', model, baseURL: server.url, maxRetries: 0 });
  const code = 'function computeReward(obs, action, nextObs, terminated) {\n  return [nextObs[0] - obs[0], { progress: nextObs[0] - obs[0] }];\n}\n';
  const three = JSON.stringify({ candidates: ['a', 'b', 'c'].map((name) => ({ name, idea: `idea ${name}`, code })) });
  const broken = JSON.stringify({ candidates: [{ name: 'a', idea: 'no code' }] });
  // 30,000 output tokens: about the 32,000 the cap allows, about 500 s of streaming at 60 tokens a second.
  const long = { usage: { input_tokens: 3000, output_tokens: 30_000 } };
  const hundredSecondsLeft = () => 100_000;
  const wholeTimeout = () => 600_000;

  it('leaves a schema repair that could not finish to the retry, which replays the first answer and sends only the repair', async () => {
    const searchId = 'deadline';
    const meta = await initSearch(storeOf(), { kind: 'init', executionName: searchId, input: { proposer: 'anthropic', model, candidates: 3, includeHostile: false } }, 'anthropic');
    // A ceiling the request's worst case fits, and that the first answer's bill plus that worst case would not: the retry must not count it twice.
    const worst = worstCaseCostUsd({ model, maxTokens: 32_000 }, buildPrompt({ ...GEN1, task: meta.config.task, k: 3, budget: { steps: meta.config.steps, seeds: meta.config.seeds, evalEpisodes: meta.config.evalEpisodes } })) ?? 0;
    await storeOf().updateMeta(searchId, { config: { ...meta.config, maxCostUsd: worst + 0.1 } });
    server.script = [answer(broken, long), answer(three)];
    await assert.rejects(propose(storeOf(), { searchId, generation: 1 }, anthropic, hundredSecondsLeft), (error: Error) => {
      assert.ok(error instanceof ProposeOutOfTime);
      assert.equal(error.name, 'Propose.OutOfTime');
      assert.match(error.message, /^the schema repair could stream 32000 tokens, 563 s at 60 tokens\/s, and the invocation has 100 s left: a retry sends it$/);
      return true;
    });
    assert.equal(server.requests.length, 1, 'the repair was not sent');
    assert.ok(((await spentUsd(storeOf(), searchId)) ?? 0) >= 0.3, 'the first answer is billed');
    const out = await propose(storeOf(), { searchId, generation: 1 }, anthropic, wholeTimeout);
    assert.equal(out.checks.length, 3);
    assert.equal(server.requests.length, 2, 'one more request: the repair, not the first answer again');
    const messages = server.requests[1].body.messages as Array<{ role: string; content: string }>;
    assert.deepEqual(messages.map((m) => [m.role, m.role === 'assistant' ? m.content : '']), [['user', ''], ['assistant', broken], ['user', '']]);
  });

  it('keeps a repair request that ran out of time unrecorded, so that its retry sends it', async () => {
    const searchId = 'deadline-repair';
    await initSearch(storeOf(), { kind: 'init', executionName: searchId, input: { proposer: 'anthropic', model, candidates: 3, includeHostile: false } }, 'anthropic');
    server.script = [answer(three)];
    const ids = (await propose(storeOf(), { searchId, generation: 1 }, anthropic)).checks.map((c) => c.candidateId);
    await storeOf().blobs.put(checkKey(searchId, 1, ids[0]), JSON.stringify({ candidateId: ids[0], verdict: 'error', reason: 'reward threw at step 0', terms: {} }), 'application/json');
    const checks: CheckSummary[] = [{ candidateId: ids[0], verdict: 'error', reason: 'reward threw at step 0' }];
    server.requests.length = 0;
    server.script = [answer(broken, long), answer(JSON.stringify({ candidates: [{ name: 'a', idea: 'fixed', code }] }))];
    await assert.rejects(repair(storeOf(), { kind: 'repair', searchId, generation: 1, checks }, anthropic, hundredSecondsLeft), ProposeOutOfTime);
    assert.equal(await storeOf().answer(searchId, 1, 'repair'), undefined, 'no failure recorded in its place');
    const out = await repair(storeOf(), { kind: 'repair', searchId, generation: 1, checks }, anthropic, wholeTimeout);
    assert.deepEqual(out.checks.map((c) => c.candidateId), [`${ids[0]}-repaired`]);
    assert.equal(server.requests.length, 2);
  });
});
