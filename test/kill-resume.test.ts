/**
 * Killed anywhere, nothing lost, nothing paid twice (issue 32). A smoke search whose proposer is
 * the real @anthropic-ai/sdk against a loopback Messages API is SIGKILLed (the whole process group)
 * at moments a seeded generator draws from the timeline of the same search run without a kill,
 * and resumed after each: it ends with the same winner and the same parameters (thetaSha256) and
 * chunk count for every seed-run, it asks the model again only for a request held open at a kill
 * and trains again only the chunks in flight at one, and every stored record reads back. The same
 * for a search paused for a person's feedback. Here the smallest search, killed twice in each of
 * two runs; `npx tsx scripts/kill-resume.ts` kills the smoke search twenty times at every kind of
 * moment, a checkpoint write and Reflect included (docs/reliability.md has its figures).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { defaultPoolSlots } from '../local/train-seed-pool.ts';
import { drawPlan, runSearch, SMALLEST, withPause, type KilledSearch, type Moment } from './support/kill-resume.ts';
import { generationRecords, repeats, seedRunEnds, unreadable, winnerOf, type SeedRunEnd } from './support/kill-resume-checks.ts';

/** The generator's seed: the moments it draws are the same on every run of this test. */
const SEED = 32;

describe('Search: killed anywhere and resumed', () => {
  const dirs: string[] = [];
  let reference: KilledSearch;
  let ends: Map<string, SeedRunEnd>;
  let records: Awaited<ReturnType<typeof generationRecords>>;
  const tempDir = async () => { const d = await mkdtemp(join(tmpdir(), 'eureka-kill-resume-')); dirs.push(d); return d; };
  before(async () => {
    reference = await runSearch(await tempDir(), { ...SMALLEST, feedback: false }, []);
    ends = await seedRunEnds(reference.dataDir);
    records = await generationRecords(reference.dataDir);
  });
  after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  async function killedAt(feedback: boolean, moments: Moment[]): Promise<KilledSearch> {
    const timeline = feedback ? withPause(reference.timeline) : reference.timeline;
    const plan = drawPlan(timeline, moments, moments.length, SEED);
    const killed = await runSearch(await tempDir(), { ...SMALLEST, feedback }, plan);
    assert.deepEqual(killed.kills.map((k) => k.moment), plan.map((p) => p.moment), 'every planned kill landed');
    assert.deepEqual(new Set(killed.kills.map((k) => k.moment)), new Set(moments));
    return killed;
  }

  async function holdsUp(killed: KilledSearch): Promise<void> {
    assert.deepEqual(await winnerOf(killed.dataDir), await winnerOf(reference.dataDir), 'the same winner');
    assert.ok(ends.size >= 6, `${ends.size} seed-runs`);
    assert.deepEqual(await seedRunEnds(killed.dataDir), ends, 'every seed-run ends with the same parameters, steps and chunks');
    assert.deepEqual(await generationRecords(killed.dataDir), records, 'every generation\'s summary and race as without a kill');
    const again = repeats(killed);
    const held = killed.kills.filter((k) => k.requestInFlight).map((k) => k.identity);
    assert.ok(again.requests <= held.length, `${again.requests} model requests asked again, ${held.length} held open at a kill`);
    const inFlight = killed.kills.flatMap((k) => k.chunksInFlight);
    for (const chunk of again.repeatedChunks) assert.ok(inFlight.includes(chunk), `${chunk} trained again, though it was not in flight at a kill`);
    assert.ok(again.chunks <= inFlight.length);
    // The search's pool has a slot a core the CLI may run on, as this process (it inherits the affinity).
    const slots = defaultPoolSlots();
    for (const k of killed.kills) assert.ok(k.chunksInFlight.length <= slots, `${k.chunksInFlight.length} chunks in flight at a kill: at most one a warm worker, ${slots} here`);
    assert.deepEqual(await unreadable(killed), [], 'every stored record reads back');
  }

  it('killed at a chunk and halfway through Publish: the same search, only the work in flight done again', async () => {
    await holdsUp(await killedAt(false, ['chunk', 'publish']));
  });

  it('paused for feedback, killed in the pause and at a model request: the same search', async () => {
    const killed = await killedAt(true, ['pause', 'model-request']);
    await holdsUp(killed);
    assert.ok(killed.kills.some((k) => k.moment === 'model-request' && k.requestInFlight), 'the request was held open at the kill');
  });
});
