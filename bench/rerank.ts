/**
 * Re-ranks a raced search's stored rungs under two orders, training nothing (issue 43): the order
 * before it ("old": success, then the return on the environment's reward, its seeds' spread the
 * cut's evidence where success ties) and the order since (success, then the task's progress, its
 * seeds' spread the evidence). For each rung of each generation: every candidate at that rung with
 * its success, progress and return, and whether each order keeps it or cuts it. The old order is
 * the race's own code given the returns in place of progress: every robot's tie-break was the
 * return, so that is the order the race ran before.
 *
 *   npx tsx bench/rerank.ts DATA_DIR SEARCH_ID [--json]
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { goingOn, rank } from '../functions/reflect/race-standings.ts';
import type { SeedResult, SeedSummary } from '../functions/shared/search/types.ts';
import { summarize } from '../functions/train-seed/seed-summary.ts';
import { getTask } from '../tasks/registry.ts';

const [dataDir, searchId] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (!dataDir || !searchId) {
  process.stderr.write('usage: npx tsx bench/rerank.ts DATA_DIR SEARCH_ID [--json]\n');
  process.exit(2);
}
const root = join(dataDir, 'bucket', 'searches', searchId);
const summary = JSON.parse(readFileSync(join(root, 'winner', 'summary.json'), 'utf8')) as { task: string; config: { evalEpisodes: number; steps: number; racing: false | { eta: number } } };
if (summary.config.racing === false) throw new Error(`${searchId} did not race`);
const { eta } = summary.config.racing;
const task = getTask(summary.task);
const list = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir) : []);

interface Row { generation: number; rung: number; steps: number; candidateId: string; success: number; progress: number | null; meanReturn: number | null; old: boolean; now: boolean }
const rows: Row[] = [];

for (const generation of list(join(root, 'generations')).map(Number).filter((g) => g > 0).sort((a, b) => a - b)) {
  const candidates = list(join(root, 'generations', String(generation), 'candidates'));
  const resultAt = (c: string, seed: string, steps: number): SeedResult | null => {
    const seedDir = join(root, 'generations', String(generation), 'candidates', c, 'seeds', seed);
    const file = steps === summary.config.steps ? join(seedDir, 'result.json') : join(seedDir, 'rungs', `${steps}.json`);
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SeedResult) : null;
  };
  const rungSteps = [...new Set(candidates.flatMap((c) => list(join(root, 'generations', String(generation), 'candidates', c, 'seeds'))
    .flatMap((s) => list(join(root, 'generations', String(generation), 'candidates', c, 'seeds', s, 'rungs')).map((f) => Number(f.replace('.json', ''))))))]
    .sort((a, b) => a - b);
  rungSteps.forEach((steps, r) => {
    const results: SeedSummary[] = candidates.flatMap((c) => list(join(root, 'generations', String(generation), 'candidates', c, 'seeds'))
      .flatMap((seed) => { const res = resultAt(c, seed, steps); return res ? [summarize(res)] : []; }));
    const trained = results.filter((s) => s.outcome === 'trained' || s.outcome === 'stopped').map((s) => ({ ...s, outcome: 'trained' as const }));
    const now = rank(trained, [], task.tieBreak, generation, summary.config.evalEpisodes).filter((s) => s.trainedSeeds > 0);
    const old = rank(trained.map((s) => ({ ...s, progress: s.meanReturn })), [], task.tieBreak, generation, summary.config.evalEpisodes).filter((s) => s.trainedSeeds > 0);
    const [keptNow, keptOld] = [goingOn(now, eta), goingOn(old, eta)];
    for (const s of now) {
      const o = old.find((x) => x.candidateId === s.candidateId);
      rows.push({ generation, rung: r + 1, steps, candidateId: s.candidateId, success: s.success, progress: s.progress ?? null, meanReturn: o?.progress ?? null, old: keptOld.has(s.candidateId), now: keptNow.has(s.candidateId) });
    }
  });
}

if (process.argv.includes('--json')) {
  process.stdout.write(`${JSON.stringify({ task: task.id, searchId, rows })}\n`);
} else {
  const num = (x: number | null, d: number) => (x === null ? '-' : x.toFixed(d)).padStart(9);
  process.stdout.write(`${task.id} ${searchId}: progress is ${task.progress.label}\n`);
  process.stdout.write('gen rung    steps  success progress   return  old  new  candidate\n');
  for (const x of rows) {
    const mark = (kept: boolean) => (kept ? 'kept' : 'cut ');
    const change = x.old === x.now ? '' : '  <- changes';
    process.stdout.write(`${String(x.generation).padStart(3)} ${String(x.rung).padStart(4)} ${String(x.steps).padStart(8)} ${`${Math.round(100 * x.success)}%`.padStart(8)}` +
      `${num(x.progress, 2)}${num(x.meanReturn, 1)}  ${mark(x.old)} ${mark(x.now)}  ${x.candidateId}${change}\n`);
  }
}
