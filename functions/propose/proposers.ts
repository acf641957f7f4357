/** Picks the proposer a search asked for. The model proposers load only when asked for. */
import { createHash } from 'node:crypto';
import type { SearchSettings } from '../shared/contracts.ts';
import { getTask } from '../../tasks/registry.ts';
import { proposeOffline } from './offline.ts';
import type { Proposer } from './proposer.ts';

export async function createProposer(settings: SearchSettings): Promise<Proposer> {
  if (settings.proposer === 'offline') return offlineProposer;
  const { createModelProposer } = await import('./model-proposer.ts');
  const { proposer, model, effort } = settings;
  return createModelProposer({ proposer, model, effort });
}

const offlineProposer: Proposer = {
  async propose(context) {
    const candidates = proposeOffline({
      task: getTask(context.task),
      generation: context.generation,
      k: context.k,
      randomSeed: context.randomSeed,
      best: context.best,
      scoreboard: context.scoreboard,
    });
    const promptHash = createHash('sha256').update(JSON.stringify(context)).digest('hex');
    return { candidates, proposer: 'offline', model: 'offline-grammar', raw: '', usage: null, costUsd: 0, notes: [], promptHash };
  },
};
