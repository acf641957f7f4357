/**
 * What each reward pays on the first policies' steps, before PPO has learned anything: the sandbox
 * check's `firstSteps` (4,096 steps with actions drawn as the untrained policy draws them: a mean
 * near 0 and a standard deviation of 1, clipped by the environment; a softmax near uniform), on a
 * step that goes on and on one that ends the episode. Where failing ends the episode, a reward whose
 * going-on steps pay below zero pays the first policies to end it; the trap a model's answers fell
 * into on Ant-TurnInPlace-v0 (docs/behaviours.md).
 *
 *   npx tsx bench/first-steps-pay.ts --task ID [--baselines] [--seed 0] [--json] FILE...
 *   npx tsx bench/first-steps-pay.ts --task ID --data-dir DIR --search-id ID [--json]
 *
 * FILE: a files proposer's answer (`answer-N.json`: every candidate in it) or a reward `.js` file.
 * `--baselines` adds the task's own two. `--data-dir` and `--search-id`: every candidate a local
 * search trained (its baselines too), each beside how long its seed-runs' training episodes lasted
 * (search-episodes.ts): whether a reward that pays below zero going on did end its episodes sooner.
 */
import { basename } from 'node:path';
import { checkReward } from '../functions/train-seed/check-reward.ts';
import type { FirstStepsPay } from '../functions/shared/search/types.ts';
import { prepareTask, UnknownTask } from '../tasks/registry.ts';
import { rewardsIn } from './answers.ts';
import { searchCandidates, type SearchCandidate } from './search-episodes.ts';
import { argError, benchArgs } from './args.ts';

const { values, positionals } = benchArgs(import.meta.url, {
  options: { task: { type: 'string' }, baselines: { type: 'boolean' }, seed: { type: 'string' }, json: { type: 'boolean' }, 'data-dir': { type: 'string' }, 'search-id': { type: 'string' } },
  allowPositionals: true,
});
if (values.task === undefined) argError(import.meta.url, 'needs --task ID');
if ((values['data-dir'] === undefined) !== (values['search-id'] === undefined)) argError(import.meta.url, '--data-dir and --search-id go together');

const task = await prepareTask(values.task).catch((error: unknown) => {
  if (error instanceof UnknownTask) argError(import.meta.url, error.message);
  throw error;
});
// An answer's candidates named after their file (`answer-1:name`), as several answers may share names.
const rewards = positionals.flatMap((file) => rewardsIn(import.meta.url, file).map((r) => ({
  ...r, name: file.endsWith('.json') ? `${basename(file, '.json')}:${r.name}` : r.name,
})));
if (values.baselines) rewards.push(...Object.entries(task.baselines).map(([name, source]) => ({ name: `baseline:${name}`, idea: source.idea, code: source.code })));
const searched = values['data-dir'] === undefined ? [] : await searchCandidates(values['data-dir'], values['search-id'] as string).catch((error: Error) => argError(import.meta.url, error.message));
rewards.push(...searched.map((c) => ({ name: `g${c.generation}:${c.candidateId}`, idea: '', code: c.code })));
const trainedOf = new Map<string, SearchCandidate>(searched.map((c) => [`g${c.generation}:${c.candidateId}`, c]));
if (rewards.length === 0) argError(import.meta.url, 'give at least one FILE, or --baselines');

const pays: Array<{ name: string; pay: FirstStepsPay | null; fault?: string; trained?: SearchCandidate['lengths'] }> = [];
for (const reward of rewards) {
  const check = await checkReward(task, reward.code, { screen: false, seed: Number(values.seed ?? 0) });
  const trained = trainedOf.get(reward.name)?.lengths;
  pays.push({ name: reward.name, pay: check.firstSteps, ...(check.verdict === 'ok' ? {} : { fault: check.reason }), ...(trained ? { trained } : {}) });
}
const belowZero = (p: (typeof pays)[number]) => p.pay?.goingOn != null && p.pay.goingOn < 0;
const below = pays.filter(belowZero).length;
// A seed-run "ended its episodes sooner" when they were shorter at the first rung than in its first rollouts.
const sooner = (p: (typeof pays)[number]) => (p.trained ?? []).filter(([first, rung]) => first !== null && rung !== null && rung < first).length;
const tally = (side: Array<(typeof pays)[number]>) => `${side.reduce((n, p) => n + sooner(p), 0)} of ${side.reduce((n, p) => n + (p.trained?.length ?? 0), 0)} seed-runs`;
if (values.json) {
  process.stdout.write(`${JSON.stringify({ task: task.id, termination: task.termination, pays, belowZero: below, ...(searched.length > 0 ? { rungStep: searched[0].rungStep } : {}) })}\n`);
} else {
  const f = (x: number | null | undefined) => (x == null ? '-' : x.toFixed(3));
  const len = (x: number | null) => (x === null ? '-' : x.toFixed(0));
  process.stdout.write(`${task.id} (episodes end early: ${task.termination}), the check's random steps\n`);
  const trainedHead = searched.length === 0 ? '' : ` | training episodes a seed-run: first rollouts > step ${searched[0].rungStep.toLocaleString('en-US')} > last`;
  process.stdout.write(`reward | a step that goes on | a step that ends it (how many)${trainedHead}\n`);
  for (const p of pays) {
    const lengths = p.trained ? ` | ${p.trained.map(([a, b, c]) => `${len(a)}>${len(b)}>${len(c)}`).join(' ')}` : '';
    process.stdout.write(`${p.name} | ${f(p.pay?.goingOn)} | ${f(p.pay?.ending)} (${p.pay?.endings ?? 0})${p.fault ? ` | ${p.fault}` : ''}${lengths}\n`);
  }
  process.stdout.write(`${below} of ${pays.length} pay below zero on a step that goes on\n`);
  if (searched.length > 0) {
    const trained = pays.filter((p) => p.trained !== undefined);
    process.stdout.write(`episodes shorter at step ${searched[0].rungStep.toLocaleString('en-US')} than at the start: ` +
      `${tally(trained.filter(belowZero))} of the rewards below zero, ${tally(trained.filter((p) => !belowZero(p)))} of the others\n`);
  }
}
