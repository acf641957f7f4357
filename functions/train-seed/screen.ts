/**
 * The screen (issue 24): a candidate's reward run over the task's bank of known successes and
 * failures (tasks/bank.ts), in the sandbox its check opened (same module, same caps), batched as
 * the trainer batches rollouts (check-reward.ts runs it). What it pays on each episode, discounted
 * with the task's gamma, says before any training whether it ranks the successes above the
 * failures (screen-stats.ts).
 *
 * A fault on the bank is the check's fault: a reward that throws at a landing would throw in
 * training too. Its reason says it happened on the bank.
 */
import type { Task } from '../../tasks/contract.ts';
import type { Bank } from '../../tasks/bank.ts';
import { ppoConfigFor } from '../../core/ppo-config.ts';
import type { Screen } from '../shared/search/screen-types.ts';
import { RewardFault, type TransitionBatch } from './sandbox.ts';
import { summarizeScreen, type BankValues } from './screen-stats.ts';

/**
 * What the reward paid on each of the bank's transitions (check-reward.ts runs it in the sandbox,
 * in batches) made into the screen.
 */
export function screenOf(task: Task, bank: Bank, rewards: Float64Array, terms: Map<string, Float64Array>, started: number): Screen {
  const values: BankValues = { rewards, terms, gamma: ppoConfigFor(task, 0, task.budget.steps).gamma };
  return { ...summarizeScreen(bank, values), ms: performance.now() - started };
}

/** A fault on the bank, its reason saying so. */
export function faultOnBank(error: RewardFault): RewardFault {
  return new RewardFault(error.outcome, `${error.message} (on the screen's bank of episodes)`);
}

const cache = new WeakMap<Bank, TransitionBatch>();

/** The bank's episodes as one batch of transitions, episode after episode (made once per bank). */
export function transitionsOf(task: Pick<Task, 'obsSize' | 'actionSize' | 'recordSize'>, bank: Bank): TransitionBatch {
  const known = cache.get(bank);
  if (known) return known;
  const { obsSize: d, actionSize: k, recordSize: r } = task;
  const count = bank.episodes.reduce((n, e) => n + e.length, 0);
  const batch: TransitionBatch = {
    count, obs: new Float32Array(count * d), actions: new Float64Array(count * k), nextObs: new Float32Array(count * d), terminated: new Uint8Array(count),
    state: new Float64Array(count * r), nextState: new Float64Array(count * r),
  };
  let at = 0;
  for (const e of bank.episodes) {
    batch.obs.set(e.observations.subarray(0, e.length * d), at * d);
    batch.nextObs.set(e.observations.subarray(d), at * d);
    batch.state?.set(e.recorded.subarray(0, e.length * r), at * r);
    batch.nextState?.set(e.recorded.subarray(r), at * r);
    batch.actions.set(e.actions, at * k);
    if (e.terminated) batch.terminated[at + e.length - 1] = 1;
    at += e.length;
  }
  cache.set(bank, batch);
  return batch;
}
