/**
 * "Repair rewards": the generation's candidates that failed their sandbox check go back to the
 * proposer in ONE request, each with its code and the check's reason, for a fixed version under
 * the same name. The answer is stored before it is used, like a proposal (stored-answer.ts), so a
 * retried, redriven or resumed search never pays for it twice. The repaired candidates get new ids
 * (`<id>-repaired`) and are checked again by "Check the repaired rewards".
 */
import type { RepairEvent, RepairResult } from '../shared/contracts.ts';
import { checkKey, rewardKey } from '../shared/keys.ts';
import type { ProposedCandidate } from '../shared/records.ts';
import type { SearchStore } from '../shared/search-store.ts';
import type { CheckRecord } from '../shared/types.ts';
import { proposedCandidate } from '../reflect/init.ts';
import { checkBudget } from './budget.ts';
import { checkItems, proposeContext, type ProposerFactory } from './propose.ts';
import type { ProposerAnswer, RepairContext } from './proposer.ts';
import type { Candidate } from './reflection.ts';
import { materialize, storeAnswer, type StoredCandidate } from './stored-answer.ts';

export const REPAIRED_SUFFIX = '-repaired';

type Failed = ProposedCandidate & Candidate & { reason: string };

export async function repair(store: SearchStore, event: RepairEvent, makeProposer: ProposerFactory): Promise<RepairResult> {
  const { searchId, generation } = event;
  const meta = await store.meta(searchId);
  const none: RepairResult = { generation, checks: [] };
  let record = await store.answer(searchId, generation, 'repair');
  if (!record) {
    if (!meta.config.repair) return none;
    const failed = await failedCandidates(store, event);
    if (failed.length === 0) return none;
    const context: RepairContext = { ...(await proposeContext(store, meta, searchId, generation)), failed };
    const proposer = await makeProposer(meta.config);
    const stop = await checkBudget(store, searchId, meta.config, generation, 'repair', proposer.worstCaseCostUsd(context));
    if (stop !== null) return none;
    const answer = await proposer.repair(context);
    record = await storeAnswer(store, searchId, generation, 'repair', answer, repaired(failed, answer));
  }
  await materialize(store, searchId, generation, record.answerKey);
  return { generation, checks: checkItems(searchId, meta.config.task, generation, record.candidates) };
}

/**
 * The candidates of the proposal whose check failed, with their code and the whole reason from
 * check.json. The search's own hostile probes are meant to fail, and repairs are not repaired.
 */
async function failedCandidates(store: SearchStore, event: RepairEvent): Promise<Failed[]> {
  const { searchId, generation } = event;
  const proposal = await store.answer(searchId, generation, 'proposal');
  if (!proposal) return [];
  const failedIds = new Set(event.checks.filter((c) => c.verdict !== 'ok').map((c) => c.candidateId));
  const eligible = proposal.candidates.filter((c) => failedIds.has(c.candidateId) && c.origin !== 'hostile');
  return Promise.all(eligible.map(async (c) => {
    const code = (await store.blobs.getText(rewardKey(searchId, generation, c.candidateId))) ?? '';
    const check = await store.blobs.getText(checkKey(searchId, generation, c.candidateId));
    const reason = check === undefined ? (event.checks.find((x) => x.candidateId === c.candidateId)?.reason ?? '') : (JSON.parse(check) as CheckRecord).reason;
    return { ...c, code, reason };
  }));
}

/**
 * Each answer matched to the candidate it repairs: by name first (the request asks to keep it),
 * then in order. A failed candidate the answer does not cover stays failed.
 */
export function repaired(failed: Failed[], answer: Pick<ProposerAnswer, 'candidates'>): StoredCandidate[] {
  const left = [...failed];
  const pairs: Array<[Failed, Candidate]> = [];
  const unnamed: Candidate[] = [];
  for (const c of answer.candidates) {
    const i = left.findIndex((f) => f.name === c.name);
    if (i >= 0) pairs.push([left.splice(i, 1)[0], c]);
    else unnamed.push(c);
  }
  for (const c of unnamed) if (left.length > 0) pairs.push([left.shift() as Failed, c]);
  return pairs.map(([f, c]) => ({
    ...proposedCandidate(`${f.candidateId}${REPAIRED_SUFFIX}`, { name: f.name, idea: c.idea || f.idea, code: c.code }, 'proposer'),
    repairOf: f.candidateId,
    code: c.code,
  }));
}

