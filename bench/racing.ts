/**
 * `npm run bench:racing`: the same search raced and not (DESIGN §8: racing trains at most 0.4 of the
 * full search's steps, its winner's fresh success within 5 points of the full search's). Each search
 * runs end to end through the local runtime, offline proposer, the same randomSeed, into its own data
 * directory. Prints per task: the winner and its fresh success, stepsTrained / stepsFullBudget, wall
 * time, and how early the winner learned against the person's shaping (on the fresh seeds), the person's
 * fresh success and whether the winner beat the baselines.
 * Flags: --task ID (repeatable; default the classic-control tasks), --generations 3 --candidates 6
 * --seeds 3, --racing eta,rungs (repeatable; default the defaults), --random-seed 0, --no-full (only
 * the raced searches), --json. Each search is `eureka search` in a process of its own, as a user runs it.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { RewardSummary, SearchSummary } from '../functions/publish/summary.ts';
import { RACING_DEFAULTS } from '../infra/config.ts';
import { benchArgs } from './args.ts';

const CLI = new URL('../bin/eureka.js', import.meta.url).pathname;

const { values: args } = benchArgs(import.meta.url, {
  options: {
    task: { type: 'string', multiple: true }, generations: { type: 'string' }, candidates: { type: 'string' }, seeds: { type: 'string' },
    racing: { type: 'string', multiple: true }, 'random-seed': { type: 'string' }, 'no-full': { type: 'boolean' }, json: { type: 'boolean' },
  },
});
const number = (value: string | undefined, fallback: number): number => Number(value ?? fallback);
const tasks = args.task ?? ['MountainCar-v0', 'CartPole-v1', 'Acrobot-v1', 'Pendulum-v1', 'MountainCarContinuous-v0'];
const racings: Array<{ eta: number; rungs: number } | false> = [
  ...(args.racing !== undefined ? args.racing.map((v) => { const [eta, rungs] = v.split(',').map(Number); return { eta, rungs }; }) : [RACING_DEFAULTS]),
  ...(args['no-full'] ? [] : [false as const]),
];
const shape = { generations: number(args.generations, 3), candidates: number(args.candidates, 6), seeds: number(args.seeds, 3), randomSeed: number(args['random-seed'], 0) };
const json = args.json === true;

interface Row {
  task: string; racing: string; winner: string; freshSuccess: number | null; freshReturn: number | null;
  stepsTrained: number; stepsFullBudget: number; seconds: number;
  winnerLearning: RewardSummary['freshLearning']; personLearning: RewardSummary['freshLearning'];
  /** The person's shaping on the same fresh seeds, and whether the winner ranked above the best baseline. */
  personFreshSuccess: number | null; beatsBaselines: boolean | null;
}
const rows: Row[] = [];

for (const task of tasks) {
  for (const racing of racings) {
    const dataDir = await mkdtemp(join(tmpdir(), 'eureka-racing-'));
    const started = performance.now();
    try {
      const racingFlags = racing === false ? ['--no-racing'] : ['--racing-eta', String(racing.eta), '--racing-rungs', String(racing.rungs)];
      const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'search', '--task', task, '--proposer', 'offline',
        '--generations', String(shape.generations), '--candidates', String(shape.candidates), '--seeds', String(shape.seeds),
        '--random-seed', String(shape.randomSeed), ...racingFlags, '--data-dir', dataDir, '--json'], { maxBuffer: 1 << 26, env: { ...process.env, ANTHROPIC_API_KEY: '' } });
      const { cardPath } = JSON.parse(stdout) as { cardPath: string };
      const summary = JSON.parse(await readFile(cardPath.replace(/card\.html$/, 'summary.json'), 'utf8')) as SearchSummary;
      const person = summary.baselines.find((b) => b.candidateId === 'human_shaping');
      if (summary.winner === null) throw new Error(`${task}: ${summary.nothingTrained}`);
      const row: Row = {
        task, racing: racing === false ? 'off' : `eta ${racing.eta}, ${racing.rungs} rungs`, winner: summary.winner.name,
        freshSuccess: summary.winner.freshSuccess, freshReturn: summary.winner.freshReturn,
        stepsTrained: summary.stepsTrained, stepsFullBudget: summary.stepsFullBudget, seconds: (performance.now() - started) / 1000,
        winnerLearning: summary.winner.freshLearning, personLearning: person?.freshLearning ?? null,
        personFreshSuccess: person?.freshSuccess ?? null, beatsBaselines: summary.beatsBaselines,
      };
      rows.push(row);
      if (!json) process.stdout.write(`${line(row)}\n`);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }
}
if (json) process.stdout.write(`${JSON.stringify(rows)}\n`);

function line(r: Row): string {
  const pct = (x: number | null) => (x === null ? '-' : `${Math.round(x * 100)}%`);
  const learn = (l: Row['winnerLearning']) => (l === null ? '-' : `area ${l.trainSuccessArea?.toFixed(2) ?? '-'}, half at ${l.stepsToHalfSuccess ?? 'never'}`);
  return `${r.task.padEnd(26)} racing ${r.racing.padEnd(16)} winner ${r.winner.padEnd(28)} fresh ${pct(r.freshSuccess).padStart(4)} ` +
    `(return ${r.freshReturn?.toFixed(1) ?? '-'})  steps ${(r.stepsTrained / r.stepsFullBudget).toFixed(2)} of full ` +
    `(${r.stepsTrained.toLocaleString('en-US')} / ${r.stepsFullBudget.toLocaleString('en-US')})  ${r.seconds.toFixed(0)} s  ` +
    `winner ${learn(r.winnerLearning)}; person fresh ${pct(r.personFreshSuccess)}, ${learn(r.personLearning)}; beats baselines ${r.beatsBaselines ?? '-'}`;
}
