/**
 * "Propose rewards": one answer per generation, paid for once. A stored answer is reused without
 * asking the proposer; a new answer is stored (bucket, then a conditional put in the table) before
 * it is used, so a retried or redriven Propose that lost a race uses the winner's answer. Before a
 * new request the budget is checked (budget.ts): a request that could pass maxCostUsd is not sent,
 * and the search finishes early with what it has.
 */
import type { ProposeEvent, ProposeResult, SearchSettings } from '../shared/search/contracts.ts';
import { keepFeedback } from '../shared/store/feedback-copy.ts';
import type { MetaRecord, ProposedCandidate } from '../shared/store/records.ts';
import { loadReflection } from '../shared/words/reflection-context.ts';
import type { SearchStore } from '../shared/store/search-store.ts';
import type { Candidate, CheckItem } from '../shared/search/types.ts';
import { proposedCandidate } from '../shared/store/proposed-candidate.ts';
import { BudgetRefused, checkBudget, refusedStop } from './budget.ts';
import { searchLedger } from './ledger.ts';
import { HOSTILE_CANDIDATES } from './hostile.ts';
import { getTask } from '../../tasks/registry.ts';
import { loadParents, peopleOf } from './parents.ts';
import type { ProposeContext, Proposer } from './proposer.ts';
import { materialize, storeAnswer, type StoredCandidate } from './stored-answer.ts';

export type ProposerFactory = (settings: SearchSettings) => Promise<Proposer>;

/** `timeLeftMs`: the invocation's deadline (Lambda's getRemainingTimeInMillis), when there is one. */
export async function propose(store: SearchStore, event: ProposeEvent, makeProposer: ProposerFactory, timeLeftMs?: () => number): Promise<ProposeResult> {
  const { searchId, generation } = event;
  const meta = await store.meta(searchId);
  // The person's words come with the execution; the record keeps a copy before the prompt reads it.
  await keepFeedback(store, searchId, event.feedback);
  let record = await store.answer(searchId, generation, 'proposal');
  if (!record) {
    const context = await proposeContext(store, meta, searchId, generation);
    const proposer = await makeProposer(meta.config);
    const stop = await checkBudget(store, searchId, meta.config, generation, 'propose', proposer.worstCaseCostUsd(context));
    if (stop !== null) return { generation, checks: [], stopped: 'budget' };
    let answer;
    try {
      answer = await proposer.propose(context, searchLedger(store, searchId, generation, 'proposal', meta.config.model, meta.config.maxCostUsd, timeLeftMs));
    } catch (error) {
      if (!(error instanceof BudgetRefused)) throw error;
      await refusedStop(store, searchId, meta.config, generation, error);
      return { generation, checks: [], stopped: 'budget' };
    }
    record = await storeAnswer(store, searchId, generation, 'proposal', answer, withIds(generation, answer.candidates, meta.config));
  }
  await materialize(store, searchId, generation, record.answerKey);
  return { generation, checks: checkItems(searchId, meta.config.task, generation, record.candidates), stopped: null };
}

/** What the proposer is asked: the task and budget, and the search so far (a person's feedback included). */
export async function proposeContext(store: SearchStore, meta: MetaRecord, searchId: string, generation: number): Promise<ProposeContext> {
  const reflection = await loadReflection(store, searchId, generation - 1, meta.best);
  const { task, steps, seeds, evalEpisodes, candidates: k, randomSeed, model } = meta.config;
  const said = generation > 1 ? (await store.feedback(searchId, generation - 1))?.answer?.text?.trim() : undefined;
  const breeding = meta.config.proposer !== 'offline' ? {}
    : generation === 1 ? { people: peopleOf(meta.config) } : { parents: await loadParents(store, searchId, generation - 1, getTask(meta.config.task).tieBreak) };
  return { task, budget: { steps, seeds, evalEpisodes }, generation, k, randomSeed, model, ...reflection, feedback: said || null, ...breeding };
}

/** One sandbox check per candidate, in TrainSeed. */
export function checkItems(searchId: string, task: string, generation: number, candidates: ProposedCandidate[]): CheckItem[] {
  return candidates.map(({ candidateId }) => ({ kind: 'check', searchId, task, generation, candidateId }));
}

type Origin = ProposedCandidate['origin'];

/** Ids safe for keys and unique in the generation; hostile and human rewards join generation 1. */
function withIds(generation: number, proposed: Candidate[], config: SearchSettings): StoredCandidate[] {
  const tagged = (cs: readonly Candidate[], origin: Origin) => cs.map((c) => ({ c, origin }));
  const all = [
    ...tagged(proposed, 'proposer'),
    ...(generation === 1 ? tagged(config.humanInit, 'human') : []),
    ...(generation === 1 && config.includeHostile ? tagged(HOSTILE_CANDIDATES, 'hostile') : []),
  ];
  return all.map(({ c, origin }, i) => {
    const candidateId = origin === 'hostile' ? c.name : `${String(i + 1).padStart(2, '0')}-${slug(c.name)}`;
    return { ...proposedCandidate(candidateId, c, origin), code: c.code };
  });
}

function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'reward';
}
