/**
 * What the offline proposer breeds from (offline.ts): the rewards people wrote, for generation 1,
 * and after it the best rewards the search has trained so far (the baselines among them, which
 * never compete for the best so far but are good parents), each with its code, score and term
 * statistics, rebuilt from the store like the rest of the proposer's context.
 */
import { compareCandidates } from '../shared/results/aggregate.ts';
import { baselinesOf } from '../shared/search/baselines.ts';
import { rewardKey } from '../shared/store/keys.ts';
import type { CandidateRecord, MetaRecord } from '../shared/store/records.ts';
import type { Candidate } from '../shared/search/types.ts';
import type { SearchStore } from '../shared/store/search-store.ts';
import type { TieBreak } from '../../tasks/contract.ts';
import { getTask } from '../../tasks/registry.ts';
import type { ParentReward } from './proposer.ts';
import { PARENTS } from './offline.ts';

/** --human-init first, then the person's shaping and the environment's reward. */
export function peopleOf(config: MetaRecord['config']): Candidate[] {
  return [...config.humanInit, ...baselinesOf(getTask(config.task)).reverse()];
}

/** The best fully trained rewards of generations 0 to `generation`, best first, as the search ranks (success, then progress, ...). */
export async function loadParents(store: SearchStore, searchId: string, generation: number, tieBreak: TieBreak): Promise<ParentReward[]> {
  const records = (await Promise.all(Array.from({ length: generation + 1 }, (_, g) => store.candidates(searchId, g)))).flat();
  const ranked = records
    // A twin (the same reward on the whole bank, trained once as its partner) carries its partner's
    // scores and outcome: it is the same parent, not another one.
    .filter((r) => r.outcome === 'trained' && r.origin !== 'hostile' && r.twinOf === undefined)
    .sort((a, b) => compareCandidates(a, b, tieBreak))
    .slice(0, PARENTS);
  return Promise.all(ranked.map(async (r: CandidateRecord) => ({
    candidate: { name: r.name, idea: r.idea, code: (await store.blobs.getText(rewardKey(searchId, r.generation, r.candidateId))) ?? '' },
    success: r.success,
    terms: r.terms,
  })));
}
