/**
 * What can become the best so far (functions/reflect/reflect.ts): only a reward trained to the
 * budget. A candidate the race stopped, one that failed its check or one that was never checked
 * never replaces a fully trained best, whatever its partial score; and a repaired candidate whose
 * check never ran (its Repair step failed after it stored the answer) is recorded as such, not as
 * trained. On a real table (dynalite) and bucket (a directory); seed results written by the test.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { propose } from '../functions/propose/propose.ts';
import { createProposer } from '../functions/propose/proposers.ts';
import { storeAnswer } from '../functions/propose/stored-answer.ts';
import { initSearch } from '../functions/reflect/init.ts';
import { reflect } from '../functions/reflect/reflect.ts';
import { FsBlobStore } from '../functions/shared/store/blob-fs.ts';
import { seedResultKey } from '../functions/shared/store/keys.ts';
import { proposedCandidate } from '../functions/shared/store/proposed-candidate.ts';
import { SearchStore } from '../functions/shared/store/search-store.ts';
import { Table } from '../functions/shared/store/table.ts';
import type { CheckSummary, SeedResult, SeedSummary } from '../functions/shared/search/types.ts';
import { summarize } from '../functions/train-seed/seed-summary.ts';
import { localAwsEnv, startLocalTable, type LocalTable } from '../local/dynalite.ts';

const SEARCH = 'best-is-trained';

describe('Reflect: what may become the best so far', () => {
  let dir = '';
  let local: LocalTable;
  let store: SearchStore;
  const saved = { ...process.env };

  /** A stored seed result and its summary; `stopped` makes it a seed-run the race stopped at a rung. */
  async function seed(generation: number, candidateId: string, s: number, success: number, stopped = false, searchId = SEARCH): Promise<SeedSummary> {
    const result: SeedResult = {
      task: 'MountainCar-v0', candidateId, seed: s, outcome: 'trained', reason: '', success,
      meanSuccessSteps: success > 0 ? 120 : null, meanReturn: -200 + 80 * success, progress: 0.3,
      terms: { shaping: { early: 0.1, late: success, series: [0.1, success] } }, trainSuccessSeries: [0, success],
      curve: [{ step: 2048, meanReward: -1, trainSuccess: success, episodeLength: 150 }], episode: null,
      steps: 4096, stepsTrained: stopped ? 2048 : 4096, thetaSha256: null, chunks: 1, trainSuccessArea: success,
      stepsToHalfSuccess: null, wallSeconds: 1, sandboxSeconds: 0.1, backend: 'wasm',
    };
    await store.blobs.put(seedResultKey(searchId, generation, candidateId, s), JSON.stringify(result), 'application/json');
    const summary = summarize(result);
    return stopped ? { ...summary, outcome: 'stopped', reason: 'stopped by the race at rung 1 of 2' } : summary;
  }

  let baselines: SeedSummary[] = [];
  let gen1Best = '';

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'eureka-best-'));
    local = await startLocalTable({ dir: join(dir, 'table') });
    Object.assign(process.env, localAwsEnv(local));
    store = new SearchStore(new Table(local.tableName), new FsBlobStore(join(dir, 'bucket')));
    const init = await initSearch(store, {
      kind: 'init', executionName: SEARCH,
      input: { task: 'MountainCar-v0', generations: 3, candidates: 2, seeds: 2, steps: 4096, includeHostile: false, proposer: 'offline' },
    }, 'offline');
    baselines = await Promise.all(init.baselineTasks.map((t) => seed(0, t.candidateId, t.seed, 0)));
    const proposed = await propose(store, { searchId: SEARCH, generation: 1 }, createProposer);
    const ids = proposed.checks.map((c) => c.candidateId);
    gen1Best = ids[0];
    const checks = ids.map((candidateId): CheckSummary => ({ candidateId, verdict: 'ok', reason: '' }));
    await reflect(store, {
      kind: 'reflect', searchId: SEARCH, generation: 1, baselines, checks, repairChecks: [],
      seedResults: [await seed(1, ids[0], 0, 0.5), await seed(1, ids[0], 1, 0.5), await seed(1, ids[1], 0, 0.2), await seed(1, ids[1], 1, 0.2)],
    });
  });

  after(async () => {
    await local.close();
    await rm(dir, { recursive: true, force: true });
    process.env = saved;
  });

  it('never makes a stopped candidate the best so far, however high its rung score', async () => {
    const proposed = await propose(store, { searchId: SEARCH, generation: 2 }, createProposer);
    const ids = proposed.checks.map((c) => c.candidateId);
    const checks = ids.map((candidateId): CheckSummary => ({ candidateId, verdict: 'ok', reason: '' }));
    // Every candidate of the generation was stopped at a rung with 0.9: none trained to the budget.
    const seedResults = (await Promise.all(ids.map((id) => Promise.all([seed(2, id, 0, 0.9, true), seed(2, id, 1, 0.9, true)])))).flat();
    const reflected = await reflect(store, { kind: 'reflect', searchId: SEARCH, generation: 2, baselines, checks, repairChecks: [], seedResults });
    assert.deepEqual([reflected.best.generation, reflected.best.candidateId, reflected.best.success], [1, gen1Best, 0.5]);
    const summary = await store.summary(SEARCH, 2);
    assert.equal(summary?.bestOfGeneration, null, 'a generation with nothing trained to the budget has no best');
    assert.equal((await store.meta(SEARCH)).best?.candidateId, gen1Best);
  });

  it('writes a generation\'s summary the same when a resumed search replays its Reflect after later ones', async () => {
    // A search resumed after generation 2 replays every state from the start: generation 1's
    // Reflect runs again with the search's best already generation 2's. Its summary must not change.
    const id = 'replayed-reflect';
    const init = await initSearch(store, {
      kind: 'init', executionName: id,
      input: { task: 'MountainCar-v0', generations: 2, candidates: 2, seeds: 1, steps: 4096, includeHostile: false, proposer: 'offline' },
    }, 'offline');
    const base = await Promise.all(init.baselineTasks.map((t) => seed(0, t.candidateId, t.seed, 0, false, id)));
    const events = [];
    for (const [generation, success] of [[1, 0.2], [2, 0.6]]) {
      const ids = (await propose(store, { searchId: id, generation }, createProposer)).checks.map((c) => c.candidateId);
      const checks = ids.map((candidateId): CheckSummary => ({ candidateId, verdict: 'ok', reason: '' }));
      const seedResults = await Promise.all(ids.map((c, i) => seed(generation, c, 0, success / (i + 1), false, id)));
      events.push({ kind: 'reflect' as const, searchId: id, generation, baselines: base, checks, repairChecks: [], seedResults });
      await reflect(store, events.at(-1)!);
    }
    const first = await store.summary(id, 1);
    assert.equal(first?.bestSoFar?.generation, 1);
    const replayed = await reflect(store, events[0]);
    assert.deepEqual(await store.summary(id, 1), first, 'generation 1\'s best so far, scoreboard and reflection as written the first time');
    assert.deepEqual([replayed.best.generation, replayed.best.success], [1, 0.2]);
  });

  it('records a repaired candidate whose check never ran as never checked, not as trained', async () => {
    const proposed = await propose(store, { searchId: SEARCH, generation: 3 }, createProposer);
    const [broken, ok] = proposed.checks.map((c) => c.candidateId);
    const code = 'function computeReward(obs) { return [obs[0], { position: obs[0] }]; }';
    // The repair's answer is stored; then the step timed out, so "Check the repaired rewards" got nothing.
    await storeAnswer(store, SEARCH, 3, 'repair', { analysis: '', candidates: [], proposer: 'offline', model: 'offline', raw: '', usage: null, costUsd: 0, notes: [], promptHash: 'x' },
      [{ ...proposedCandidate(`${broken}-repaired`, { name: 'fixed', idea: 'fixed', code }, 'proposer'), repairOf: broken, code }]);
    const checks: CheckSummary[] = [{ candidateId: broken, verdict: 'error', reason: 'reward threw at step 0' }, { candidateId: ok, verdict: 'ok', reason: '' }];
    await reflect(store, {
      kind: 'reflect', searchId: SEARCH, generation: 3, baselines, checks, repairChecks: [],
      seedResults: [await seed(3, ok, 0, 0.1), await seed(3, ok, 1, 0.1)],
    });
    const repaired = (await store.candidates(SEARCH, 3)).find((c) => c.candidateId === `${broken}-repaired`);
    assert.equal(repaired?.outcome, 'error');
    assert.match(repaired?.reason ?? '', /never checked or trained/);
    assert.deepEqual(repaired?.seeds, []);
  });
});
