/**
 * A search in which every seed-run faulted, the baselines' and every candidate's (a machine too
 * busy for the time cap, say): nothing learned anything, so no reward is the winner. Reflect keeps
 * no best and asks for no fresh seeds; Publish writes a card and summary.json that say no candidate
 * trained and that every seed-run of each baseline timed out, not a winner at 0%.
 * Seed results are what the state machine's Catch makes of a killed seed-run (infra/workflow-parts.ts).
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { propose } from '../functions/propose/propose.ts';
import { createProposer } from '../functions/propose/proposers.ts';
import { publish } from '../functions/publish/publish.ts';
import { initSearch } from '../functions/reflect/init.ts';
import { plan } from '../functions/reflect/plan.ts';
import { reflect } from '../functions/reflect/reflect.ts';
import type { ReflectResult } from '../functions/shared/search/contracts.ts';
import type { CheckSummary, SeedSummary, SeedTask } from '../functions/shared/search/types.ts';
import { winnerPrefix } from '../functions/shared/store/keys.ts';
import { realStore } from './support/real-store.ts';

const SEARCH = 'all-faulted';

/** A seed-run killed at its time cap, as the Catch's Pass state records it. */
const timedOut = (t: SeedTask): SeedSummary => ({
  candidateId: t.candidateId, seed: t.seed, outcome: 'timeout', reason: 'the seed-run did not finish within its 600 s time cap (Sandbox.Timedout)',
  success: 0, meanSuccessSteps: null, meanReturn: null, progress: null, stepsTrained: t.targetSteps, trainSuccessArea: null,
});

describe('A search whose every seed-run faulted', () => {
  const real = realStore('eureka-all-faulted-');
  let reflected: ReflectResult;

  before(async () => {
    const store = real.store();
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

  it('keeps no best and re-checks nothing on fresh seeds', async () => {
    assert.equal(reflected.more, false);
    assert.deepEqual(reflected.freshTasks, []);
    assert.equal(reflected.best.candidateId, '');
    assert.equal((await real.store().meta(SEARCH)).best ?? null, null);
  });

  it('publishes no winner, and says every candidate and baseline timed out', async () => {
    const store = real.store();
    const published = await publish(store, { searchId: SEARCH, freshResults: [] });
    assert.equal(published.winner, null);
    const page = async (name: string) => (await store.blobs.getText(`${winnerPrefix(SEARCH)}/${name}`)) ?? '';
    const summary = JSON.parse(await page('summary.json'));
    assert.equal(summary.winner, null);
    assert.equal(summary.nothingTrained, 'no candidate trained: 3 ended every seed-run with timeout');
    const md = await page('card.md');
    assert.match(md, /^# No candidate trained: 3 ended every seed-run with timeout$/m);
    assert.match(md, /the environment's reward: every seed-run ended with timeout, the person's shaping: every seed-run ended with timeout\./);
    assert.match(md, /600 s time cap/, 'the reason each seed-run gave');
  });
});
