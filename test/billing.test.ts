/**
 * The budget counts every billed reply (functions/propose/ledger.ts): one that failed its schema,
 * one cut off mid-stream, every attempt of a retried request; each is stored before it is checked,
 * so a redrive that comes back to a request already billed and failed does not pay for it again.
 * Through the real Propose domain code, the real Anthropic SDK and a loopback Messages API, on a
 * real table (dynalite) and bucket (a directory).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { spentUsd } from '../functions/propose/budget.ts';
import { propose } from '../functions/propose/propose.ts';
import { createProposer } from '../functions/propose/proposers.ts';
import { initSearch } from '../functions/reflect/init.ts';
import { FsBlobStore } from '../functions/shared/store/blob-fs.ts';
import { SearchStore } from '../functions/shared/store/search-store.ts';
import { Table } from '../functions/shared/store/table.ts';
import { localAwsEnv, startLocalTable, type LocalTable } from '../local/dynalite.ts';
import { answer, cut, startMessagesApiServer, type MessagesApiServer } from './support/messages-api-server.ts';

const MODEL = 'claude-sonnet-5-5';
/** claude-sonnet-5-5: $2 and $10 per million input and output tokens. */
const cost = (input: number, output: number) => (input * 2 + output * 10) / 1e6;
const close = (a: number | null, b: number) => a !== null && Math.abs(a - b) < 1e-9;
const good = JSON.stringify({ candidates: [{ name: 'speed', idea: 'reward speed', code: 'function computeReward(o, a, n, t) { return [n[1], { v: n[1] }]; }' }] });

describe('Budget: every billed reply counts', () => {
  let dir = '';
  let local: LocalTable;
  let store: SearchStore;
  let server: MessagesApiServer;
  const saved = { ...process.env };
  const start = (searchId: string, more: Record<string, unknown> = {}) => initSearch(store, {
    kind: 'init', executionName: searchId, input: { proposer: 'anthropic', model: MODEL, candidates: 1, includeHostile: false, maxCostUsd: 5, ...more },
  }, 'anthropic');

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'eureka-billing-'));
    local = await startLocalTable({ dir: join(dir, 'table') });
    server = await startMessagesApiServer();
    Object.assign(process.env, localAwsEnv(local), { ANTHROPIC_API_KEY: 'test-key-not-real', ANTHROPIC_BASE_URL: server.url });
    store = new SearchStore(new Table(local.tableName), new FsBlobStore(join(dir, 'bucket')));
  });
  after(async () => {
    await server.close();
    await local.close();
    await rm(dir, { recursive: true, force: true });
    process.env = saved;
  });

  it('counts an answer that failed its schema twice, and a redrive does not pay for it again', async () => {
    await start('malformed');
    const usage = { input_tokens: 5000, output_tokens: 30_000 };
    server.script = [answer('{"candidates": "not a list"}', { usage }), answer('still not JSON', { usage })];
    await assert.rejects(propose(store, { searchId: 'malformed', generation: 1 }, createProposer), /did not match the schema, also after a repair request/);
    assert.equal(server.requests.length, 2);
    const spent = await spentUsd(store, 'malformed');
    assert.ok(close(spent, 2 * cost(5000, 30_000)), `spent ${spent}`);

    // A redrive (or a resume) comes back to the same request: the two billed replies are replayed.
    await assert.rejects(propose(store, { searchId: 'malformed', generation: 1 }, createProposer), /did not match the schema, also after a repair request/);
    assert.equal(server.requests.length, 2, 'nothing was asked again');
    assert.ok(close(await spentUsd(store, 'malformed'), 2 * cost(5000, 30_000)), 'nothing was paid twice');
  });

  it('holds the worst case of a reply cut off mid-stream, and counts the retry that answered', async () => {
    await start('cut');
    server.requests.length = 0;
    server.script = [cut(), answer(good, { usage: { input_tokens: 4000, output_tokens: 2000 } })];
    await assert.rejects(propose(store, { searchId: 'cut', generation: 1 }, createProposer));
    const held = await spentUsd(store, 'cut');
    // The cut reply's output is unknown: it is held at every output token the cap allows.
    assert.ok(held !== null && held >= cost(0, 32_000), `held ${held}`);
    // Step Functions retries Propose: the second attempt is billed too, beside the first.
    const proposed = await propose(store, { searchId: 'cut', generation: 1 }, createProposer);
    assert.equal(proposed.checks.length, 1);
    assert.equal(server.requests.length, 2);
    assert.ok(close(await spentUsd(store, 'cut'), (held ?? 0) + cost(4000, 2000)), 'both attempts count');
  });

  it('holds a thinking budget in the worst case, and bills the thinking tokens of the reply as output', async () => {
    await start('thinking-cut', { thinkingBudget: 8000 });
    server.requests.length = 0;
    server.script = [cut()];
    await assert.rejects(propose(store, { searchId: 'thinking-cut', generation: 1 }, createProposer));
    const held = await spentUsd(store, 'thinking-cut');
    assert.equal(server.requests[0].body.max_tokens, 40_000, 'the answer keeps its 32,000 tokens; the thinking comes on top');
    assert.ok(held !== null && held >= cost(0, 40_000), `held ${held}: every output token, thinking included`);

    await start('thinking', { thinkingBudget: 8000 });
    server.script = [answer(good, { usage: { input_tokens: 4000, output_tokens: 6000 }, thinking: { text: 'The speed term alone...', tokens: 4500 } })];
    const proposed = await propose(store, { searchId: 'thinking', generation: 1 }, createProposer);
    assert.equal(proposed.checks.length, 1, 'the thinking block is not the answer: the text after it is');
    assert.deepEqual(server.requests.at(-1)?.body.thinking, { type: 'adaptive' }, `${MODEL} thinks in the adaptive form`);
    const [bill] = (await store.bills('thinking')).filter((b) => b.state === 'billed');
    assert.equal(bill.usage?.thinkingTokens, 4500, 'the ledger counts the thinking tokens');
    assert.equal(bill.usage?.outputTokens, 6000, 'which are part of the output tokens');
    assert.ok(close(await spentUsd(store, 'thinking'), cost(4000, 6000)), 'priced once, as output');
    const record = await store.answer('thinking', 1, 'proposal');
    assert.equal(record?.usage?.thinkingTokens, 4500, 'and the stored answer');
  });
});
