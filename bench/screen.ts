/**
 * `npm run bench:screen`: the screen of issue 24, per task. The bank's size; the person's shaping's
 * and the environment's reward's AUC on it; the milliseconds the screen adds to a check (the median
 * of --runs checks with it and without it, taken in turn); and each deliberately wrong reward of
 * test/fixtures/wrong-rewards/ with what the screen said of it. Flags: --task ID (repeatable),
 * --runs 5, --json.
 */
import { statSync } from 'node:fs';
import { bankFile, loadBank } from '../tasks/bank-file.ts';
import { TASKS } from '../tasks/registry.ts';
import type { Task } from '../tasks/contract.ts';
import { checkReward } from '../functions/train-seed/check-reward.ts';
import type { Screen } from '../functions/shared/search/screen-types.ts';
import { failing, missing, wrongRewards } from '../test/support/wrong-rewards.ts';
import { benchArgs } from './args.ts';

const { values: args } = benchArgs(import.meta.url, { options: { task: { type: 'string', multiple: true }, runs: { type: 'string' }, json: { type: 'boolean' } } });
const wanted = args.task ?? [];
const runs = Number(args.runs ?? 5) || 5;
const json = args.json === true;
const tasks = TASKS.filter((t) => wanted.length === 0 || wanted.includes(t.id));

async function screenOf(task: Task, source: string): Promise<Screen> {
  const result = await checkReward(task, source);
  if (!result.screen) throw new Error(`${task.id}: ${result.verdict}: ${result.reason}`);
  return result.screen;
}

/** Median milliseconds of a check with the screen and without it, the two taken in turn. */
async function checkMs(task: Task, source: string): Promise<{ with: number; without: number }> {
  const timed = async (screen: boolean) => {
    const t0 = performance.now();
    await checkReward(task, source, { screen });
    return performance.now() - t0;
  };
  const withScreen: number[] = [];
  const without: number[] = [];
  await timed(true);
  for (let i = 0; i < runs; i++) {
    withScreen.push(await timed(true));
    without.push(await timed(false));
  }
  return { with: median(withScreen), without: median(without) };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const rows = [];
for (const task of tasks) {
  await task.prepare?.();
  const bank = loadBank(task);
  const human = await screenOf(task, task.baselines.human.code);
  const environment = await screenOf(task, task.baselines.environment.code);
  const ms = await checkMs(task, task.baselines.human.code);
  const wrong = [];
  for (const w of wrongRewards(task.id)) {
    const screen = await screenOf(task, w.source);
    wrong.push({ file: w.file, expect: w.expect.map((e) => (e.policy ? `${e.code}:${e.policy}` : e.code)).join(' '),
      auc: screen.auc, fails: failing(screen), missing: missing(screen, w.expect) });
  }
  const row = {
    task: task.id, episodes: bank.episodes.length, successes: human.bank.successes, transitions: human.bank.transitions,
    kib: Math.round(statSync(bankFile(task)).size / 1024), humanAuc: human.auc, humanFails: failing(human),
    environmentAuc: environment.auc, environmentFails: failing(environment),
    checkMs: ms.without, screenMs: ms.with - ms.without, wrong,
  };
  rows.push(row);
  if (!json) {
    const f = (x: number | null) => (x === null ? '-' : x.toFixed(3));
    console.log(`${row.task}: bank ${row.episodes} episodes (${row.successes} successes), ${row.transitions} transitions, ${row.kib} KiB; ` +
      `AUC person ${f(row.humanAuc)}${row.humanFails.length ? ` (fails: ${row.humanFails})` : ''}, environment ${f(row.environmentAuc)}${row.environmentFails.length ? ` (fails: ${row.environmentFails})` : ''}; ` +
      `check ${row.checkMs.toFixed(0)} ms, screen adds ${row.screenMs.toFixed(0)} ms`);
    for (const w of wrong) console.log(`  ${w.file}: expect ${w.expect}; AUC ${f(w.auc)}; fails ${w.fails.join(',') || '-'}${w.missing.length ? `; MISSING ${w.missing.join(', ')}` : ''}`);
  }
}
if (json) console.log(JSON.stringify(rows, null, 2));
