/**
 * The model-written rewards kept as fixtures (test/fixtures/model-rewards/<task>/*.js): five
 * ordinary rewards per MuJoCo robot, written as a model answers the project's prompt (each reads the
 * observation once or twice and computes a few terms), each with its `// idea:` line. The sandbox's
 * budgets are set on what they cost (infra/config.ts SANDBOX_CAPS), and what they cost is measured
 * here: QuickJS operations per step over the task's recorded episodes (its bank), as the screen
 * replays them, in batches of the trainer's rollout.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadBank } from '../../tasks/bank-file.ts';
import type { Task } from '../../tasks/contract.ts';
import { sliceBatch } from '../../functions/train-seed/check-reward.ts';
import { layoutOf, openRewardSandbox, type TransitionBatch } from '../../functions/train-seed/sandbox.ts';
import { transitionsOf } from '../../functions/train-seed/screen.ts';

const DIR = new URL('../fixtures/model-rewards/', import.meta.url).pathname;

/** The MuJoCo robots, each with its five rewards. */
export const MODEL_REWARD_TASKS = [
  'Ant-v5', 'HalfCheetah-v5', 'Hopper-v5', 'Walker2d-v5', 'Swimmer-v5', 'InvertedPendulum-v5', 'InvertedDoublePendulum-v5', 'Reacher-v5',
] as const;

export interface ModelReward { name: string; idea: string; code: string }

export async function modelRewards(taskId: string): Promise<ModelReward[]> {
  const files = (await readdir(join(DIR, taskId))).filter((f) => f.endsWith('.js')).sort();
  return Promise.all(files.map(async (file) => {
    const code = await readFile(join(DIR, taskId, file), 'utf8');
    return { name: file.replace(/\.js$/, ''), idea: /\/\/ idea: (.*)/.exec(code)?.[1] ?? '', code };
  }));
}

/** Transitions per evaluate() call: one rollout of the MuJoCo tasks' trainer (1 copy x 2,048 steps). */
export const BATCH = 2048;

/** The first BATCH transitions of the task's bank: recorded episodes of trained and untrained policies. */
export async function recordedBatch(task: Task): Promise<TransitionBatch> {
  await task.prepare?.();
  const all = transitionsOf(task, loadBank(task));
  return sliceBatch(task, all, 0, Math.min(BATCH, all.count));
}

/**
 * QuickJS operations a step of the reward (the wrapper's share included, loading not), over one batch
 * of recorded transitions evaluated `calls` times: the sandbox counts in ticks of 10,000 operations,
 * about 5 a step of one batch of 2,048, 2.4 of two, half an operation of ten.
 */
export async function rewardOperations(task: Task, code: string, batch?: TransitionBatch, calls = 10): Promise<number> {
  const transitions = batch ?? await recordedBatch(task);
  const sandbox = await openRewardSandbox(code, layoutOf(task), { callOperations: 1e9, totalOperations: 1e12 });
  try {
    const loaded = sandbox.usedOperations;
    for (let c = 0; c < calls; c++) sandbox.evaluate(transitions, c * transitions.count);
    return (sandbox.usedOperations - loaded) / (calls * transitions.count);
  } finally {
    sandbox.dispose();
  }
}
