/**
 * The whole smoke search, through the CLI and the local runtime (the same state machine as AWS),
 * with the offline proposer; then what it stored, and a resume that must do nothing.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { pct } from '../functions/shared/card/card-data.ts';
import { withLocalStore } from '../local/runtime.ts';
import { historyBound } from '../functions/shared/cost/history-bound.ts';
import { getTask } from '../tasks/registry.ts';

const run = promisify(execFile);
const CLI = new URL('../bin/eureka.js', import.meta.url).pathname;
const SEARCH_ID = 'smoke-test';

/** Every file under dir, with its modification time. */
async function files(dir: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      out.set(path, (await stat(path)).mtimeMs);
    }
  }
  return out;
}

describe('Search: the smoke search on this machine', () => {
  let dataDir: string;
  let output: { searchId: string; winner: { candidateId: string; freshSuccess: number }; baselines: Array<{ candidateId: string; freshSuccess: number }>; generations: Array<{ generation: number; rows: unknown[] }>; cardPath: string };
  let bucket: string;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'eureka-smoke-'));
    bucket = join(dataDir, 'bucket', 'searches', SEARCH_ID);
    const { stdout } = await run(process.execPath, [CLI, 'search', '--smoke', '--json', '--data-dir', dataDir, '--search-id', SEARCH_ID], { timeout: 10 * 60_000, maxBuffer: 1 << 24, env: { ...process.env, ANTHROPIC_API_KEY: '' } });
    output = JSON.parse(stdout);
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('prints one JSON object: search id, winner, baselines, generations and the card path', () => {
    assert.equal(output.searchId, SEARCH_ID);
    assert.ok(output.winner.candidateId.length > 0);
    assert.deepEqual(output.baselines.map((b) => b.candidateId).sort(), ['environment_reward', 'human_shaping']);
    assert.ok(output.cardPath.endsWith(`searches/${SEARCH_ID}/winner/card.html`));
    assert.deepEqual(output.generations.map((g) => [g.generation, g.rows.length]), [[1, 5], [2, 3]]);
  });

  it('records proposals, candidates, summaries and the winner in the table', async () => {
    await withLocalStore(dataDir, async (store) => {
      const meta = await store.meta(SEARCH_ID);
      assert.equal(meta.status, 'finished');
      assert.equal(meta.config.generations, 2);
      for (const g of [1, 2]) {
        const proposal = await store.answer(SEARCH_ID, g, 'proposal');
        assert.ok(proposal, `proposal of generation ${g}`);
        assert.equal(proposal.proposer, 'offline');
        const expected = g === 1 ? 3 + 2 : 3;
        assert.equal((await store.candidates(SEARCH_ID, g)).length, expected);
        assert.ok(await store.summary(SEARCH_ID, g));
      }
      assert.equal((await store.candidates(SEARCH_ID, 0)).length, 2, 'the baselines');
      const winner = await store.winner<{ winner: { candidateId: string } }>(SEARCH_ID);
      assert.equal(winner?.winner.candidateId, output.winner.candidateId);
    });
  });

  it('ends the hostile candidates as timeout and error, and the search goes on', async () => {
    await withLocalStore(dataDir, async (store) => {
      const gen1 = await store.candidates(SEARCH_ID, 1);
      const outcome = (id: string) => gen1.find((c) => c.candidateId === id);
      assert.equal(outcome('hostile_never_returns')?.outcome, 'timeout');
      assert.equal(outcome('hostile_exfiltrate')?.outcome, 'error');
      assert.match(outcome('hostile_exfiltrate')?.reason ?? '', /not defined/);
      assert.ok(await store.summary(SEARCH_ID, 2), 'generation 2 ran after the hostile ones');
    });
  });

  it('stores reward.js, seed results, policies and the card in the bucket', async () => {
    const all = [...(await files(bucket)).keys()].map((p) => p.slice(bucket.length + 1));
    assert.ok(all.some((p) => /^generations\/1\/candidates\/[^/]+\/reward\.js$/.test(p)));
    assert.ok(all.some((p) => /^generations\/2\/candidates\/[^/]+\/seeds\/1\/result\.json$/.test(p)));
    assert.ok(all.some((p) => /seeds\/0\/policy\/model\.json$/.test(p)));
    for (const f of ['reward.js', 'card.html', 'card.md', 'summary.json', 'policy/model.json', 'policy/weights.bin']) {
      assert.ok(all.includes(`winner/${f}`), `winner/${f}`);
    }
  });

  it('announces the winner with the same fresh scores as summary.json and the card', async () => {
    const summary = JSON.parse(await readFile(join(bucket, 'winner', 'summary.json'), 'utf8'));
    const events = (await readFile(join(dataDir, 'events.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    const finished = events.find((e) => e.DetailType === 'Reward search finished');
    assert.ok(finished, 'a "Reward search finished" event');
    const detail = typeof finished.Detail === 'string' ? JSON.parse(finished.Detail) : finished.Detail;
    assert.equal(detail.winner.freshSuccess, summary.winner.freshSuccess);
    assert.equal(output.winner.freshSuccess, summary.winner.freshSuccess);
    const card = await readFile(join(bucket, 'winner', 'card.md'), 'utf8');
    for (const reward of [summary.winner, ...summary.baselines]) {
      const fresh = `**${pct(reward.freshSuccess)}**`;
      assert.ok(card.split('\n').some((line: string) => line.includes(`\`${reward.name}\``) && line.includes(fresh)), `the card shows ${reward.name} at ${fresh} fresh`);
    }
  });

  it('counts each execution\'s history as Step Functions would, the same in META, summary.json and eureka show, within its worst case', async () => {
    const summary = JSON.parse(await readFile(join(bucket, 'winner', 'summary.json'), 'utf8'));
    const show = (...json: string[]) => run(process.execPath, [CLI, 'show', SEARCH_ID, ...json, '--data-dir', dataDir], { maxBuffer: 1 << 24 });
    const shown = JSON.parse((await show('--json')).stdout).history;
    await withLocalStore(dataDir, async (store) => {
      const meta = await store.meta(SEARCH_ID);
      const history = meta.history;
      assert.ok(history, 'the runtime recorded the history');
      // summary.json's count was taken at Publish, with what the states after it add: it must match the end's.
      assert.deepEqual(summary.history, history);
      assert.deepEqual(shown, history);
      const bound = historyBound(meta.config, getTask(meta.config.task));
      assert.ok(history.search > 100 && history.search <= bound.search, `${history.search} events in the search's execution, bound ${bound.search}`);
      assert.ok(history.largestSeedRun > 0 && history.largestSeedRun <= bound.seedRun, `${history.largestSeedRun}, bound ${bound.seedRun}`);
      const seedRuns = (await Promise.all([0, 1, 2].map((g) => store.candidates(SEARCH_ID, g)))).flat().reduce((n, c) => n + c.seeds.length, 0);
      assert.ok(history.seedRunExecutions >= seedRuns && seedRuns > 0, `${history.seedRunExecutions} child executions for ${seedRuns} seed-runs`);
      assert.match((await show()).stdout, new RegExp(`history events \\(at most 25,000 an execution\\): ${history.search.toLocaleString('en-US')} in the search's execution; `));
    });
  });

  it('says in summary.json and eureka show whether the winner beat the best baseline on the fresh seeds', async () => {
    const summary = JSON.parse(await readFile(join(bucket, 'winner', 'summary.json'), 'utf8'));
    const best = [...summary.baselines].sort((a, b) => b.freshSuccess - a.freshSuccess)[0];
    assert.equal(summary.versusBestBaseline.baselineFreshSuccess, best.freshSuccess);
    assert.equal(summary.versusBestBaseline.winnerFreshSuccess, summary.winner.freshSuccess);
    assert.equal(summary.beatsBaselines, summary.winner.freshSuccess > best.freshSuccess || (summary.winner.freshSuccess === best.freshSuccess &&
      summary.winner.freshSuccessSteps !== null && best.freshSuccessSteps !== null && summary.winner.freshSuccessSteps < best.freshSuccessSteps));
    const { stdout } = await run(process.execPath, [CLI, 'show', SEARCH_ID, '--data-dir', dataDir]);
    const line = stdout.split('\n').find((l) => /beat the baselines/.test(l)) ?? '';
    const scores = `${pct(summary.winner.freshSuccess)} against ${pct(best.freshSuccess)} on the fresh seeds`;
    assert.ok(line.startsWith(summary.beatsBaselines ? 'the winner beat the baselines' : `nothing the search found beat the baselines: use ${best.name}`), line);
    assert.ok(line.includes(scores), `${line} has ${scores}`);
  });

  it('a resumed finished search trains nothing and asks no proposer again', async () => {
    const before = await files(bucket);
    await run(process.execPath, [CLI, 'search', '--resume', SEARCH_ID, '--json', '--data-dir', dataDir], { timeout: 5 * 60_000, maxBuffer: 1 << 24 });
    const afterwards = await files(bucket);
    // Publish may write winner/ again (it is a pure function of what is stored); seed-runs and answers must not change.
    const rewritten = [...before].filter(([path, mtime]) => /\/seeds\/.*(result\.json|weights\.bin)$|proposal-/.test(path) && afterwards.get(path) !== mtime);
    assert.deepEqual(rewritten, []);
    const proposals = [...afterwards.keys()].filter((p) => /proposal-[^/]+\.json$/.test(p));
    assert.equal(proposals.length, 2, 'one stored answer per generation');
  });
});
