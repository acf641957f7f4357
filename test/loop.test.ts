/**
 * The loop around the model, end to end through the CLI and the local runtime (the same state
 * machine as AWS): candidates checked in the sandbox before any seed trains them, ONE repair
 * request for those that failed (through the real Anthropic SDK against a loopback Messages
 * API), a resume that asks nothing again, a spending ceiling, and a person's feedback between
 * generations (answered, timed out, stop).
 */
import assert from 'node:assert/strict';
import { chmod, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { withLocalStore } from '../local/runtime.ts';
import { FRESH_SEED_OFFSET, type CandidateRecord } from '../functions/shared/store/records.ts';
import { seedResultKey } from '../functions/shared/store/keys.ts';
import { answer, startMessagesApiServer, type MessagesApiServer } from './support/messages-api-server.ts';
import { energyReward } from './support/energy-reward.ts';
import { eureka, start } from './support/eureka-cli.ts';

const MODEL = 'claude-sonnet-5-5';
/** Small seed-runs: the loop is under test here, not learning. */
/** Small and not raced: these tests count which candidates trained, to the budget. */
const SMALL = ['--seeds', '1', '--steps', '4096', '--no-racing'];

const energy = energyReward;

/** What a weaker model writes: a syntax error, an undefined name, a wrong return shape. */
const BROKEN = {
  'syntax-slip': 'function computeReward(obs, action, nextObs, terminated) {\n  const x = obs[0] +;\n  return [x, { x }];\n}',
  'typo-name': 'function computeReward(obs, action, nextObs, terminated) {\n  const speed = velocty * 2;\n  return [speed, { speed }];\n}',
  'bare-number': 'function computeReward(obs, action, nextObs, terminated) {\n  return nextObs[0] - obs[0];\n}',
};
const REASONS = { 'syntax-slip': /syntax error at line 2/, 'typo-name': /'velocty' is not defined/, 'bare-number': /malformed value.*got number/ };

const reply = (candidates: Array<{ name: string; idea: string; code: string }>, usage = {}) => answer(JSON.stringify({ candidates }), { usage });
const good = (g: number, n: number) => Array.from({ length: n }, (_, i) => ({ name: `g${g}-energy-${i + 1}`, idea: `energy shaping at scale ${(i + 1) * 80_000}`, code: energy((i + 1) * 80_000) }));
const broken = () => Object.entries(BROKEN).map(([name, code]) => ({ name, idea: `an idea called ${name}`, code }));
const fixed = () => Object.keys(BROKEN).map((name, i) => ({ name, idea: `an idea called ${name}, fixed`, code: energy((i + 2) * 60_000) }));

const dirs: string[] = [];
async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'eureka-loop-'));
  dirs.push(dir);
  return dir;
}
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

/**
 * `eureka show --open` with an `xdg-open` of our own first on PATH: it records what it was asked
 * to open. The opener is started detached, so the record is awaited.
 */
async function opened(dir: string, searchId: string): Promise<string> {
  const bin = await mkdtemp(join(tmpdir(), 'eureka-open-'));
  dirs.push(bin);
  const record = join(bin, 'opened');
  await writeFile(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > ${JSON.stringify(record)}\n`);
  await chmod(join(bin, 'xdg-open'), 0o755);
  // Without a display there is nowhere to open it: said, and the opener not started.
  const headless = await eureka(['show', searchId, '--open', '--data-dir', dir], { PATH: `${bin}:${process.env.PATH}`, DISPLAY: '', WAYLAND_DISPLAY: '' });
  assert.equal(headless.code, 0, headless.stderr);
  assert.match(headless.stderr, /^no display to open it on \(neither DISPLAY nor WAYLAND_DISPLAY is set\); open .*card\.html yourself$/m);
  const shown = await eureka(['show', searchId, '--open', '--data-dir', dir], { PATH: `${bin}:${process.env.PATH}`, DISPLAY: ':0' });
  assert.equal(shown.code, 0, shown.stderr);
  // The opener is detached: its record is waited for as long as a loaded machine may need.
  for (const deadline = Date.now() + 2 * 60_000; Date.now() < deadline;) {
    const path = await readFile(record, 'utf8').catch(() => '');
    if (path !== '') return path;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('eureka show --open opened nothing in 2 minutes');
}

const modelEnv = (server: MessagesApiServer) => ({ ANTHROPIC_API_KEY: 'test-key-not-real', ANTHROPIC_BASE_URL: server.url });
const bodyText = (server: MessagesApiServer, i: number) => JSON.stringify(server.requests[i].body.messages);

describe('Loop: checks before training and one repair request', () => {
  let server: MessagesApiServer;
  let dir = '';
  let gen1: CandidateRecord[] = [];

  before(async () => {
    server = await startMessagesApiServer([reply([...good(1, 2), ...broken()]), reply(fixed()), reply(good(2, 3))]);
    dir = await dataDir();
    const ran = await eureka(['search', '--generations', '2', '--candidates', '5', ...SMALL, '--proposer', 'anthropic', '--model', MODEL,
      '--json', '--data-dir', dir, '--search-id', 'repairs'], modelEnv(server));
    assert.equal(ran.code, 0, ran.stderr);
    gen1 = await withLocalStore(dir, (store) => store.candidates('repairs', 1));
  });
  after(() => server.close());

  it('sends one repair request with the failed candidates\' code and reasons, and nothing for the good ones', () => {
    assert.equal(server.requests.length, 3, 'generation 1, its repair, generation 2');
    const repair = bodyText(server, 1);
    for (const [name, code] of Object.entries(BROKEN)) {
      assert.ok(repair.includes(JSON.stringify(code).slice(1, -1)), `the repair request carries ${name}'s code`);
      assert.ok(repair.includes(name));
    }
    assert.match(repair, /syntax error at line 2/);
    assert.match(repair, /velocty/);
    assert.match(repair, /got number/);
    assert.doesNotMatch(repair, /g1-energy-1|hostile_never_returns/, 'only the failed model-written candidates go back');
  });

  it('records the broken candidates as failed their check, untrained, and trains their repairs', async () => {
    for (const name of Object.keys(BROKEN)) {
      const original = gen1.find((c) => c.name === name && c.repairOf === undefined);
      const repaired = gen1.find((c) => c.name === name && c.repairOf !== undefined);
      assert.ok(original && repaired, name);
      assert.equal(original.outcome, 'error');
      assert.match(original.reason, /^failed its check: /);
      assert.match(original.reason, REASONS[name as keyof typeof REASONS]);
      assert.deepEqual(original.seeds, [], 'never trained');
      assert.equal(repaired.repairOf, original.candidateId);
      assert.equal(repaired.candidateId, `${original.candidateId}-repaired`);
      assert.equal(repaired.outcome, 'trained', `${name} repaired trains`);
      assert.equal(repaired.seeds.length, 1);
      const seedDirs = await readdir(join(dir, 'bucket', 'searches', 'repairs', 'generations', '1', 'candidates', original.candidateId));
      assert.deepEqual(seedDirs.sort(), ['check.json', 'reward.js'], 'no seed-run of the broken one was stored');
    }
    const hostile = gen1.filter((c) => c.origin === 'hostile');
    assert.equal(hostile.length, 2);
    assert.ok(hostile.every((c) => c.reason.startsWith('failed its check: ') && c.seeds.length === 0), 'the hostile probes fail their check too');
  });

  it('reports the share of model-written candidates that trained, with and without repair, and the seed-runs saved', async (t) => {
    const written = gen1.filter((c) => c.origin === 'proposer' && c.repairOf === undefined);
    const trainedWithout = written.filter((c) => c.outcome === 'trained').length;
    const trainedWith = trainedWithout + gen1.filter((c) => c.repairOf !== undefined && c.outcome === 'trained').length;
    const failedChecks = gen1.filter((c) => c.reason.startsWith('failed its check')).length;
    t.diagnostic(`generation 1: ${trainedWithout}/${written.length} model-written candidates trained without repair, ${trainedWith}/${written.length} with it; ` +
      `${failedChecks} failed checks x 1 seed = ${failedChecks} seed-runs never started`);
    assert.deepEqual([trainedWithout, trainedWith, written.length], [2, 5, 5]);
  });

  it('shows the model neither the hostile probes nor a repaired name twice in generation 2', () => {
    const second = (server.requests[2].body.messages as Array<{ content: string }>)[0].content;
    assert.doesNotMatch(second, /hostile_never_returns|hostile_exfiltrate/);
    const rows = second.split('\n').filter((line) => line.startsWith('- ') && line.includes(' | '));
    for (const name of Object.keys(BROKEN)) {
      const mine = rows.filter((line) => line.startsWith(`- ${name} | `));
      assert.equal(mine.length, 1, `${name} once on the scoreboard: ${mine.join(' / ')}`);
      assert.match(mine[0], /\| trained \|/, `${name}: its repaired version, the one that trained`);
    }
    assert.equal(rows.filter((line) => /^- g1-energy-\d \| /.test(line)).length, 2, 'and the two that worked the first time');
  });

  it('asks nothing again on a resume, the repair included', async () => {
    const resumed = await eureka(['search', '--resume', 'repairs', '--json', '--data-dir', dir], modelEnv(server));
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(server.requests.length, 3);
    const shown = JSON.parse((await eureka(['show', 'repairs', '--json', '--data-dir', dir])).stdout);
    assert.equal(shown.proposer.requests, 3);
    assert.equal(shown.proposer.repairRequests, 1);
    assert.equal(shown.failedChecks, 5, 'three broken and two hostile');
  });
});

describe('Loop: a repair request that fails', () => {
  let server: MessagesApiServer;
  let dir = '';
  let ran = { code: 0, stdout: '', stderr: '' };
  const refusal = answer('', { stopReason: 'refusal', stopDetails: { type: 'refusal', category: 'cyber', explanation: 'This looks like an exploit.' } });

  before(async () => {
    // A weak (or wary) model: it writes one broken candidate, then refuses to repair it.
    server = await startMessagesApiServer([reply([...good(1, 1), broken()[1]]), refusal, reply(good(2, 2))]);
    dir = await dataDir();
    ran = await eureka(['search', '--generations', '2', '--candidates', '2', ...SMALL, '--proposer', 'anthropic', '--model', MODEL, '--no-hostile',
      '--json', '--data-dir', dir, '--search-id', 'refused'], modelEnv(server));
  });
  after(() => server.close());

  it('goes on: the search finishes with exit 0 and a card, generation 2 asked as usual', async () => {
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(server.requests.length, 3, 'generation 1, its refused repair, generation 2');
    const out = JSON.parse(ran.stdout);
    assert.deepEqual(out.generations.map((g: { generation: number }) => g.generation), [1, 2]);
    assert.match(await readFile(out.cardPath, 'utf8'), /<!doctype html>/);
  });

  it('leaves the broken candidate failed, with why the repair failed on the scoreboard and the card', async () => {
    const gen1 = await withLocalStore(dir, (store) => store.candidates('refused', 1));
    const typo = gen1.find((c) => c.name === 'typo-name');
    assert.equal(typo?.outcome, 'error');
    assert.match(typo?.reason ?? '', /^failed its check: .*'velocty' is not defined.*; repair request failed: The model refused to write the reward functions \(category cyber\)/);
    assert.ok(!gen1.some((c) => c.repairOf !== undefined), 'nothing was repaired');
    const shown = await eureka(['show', 'refused', '--data-dir', dir]);
    assert.match(shown.stdout, /repair request failed: The model refused/);
    const card = await readFile(join(dir, 'bucket', 'searches', 'refused', 'winner', 'card.html'), 'utf8');
    assert.match(card, /repair request failed: The model refused/);
  });

  it('does not ask for the repair again on a resume', async () => {
    const resumed = await eureka(['search', '--resume', 'refused', '--json', '--data-dir', dir], modelEnv(server));
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(server.requests.length, 3);
  });
});

describe('Loop: a spending ceiling', () => {
  let server: MessagesApiServer;
  let dir = '';
  let ran = { code: 0, stdout: '', stderr: '' };

  before(async () => {
    // Generation 1 costs $0.31 ($2 and $10 per million tokens); the next request could cost about
    // $0.72 (32,000 output tokens, twice), so a $0.90 ceiling stops the search before generation 2.
    server = await startMessagesApiServer([reply([...good(1, 2), broken()[1]], { input_tokens: 5000, output_tokens: 30_000 }), reply(good(2, 3))]);
    dir = await dataDir();
    ran = await eureka(['search', '--generations', '3', '--candidates', '3', ...SMALL, '--proposer', 'anthropic', '--model', MODEL, '--no-hostile',
      '--no-repair', '--max-cost', '0.9', '--json', '--data-dir', dir, '--search-id', 'budget'], modelEnv(server));
  });
  after(() => server.close());

  it('refuses the request that could pass the ceiling and publishes the best so far', async () => {
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(server.requests.length, 1, 'no repair (repair off) and no generation 2 (budget)');
    const meta = await withLocalStore(dir, (store) => store.meta('budget'));
    assert.equal(meta.stoppedBy?.reason, 'budget');
    assert.equal(meta.stoppedBy?.generation, 2);
    assert.ok(Math.abs((meta.stoppedBy?.spentUsd ?? 0) - 0.31) < 1e-9, `spent ${meta.stoppedBy?.spentUsd}`);
    assert.match(meta.stoppedBy?.detail ?? '', /generation 2's request could cost up to \$0\.\d{4}; \$0\.3100 of the \$0\.9000 budget was spent/);
    assert.equal(meta.status, 'finished');
  });

  it('says so in eureka show and on the card', async () => {
    const shown = await eureka(['show', 'budget', '--data-dir', dir]);
    assert.match(shown.stdout, /budget: \$0\.90, spent \$0\.3100/);
    assert.match(shown.stdout, /stopped early by the budget: generation 2's request could cost up to/);
    const card = await readFile(join(dir, 'bucket', 'searches', 'budget', 'winner', 'card.html'), 'utf8');
    assert.match(card, /data-stopped="budget"/);
    assert.match(card, /The budget stopped the search at generation 2/);
    const md = await readFile(join(dir, 'bucket', 'searches', 'budget', 'winner', 'card.md'), 'utf8');
    assert.match(md, /## Stopped early/);
  });
});

describe('Loop: a person\'s feedback between generations', () => {
  it('pauses, is answered by eureka feedback --text, and the words reach the generation 2 prompt and the card', async () => {
    const server = await startMessagesApiServer([reply(good(1, 2)), reply(good(2, 2))]);
    const dir = await dataDir();
    const search = start(['search', '--generations', '2', '--candidates', '2', ...SMALL, '--no-hostile', '--proposer', 'anthropic', '--model', MODEL,
      '--feedback', 'wait', '--feedback-timeout', '10', '--data-dir', dir, '--search-id', 'asked'], modelEnv(server));
    try {
      await search.waitFor(/waiting for your feedback after generation 1/);
      assert.equal(server.requests.length, 1, 'paused before generation 2 is asked for');
      const shown = JSON.parse((await eureka(['show', 'asked', '--json', '--data-dir', dir])).stdout);
      assert.equal(shown.feedback[0].state, 'waiting');
      const interim = await readFile(shown.feedback[0].cardPath, 'utf8');
      assert.match(interim, /data-interim="true"/, 'an interim card of the search so far');
      assert.match(interim, /The search is waiting for your feedback after generation 1/);
      assert.doesNotMatch(interim, /no episode recorded/, 'the best so far in action: the person watches its policy');
      assert.doesNotMatch(interim, /reported no terms/);
      const events = await readFile(join(dir, 'events.jsonl'), 'utf8');
      assert.match(events, /"DetailType":"Waiting for feedback"/);
      assert.match(events, /\\"generation\\":1/);

      assert.equal(await opened(dir, 'asked'), shown.feedback[0].cardPath, 'eureka show --open opens the running search\'s newest card');

      const words = 'The car reaches the flag but wastes 40 steps rocking: reward speed toward the flag more.';
      const answered = await eureka(['feedback', 'asked', '--text', words, '--data-dir', dir]);
      assert.equal(answered.code, 0, answered.stderr);
      const ended = await search.done;
      assert.equal(ended.code, 0, ended.stderr);
      assert.equal(server.requests.length, 2);
      const second = bodyText(server, 1);
      assert.ok(second.includes(words), 'the words are in the generation 2 prompt');
      assert.match(second, /What a person said after watching generation 1/);
      assert.match(second, /Best reward function so far/, 'beside the automatic reflection');
      const card = await readFile(join(dir, 'bucket', 'searches', 'asked', 'winner', 'card.html'), 'utf8');
      assert.ok(card.includes('reward speed toward the flag more.'));
      assert.equal(await opened(dir, 'asked'), join(dir, 'bucket', 'searches', 'asked', 'winner', 'card.html'), 'and the winner\'s once published');
      const again = await eureka(['feedback', 'asked', '--continue', '--data-dir', dir]);
      assert.equal(again.code, 2);
      assert.match(again.stderr, /is not waiting for feedback: its last pause, after generation 1, was answered/);
    } finally {
      search.stop();
      await server.close();
    }
  });

  it('goes on by itself when nobody answers in time', async () => {
    const dir = await dataDir();
    const ran = await eureka(['search', '--generations', '2', '--candidates', '2', ...SMALL, '--no-hostile', '--proposer', 'offline',
      '--feedback', 'wait', '--feedback-timeout', '0.05', '--json', '--data-dir', dir, '--search-id', 'unanswered']);
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stderr, /waiting for your feedback after generation 1/);
    assert.deepEqual(JSON.parse(ran.stdout).generations.map((g: { generation: number }) => g.generation), [1, 2]);
    const shown = JSON.parse((await eureka(['show', 'unanswered', '--json', '--data-dir', dir])).stdout);
    assert.deepEqual(shown.feedback.map((f: { generation: number; state: string }) => [f.generation, f.state]), [[1, 'timed out']]);
    const late = await eureka(['feedback', 'unanswered', '--text', 'too late', '--data-dir', dir]);
    assert.equal(late.code, 2);
    assert.match(late.stderr, /timed out at .*: the search went on by itself/);
  });

  it('stops at a person\'s --stop: the best so far goes to the fresh seeds and is published', async () => {
    const dir = await dataDir();
    const search = start(['search', '--generations', '3', '--candidates', '2', ...SMALL, '--no-hostile', '--proposer', 'offline',
      '--feedback', 'wait', '--data-dir', dir, '--search-id', 'stopped', '--json']);
    try {
      await search.waitFor(/waiting for your feedback after generation 1/);
      const answered = await eureka(['feedback', 'stopped', '--stop', '--text', 'good enough', '--data-dir', dir]);
      assert.equal(answered.code, 0, answered.stderr);
      const ended = await search.done;
      assert.equal(ended.code, 0, ended.stderr);
      const out = JSON.parse(ended.stdout);
      assert.deepEqual(out.generations.map((g: { generation: number }) => g.generation), [1], 'no generation after the stop');
      await withLocalStore(dir, async (store) => {
        const meta = await store.meta('stopped');
        assert.equal(meta.stoppedBy?.reason, 'feedback');
        assert.equal(meta.stoppedBy?.generation, 1);
        assert.equal(meta.status, 'finished');
        assert.equal(await store.answer('stopped', 2, 'proposal'), undefined);
        // The best so far is the winner, re-trained on seeds the search never used: its fresh score is theirs.
        assert.deepEqual([out.winner.generation, out.winner.candidateId], [meta.best?.generation, meta.best?.candidateId]);
        const fresh = await store.result(seedResultKey('stopped', 1, out.winner.candidateId, FRESH_SEED_OFFSET));
        assert.equal(fresh?.outcome, 'trained', 'its fresh seed-run');
        assert.equal(out.winner.freshSuccess, fresh?.success);
      });
      assert.match(await readFile(out.cardPath, 'utf8'), /<!doctype html>/, 'published with its card');
    } finally {
      search.stop();
    }
  });
});
