/** Picks the proposer a search asked for. The model proposers and the local answerers load only when asked for. */
import { createHash } from 'node:crypto';
import type { SearchSettings } from '../shared/search/contracts.ts';
import { getTask } from '../../tasks/registry.ts';
import { proposeOffline } from './offline.ts';
import type { ProposeContext, Proposer, ProposerAnswer } from './proposer.ts';
import type { Candidate } from '../shared/search/types.ts';

export async function createProposer(settings: SearchSettings): Promise<Proposer> {
  if (settings.proposer === 'offline') return offlineProposer;
  if (settings.proposer === 'command' || settings.proposer === 'files') {
    const { localAnswerer } = await import('./local-answerer.ts');
    return localAnswerer(settings);
  }
  const { createModelProposer } = await import('./model-proposer.ts');
  const { proposer, model, effort, thinkingBudget } = settings;
  return createModelProposer({ proposer, model, effort, thinkingBudget });
}

/** Seeds the repair's samples apart from the generation's own. */
const REPAIR_SEED_SALT = 0x9e3779b9;

/** The grammar writes no broken code, so it answers a repair with fresh samples under the failed names. */
export const offlineProposer: Proposer = {
  async propose(context) {
    return offlineAnswer(context, offline(context, context.k, context.randomSeed), []);
  },
  async repair(context) {
    const samples = offline({ ...context, best: null, people: [] }, context.failed.length, (context.randomSeed ^ REPAIR_SEED_SALT) >>> 0);
    const candidates = context.failed.map((f, i) => ({ ...samples[i], name: f.name, idea: `A replacement for ${f.name}, which failed ${f.failedOn === 'screen' ? 'the screen' : 'its check'}: ${samples[i].idea}` }));
    return offlineAnswer(context, candidates, [`The offline grammar cannot fix code: it sampled ${candidates.length} replacement${candidates.length === 1 ? '' : 's'}.`]);
  },
  worstCaseCostUsd: () => 0,
};

function offline(context: ProposeContext, k: number, randomSeed: number): Candidate[] {
  const { generation, best, scoreboard, people, parents } = context;
  return proposeOffline({ task: getTask(context.task), generation, k, randomSeed, best, scoreboard, people, parents });
}

function offlineAnswer(context: ProposeContext, candidates: Candidate[], notes: string[]): ProposerAnswer {
  const promptHash = createHash('sha256').update(JSON.stringify(context)).digest('hex');
  return { analysis: '', candidates, proposer: 'offline', model: 'offline-grammar', raw: '', usage: null, costUsd: 0, notes, promptHash };
}
