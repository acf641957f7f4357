/**
 * The choice of the winner, through the real handlers' domain code on a real table (dynalite) and
 * bucket (a directory): Reflect ranks each generation and keeps the best so far (a worse
 * generation never replaces it), asks for the fresh-seed re-check after the last one, and Publish
 * scores the winner and the baselines on those fresh seeds and writes summary.json and the card.
 * Seed results are written by the test (no training), so every number is known.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { propose } from '../functions/propose/propose.ts';
import { createProposer } from '../functions/propose/proposers.ts';
import { summarize } from '../functions/train-seed/seed-summary.ts';
import { publish } from '../functions/publish/publish.ts';
import { SUMMARY_SCHEMA } from '../functions/publish/summary.ts';
import { initSearch } from '../functions/reflect/init.ts';
import { reflect } from '../functions/reflect/reflect.ts';
import { FsBlobStore } from '../functions/shared/store/blob-fs.ts';
import { interimCardKey, seedResultKey } from '../functions/shared/store/keys.ts';
import { SearchStore } from '../functions/shared/store/search-store.ts';
import { Table } from '../functions/shared/store/table.ts';
import type { ReflectResult } from '../functions/shared/search/contracts.ts';
import type { CheckSummary, SeedResult, SeedSummary, SeedTask } from '../functions/shared/search/types.ts';
import { plan } from '../functions/reflect/plan.ts';
import { localAwsEnv, startLocalTable, type LocalTable } from '../local/dynalite.ts';

const SEARCH = 'choose-the-winner';

describe('Reflect and Publish: the choice of the winner', () => {
  let dir = '';
  let local: LocalTable;
  let store: SearchStore;
  const saved = { ...process.env };

  /** Writes a seed result with the given success for each task, and returns the summaries TrainSeed would. */
  async function train(tasks: SeedTask[], successOf: (t: SeedTask) => number): Promise<SeedSummary[]> {
    return Promise.all(tasks.map(async (t) => {
      const success = successOf(t);
      const result: SeedResult = {
        task: t.task, candidateId: t.candidateId, seed: t.seed, outcome: 'trained', reason: '', success,
        meanSuccessSteps: success > 0 ? 150 - 40 * success : null, meanReturn: -200 + 80 * success, progress: 0.3 + 0.2 * success,
        terms: { shaping: { early: 0.1, late: success, series: [0.1, success] } }, trainSuccessSeries: [0, success], curve: [{ step: 2048, meanReward: -1, trainSuccess: success, episodeLength: 150 }],
        episode: { observations: [[-0.5, 0], [-0.49, 0.01]], actions: [2], rewards: [-1], success: false, terminated: false, truncated: false },
        steps: t.budget.steps, stepsTrained: t.budget.steps, thetaSha256: null, chunks: 1, trainSuccessArea: success, stepsToHalfSuccess: null, wallSeconds: 1, sandboxSeconds: 0.1, backend: 'wasm',
      };
      const key = seedResultKey(t.searchId, t.generation, t.candidateId, t.seed);
      await store.blobs.put(key, JSON.stringify(result), 'application/json');
      return summarize(result);
    }));
  }

  /** Propose, every candidate passing its check (the offline grammar writes no broken code), and the plan. */
  async function proposeAndPlan(generation: number): Promise<{ checks: CheckSummary[]; tasks: SeedTask[] }> {
    const proposed = await propose(store, { searchId: SEARCH, generation }, createProposer);
    const checks = proposed.checks.map((c): CheckSummary => ({ candidateId: c.candidateId, verdict: 'ok', reason: '' }));
    const planned = await plan(store, { kind: 'plan', searchId: SEARCH, generation, checks, repairChecks: [] });
    return { checks, tasks: planned.tasks };
  }

  let baselines: SeedSummary[] = [];
  let reflected: ReflectResult[] = [];
  let winnerId = '';

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'eureka-choose-'));
    local = await startLocalTable({ dir: join(dir, 'table') });
    Object.assign(process.env, localAwsEnv(local));
    store = new SearchStore(new Table(local.tableName), new FsBlobStore(join(dir, 'bucket')));
    const init = await initSearch(store, {
      kind: 'init', executionName: SEARCH,
      input: { task: 'MountainCar-v0', generations: 2, candidates: 3, seeds: 2, steps: 4096, includeHostile: false, proposer: 'offline' },
    }, 'offline');
    baselines = await train(init.baselineTasks, (t) => (t.candidateId === 'human_shaping' ? 0.8 : 0));
    // Generation 1: the second candidate is best (0.9); generation 2 is worse everywhere (0.85 at most).
    const gen1 = await proposeAndPlan(1);
    const ids1 = [...new Set(gen1.tasks.map((t) => t.candidateId))];
    winnerId = ids1[1];
    const r1 = await reflect(store, { kind: 'reflect', searchId: SEARCH, generation: 1, baselines, checks: gen1.checks, repairChecks: [],
      seedResults: await train(gen1.tasks, (t) => (t.candidateId === winnerId ? 0.9 : t.candidateId === ids1[0] ? 0.5 : 0)) });
    const gen2 = await proposeAndPlan(2);
    const r2 = await reflect(store, { kind: 'reflect', searchId: SEARCH, generation: 2, baselines, checks: gen2.checks, repairChecks: [],
      seedResults: await train(gen2.tasks, (t) => (t.seed === 0 ? 0.85 : 0.8)) });
    reflected = [r1, r2];
  });

  after(async () => {
    await local.close();
    await rm(dir, { recursive: true, force: true });
    process.env = saved;
  });

  it('ranks generation 1 and asks for another generation', async () => {
    const [r1] = reflected;
    assert.deepEqual([r1.more, r1.best.generation, r1.best.candidateId, r1.best.success], [true, 1, winnerId, 0.9]);
    assert.deepEqual(r1.freshTasks, []);
    const summary = await store.summary(SEARCH, 1);
    assert.equal(summary?.scoreboard[0].candidateId, winnerId, 'the scoreboard is ranked');
    assert.deepEqual(summary?.scoreboard.map((s) => s.success), [0.9, 0.5, 0]);
  });

  it('writes an interim card after each generation: the best so far in action, its curves and terms, from its search seeds', async () => {
    for (const generation of [1, 2]) {
      const card = await store.blobs.getText(interimCardKey(SEARCH, generation));
      assert.ok(card !== undefined, `an interim card after generation ${generation}`);
      assert.match(card, /data-interim="true"/);
      assert.doesNotMatch(card, /no episode recorded/, 'the greedy episode of one of its search seeds');
      const learning = /<svg data-chart="learning-curve"[\s\S]*?<\/svg>/.exec(card)?.[0] ?? '';
      assert.match(learning, /<path class="series"[^>]*><title>[^<]+ \(best so far\)<\/title>/, 'its training curve');
      assert.match(card, /<table data-table="terms">[\s\S]*<code>shaping<\/code>/, 'its terms');
      assert.doesNotMatch(card, /reported no terms/);
      assert.match(card, /search's own seeds/);
    }
  });

  it('keeps the best so far when a later generation is worse', async () => {
    const [, r2] = reflected;
    assert.equal(r2.more, false);
    assert.deepEqual([r2.best.generation, r2.best.candidateId], [1, winnerId]);
    const summary = await store.summary(SEARCH, 2);
    assert.equal(summary?.bestOfGeneration?.success, 0.825);
    assert.equal(summary?.bestSoFar?.candidateId, winnerId);
    assert.equal((await store.meta(SEARCH)).best?.candidateId, winnerId);
    assert.match(summary?.reflection ?? '', new RegExp(`Best reward function so far: .* \\(generation 1\\)`));
  });

  it('re-checks the winner and both baselines on seeds the search never used', () => {
    const fresh = reflected[1].freshTasks;
    assert.deepEqual(fresh.map((t) => `${t.generation}/${t.candidateId}/${t.seed}`), [
      `1/${winnerId}/10000`, `1/${winnerId}/10001`, '0/environment_reward/10000', '0/environment_reward/10001',
      '0/human_shaping/10000', '0/human_shaping/10001',
    ]);
    assert.ok(fresh.every((t) => t.task === 'MountainCar-v0'));
  });

  it('publishes the winner with its fresh score, the baselines, summary.json and the card', async () => {
    const freshResults = await train(reflected[1].freshTasks, (t) => (t.candidateId === winnerId ? (t.seed === 10000 ? 0.75 : 0.65) : t.candidateId === 'human_shaping' ? 0.6 : 0));
    // What the local runtime records before Publish runs: the execution history's count, carried into summary.json.
    const history = { search: 812, seedRunExecutions: 40, largestSeedRun: 31, limit: 25_000 };
    await store.updateMeta(SEARCH, { history });
    const published = await publish(store, { searchId: SEARCH, freshResults });
    assert.ok(published.winner);
    assert.equal(published.winner.candidateId, winnerId);
    assert.ok(Math.abs(published.winner.freshSuccess - 0.7) < 1e-12, 'the mean of its fresh seeds');
    assert.equal(published.winner.searchSuccess, 0.9);
    const summary = JSON.parse(await readFile(join(dir, 'bucket', 'searches', SEARCH, 'winner', 'summary.json'), 'utf8'));
    assert.equal(summary.schema, SUMMARY_SCHEMA);
    assert.equal(summary.task, 'MountainCar-v0');
    assert.deepEqual(Object.keys(summary).sort(), ['artifacts', 'baselines', 'beatsBaselines', 'bestByGeneration', 'candidates', 'config', 'estimate', 'finishedAt', 'history', 'nothingTrained', 'proposer', 'schema',
      'searchId', 'seedRunSeconds', 'startedAt', 'stepsFullBudget', 'stepsTrained', 'task', 'versusBestBaseline', 'winner']);
    assert.equal(summary.nothingTrained, null);
    // Every candidate's progress, per seed too: each seed's is 0.3 + 0.2 x its success here.
    assert.ok(summary.candidates.length > 0);
    for (const c of summary.candidates as Array<{ seeds: Array<{ success: number; progress: number | null; outcome: string }> }>) {
      for (const s of c.seeds.filter((x) => x.outcome === 'trained')) assert.ok(Math.abs((s.progress ?? Number.NaN) - (0.3 + 0.2 * s.success)) < 1e-12);
    }
    assert.ok(Math.abs((summary.winner.freshProgress ?? Number.NaN) - (0.3 + 0.2 * 0.7)) < 1e-12, `the winner's progress on its fresh seeds: ${summary.winner.freshProgress}`);
    assert.deepEqual(summary.history, history);
    // Every seed-run here trained to its budget: nothing was saved, and the count says so.
    assert.ok(summary.stepsTrained > 0 && summary.stepsTrained === summary.stepsFullBudget, `${summary.stepsTrained} of ${summary.stepsFullBudget}`);
    assert.deepEqual(summary.winner.freshSeeds.map((s: { seed: number; success: number }) => [s.seed, s.success]), [[10000, 0.75], [10001, 0.65]]);
    assert.equal(summary.winner.freshSuccessSteps, (120 + 124) / 2);
    assert.deepEqual(summary.baselines.map((b: { candidateId: string; freshSuccess: number }) => [b.candidateId, b.freshSuccess]), [['environment_reward', 0], ['human_shaping', 0.6]]);
    assert.equal(summary.beatsBaselines, true);
    assert.deepEqual(summary.versusBestBaseline, { candidateId: 'human_shaping', name: 'human_shaping', baselineFreshSuccess: 0.6, winnerFreshSuccess: 0.7, decidedBy: 'success' });
    assert.deepEqual(summary.bestByGeneration.map((g: { success: number; bestSoFar: number }) => [g.success, g.bestSoFar]), [[0.9, 0.9], [0.825, 0.9]]);
    assert.equal(summary.winner.policySeed, null, 'no policy was saved by these fake seed-runs');
    const card = await readFile(join(dir, 'bucket', 'searches', SEARCH, 'winner', 'card.html'), 'utf8');
    assert.ok(card.includes(`reaches the flag in 70% of fresh episodes`));
    assert.equal((await store.meta(SEARCH)).status, 'finished');
  });

  it('says so in summary.json and on the card when the winner does not beat the best baseline on the fresh seeds', async () => {
    const freshResults = await train(reflected[1].freshTasks, (t) => (t.candidateId === winnerId ? 0.7 : t.candidateId === 'human_shaping' ? 0.85 : 0));
    await publish(store, { searchId: SEARCH, freshResults });
    const winner = join(dir, 'bucket', 'searches', SEARCH, 'winner');
    const summary = JSON.parse(await readFile(join(winner, 'summary.json'), 'utf8'));
    assert.equal(summary.beatsBaselines, false);
    assert.deepEqual(summary.versusBestBaseline, { candidateId: 'human_shaping', name: 'human_shaping', baselineFreshSuccess: 0.85, winnerFreshSuccess: 0.7, decidedBy: 'success' });
    const card = await readFile(join(winner, 'card.md'), 'utf8');
    assert.equal(card.split('\n')[0], `# Nothing the search found beat the baselines: use the person's shaping (human\\_shaping), 85% of fresh episodes; ` +
      `the search's best, ${summary.winner.name.replace(/_/g, '\\_')}, 70%`);
  });
});
