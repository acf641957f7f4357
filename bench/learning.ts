/**
 * `npm run bench:learning`: each task's learning table at its default budget (DESIGN §8): the
 * person's shaping and the environment's own reward, trained on 5 seeds each and graded on the
 * task's success test. The test suite checks shorter runs on fewer seeds to keep CI short.
 * Flags: --task ID (repeatable; default every task), --seeds 0,1,2 (default 0-4), --reward human
 * or environment (repeatable; default both: the LunarLanders' two are the same function),
 * --ppo '{"numMinibatches":32}' (PPO settings over the task's own, to measure a change),
 * --steps N (a budget other than the task's, to choose one), --sandbox-operations N (the sandbox's total QuickJS operations per seed-run, over the default
 * that grows with the steps: a count, so the same on any machine), --show-hidden (the policy also
 * sees the observation entries its task hides from it, to measure why they are hidden), --episodes
 * (each greedy evaluation episode's ending, progress and return, to choose a success line), --json.
 */
import { DEFAULT_PPO_CONFIG, type PpoOverrides } from '../core/ppo-config.ts';
import { runSeed } from '../functions/train-seed/seed-run.ts';
import { grade } from '../functions/train-seed/grade.ts';
import { BASELINE_NAMES, type BaselineName, type Episode, type Task } from '../tasks/contract.ts';
import { getTask, TASKS } from '../tasks/registry.ts';
import { argError, benchArgs } from './args.ts';

/** The PPO settings absent from the defaults unless set (core/ppo-config.ts), with a value of their type; declared before the top level reads them. */
const OPTIONAL_SETTINGS: Record<string, unknown> = { normObsTerminal: false };

const { values: args } = benchArgs(import.meta.url, {
  options: {
    task: { type: 'string', multiple: true }, seeds: { type: 'string' }, reward: { type: 'string', multiple: true }, ppo: { type: 'string' },
    steps: { type: 'string' }, 'sandbox-operations': { type: 'string' }, 'show-hidden': { type: 'boolean' }, episodes: { type: 'boolean' }, json: { type: 'boolean' },
  },
});
const seeds = (args.seeds ?? '0,1,2,3,4').split(',').map(Number);
const overrides = ppoOverrides(args.ppo);
const tasks: Task[] = (args.task !== undefined ? args.task.map(getTask) : [...TASKS])
  .map((task) => (overrides ? { ...task, ppo: { ...task.ppo, ...overrides } } : task))
  .map((task) => (args['show-hidden'] ? { ...task, observation: task.observation.map((d) => ({ ...d, hidden: false })) } : task));
const json = args.json === true;
const sandboxOperations = Number(args['sandbox-operations']);
/** --steps N: a budget other than the task's (to choose one). */
const stepsFlag = Number(args.steps);
const limits = sandboxOperations > 0 ? { totalOperations: sandboxOperations } : undefined;
const rewards = args.reward !== undefined ? args.reward.map((r) => {
  const reward = BASELINE_NAMES.find((x) => x === r);
  if (reward === undefined) argError(import.meta.url, `--reward ${r}: choose ${BASELINE_NAMES.join(' or ')}`);
  return reward;
}) : [...BASELINE_NAMES];

interface Row { task: string; reward: BaselineName; seed: number; steps: number; success: number; meanReturn: number | null; seconds: number }
const rows: Row[] = [];

for (const task of tasks) {
  for (const reward of rewards) {
    const source = task.baselines[reward].code;
    for (const seed of seeds) {
      const steps = stepsFlag > 0 ? stepsFlag : task.budget.steps;
      const { result, policy } = await runSeed({ task, candidateId: reward, source, seed, limits, budget: { steps, evalEpisodes: task.budget.evalEpisodes } });
      if (args.episodes && policy) process.stdout.write(`${episodeLines(task, policy, seed)}\n`);
      if (result.outcome !== 'trained') process.stderr.write(`${task.id} ${reward} seed ${seed}: ${result.outcome}: ${result.reason}\n`);
      const row = { task: task.id, reward, seed, steps, success: result.success, meanReturn: result.meanReturn, seconds: result.wallSeconds };
      rows.push(row);
      if (!json) {
        process.stdout.write(`${task.id.padEnd(26)} ${reward.padEnd(12)} seed ${seed}: success ${(row.success * 100).toFixed(0).padStart(3)}%, ` +
          `return ${row.meanReturn === null ? '-' : row.meanReturn.toFixed(1)} (${row.seconds.toFixed(1)} s)\n`);
      }
    }
  }
}

if (json) {
  process.stdout.write(`${JSON.stringify(rows)}\n`);
} else {
  process.stdout.write('\ntask                       reward       steps       success per seed          mean success  mean return  s/seed-run\n');
  for (const task of tasks) {
    for (const reward of rewards) {
      const mine = rows.filter((r) => r.task === task.id && r.reward === reward);
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
      const returns = mine.map((r) => r.meanReturn).filter((x): x is number => x !== null);
      process.stdout.write(`${task.id.padEnd(26)} ${reward.padEnd(12)} ${String(mine[0]?.steps ?? task.budget.steps).padStart(9)}   ` +
        `${mine.map((r) => `${Math.round(r.success * 100)}%`.padStart(4)).join(' ').padEnd(25)} ${`${Math.round(mean(mine.map((r) => r.success)) * 100)}%`.padStart(6)}` +
        `        ${mean(returns).toFixed(1).padStart(8)}     ${mean(mine.map((r) => r.seconds)).toFixed(1).padStart(6)}\n`);
    }
  }
}

/** --ppo's JSON: known settings only, each of its default's type. */
function ppoOverrides(text: string | undefined): PpoOverrides | undefined {
  if (text === undefined) return undefined;
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null) throw new Error(`--ppo ${text}: expected a JSON object`);
  for (const [key, value] of Object.entries(parsed)) {
    // The settings absent unless set (core/ppo-config.ts) are checked against their type here.
    const known = (DEFAULT_PPO_CONFIG as unknown as Record<string, unknown>)[key] ?? OPTIONAL_SETTINGS[key];
    if (known === undefined || key === 'seed' || key === 'totalTimesteps') throw new Error(`--ppo: ${key} is not a PPO setting a task may set`);
    if (typeof value !== typeof known) throw new Error(`--ppo: ${key} must be a ${typeof known}, got ${JSON.stringify(value)}`);
  }
  return parsed as PpoOverrides;
}

/** The grader's episodes again (the same seeds, so the same episodes), one line each: how it ended, the progress, the return. */
function episodeLines(task: Task, policy: NonNullable<Awaited<ReturnType<typeof runSeed>>['policy']>, seed: number): string {
  const seen: Episode[] = [];
  const probe = { ...task, success: { ...task.success, test: (e: Episode) => (seen.push(e), task.success.test(e)) } };
  grade(probe, policy.network, policy.theta, seed, task.budget.evalEpisodes);
  return seen.map((e, i) => `  episode ${i}: ${task.success.test(e) ? 'succeeded' : e.terminated ? 'terminated' : 'cut'} after ${e.length} steps, ` +
    `${task.progress.label} ${task.progress.measure(e).toFixed(2)}, return ${e.return.toFixed(1)}`).join('\n');
}
