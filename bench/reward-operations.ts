/**
 * What ordinary rewards cost in the sandbox, in QuickJS operations per step (what its budgets count:
 * infra/config.ts SANDBOX_CAPS): each MuJoCo task's two baselines and the five model-written rewards
 * kept for it in test/fixtures/model-rewards/<task>/, over one batch of 2,048 transitions of the
 * task's bank (recorded episodes, as the screen replays them), against the budget a step and the
 * cap of one call at the task's observation size. The caps are set on these figures (docs/figures.md).
 *
 * --full also runs each task's heaviest through a whole default seed-run's sandbox, as TrainSeed
 * opens it (its total budget), every call replaying the recorded batch: Ant's takes ~35 s of CPU.
 *
 *   npx tsx bench/reward-operations.ts [--task ID ...] [--full]
 */
import { layoutOf, openRewardSandbox } from '../functions/train-seed/sandbox.ts';
import { sandboxCallOperations, sandboxOperationsFor, sandboxOperationsPerStep } from '../functions/train-seed/sandbox-budget.ts';
import { stepsAtBudget } from '../functions/shared/search/chunk-size.ts';
import { MODEL_REWARD_TASKS, modelRewards, recordedBatch, rewardOperations } from '../test/support/model-rewards.ts';
import type { Task } from '../tasks/contract.ts';
import { getTask } from '../tasks/registry.ts';
import { benchArgs } from './args.ts';

const { values: args } = benchArgs(import.meta.url, { options: { task: { type: 'string', multiple: true }, full: { type: 'boolean' } } });
const only = args.task ?? [];
const full = args.full === true;
const pad = (x: number) => x.toFixed(0).padStart(5);
const n = (x: number) => x.toLocaleString('en-US');

/** The whole default seed-run's calls in one sandbox with the seed-run's budget; throws its RewardFault if it runs out. */
async function wholeSeedRun(task: Task, code: string) {
  const batch = await recordedBatch(task);
  const calls = Math.ceil(stepsAtBudget(task, task.budget.steps) / batch.count);
  const budget = sandboxOperationsFor(task.budget.steps, task.obsSize);
  const cpu = process.cpuUsage();
  const sandbox = await openRewardSandbox(code, layoutOf(task), { totalOperations: budget });
  try {
    for (let c = 0; c < calls; c++) sandbox.evaluate(batch, c * batch.count);
    const used = process.cpuUsage(cpu);
    return { calls, operations: sandbox.usedOperations, budget, cpuSeconds: (used.user + used.system) / 1e6 };
  } finally {
    sandbox.dispose();
  }
}

for (const id of MODEL_REWARD_TASKS.filter((t) => only.length === 0 || only.includes(t))) {
  const task = getTask(id);
  const rewards = [
    { name: 'baseline: environment', code: task.baselines.environment.code },
    { name: 'baseline: human', code: task.baselines.human.code },
    ...(await modelRewards(id)).map((r) => ({ name: r.name, code: r.code })),
  ];
  const measured = [];
  for (const reward of rewards) measured.push({ ...reward, perStep: await rewardOperations(task, reward.code) });
  const heaviest = measured.reduce((a, b) => (b.perStep > a.perStep ? b : a));
  const perStep = sandboxOperationsPerStep(task.obsSize);
  console.log(`${id} (${task.obsSize} observation entries): budget ${perStep} a step, ${n(sandboxCallOperations(task.obsSize))} a call; ` +
    `heaviest ${heaviest.name}, ${heaviest.perStep.toFixed(0)} a step (${(perStep / heaviest.perStep).toFixed(2)}x; at least 2x wanted)`);
  for (const m of measured) console.log(`  ${pad(m.perStep)}  ${m.name}`);
  if (full) {
    const run = await wholeSeedRun(task, heaviest.code);
    console.log(`  a whole default seed-run of ${heaviest.name}: ${run.calls} calls, ${n(run.operations)} operations of ${n(run.budget)}, no fault, ${run.cpuSeconds.toFixed(1)} s of CPU`);
  }
}
