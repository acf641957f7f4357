/**
 * One seed-run of one candidate as TrainSeed runs it: the candidate's reward.js trained and graded,
 * result.json and the policy written next to it. Idempotent: a stored result.json is returned
 * without training again (a retried or redriven search never re-trains). Only candidates that
 * passed their check reach here ("Plan the seed-runs"). A fault of the candidate's code is
 * a result; a missing reward.js or a storage error throws.
 */
import type { BlobStore } from '../shared/blob.ts';
import { rewardKey, seedPolicyPrefix, seedResultKey } from '../shared/keys.ts';
import type { SeedResult, SeedTask } from '../shared/types.ts';
import { SEED_POLICY_TAG } from '../../infra/config.ts';
import { getTask } from '../../tasks/registry.ts';
import { savePolicy } from './policy-io.ts';
import { runSeed, type SeedRunInput } from './seed-run.ts';

export class MissingReward extends Error {
  override readonly name = 'MissingReward';
}

const SEED_POLICY_TAGS = { [SEED_POLICY_TAG.key]: SEED_POLICY_TAG.value };

/** The seed-run's result, and whether this call ran the candidate's code (false: stored). */
export async function trainSeed(blobs: BlobStore, item: SeedTask, onUpdate?: SeedRunInput['onUpdate']): Promise<{ result: SeedResult; ran: boolean }> {
  const resultKey = seedResultKey(item.searchId, item.generation, item.candidateId, item.seed);
  const stored = await blobs.getText(resultKey);
  if (stored !== undefined) return { result: JSON.parse(stored) as SeedResult, ran: false };

  const task = getTask(item.task);
  const source = await blobs.getText(rewardKey(item.searchId, item.generation, item.candidateId));
  if (source === undefined) throw new MissingReward(`no reward.js for candidate ${item.candidateId} of generation ${item.generation}`);
  const run = await runSeed({ task, candidateId: item.candidateId, source, seed: item.seed, budget: item.budget, onUpdate });
  // Tagged: the bucket expires seed-run policies after a while; the winner's copy is not tagged.
  const prefix = seedPolicyPrefix(item.searchId, item.generation, item.candidateId, item.seed);
  if (run.policy) await savePolicy(run.policy.network, run.policy.theta, blobs, prefix, SEED_POLICY_TAGS);
  // result.json last: its presence means the seed-run is complete, policy included.
  await blobs.put(resultKey, JSON.stringify(run.result), 'application/json');
  return { result: run.result, ran: true };
}
