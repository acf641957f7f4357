/**
 * `eureka bank --task ID --add-policy DIR`: a stored policy's greedy episodes that pass the task's
 * success test, added to the task's stored bank as successes of their own, so a bank gains
 * successes once a search finds them (a behaviour's, whose bank starts with ways to fail only).
 * DIR is a policy folder as a search publishes it (`<data-dir>/bucket/searches/<id>/winner/policy`:
 * model.json and weights.bin, the observation's scaling folded into the first layer).
 */
import { basename, dirname, resolve } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { FsBlobStore } from '../functions/shared/store/blob-fs.ts';
import { initBackend } from '../functions/train-seed/backend.ts';
import { loadPolicy } from '../functions/train-seed/policy-io.ts';
import { BANK_SEED, playKind, type Actor, type Bank } from '../tasks/bank.ts';
import { readStoredBank, storedMade, type BankMade } from '../tasks/bank-file.ts';
import type { Task } from '../tasks/contract.ts';

export interface AddPolicyOptions {
  /** Resets to play it from; the successes among them are kept. @default 4 */
  starts?: number;
  /** The policy's name in the bank (kebab-case). @default 'search-winner' */
  name?: string;
  /** What its episodes show, as a gerund phrase. @default "a search winner's trained policy" */
  words?: string;
}

/** The stored bank with the policy's successes added; `added` counts them (0: none of its episodes succeeded). */
export async function addPolicySuccesses(task: Task, dir: string, opts: AddPolicyOptions = {}): Promise<{ bank: Bank; made: BankMade; added: number }> {
  await Promise.all([task.prepare?.(), initBackend()]);
  const stored = readStoredBank(task);
  if (stored === undefined) throw new Error(`${task.id} has no stored bank to add to: make it first (eureka bank --task ${task.id})`);
  const name = opts.name ?? 'search-winner';
  if (stored.policies.some((p) => p.name === name)) throw new Error(`${task.id}'s bank already has a policy named ${name}: give --name another`);
  const act = await storedActor(task, resolve(dir));
  // Seeds of their own, far from the trained policies' (BANK_SEED + 100..) and the declared ones'.
  const firstSeed = BANK_SEED + 50_000 + 1000 * stored.policies.length;
  const episodes = playKind(task, name, 'success', act, opts.starts ?? 4, firstSeed);
  const bank: Bank = {
    ...stored,
    policies: [...stored.policies, { name, kind: 'success', words: opts.words ?? 'a search winner\'s trained policy' }],
    episodes: [...stored.episodes, ...episodes],
  };
  // How the rest was made stays beside it: the trained successes' seeds, earlier additions.
  const made = { ...storedMade(task), [name]: { policy: resolve(dir), starts: opts.starts ?? 4, kept: episodes.length } };
  return { bank, made, added: episodes.length };
}

/** The policies a bank gained with --add-policy: those whose line of its `made` names the folder they were read from. */
export function addedPolicies(made: BankMade): string[] {
  return Object.entries(made).filter(([, m]) => typeof (m as { policy?: unknown } | null)?.policy === 'string').map(([name]) => name);
}

/** The policy's greedy action: the argmax of its logits, or its Gaussian's mean (the environment clips it). */
async function storedActor(task: Task, dir: string): Promise<Actor> {
  const model = await loadPolicy(new FsBlobStore(dirname(dir)), basename(dir));
  return (obs) => tf.tidy(() => {
    const out = Array.from((model.predict(tf.tensor2d([Array.from(obs)])) as tf.Tensor).dataSync());
    return task.action.kind === 'discrete' ? out.indexOf(Math.max(...out)) : out;
  });
}
