/**
 * What ordinary rewards cost in the sandbox, in QuickJS operations per step (what its budgets count:
 * infra/config.ts SANDBOX_CAPS): each MuJoCo task's two baselines and the five model-written rewards
 * kept for it in test/fixtures/model-rewards/<task>/, over one batch of 2,048 transitions of the
 * task's bank (recorded episodes, as the screen replays them), against the budget a step and the
 * cap of one call at the task's observation size. The caps are set on these figures (docs/figures.md).
 *
 *   npx tsx bench/reward-operations.ts [--task ID ...]
 */
import { sandboxCallOperations, sandboxOperationsPerStep } from '../functions/train-seed/sandbox-budget.ts';
import { MODEL_REWARD_TASKS, modelRewards, rewardOperations } from '../test/support/model-rewards.ts';
import { getTask } from '../tasks/registry.ts';

const argv = process.argv.slice(2);
const only = argv.flatMap((a, i) => (a === '--task' && argv[i + 1] !== undefined ? [argv[i + 1]] : []));
const pad = (x: number) => x.toFixed(0).padStart(5);

for (const id of MODEL_REWARD_TASKS.filter((t) => only.length === 0 || only.includes(t))) {
  const task = getTask(id);
  const rewards = [
    { name: 'baseline: environment', code: task.baselines.environment.code },
    { name: 'baseline: human', code: task.baselines.human.code },
    ...(await modelRewards(id)).map((r) => ({ name: r.name, code: r.code })),
  ];
  const measured = [];
  for (const reward of rewards) measured.push({ name: reward.name, perStep: await rewardOperations(task, reward.code) });
  const heaviest = Math.max(...measured.map((m) => m.perStep));
  console.log(`${id} (${task.obsSize} observation entries): budget ${sandboxOperationsPerStep(task.obsSize)} a step, ` +
    `${sandboxCallOperations(task.obsSize).toLocaleString('en-US')} a call of 2,048; heaviest ${pad(heaviest)} a step ` +
    `(${(sandboxOperationsPerStep(task.obsSize) / heaviest).toFixed(2)}x headroom; at least 2x wanted)`);
  for (const m of measured) console.log(`  ${pad(m.perStep)}  ${m.name}`);
}
