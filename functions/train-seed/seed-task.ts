/**
 * One chunk of one seed-run as TrainSeed runs it ("Train one seed" loops until it is done). A chunk
 * resumes from the seed's checkpoint, trains at most `chunkSteps`, and leaves a checkpoint for the
 * next; the chunk that reaches `targetSteps` grades the policy. At the budget that is result.json,
 * with the policy beside it; short of it (a rung of a race) the rung's result, and the checkpoint
 * stays for the rungs after. Idempotent: a stored result is returned without training again (a
 * retried or redriven search never re-trains), and a retried chunk redoes only that chunk. A fault
 * of the candidate's code ends the seed-run for good (its result.json says so); a missing reward.js
 * or a storage error throws. A checkpoint this trainer cannot go on from (another trainer's, or a
 * corrupt one) is not resumed: the seed-run starts over from scratch, and says why (checkpoint.ts).
 */
import type { BlobStore } from '../shared/store/blob.ts';
import { checkpointKey, rewardKey, rungResultKey, seedPolicyPrefix, seedResultKey } from '../shared/store/keys.ts';
import type { ChunkAnswer, SeedResult, SeedSummary, SeedTask } from '../shared/search/types.ts';
import { TASK_CODE_FAILED } from '../shared/store/records.ts';
import { SEED_POLICY_TAG } from '../../infra/config.ts';
import { getTask, InvalidTask } from '../../tasks/registry.ts';
import { savePolicy } from './policy-io.ts';
import { SUMMARY_REASON_CHARS, clip, summarize } from './seed-summary.ts';
import { runSeedChunk, type SeedCheckpoint, type SeedRunInput } from './seed-run.ts';
import { initBackend } from './backend.ts';
import { checkpointVersion, encodeCheckpoint, readCheckpoint, type CheckpointVersion } from './checkpoint.ts';
import { testMoment } from '../shared/ops/test-hold.ts';

export class MissingReward extends Error {
  override readonly name = 'MissingReward';
}

/** Seed-run policies and checkpoints are tagged: the bucket expires them; the winner's copy is not tagged. */
const EXPIRING = { [SEED_POLICY_TAG.key]: SEED_POLICY_TAG.value };

/**
 * The chunk's answer, the result once graded, whether this call ran the candidate's code (false:
 * stored), and why the seed-run started over when its checkpoint could not be resumed.
 */
export interface ChunkRun {
  answer: ChunkAnswer;
  result?: SeedResult;
  ran: boolean;
  restarted?: string;
}

export async function trainSeedChunk(
  blobs: BlobStore, item: SeedTask, onUpdate?: SeedRunInput['onUpdate'], limits?: SeedRunInput['limits'],
): Promise<ChunkRun> {
  const { searchId, generation, candidateId, seed } = item;
  // The pool test's moment (test-hold.ts): the invocation begun, nothing read or trained yet.
  testMoment('invoked', `${generation}/${candidateId}/${seed}`);
  const finalKey = seedResultKey(searchId, generation, candidateId, seed);
  const atBudget = item.targetSteps >= item.budget.steps;
  const resultKey = atBudget ? finalKey : rungResultKey(searchId, generation, candidateId, seed, item.targetSteps);
  // A rung's own result first: a replay (a resumed search, a redriven execution) must rank the rung
  // on what the first run ranked it on, not on the scores the seed-run reached later. Without one,
  // result.json ends the seed-run whatever the target: trained to the budget, or faulted on the way.
  for (const key of atBudget ? [finalKey] : [resultKey, finalKey]) {
    const stored = await blobs.getText(key);
    if (stored !== undefined) return graded(JSON.parse(stored) as SeedResult, false);
  }

  const task = getTask(item.task);
  const source = await blobs.getText(rewardKey(searchId, generation, candidateId));
  if (source === undefined) throw new MissingReward(`no reward.js for candidate ${candidateId} of generation ${generation}`);
  const ckptKey = checkpointKey(searchId, generation, candidateId, seed);
  const { resume, restarted } = await storedCheckpoint(blobs, ckptKey, checkpointVersion(task, seed, item.budget.steps, await initBackend()));
  const chunk = `${generation}/${candidateId}/${seed}@${resume?.steps ?? 0}`;
  let updates = 0;
  let run: Awaited<ReturnType<typeof runSeedChunk>>;
  try {
    run = await runSeedChunk({
      task, candidateId, source, seed, budget: item.budget, targetSteps: item.targetSteps, chunkSteps: item.chunkSteps, resume, limits,
      // The kill-and-resume test's moment (test-hold.ts): this chunk, training.
      onUpdate: (stats, update, total) => { if (updates++ === 0) testMoment('chunk', chunk); onUpdate?.(stats, update, total); },
    });
  } catch (error) {
    // The task's own code failed (its progress or success test, a declared robot's simulation): said
    // as this seed-run's result, as a check says it (candidate-check.ts), since a Lambda error's
    // Cause reaches only the execution history; and not stored: it says nothing of the reward.
    if (!(error instanceof InvalidTask)) throw error;
    return { answer: { done: true, summary: taskFault(item, error) }, ran: true, restarted };
  }
  if (!run.done) {
    testMoment('checkpoint-write', `${generation}/${candidateId}/${seed}@${run.checkpoint.steps}`);
    await blobs.put(ckptKey, encodeCheckpoint(run.checkpoint), 'application/octet-stream', EXPIRING);
    testMoment('chunk-stored', chunk);
    return { answer: { done: false, stepsTrained: run.checkpoint.steps, targetSteps: item.targetSteps }, ran: true, restarted };
  }
  if (run.result.outcome !== 'trained') {
    await blobs.put(finalKey, JSON.stringify(run.result), 'application/json');
  } else if (atBudget) {
    const prefix = seedPolicyPrefix(searchId, generation, candidateId, seed);
    if (run.policy) await savePolicy(run.policy.network, run.policy.theta, blobs, prefix, EXPIRING);
    // result.json last: its presence means the seed-run is complete, policy included.
    await blobs.put(finalKey, JSON.stringify(run.result), 'application/json');
  } else {
    // The checkpoint first: a rung's result means the next rung can go on from it.
    if (run.checkpoint) {
      testMoment('checkpoint-write', `${generation}/${candidateId}/${seed}@${run.checkpoint.steps}`);
      await blobs.put(ckptKey, encodeCheckpoint(run.checkpoint), 'application/octet-stream', EXPIRING);
    }
    await blobs.put(resultKey, JSON.stringify(run.result), 'application/json');
  }
  testMoment('chunk-stored', chunk);
  return { ...graded(run.result, true), restarted };
}

/** The seed's checkpoint if this trainer can go on from it; otherwise why the seed-run starts over. */
async function storedCheckpoint(blobs: BlobStore, key: string, version: CheckpointVersion): Promise<{ resume?: SeedCheckpoint; restarted?: string }> {
  const stored = await blobs.get(key);
  if (stored === undefined) return {};
  const read = readCheckpoint(stored, version);
  return 'checkpoint' in read ? { resume: read.checkpoint } : { restarted: read.discarded };
}

/** A seed-run the task's own code stopped: an error, with the task's words, and the steps it was to train. */
function taskFault(item: SeedTask, error: InvalidTask): SeedSummary {
  return {
    candidateId: item.candidateId, seed: item.seed, outcome: 'error', reason: clip(`${TASK_CODE_FAILED}: ${error.message}`, SUMMARY_REASON_CHARS),
    success: 0, meanSuccessSteps: null, meanReturn: null, progress: null, stepsTrained: item.targetSteps, trainSuccessArea: null,
  };
}

function graded(result: SeedResult, ran: boolean): ChunkRun {
  return { answer: { done: true, summary: summarize(result) }, result, ran };
}
