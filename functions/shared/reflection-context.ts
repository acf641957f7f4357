/**
 * What a proposer is told about the search so far, rebuilt from stored records: the best reward
 * so far (elitist) with its statistics, the last generation's scoreboard, the best by generation.
 */
import type { GenerationBest, ReflectionBest, ScoreboardEntry } from './reflection.ts';
import { rewardKey } from './keys.ts';
import type { BestPointer, CandidateRecord } from './records.ts';
import type { SearchStore } from './search-store.ts';

export interface ReflectionContext {
  best: ReflectionBest | null;
  scoreboard: ScoreboardEntry[];
  bestByGeneration: GenerationBest[];
}

/** The context after `generation` has been reflected on (0: nothing yet). */
export async function loadReflection(store: SearchStore, searchId: string, generation: number, bestSoFar: BestPointer | null): Promise<ReflectionContext> {
  if (generation < 1) return { best: null, scoreboard: [], bestByGeneration: [] };
  const candidates = await store.candidates(searchId, generation);
  // A repaired candidate keeps its name: the model is shown the version that counted, once.
  const replaced = new Set(candidates.flatMap((c) => (c.repairOf === undefined ? [] : [c.repairOf])));
  const last = candidates.filter((c) => !replaced.has(c.candidateId));
  const summaries = (await store.summaries(searchId)).filter((s) => s.generation >= 1 && s.generation <= generation);
  const best = bestSoFar ? await bestRecord(store, searchId, bestSoFar) : null;
  return {
    best,
    // The search's own hostile probes are not the model's work: shown, they only invite imitation.
    scoreboard: last.filter((c) => c.origin !== 'hostile').map(({ name, idea, success, outcome, reason }) => ({ name, idea, success, outcome, reason })),
    bestByGeneration: summaries.map((s) => ({
      generation: s.generation,
      name: s.bestOfGeneration?.name ?? '-',
      success: s.bestOfGeneration?.success ?? 0,
      bestSoFar: s.bestSoFar?.success ?? 0,
    })),
  };
}

async function bestRecord(store: SearchStore, searchId: string, pointer: BestPointer): Promise<ReflectionBest | null> {
  const record = (await store.candidates(searchId, pointer.generation)).find((c) => c.candidateId === pointer.candidateId);
  if (!record) return null;
  const code = (await store.blobs.getText(rewardKey(searchId, pointer.generation, pointer.candidateId))) ?? '';
  return toReflectionBest(record, code);
}

export function toReflectionBest(record: CandidateRecord, code: string): ReflectionBest {
  return {
    candidate: { name: record.name, idea: record.idea, code },
    generation: record.generation,
    success: record.success,
    seeds: record.seeds.map(({ seed, success, outcome, reason }) => ({ seed, success, outcome, reason })),
    meanSuccessSteps: record.meanSuccessSteps,
    meanReturn: record.meanReturn,
    diagnostic: record.diagnostic,
    terms: record.terms,
    trainSuccessSeries: record.trainSuccessSeries,
  };
}
