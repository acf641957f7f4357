/**
 * What each reward pays on the first policies' steps, before PPO has learned anything: the sandbox
 * check's `firstSteps` (4,096 steps with actions drawn as the untrained policy draws them: a mean
 * near 0 and a standard deviation of 1, clipped by the environment; a softmax near uniform), on a
 * step that goes on and on one that ends the episode. Where failing ends the episode, a reward whose
 * going-on steps pay below zero pays the first policies to end it; the trap a model's answers fell
 * into on Ant-TurnInPlace-v0 (docs/behaviours.md).
 *
 *   npx tsx bench/first-steps-pay.ts --task ID [--baselines] [--seed 0] [--json] FILE...
 *
 * FILE: a files proposer's answer (`answer-N.json`: every candidate in it) or a reward `.js` file.
 * `--baselines` adds the task's own two.
 */
import { basename } from 'node:path';
import { checkReward } from '../functions/train-seed/check-reward.ts';
import type { FirstStepsPay } from '../functions/shared/search/types.ts';
import { prepareTask, UnknownTask } from '../tasks/registry.ts';
import { rewardsIn } from './answers.ts';
import { argError, benchArgs } from './args.ts';

const { values, positionals } = benchArgs(import.meta.url, {
  options: { task: { type: 'string' }, baselines: { type: 'boolean' }, seed: { type: 'string' }, json: { type: 'boolean' } },
  allowPositionals: true,
});
if (values.task === undefined) argError(import.meta.url, 'needs --task ID');

const task = await prepareTask(values.task).catch((error: unknown) => {
  if (error instanceof UnknownTask) argError(import.meta.url, error.message);
  throw error;
});
// An answer's candidates named after their file (`answer-1:name`), as several answers may share names.
const rewards = positionals.flatMap((file) => rewardsIn(import.meta.url, file).map((r) => ({
  ...r, name: file.endsWith('.json') ? `${basename(file, '.json')}:${r.name}` : r.name,
})));
if (values.baselines) rewards.push(...Object.entries(task.baselines).map(([name, source]) => ({ name: `baseline:${name}`, idea: source.idea, code: source.code })));
if (rewards.length === 0) argError(import.meta.url, 'give at least one FILE, or --baselines');

const pays: Array<{ name: string; pay: FirstStepsPay | null; fault?: string }> = [];
for (const reward of rewards) {
  const check = await checkReward(task, reward.code, { screen: false, seed: Number(values.seed ?? 0) });
  pays.push({ name: reward.name, pay: check.firstSteps, ...(check.verdict === 'ok' ? {} : { fault: check.reason }) });
}
const below = pays.filter((p) => p.pay?.goingOn != null && p.pay.goingOn < 0).length;
if (values.json) {
  process.stdout.write(`${JSON.stringify({ task: task.id, termination: task.termination, pays, belowZero: below })}\n`);
} else {
  const f = (x: number | null | undefined) => (x == null ? '-' : x.toFixed(3));
  process.stdout.write(`${task.id} (episodes end early: ${task.termination}), the check's random steps\n`);
  process.stdout.write('reward | a step that goes on | a step that ends it (how many)\n');
  for (const p of pays) process.stdout.write(`${p.name} | ${f(p.pay?.goingOn)} | ${f(p.pay?.ending)} (${p.pay?.endings ?? 0})${p.fault ? ` | ${p.fault}` : ''}\n`);
  process.stdout.write(`${below} of ${pays.length} pay below zero on a step that goes on\n`);
}
