/**
 * TrainSeed: one seed-run of one candidate. Reads the candidate's reward.js, trains, grades, and
 * writes result.json and the policy next to it. Idempotent: when result.json exists, the stored
 * summary is returned without training again (a retried or redriven search never re-trains).
 * A fault of the candidate's code is a result; a missing reward.js or a storage error throws.
 *
 * A process whose sandbox hit its memory cap is not trusted with another candidate (DESIGN §4:
 * WebAssembly memory never shrinks, and the fault may have left the module mid-way). Lambda keeps
 * a warm container for the next invocation, so that invocation exits the process before it reads
 * anything: Lambda reports Runtime.ExitError and discards the container, and the state machine's
 * retry of that error lands on a fresh one.
 */
import { z } from 'zod';
import { blobStoreFromEnv } from '../shared/blob.ts';
import { rewardKey, seedPolicyPrefix, seedResultKey } from '../shared/keys.ts';
import type { SeedResult, SeedSummary, SeedTask } from '../shared/types.ts';
import { SEED_POLICY_TAG } from '../../infra/config.ts';
import { getTask } from '../../tasks/registry.ts';
import { savePolicy } from './policy-io.ts';
import { runSeed } from './seed-run.ts';
import { summarize } from './seed-summary.ts';

const blobs = blobStoreFromEnv();
const SEED_POLICY_TAGS = { [SEED_POLICY_TAG.key]: SEED_POLICY_TAG.value };

export const SeedTaskSchema = z.object({
  searchId: z.string().regex(/^[A-Za-z0-9_-]{1,80}$/),
  task: z.string().min(1).max(64),
  generation: z.number().int().min(0),
  candidateId: z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/),
  seed: z.number().int().min(0),
  budget: z.object({
    steps: z.number().int().min(1).max(5_000_000),
    evalEpisodes: z.number().int().min(1).max(1000),
  }),
});

export class MissingReward extends Error {
  override readonly name = 'MissingReward';
}

/** Exit code of a process retired after a memory fault (what Lambda reports as Runtime.ExitError). */
export const RETIRED_EXIT_CODE = 75;
let retired = false;

export async function handler(event: unknown): Promise<SeedSummary> {
  if (retired) {
    process.stderr.write('TrainSeed: this process hosted a sandbox memory fault; exiting so the next candidate gets a fresh one\n');
    process.exit(RETIRED_EXIT_CODE);
  }
  const item: SeedTask = SeedTaskSchema.parse(event);
  const resultKey = seedResultKey(item.searchId, item.generation, item.candidateId, item.seed);

  const stored = await blobs.getText(resultKey);
  if (stored !== undefined) return summarize(JSON.parse(stored) as SeedResult, resultKey);

  const task = getTask(item.task);
  const source = await blobs.getText(rewardKey(item.searchId, item.generation, item.candidateId));
  if (source === undefined) throw new MissingReward(`no reward.js for candidate ${item.candidateId} of generation ${item.generation}`);

  const { result, policy } = await runSeed({ task, candidateId: item.candidateId, source, seed: item.seed, budget: item.budget, onUpdate: reportToParent });
  // Tagged: the bucket expires seed-run policies after a while; the winner's copy is not tagged.
  const policyPrefix = seedPolicyPrefix(item.searchId, item.generation, item.candidateId, item.seed);
  if (policy) await savePolicy(policy.network, policy.theta, blobs, policyPrefix, SEED_POLICY_TAGS);
  // result.json last: its presence means the seed-run is complete, policy included.
  await blobs.put(resultKey, JSON.stringify(result), 'application/json');
  retired = result.outcome === 'memory';
  return summarize(result, resultKey);
}

/** Run as a local child process (local/), the seed-run reports its progress to the parent. */
function reportToParent(stats: { trainSuccess: number }, update: number, total: number): void {
  process.send?.({ type: 'progress', update, total, trainSuccess: stats.trainSuccess });
}
