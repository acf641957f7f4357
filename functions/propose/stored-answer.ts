/**
 * A proposer's answer, stored before it is used: the whole answer (code included) in the bucket,
 * then a conditional put of its record in the table, so the first answer stored for a generation
 * (or for its repair request) wins and a retried, redriven or resumed search never pays twice.
 */
import { randomUUID } from 'node:crypto';
import { rewardKey, searchPrefix } from '../shared/store/keys.ts';
import type { AnswerKind, ProposalRecord, ProposedCandidate, RequestFailure } from '../shared/store/records.ts';
import type { SearchStore } from '../shared/store/search-store.ts';
import { logger } from '../shared/ops/telemetry.ts';
import type { ProposerAnswer } from './proposer.ts';

export type StoredCandidate = ProposedCandidate & { code: string };

/** The stored answer: every candidate of the request with its id and code. */
interface StoredAnswer extends Omit<ProposerAnswer, 'candidates'> {
  candidates: StoredCandidate[];
}

const RAW_IN_TABLE = 32 * 1024;
/** The analysis is in the raw answer too: the table keeps what the card and `eureka show` print. */
const ANALYSIS_IN_TABLE = 8 * 1024;

export async function storeAnswer(
  store: SearchStore, searchId: string, generation: number, kind: AnswerKind, answer: ProposerAnswer, candidates: StoredCandidate[],
): Promise<ProposalRecord> {
  const stored: StoredAnswer = { ...answer, candidates };
  const answerKey = `${searchPrefix(searchId)}/generations/${generation}/${kind}-${randomUUID()}.json`;
  await store.blobs.put(answerKey, JSON.stringify(stored), 'application/json');
  const record: ProposalRecord = {
    proposer: answer.proposer, model: answer.model, usage: answer.usage, costUsd: answer.costUsd,
    promptHash: answer.promptHash, notes: answer.notes, analysis: answer.analysis.slice(0, ANALYSIS_IN_TABLE), raw: answer.raw.slice(0, RAW_IN_TABLE), answerKey,
    candidates: candidates.map(({ code: _code, ...c }) => c), createdAt: new Date().toISOString(),
  };
  const kept = await store.storeAnswer(searchId, generation, kind, record);
  recordAnswer(kind, answer, candidates.length);
  return kept;
}

/**
 * A request that gave no answer, stored like one (the first record wins), so a retried, redriven or
 * resumed search takes the failure as the answer and never pays for the request again.
 */
export async function storeFailure(
  store: SearchStore, searchId: string, generation: number, kind: AnswerKind, proposer: { proposer: string; model: string }, failure: RequestFailure,
): Promise<ProposalRecord> {
  const record: ProposalRecord = {
    proposer: proposer.proposer, model: proposer.model, usage: null, costUsd: 0, promptHash: '', notes: [], raw: '', answerKey: '',
    candidates: [], createdAt: new Date().toISOString(), failure,
  };
  const kept = await store.storeAnswer(searchId, generation, kind, record);
  logger.warn(kind === 'proposal' ? 'proposal failed' : 'repair failed', { reason: failure.reason, candidates: failure.candidateIds.length });
  return kept;
}

/** One line: the request's tokens in and out, and what it cost (the metrics come per billed reply, ledger.ts). */
function recordAnswer(kind: AnswerKind, answer: ProposerAnswer, candidates: number): void {
  const usage = answer.usage;
  logger.info(kind === 'proposal' ? 'proposal stored' : 'repair stored', {
    proposer: answer.proposer, model: answer.model, candidates, notes: answer.notes.length,
    inputTokens: usage?.inputTokens ?? 0, outputTokens: usage?.outputTokens ?? 0, costUsd: answer.costUsd,
  });
}

/** Writes each candidate's reward.js from the stored answer (idempotent). */
export async function materialize(store: SearchStore, searchId: string, generation: number, answerKey: string): Promise<void> {
  const text = await store.blobs.getText(answerKey);
  if (text === undefined) throw new Error(`the stored answer ${answerKey} is missing`);
  const answer = JSON.parse(text) as StoredAnswer;
  for (const c of answer.candidates) {
    const key = rewardKey(searchId, generation, c.candidateId);
    if (!(await store.blobs.exists(key))) await store.blobs.put(key, c.code, 'text/javascript');
  }
}
