/**
 * The medium offline searches of the MuJoCo tasks (issue 34): for each task, one raced search with
 * the offline proposer (G=3, K=6, S=3 by default, the racing defaults, 5 fresh seeds), run end to
 * end as a user runs it (`eureka search` in a process of its own), one task after another: these
 * take hours at the tasks' default budgets. Prints, per task, the winner's fresh success and
 * return beside Gymnasium's reward's (the environment's reward file) and the person's shaping's on
 * the same fresh seeds (and their progress), per fresh seed, with the steps trained and the wall time; and appends each
 * task's row to --out (JSON lines) as it finishes, so a run cut short keeps what it finished.
 *
 * `npx tsx bench/mujoco-searches.ts --task Swimmer-v5 [--task ...]` (default: every MuJoCo task).
 * Flags: --generations 3 --candidates 6 --seeds 3 --fresh-seeds 5 --random-seed 0, --steps N (a
 * budget other than the task's), --data-dir DIR (kept, one directory per task: the cards and
 * results stay for reading; default a temporary directory, removed), --out FILE, --json.
 * A task whose search is already in --data-dir (a run killed, or a session that ended) is resumed:
 * nothing it finished is trained again, so the hours can be spread over several runs.
 */
import { execFile } from 'node:child_process';
import { access, appendFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { RewardSummary, SearchSummary } from '../functions/publish/summary.ts';
import { benchArgs } from './args.ts';
import { mujocoTasks } from './mujoco-speed.ts';

const CLI = new URL('../bin/eureka.js', import.meta.url).pathname;
const { values: args } = benchArgs(import.meta.url, {
  options: {
    task: { type: 'string', multiple: true }, generations: { type: 'string' }, candidates: { type: 'string' }, seeds: { type: 'string' },
    'fresh-seeds': { type: 'string' }, 'random-seed': { type: 'string' }, steps: { type: 'string' }, 'data-dir': { type: 'string' },
    out: { type: 'string' }, json: { type: 'boolean' },
  },
});
const number = (value: string | undefined, fallback: number): number => Number(value ?? fallback);
const shape = {
  generations: number(args.generations, 3), candidates: number(args.candidates, 6), seeds: number(args.seeds, 3),
  freshSeeds: number(args['fresh-seeds'], 5), randomSeed: number(args['random-seed'], 0), steps: number(args.steps, 0),
};
const json = args.json === true;
const keptDir = args['data-dir'];
const out = args.out;

/** One reward's scores on the fresh seeds. */
interface Fresh { name: string; success: number | null; progress: number | null; return: number | null; perSeed: Array<{ seed: number; success: number; progress: number | null }> }
interface Row {
  task: string; searchId: string; winner: Fresh; environment: Fresh | null; person: Fresh | null;
  beatsBaselines: boolean | null; stepsTrained: number; stepsFullBudget: number;
  /** Wall time of this run; a resumed search's earlier runs are not in it. */
  seconds: number; resumed: boolean; dataDir: string | null;
}

const fresh = (r: RewardSummary | undefined): Fresh | null => (r === undefined ? null : {
  name: r.name, success: r.freshSuccess, progress: r.freshProgress, return: r.freshReturn,
  perSeed: r.freshSeeds.map((s) => ({ seed: s.seed, success: s.success, progress: s.progress ?? null })),
});

const all = (await mujocoTasks()).map(({ task, env }) => {
  env.dispose?.();
  return task.id;
});
const tasks = args.task ?? all;
for (const id of tasks) if (!all.includes(id)) throw new Error(`--task ${id}: not a MuJoCo task (${all.join(', ')})`);

const rows: Row[] = [];
for (const task of tasks) {
  const dataDir = keptDir ? join(keptDir, task) : await mkdtemp(join(tmpdir(), 'eureka-mujoco-search-'));
  await mkdir(dataDir, { recursive: true });
  const started = performance.now();
  try {
    const searchId = `medium-${task.toLowerCase()}-${shape.randomSeed}`;
    const begun = await access(join(dataDir, 'processes', `${searchId}.json`)).then(() => true, () => false);
    const what = begun ? ['--resume', searchId] : ['--task', task, '--proposer', 'offline',
      '--generations', String(shape.generations), '--candidates', String(shape.candidates), '--seeds', String(shape.seeds),
      '--fresh-seeds', String(shape.freshSeeds), '--random-seed', String(shape.randomSeed), ...(shape.steps > 0 ? ['--steps', String(shape.steps)] : []),
      '--search-id', searchId];
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'search', ...what, '--data-dir', dataDir, '--json'],
      { maxBuffer: 1 << 26, env: { ...process.env, ANTHROPIC_API_KEY: '' } });
    const { cardPath } = JSON.parse(stdout) as { cardPath: string };
    const summary = JSON.parse(await readFile(cardPath.replace(/card\.html$/, 'summary.json'), 'utf8')) as SearchSummary;
    if (summary.winner === null) throw new Error(`${task}: ${summary.nothingTrained}`);
    const row: Row = {
      task, searchId, winner: fresh(summary.winner)!,
      environment: fresh(summary.baselines.find((b) => b.candidateId === 'environment_reward')),
      person: fresh(summary.baselines.find((b) => b.candidateId === 'human_shaping')),
      beatsBaselines: summary.beatsBaselines, stepsTrained: summary.stepsTrained, stepsFullBudget: summary.stepsFullBudget,
      seconds: (performance.now() - started) / 1000, resumed: begun, dataDir: keptDir ? dataDir : null,
    };
    rows.push(row);
    if (out) await appendFile(out, `${JSON.stringify(row)}\n`);
    if (!json) process.stdout.write(`${line(row)}\n`);
  } finally {
    if (!keptDir) await rm(dataDir, { recursive: true, force: true });
  }
}
if (json) process.stdout.write(`${JSON.stringify(rows)}\n`);

function line(r: Row): string {
  const pct = (x: number | null | undefined) => (x === null || x === undefined ? '-' : `${Math.round(x * 100)}%`);
  const one = (label: string, f: Fresh | null) => (f === null ? `${label} -` :
    `${label} ${pct(f.success)} (progress ${f.progress?.toFixed(2) ?? '-'}, return ${f.return?.toFixed(1) ?? '-'}; per seed ${f.perSeed.map((s) => `${s.seed}:${pct(s.success)}`).join(' ')})`);
  return `${r.task.padEnd(26)} ${one(`winner ${r.winner.name}`, r.winner)}\n${''.padEnd(27)}${one('Gymnasium\'s reward', r.environment)}\n` +
    `${''.padEnd(27)}${one('the person\'s shaping', r.person)}\n${''.padEnd(27)}beats the baselines ${r.beatsBaselines ?? '-'}; ` +
    `steps ${r.stepsTrained.toLocaleString('en-US')} of ${r.stepsFullBudget.toLocaleString('en-US')} without racing (${(r.stepsTrained / r.stepsFullBudget).toFixed(2)}); ${(r.seconds / 3600).toFixed(2)} h${r.resumed ? ' (this run; resumed)' : ''}`;
}
