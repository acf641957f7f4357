/**
 * "Check the candidates": a candidate's reward run in the sandbox on a few thousand transitions of
 * the task's own environment, every cap in force (what `eureka check-reward` does), before any
 * seed trains it. Here, in TrainSeed, the isolated function: model-written code never runs in
 * Propose, which holds the API key. A reward that passes is screened on the task's bank too, and
 * the screen is stored with the check. Idempotent: a stored check.json is returned as it is.
 */
import type { BlobStore } from '../shared/store/blob.ts';
import { checkKey, rewardKey } from '../shared/store/keys.ts';
import type { CheckItem, CheckRecord, CheckSummary } from '../shared/search/types.ts';
import { getTask, InvalidTask } from '../../tasks/registry.ts';
import { TASK_CODE_FAILED } from '../shared/store/records.ts';
import { checkReward } from './check-reward.ts';
import { MissingReward } from './seed-task.ts';
import { SUMMARY_REASON_CHARS, clip } from './seed-summary.ts';

/** The candidate's check, and whether this call ran its code (false: stored). */
export async function checkCandidate(blobs: BlobStore, item: CheckItem): Promise<{ record: CheckRecord; ran: boolean }> {
  const key = checkKey(item.searchId, item.generation, item.candidateId);
  const stored = await blobs.getText(key);
  if (stored !== undefined) return { record: JSON.parse(stored) as CheckRecord, ran: false };
  const source = await blobs.getText(rewardKey(item.searchId, item.generation, item.candidateId));
  if (source === undefined) throw new MissingReward(`no reward.js for candidate ${item.candidateId} of generation ${item.generation}`);
  let checked: Awaited<ReturnType<typeof checkReward>>;
  try {
    checked = await checkReward(getTask(item.task), source);
  } catch (error) {
    // The task's fault, said as the candidate's result (a Lambda error's Cause reaches only the
    // execution history), and not stored as its check.json: it says nothing of the reward.
    if (!(error instanceof InvalidTask)) throw error;
    return { record: { candidateId: item.candidateId, verdict: 'error', reason: `${TASK_CODE_FAILED}: ${error.message}`, terms: {}, screen: null, firstSteps: null }, ran: true };
  }
  const { verdict, reason, terms, screen, firstSteps } = checked;
  const record: CheckRecord = { candidateId: item.candidateId, verdict, reason, terms, screen, firstSteps };
  await blobs.put(key, JSON.stringify(record), 'application/json');
  return { record, ran: true };
}

/** What the state machine carries of a check: the verdict and a clipped reason. */
export function checkSummary(record: CheckRecord): CheckSummary {
  return { candidateId: record.candidateId, verdict: record.verdict, reason: clip(record.reason, SUMMARY_REASON_CHARS) };
}
