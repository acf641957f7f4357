/**
 * Kill the smoke search twenty times and resume it each time (issue 32; test/kill-resume.test.ts
 * does it twice, on the smallest search, in CI). The smoke search (MountainCar-v0, G=2, K=3, S=2,
 * the hostile probes, 8,192 steps a seed-run in chunks of 2,048), its proposer the real SDK against
 * a loopback Messages API, is SIGKILLed (the whole process group) at moments a seeded generator draws
 * from the timeline of the same search run without a kill, in turn a chunk training, a checkpoint
 * about to be written, a model request held open, Reflect and Publish halfway; then a search paused
 * for feedback is killed in its pause and at the moments after it. Prints the figures
 * docs/reliability.md gives, as Markdown.
 *
 *   npx tsx scripts/kill-resume.ts [--kills 20] [--feedback-kills 4] [--seed 32]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { drawPlan, runSearch, SMOKE, withPause, type KilledSearch, type Moment } from '../test/support/kill-resume.ts';
import { repeats, seedRunEnds, unreadable, winnerOf } from '../test/support/kill-resume-checks.ts';

const { values } = parseArgs({ options: { kills: { type: 'string', default: '20' }, 'feedback-kills': { type: 'string', default: '4' }, seed: { type: 'string', default: '32' } } });
const seed = Number(values.seed);
const dirs: string[] = [];
const tempDir = async () => { const d = await mkdtemp(join(tmpdir(), 'eureka-kill-resume-')); dirs.push(d); return d; };

interface Row { search: string; planned: number; kills: KilledSearch['kills']; requests: number; held: number; chunks: number; inFlight: number; notInFlight: number; sameWinner: boolean; seedRuns: number; differing: number; unreadable: number; seconds: number }

async function killed(name: string, feedback: boolean, moments: Moment[], kills: number, reference: KilledSearch): Promise<Row> {
  const started = performance.now();
  const timeline = feedback ? withPause(reference.timeline) : reference.timeline;
  const search = await runSearch(await tempDir(), { ...SMOKE, feedback }, drawPlan(timeline, moments, kills, seed));
  const [ours, theirs] = [await seedRunEnds(search.dataDir), await seedRunEnds(reference.dataDir)];
  const again = repeats(search);
  const inFlight = search.kills.flatMap((k) => k.chunksInFlight);
  return {
    search: name, planned: search.planned, kills: search.kills, requests: again.requests, held: search.kills.filter((k) => k.requestInFlight).length,
    chunks: again.chunks, inFlight: inFlight.length, notInFlight: again.repeatedChunks.filter((c) => !inFlight.includes(c)).length,
    sameWinner: JSON.stringify(await winnerOf(search.dataDir)) === JSON.stringify(await winnerOf(reference.dataDir)),
    seedRuns: theirs.size, differing: [...theirs].filter(([key, end]) => JSON.stringify(ours.get(key)) !== JSON.stringify(end)).length,
    unreadable: (await unreadable(search)).length, seconds: (performance.now() - started) / 1000,
  };
}

try {
  const reference = await runSearch(await tempDir(), { ...SMOKE, feedback: false }, []);
  const rows = [
    await killed('smoke', false, ['chunk', 'checkpoint-write', 'model-request', 'reflect', 'publish'], Number(values.kills), reference),
    await killed('smoke, paused for feedback', true, ['pause', 'model-request', 'reflect', 'chunk'], Number(values['feedback-kills']), reference),
  ];
  const byMoment = (r: Row) => [...new Set(r.kills.map((k) => k.moment))].map((m) => `${m} ${r.kills.filter((k) => k.moment === m).length}`).join(', ');
  console.log(`seed ${seed}; the uninterrupted search: ${reference.timeline.filter((t) => t.moment === 'chunk').length} chunks, ${reference.requests.length} model requests\n`);
  console.log('| search | kills made (planned) | where | model requests asked again (held open at a kill) | chunks trained again (in flight at a kill; not in flight) | same winner | seed-runs differing | records unreadable | wall |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(`| ${r.search} | ${r.kills.length} (${r.planned}) | ${byMoment(r)} | ${r.requests} (${r.held}) | ${r.chunks} (${r.inFlight}; ${r.notInFlight}) | ${r.sameWinner ? 'yes' : 'NO'} | ${r.differing} of ${r.seedRuns} | ${r.unreadable} | ${Math.round(r.seconds)} s |`);
  }
  const good = rows.every((r) => r.sameWinner && r.differing === 0 && r.unreadable === 0 && r.notInFlight === 0 && r.requests <= r.held);
  process.exitCode = good ? 0 : 1;
} finally {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
}
