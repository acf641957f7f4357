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
import { argError, benchArgs } from './args.ts';

const { values: args, positionals } = benchArgs(import.meta.url, { options: { json: { type: 'boolean' } }, allowPositionals: true });
const [dataDir, searchId] = positionals;
if (!dataDir || !searchId) argError(import.meta.url, 'needs DATA_DIR SEARCH_ID');
if (positionals.length > 2) argError(import.meta.url, `unexpected argument '${positionals[2]}'`);
const root = join(dataDir, 'bucket', 'searches', searchId);
const list = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir) : []);
const read = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

/** Every stored seed result of the search (rung results and results at the budget), with where it lies. */
const stored = list(join(root, 'generations')).map(Number).filter((g) => g > 0).flatMap((generation) =>
  list(join(root, 'generations', String(generation), 'candidates')).flatMap((c) =>
    list(join(root, 'generations', String(generation), 'candidates', c, 'seeds')).flatMap((seed) => {
      const dir = join(root, 'generations', String(generation), 'candidates', c, 'seeds', seed);
      const rungs = list(join(dir, 'rungs')).map((f) => ({ file: join(dir, 'rungs', f), steps: Number(f.replace('.json', '')) }));
      const budget = existsSync(join(dir, 'result.json')) ? [{ file: join(dir, 'result.json'), steps: Number.NaN }] : [];
      return [...rungs, ...budget].map((r) => ({ generation, candidateId: c, ...r }));
    })));
if (stored.length === 0) throw new Error(`no seed results under ${root}`);
// What the search was: its task from a result, its racing from summary.json where it finished, else from the rungs' steps.
const first = read<SeedResult>(stored[0].file);
const task = getTask(first.task);
const summaryFile = join(root, 'winner', 'summary.json');
const summary = existsSync(summaryFile) ? read<{ config: { evalEpisodes: number; steps: number; racing: false | { eta: number } } }>(summaryFile) : null;
const budget = summary?.config.steps ?? first.steps;
const rungSteps = [...new Set(stored.map((s) => s.steps).filter((x) => Number.isFinite(x)))].sort((a, b) => a - b);
if (summary?.config.racing === false || rungSteps.length === 0) throw new Error(`${searchId} did not race`);
const eta = summary?.config.racing ? summary.config.racing.eta : Math.round((rungSteps[1] ?? budget) / rungSteps[0]);
const evalEpisodes = summary?.config.evalEpisodes ?? task.budget.evalEpisodes;

interface Row {
  generation: number; rung: number; steps: number; candidateId: string; success: number; progress: number | null; meanReturn: number | null;
  /** Kept by each order (at the budget: nobody goes on; the places say the order). */
  old: boolean; now: boolean; last: boolean; oldPlace: number; nowPlace: number;
}
const rows: Row[] = [];

for (const generation of [...new Set(stored.map((s) => s.generation))].sort((a, b) => a - b)) {
  [...rungSteps, budget].forEach((steps, r) => {
    const here = stored.filter((s) => s.generation === generation && (Number.isNaN(s.steps) ? steps === budget : s.steps === steps));
    const results: SeedSummary[] = here.map((s) => summarize(read<SeedResult>(s.file)));
    const trained = results.filter((s) => s.outcome === 'trained' || s.outcome === 'stopped').map((s) => ({ ...s, outcome: 'trained' as const }));
    if (trained.length === 0) return;
    const now = rank(trained, [], task.tieBreak, generation, evalEpisodes).filter((s) => s.trainedSeeds > 0);
    const old = rank(trained.map((s) => ({ ...s, progress: s.meanReturn })), [], task.tieBreak, generation, evalEpisodes).filter((s) => s.trainedSeeds > 0);
    const last = steps === budget;
    const [keptNow, keptOld] = last ? [new Set<string>(), new Set<string>()] : [goingOn(now, eta), goingOn(old, eta)];
    for (const s of now) {
      const o = old.find((x) => x.candidateId === s.candidateId);
      rows.push({ generation, rung: r + 1, steps, candidateId: s.candidateId, success: s.success, progress: s.progress ?? null, meanReturn: o?.progress ?? null,
        old: keptOld.has(s.candidateId), now: keptNow.has(s.candidateId), last, oldPlace: old.indexOf(o!) + 1, nowPlace: now.indexOf(s) + 1 });
    }
  });
}

if (args.json) {
  process.stdout.write(`${JSON.stringify({ task: task.id, searchId, eta, rows })}\n`);
} else {
  const num = (x: number | null, d: number) => (x === null ? '-' : x.toFixed(d)).padStart(9);
  process.stdout.write(`${task.id} ${searchId}: progress is ${task.progress.label}\n`);
  process.stdout.write('gen rung    steps  success progress   return  old (place)  new (place)  candidate\n');
  for (const x of rows) {
    const mark = (kept: boolean, place: number) => `${x.last ? 'rank' : kept ? 'kept' : 'cut '} (${place})`.padEnd(11);
    const change = x.old === x.now ? '' : '  <- changes';
    process.stdout.write(`${String(x.generation).padStart(3)} ${String(x.rung).padStart(4)} ${String(x.steps).padStart(8)} ${`${Math.round(100 * x.success)}%`.padStart(8)}` +
      `${num(x.progress, 2)}${num(x.meanReturn, 1)}  ${mark(x.old, x.oldPlace)}  ${mark(x.now, x.nowPlace)}  ${x.candidateId}${change}\n`);
  }
}
