/**
 * Ant-v5's success test before and after issue 43, on the same greedy episodes: before, the
 * torso's observed x velocity after each step integrated by the trapezoid rule; since, the torso's
 * recorded x (qpos[0]) at the end less at the start. Trains Gymnasium's reward (the task's
 * environment reward file) at the task's budget on each seed, grades as the search does, and prints
 * per seed both success shares and how far the two measures part on its episodes.
 *
 *   npx tsx bench/ant-success-change.ts --seeds 0,1,2,3,4 [--reward environment|human] [--json]
 */
import { runSeed } from '../functions/train-seed/seed-run.ts';
import { grade } from '../functions/train-seed/grade.ts';
import type { Episode } from '../tasks/contract.ts';
import { stayedHealthy } from '../tasks/mujoco-common/healthy-episode.ts';
import { DT, SUCCESS_METRES } from '../tasks/ant/task.ts';
import { prepareTask } from '../tasks/registry.ts';
import { benchArgs } from './args.ts';

const { values: args } = benchArgs(import.meta.url, { options: { seeds: { type: 'string' }, reward: { type: 'string' }, json: { type: 'boolean' } } });
const seeds = (args.seeds ?? '0,1,2,3,4').split(',').map(Number);
const reward = args.reward === 'human' ? 'human' : 'environment';
const task = await prepareTask('Ant-v5');

/** The measure before issue 43: observation 13 after each step, integrated over the 0.05 s steps. */
function integratedVelocity(e: Episode): number {
  let metres = 0;
  for (let t = 1; t <= e.length; t++) metres += ((e.observations[(t - 1) * e.obsSize + 13] + e.observations[t * e.obsSize + 13]) / 2) * DT;
  return metres;
}

const rows = [];
for (const seed of seeds) {
  const { result, policy } = await runSeed({ task, candidateId: reward, source: task.baselines[reward].code, seed, budget: { steps: task.budget.steps, evalEpisodes: task.budget.evalEpisodes } });
  if (!policy) throw new Error(`seed ${seed}: ${result.outcome}: ${result.reason}`);
  const seen: Episode[] = [];
  grade({ ...task, success: { ...task.success, test: (e: Episode) => (seen.push(e), task.success.test(e)) } }, policy.network, policy.theta, seed, task.budget.evalEpisodes);
  const before = seen.map((e) => stayedHealthy(e, task.maxEpisodeSteps) && integratedVelocity(e) >= SUCCESS_METRES);
  const now = seen.map((e) => task.success.test(e));
  const gaps = seen.map((e) => integratedVelocity(e) - task.progress.measure(e));
  const row = {
    seed, episodes: seen.length, successBefore: before.filter(Boolean).length / seen.length, successNow: now.filter(Boolean).length / seen.length,
    flipped: seen.flatMap((_, i) => (before[i] !== now[i] ? [i] : [])),
    metresNow: seen.map((e) => Number(task.progress.measure(e).toFixed(2))), gapMean: gaps.reduce((a, b) => a + b, 0) / gaps.length, gapMax: Math.max(...gaps.map(Math.abs)),
    seconds: result.wallSeconds,
  };
  rows.push(row);
  if (!args.json) {
    process.stdout.write(`seed ${seed}: success before ${(100 * row.successBefore).toFixed(0)}%, now ${(100 * row.successNow).toFixed(0)}%` +
      `${row.flipped.length > 0 ? ` (episodes ${row.flipped.join(', ')} changed)` : ''}; integrated velocity less displacement: mean ${row.gapMean.toFixed(3)} m, ` +
      `largest ${row.gapMax.toFixed(3)} m; metres ${row.metresNow.join(' ')} (${row.seconds.toFixed(0)} s)\n`);
  }
}
if (args.json) process.stdout.write(`${JSON.stringify(rows)}\n`);
