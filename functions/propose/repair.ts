/**
 * "Repair rewards": the generation's candidates that failed their sandbox check go back to the
 * proposer in ONE request, each with its code and the check's reason, for a fixed version under
 * the same name. The answer is stored before it is used, like a proposal (stored-answer.ts), so a
 * retried, redriven or resumed search never pays for it twice. The repaired candidates get new ids
 * (`<id>-repaired`) and are checked again by "Check the repaired rewards".
 *
 * Repair is optional: a request that gives no answer (a refusal, an answer that failed its schema
 * twice, no usable candidate, an API error past its retries) is stored as a failure and the search
 * goes on without repairs; the failed candidates stay failed, with "repair request failed: ..." in
 * their reason. Only failures the code caused go back to the model (the sandbox's verdict, or the
 * check's process running out of memory), never a check that failed for an infrastructure reason.
 */
import type { RepairEvent, RepairResult } from '../shared/search/contracts.ts';
import { checkKey, rewardKey } from '../shared/store/keys.ts';
import type { ProposedCandidate } from '../shared/store/records.ts';
import type { SearchStore } from '../shared/store/search-store.ts';
import type { Candidate, CheckRecord, CheckSummary } from '../shared/search/types.ts';
import { proposedCandidate } from '../shared/store/proposed-candidate.ts';
import { failsScreen, screenLine } from '../shared/words/screen-words.ts';
import type { Screen } from '../shared/search/screen-types.ts';
import { BudgetRefused, checkBudget, refusedStop } from './budget.ts';
import { searchLedger } from './ledger.ts';
import { checkItems, proposeContext, type ProposerFactory } from './propose.ts';
import { ProposeOutOfTime, type FailedWhy, type ProposerAnswer, type RepairContext } from './proposer.ts';
import { materialize, storeAnswer, storeFailure, type StoredCandidate } from './stored-answer.ts';

export const REPAIRED_SUFFIX = '-repaired';
/** The start of a failed repair's reason, on the scoreboard and the card. */
export const REPAIR_FAILED = 'repair request failed';

type Failed = ProposedCandidate & Candidate & FailedWhy;

export async function repair(store: SearchStore, event: RepairEvent, makeProposer: ProposerFactory, timeLeftMs?: () => number): Promise<RepairResult> {
  const { searchId, generation } = event;
  const meta = await store.meta(searchId);
  const none: RepairResult = { generation, checks: [] };
  let record = await store.answer(searchId, generation, 'repair');
  if (!record) {
    if (!meta.config.repair) return none;
    const failed = await failedCandidates(store, event, meta.config.screen === 'repair');
    if (failed.length === 0) return none;
    try {
      const context: RepairContext = { ...(await proposeContext(store, meta, searchId, generation)), failed };
      const proposer = await makeProposer(meta.config);
      const stop = await checkBudget(store, searchId, meta.config, generation, 'repair', proposer.worstCaseCostUsd(context));
      if (stop !== null) return none;
      const answer = await proposer.repair(context, searchLedger(store, searchId, generation, 'repair', meta.config.model, meta.config.maxCostUsd, timeLeftMs));
      record = await storeAnswer(store, searchId, generation, 'repair', answer, repaired(failed, answer));
    } catch (error) {
      // Out of time: not a failure of the repair; the Task's retry sends it (nothing is recorded).
      if (error instanceof ProposeOutOfTime) throw error;
      // Refused by the budget: not sent, so nothing to record as the repair's answer; the search stops.
      if (error instanceof BudgetRefused) {
        await refusedStop(store, searchId, meta.config, generation, error);
        return none;
      }
      const why = error instanceof Error ? error.message : String(error);
      record = await storeFailure(store, searchId, generation, 'repair', meta.config,
        { reason: `${REPAIR_FAILED}: ${why}`, candidateIds: failed.map((f) => f.candidateId) });
    }
  }
  if (record.failure) return { generation, checks: [], failure: record.failure.reason };
  await materialize(store, searchId, generation, record.answerKey);
  return { generation, checks: checkItems(searchId, meta.config.task, generation, record.candidates) };
}

/**
 * The candidates of the proposal whose check failed because of their code, with their code and the
 * whole reason from check.json; with `screened`, also those that passed it but fail the screen
 * (screen: "repair"), with the screen's words. The search's own hostile probes are meant to fail,
 * and repairs are not repaired.
 */
async function failedCandidates(store: SearchStore, event: RepairEvent, screened: boolean): Promise<Failed[]> {
  const { searchId, generation } = event;
  const proposal = await store.answer(searchId, generation, 'proposal');
  if (!proposal) return [];
  const checks = new Map(event.checks.filter((c) => c.verdict !== 'ok' || screened).map((c) => [c.candidateId, c]));
  const eligible = proposal.candidates.filter((c) => checks.has(c.candidateId) && c.origin !== 'hostile');
  const found = await Promise.all(eligible.map(async (c): Promise<Failed | null> => {
    const check = await store.blobs.getText(checkKey(searchId, generation, c.candidateId));
    const record = check === undefined ? undefined : (JSON.parse(check) as CheckRecord);
    const summary = checks.get(c.candidateId) as CheckSummary;
    const fault = summary.verdict === 'ok' ? null : codeFault(record, summary);
    const screen = summary.verdict === 'ok' && record?.screen && failsScreen(record.screen) ? record.screen : null;
    if (fault === null && screen === null) return null;
    const code = (await store.blobs.getText(rewardKey(searchId, generation, c.candidateId))) ?? '';
    return fault !== null ? { ...c, code, reason: fault, failedOn: 'check' } : { ...c, code, reason: screenLine(screen as Screen), failedOn: 'screen' };
  }));
  return found.filter((f): f is Failed => f !== null);
}

/**
 * Why the check failed, when the candidate's code is to blame; null for an infrastructure failure.
 * A check.json holds the sandbox's own verdict (a throw, a bad return, its deadline or memory
 * limit). Without one, the check's process failed: out of memory is still the code's doing (nothing
 * else in a check allocates much), while a timeout of the whole function or any other error (a
 * retired container, S3, the Lambda service) is not.
 */
export function codeFault(stored: CheckRecord | undefined, summary: CheckSummary): string | null {
  if (stored !== undefined) return stored.verdict === 'ok' ? null : stored.reason;
  return summary.verdict === 'memory' ? summary.reason : null;
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

