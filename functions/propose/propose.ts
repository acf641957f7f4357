/**
 * "Propose rewards": one answer per generation, paid for once. A stored answer is reused without
 * asking the proposer; a new answer is stored (bucket, then a conditional put in the table) before
 * it is used, so a retried or redriven Propose that lost a race uses the winner's answer.
 */
import { randomUUID } from 'node:crypto';
import type { ProposeEvent, ProposeResult, SearchSettings } from '../shared/contracts.ts';
import { rewardKey, searchPrefix } from '../shared/keys.ts';
import type { ProposedCandidate } from '../shared/records.ts';
import { loadReflection } from '../shared/reflection-context.ts';
import type { SearchStore } from '../shared/search-store.ts';
import { proposedCandidate, seedTasks } from '../reflect/init.ts';
import { HOSTILE_CANDIDATES } from './hostile.ts';
import type { Proposer, ProposerAnswer } from './proposer.ts';
import type { Candidate } from './reflection.ts';

export type ProposerFactory = (settings: SearchSettings) => Promise<Proposer>;

/** The stored answer: every candidate of the generation with its id and code. */
interface StoredAnswer extends Omit<ProposerAnswer, 'candidates'> {
  candidates: Array<ProposedCandidate & { code: string }>;
}

const RAW_IN_TABLE = 32 * 1024;

export async function propose(store: SearchStore, event: ProposeEvent, makeProposer: ProposerFactory): Promise<ProposeResult> {
  const { searchId, generation } = event;
  const meta = await store.meta(searchId);
  let record = await store.proposal(searchId, generation);
  if (!record) {
    const context = await loadReflection(store, searchId, generation - 1, meta.best);
    const proposer = await makeProposer(meta.config);
    const { task, steps, seeds, evalEpisodes, candidates: k, randomSeed, model } = meta.config;
    const answer = await proposer.propose({ task, budget: { steps, seeds, evalEpisodes }, generation, k, randomSeed, model, ...context });
    const stored: StoredAnswer = { ...answer, candidates: withIds(generation, answer.candidates, meta.config) };
    const answerKey = `${searchPrefix(searchId)}/generations/${generation}/proposal-${randomUUID()}.json`;
    await store.blobs.put(answerKey, JSON.stringify(stored), 'application/json');
    record = await store.storeProposal(searchId, generation, {
      proposer: answer.proposer, model: answer.model, usage: answer.usage, costUsd: answer.costUsd,
      promptHash: answer.promptHash, notes: answer.notes, raw: answer.raw.slice(0, RAW_IN_TABLE), answerKey,
      candidates: stored.candidates.map(({ code: _code, ...c }) => c), createdAt: new Date().toISOString(),
    });
  }
  await materialize(store, searchId, generation, record.answerKey);
  return { generation, tasks: seedTasks(searchId, generation, record.candidates.map((c) => c.candidateId), meta.config, 0) };
}

type Origin = ProposedCandidate['origin'];

/** Ids safe for keys and unique in the generation; hostile and human rewards join generation 1. */
function withIds(generation: number, proposed: Candidate[], config: SearchSettings): StoredAnswer['candidates'] {
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

/** Writes each candidate's reward.js from the stored answer (idempotent). */
async function materialize(store: SearchStore, searchId: string, generation: number, answerKey: string): Promise<void> {
  const text = await store.blobs.getText(answerKey);
  if (text === undefined) throw new Error(`the stored answer ${answerKey} is missing`);
  const answer = JSON.parse(text) as StoredAnswer;
  for (const c of answer.candidates) {
    const key = rewardKey(searchId, generation, c.candidateId);
    if (!(await store.blobs.exists(key))) await store.blobs.put(key, c.code, 'text/javascript');
  }
}
