/**
 * The two figures of a task's budget that only the estimate reads, fitted to finished searches:
 * `raceSurvival` (the share of candidates still in after a rung) and `stepsPerSecond` (a seed-run's
 * speed on one idle core; it also sizes the chunks). For each search found under the data
 * directories given (each search's `summary.json`, as `bench/mujoco-searches.ts` leaves them):
 *
 * - the raced steps it trained, against the estimate's with the task's recorded survival and with
 *   the survival (on a 0.05 grid) whose estimate comes nearest;
 * - its seed-runs' speed: the steps it trained over the seconds its seed-runs took, two at once
 *   on the 2-core machine, and that over LOCAL_CONCURRENT_SPEED (the one-idle-core speed a task
 *   records), against the task's recorded speed;
 * - the wall time and GB-seconds the estimate gives with the recorded figures, against the actual
 *   (the GB-seconds are the card's: its seed-runs' seconds at TrainSeed's memory).
 *
 *   npx tsx bench/estimate-fit.ts DIR [DIR ...]
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FUNCTION_CAPS } from '../infra/config.ts';
import { estimateSearch, LOCAL_CONCURRENT_SPEED } from '../functions/shared/cost/estimate.ts';
import type { SearchSummary } from '../functions/publish/summary.ts';
import type { SearchSettings } from '../functions/shared/search/contracts.ts';
import type { Task } from '../tasks/contract.ts';
import { getTask } from '../tasks/registry.ts';
import { benchArgs } from './args.ts';

/** A search's summary.json; its config is the whole of the search's settings, which the estimate reads. */
type Summary = Omit<SearchSummary, 'config'> & { config: SearchSettings };

/** Every finished search's summary.json under `dir` (a data directory, or one holding data directories). */
function summaries(dir: string): Summary[] {
  const found: Summary[] = [];
  const searches = join(dir, 'bucket', 'searches');
  if (existsSync(searches)) {
    for (const id of readdirSync(searches)) {
      const file = join(searches, id, 'winner', 'summary.json');
      if (existsSync(file)) found.push(JSON.parse(readFileSync(file, 'utf8')) as Summary);
    }
  } else if (existsSync(dir)) {
    for (const sub of readdirSync(dir, { withFileTypes: true })) if (sub.isDirectory()) found.push(...summaries(join(dir, sub.name)));
  }
  return found;
}

const MACHINE = { cores: 2, region: 'us-east-1', firstPromptChars: null };
const MEMORY_GB = FUNCTION_CAPS.trainSeed.memoryMb / 1024;
const withBudget = (task: Task, budget: Partial<Task['budget']>): Task => ({ ...task, budget: { ...task.budget, ...budget } });
const round = (x: number, digits = 2) => Number(x.toPrecision(digits));

// No flags but --help: the data directories are its arguments.
const { positionals: dirs } = benchArgs(import.meta.url, { options: {}, allowPositionals: true });

for (const s of dirs.flatMap(summaries)) {
  const task = getTask(s.task);
  const recorded = estimateSearch(s.config, task, MACHINE);
  const local = recorded.local!; // never null: MACHINE names its cores
  const grid = Array.from({ length: 21 }, (_, i) => i / 20);
  const fits = grid.map((survival) => ({ survival, raced: estimateSearch(s.config, withBudget(task, { raceSurvival: survival }), MACHINE).steps.raced }));
  const best = fits.reduce((a, b) => (Math.abs(b.raced - s.stepsTrained) < Math.abs(a.raced - s.stepsTrained) ? b : a));
  const concurrent = s.stepsTrained / s.seedRunSeconds;
  const wall = (Date.parse(s.finishedAt) - Date.parse(s.startedAt)) / 1000;
  const pct = (e: number, a: number) => `${e >= a ? '+' : ''}${Math.round((100 * (e - a)) / a)}%`;
  console.log(`${s.task} (${s.searchId}, G=${s.config.generations} K=${s.config.candidates} S=${s.config.seeds})`);
  console.log(`  raced steps: actual ${s.stepsTrained.toLocaleString('en-US')} of ${s.stepsFullBudget.toLocaleString('en-US')}; estimate ${recorded.steps.raced.toLocaleString('en-US')} (recorded survival ${recorded.steps.raceSurvival}, ${pct(recorded.steps.raced, s.stepsTrained)}); nearest: survival ${best.survival} gives ${best.raced.toLocaleString('en-US')} (${pct(best.raced, s.stepsTrained)})`);
  console.log(`  speed: ${Math.round(concurrent)} steps per seed-run-second two at once, ${Math.round(concurrent / LOCAL_CONCURRENT_SPEED)} as one idle core (/${LOCAL_CONCURRENT_SPEED}); recorded ${task.budget.stepsPerSecond ?? 'none'}`);
  const gbSeconds = s.seedRunSeconds * MEMORY_GB;
  console.log(`  with the recorded figures: wall ${Math.round(local.seconds)} s against ${Math.round(wall)} s from start to end, a pause included (${pct(local.seconds, wall)});`);
  console.log(`  GB-seconds ${Math.round(local.gbSeconds)} against ${Math.round(gbSeconds)} (${pct(local.gbSeconds, gbSeconds)}); suggested stepsPerSecond ${round(concurrent / LOCAL_CONCURRENT_SPEED)}`);
}
