/**
 * What each reward pays on the first policies' steps, before PPO has learned anything. The
 * untrained policy's mean is near 0 and its standard deviation 1 (a softmax near uniform, where the
 * actions are discrete), so its steps are sampled here as such: 16 copies of the task's environment,
 * each box action N(0, 1) a dimension (clipped by the environment as in training), 4,096 steps.
 * For each reward: the mean total a step on the steps that go on, and on those that end the
 * episode. Where failing ends the episode, a reward whose going-on steps sum below zero pays the
 * first policies to end it; that is the trap a model's answers fell into on Ant-TurnInPlace-v0
 * (docs/behaviours.md).
 *
 *   npx tsx bench/first-steps-pay.ts --task ID [--baselines] [--steps 4096] [--seed 0] FILE...
 *
 * FILE: a files proposer's answer (`answer-N.json`: every candidate in it) or a reward `.js` file.
 * `--baselines` adds the task's own two. `--json` prints one object.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { Random } from '../core/random.ts';
import { layoutOf, openRewardSandbox, RewardFault } from '../functions/train-seed/sandbox.ts';
import type { TransitionBatch } from '../functions/train-seed/sandbox.ts';
import { prepareTask, UnknownTask } from '../tasks/registry.ts';
import type { Task } from '../tasks/contract.ts';
import { argError, benchArgs } from './args.ts';

const { values, positionals } = benchArgs(import.meta.url, {
  options: { task: { type: 'string' }, baselines: { type: 'boolean' }, steps: { type: 'string' }, seed: { type: 'string' }, json: { type: 'boolean' } },
  allowPositionals: true,
});
if (values.task === undefined) argError(import.meta.url, 'needs --task ID');
const COPIES = 16;

interface Reward { name: string; code: string }

/** The rewards a file holds: every candidate of an answer, or the one reward of a .js file. */
function rewardsIn(file: string): Reward[] {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    argError(import.meta.url, `cannot read ${file}: ${(error as Error).message}`);
  }
  if (!file.endsWith('.json')) return [{ name: basename(file, '.js'), code: text }];
  let answer: { candidates?: Array<{ name?: string; code?: string }> } = {};
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch (error) {
    argError(import.meta.url, `${file} is not JSON: ${(error as Error).message}`);
  }
  return (answer.candidates ?? []).map((c, i) => ({ name: `${basename(file, '.json')}:${c.name ?? i}`, code: c.code ?? '' }));
}

/** Steps of the untrained policy: box actions N(0, 1), discrete ones uniform. */
function firstPolicySteps(task: Task, count: number, seed: number): TransitionBatch {
  const env = task.makeEnv(COPIES, seed);
  const rng = new Random(seed ^ 0xf1257);
  const { obsSize: d, actionSize: k, recordSize: r, action } = task;
  const batch: TransitionBatch = {
    count, obs: new Float32Array(count * d), actions: new Float64Array(count * k), nextObs: new Float32Array(count * d),
    terminated: new Uint8Array(count), state: new Float64Array(count * r), nextState: new Float64Array(count * r),
  };
  const chosen = new Float64Array(COPIES * k);
  try {
    for (let start = 0; start < count; start += COPIES) {
      const n = Math.min(COPIES, count - start);
      for (let i = 0; i < chosen.length; i++) chosen[i] = action.kind === 'discrete' ? rng.int(action.names.length) : rng.normal();
      batch.obs.set(env.obs.subarray(0, n * d), start * d);
      batch.state?.set(env.record.subarray(0, n * r), start * r);
      env.step(chosen);
      batch.nextState?.set(env.finalRecord.subarray(0, n * r), start * r);
      batch.actions.set(env.applied.subarray(0, n * k), start * k);
      batch.nextObs.set(env.finalObs.subarray(0, n * d), start * d);
      batch.terminated.set(env.terminated.subarray(0, n), start);
    }
  } finally {
    env.dispose?.();
  }
  return batch;
}

interface Pay { name: string; goingOn: number | null; ending: number | null; endings: number; fault?: string }

async function payOf(task: Task, reward: Reward, steps: TransitionBatch): Promise<Pay> {
  const sandbox = await openRewardSandbox(reward.code, layoutOf(task)).catch((e: unknown) => e as Error);
  if (sandbox instanceof Error) return { name: reward.name, goingOn: null, ending: null, endings: 0, fault: sandbox.message };
  try {
    const { rewards } = sandbox.evaluate(steps, 0);
    let [on, onN, end, endN] = [0, 0, 0, 0];
    rewards.forEach((value, i) => (steps.terminated[i] ? ([end, endN] = [end + value, endN + 1]) : ([on, onN] = [on + value, onN + 1])));
    return { name: reward.name, goingOn: onN ? on / onN : null, ending: endN ? end / endN : null, endings: endN };
  } catch (error) {
    if (error instanceof RewardFault) return { name: reward.name, goingOn: null, ending: null, endings: 0, fault: error.message };
    throw error;
  } finally {
    sandbox.dispose();
  }
}

const task = await prepareTask(values.task).catch((error: unknown) => {
  if (error instanceof UnknownTask) argError(import.meta.url, error.message);
  throw error;
});
const rewards = positionals.flatMap(rewardsIn);
if (values.baselines) rewards.push(...Object.entries(task.baselines).map(([name, source]) => ({ name: `baseline:${name}`, code: source.code })));
if (rewards.length === 0) argError(import.meta.url, 'give at least one FILE, or --baselines');
const steps = firstPolicySteps(task, Number(values.steps ?? 4096), Number(values.seed ?? 0));
const pays: Pay[] = [];
for (const reward of rewards) pays.push(await payOf(task, reward, steps));
const below = pays.filter((p) => p.goingOn !== null && p.goingOn < 0).length;
if (values.json) {
  process.stdout.write(`${JSON.stringify({ task: task.id, termination: task.termination, steps: steps.count, pays, belowZero: below })}\n`);
} else {
  const f = (x: number | null) => (x === null ? '-' : x.toFixed(3));
  process.stdout.write(`${task.id} (episodes end early: ${task.termination}), ${steps.count} steps of the untrained policy\n`);
  process.stdout.write('reward | a step that goes on | a step that ends it (count)\n');
  for (const p of pays) process.stdout.write(`${p.name} | ${f(p.goingOn)} | ${f(p.ending)} (${p.endings})${p.fault ? ` | fault: ${p.fault}` : ''}\n`);
  process.stdout.write(`${below} of ${pays.length} pay below zero on a step that goes on\n`);
}
