/**
 * A search in which every seed-run faulted, the baselines' and every candidate's (a machine too
 * busy for the time cap, say): nothing learned anything, so no reward is the winner. Reflect keeps
 * no best and asks for no fresh seeds; Publish writes a card and summary.json that say no candidate
 * trained and that every seed-run of each baseline timed out, not a winner at 0%.
 * Seed results are what the state machine's Catch makes of a killed seed-run (infra/workflow-parts.ts).
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { propose } from '../functions/propose/propose.ts';
import { createProposer } from '../functions/propose/proposers.ts';
import { publish } from '../functions/publish/publish.ts';
import { initSearch } from '../functions/reflect/init.ts';
import { plan } from '../functions/reflect/plan.ts';
import { reflect } from '../functions/reflect/reflect.ts';
import { FsBlobStore } from '../functions/shared/store/blob-fs.ts';
import { SearchStore } from '../functions/shared/store/search-store.ts';
import { Table } from '../functions/shared/store/table.ts';
import type { ReflectResult } from '../functions/shared/search/contracts.ts';
import type { CheckSummary, SeedSummary, SeedTask } from '../functions/shared/search/types.ts';
import { localAwsEnv, startLocalTable, type LocalTable } from '../local/dynalite.ts';

const SEARCH = 'all-faulted';

/** A seed-run killed at its time cap, as the Catch's Pass state records it. */
const timedOut = (t: SeedTask): SeedSummary => ({
  candidateId: t.candidateId, seed: t.seed, outcome: 'timeout', reason: 'the seed-run did not finish within its 600 s time cap (Sandbox.Timedout)',
  success: 0, meanSuccessSteps: null, meanReturn: null, progress: null, stepsTrained: t.targetSteps, trainSuccessArea: null,
});

describe('A search whose every seed-run faulted', () => {
  let dir = '';
  let local: LocalTable;
  let store: SearchStore;
  let reflected: ReflectResult;
  const saved = { ...process.env };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'eureka-all-faulted-'));
    local = await startLocalTable({ dir: join(dir, 'table') });
    Object.assign(process.env, localAwsEnv(local));
    store = new SearchStore(new Table(local.tableName), new FsBlobStore(join(dir, 'bucket')));
    const init = await initSearch(store, {
      kind: 'init', executionName: SEARCH,
      input: { task: 'MountainCar-v0', generations: 1, candidates: 3, seeds: 2, steps: 4096, includeHostile: false, proposer: 'offline' },
    }, 'offline');
    const proposed = await propose(store, { searchId: SEARCH, generation: 1 }, createProposer);
    const checks = proposed.checks.map((c): CheckSummary => ({ candidateId: c.candidateId, verdict: 'ok', reason: '' }));
    const planned = await plan(store, { kind: 'plan', searchId: SEARCH, generation: 1, checks, repairChecks: [] });
    reflected = await reflect(store, {
      kind: 'reflect', searchId: SEARCH, generation: 1, checks, repairChecks: [],
      baselines: init.baselineTasks.map(timedOut), seedResults: planned.tasks.map(timedOut),
    });
  });

  after(async () => {
    await local.close();
    await rm(dir, { recursive: true, force: true });
    process.env = saved;
  });

  it('keeps no best and re-checks nothing on fresh seeds', async () => {
    assert.equal(reflected.more, false);
    assert.deepEqual(reflected.freshTasks, []);
    assert.equal(reflected.best.candidateId, '');
    assert.equal((await store.meta(SEARCH)).best ?? null, null);
  });

  it('publishes no winner, and says every candidate and baseline timed out', async () => {
    const published = await publish(store, { searchId: SEARCH, freshResults: [] });
    assert.equal(published.winner, null);
    const winner = join(dir, 'bucket', 'searches', SEARCH, 'winner');
    const summary = JSON.parse(await readFile(join(winner, 'summary.json'), 'utf8'));
    assert.equal(summary.winner, null);
    assert.equal(summary.nothingTrained, 'no candidate trained: 3 ended every seed-run with timeout');
    const md = await readFile(join(winner, 'card.md'), 'utf8');
    assert.match(md, /^# No candidate trained: 3 ended every seed-run with timeout$/m);
    assert.match(md, /the environment's reward: every seed-run ended with timeout, the person's shaping: every seed-run ended with timeout\./);
    assert.match(md, /600 s time cap/, 'the reason each seed-run gave');
  });
});
