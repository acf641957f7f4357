/**
 * What a proposer is told about the search so far, rebuilt from stored records: the best reward
 * so far (elitist) with its statistics, the latest generation's best when it fell short of it, the
 * baselines' scores on the search's seeds, the last generation's scoreboard, the best by generation.
 */
import type { BaselineScore, GenerationBest, ReflectionBest, ScoreboardEntry } from './reflection.ts';
import { rewardKey } from '../store/keys.ts';
import { BASELINE_GENERATION, type BestPointer, type CandidateRecord } from '../store/records.ts';
import type { SearchStore } from '../store/search-store.ts';

export interface ReflectionContext {
  best: ReflectionBest | null;
  /** The latest generation's best, when it is not the best so far (Eureka reflects on the latest round). */
  latest: ReflectionBest | null;
  scoreboard: ScoreboardEntry[];
  bestByGeneration: GenerationBest[];
  baselines: BaselineScore[];
}

/** The context after `generation` has been reflected on (0: nothing yet). */
export async function loadReflection(store: SearchStore, searchId: string, generation: number, bestSoFar: BestPointer | null): Promise<ReflectionContext> {
  if (generation < 1) return { best: null, latest: null, scoreboard: [], bestByGeneration: [], baselines: [] };
  const candidates = await store.candidates(searchId, generation);
  // A repaired candidate keeps its name: the model is shown the version that counted, once.
  const replaced = new Set(candidates.flatMap((c) => (c.repairOf === undefined ? [] : [c.repairOf])));
  const last = candidates.filter((c) => !replaced.has(c.candidateId));
  const summaries = (await store.summaries(searchId)).filter((s) => s.generation >= 1 && s.generation <= generation);
  const best = bestSoFar ? await bestRecord(store, searchId, bestSoFar) : null;
  const ofLatest = summaries.find((s) => s.generation === generation)?.bestOfGeneration ?? null;
  const latest = ofLatest && !samePointer(ofLatest, bestSoFar) ? await bestRecord(store, searchId, ofLatest) : null;
  return {
    best,
    latest,
    // The search's own hostile probes are not the model's work: shown, they only invite imitation.
    scoreboard: last.filter((c) => c.origin !== 'hostile').map(({ name, idea, success, progress, outcome, reason }) => ({ name, idea, success, progress: progress ?? null, outcome, reason })),
    bestByGeneration: summaries.map((s) => ({
      generation: s.generation,
      name: s.bestOfGeneration?.name ?? '-',
      success: s.bestOfGeneration?.success ?? 0,
      bestSoFar: s.bestSoFar?.success ?? 0,
    })),
    baselines: await loadBaselines(store, searchId),
  };
}

const samePointer = (a: BestPointer, b: BestPointer | null): boolean => b !== null && a.generation === b.generation && a.candidateId === b.candidateId;

/** The baselines as they scored on the search's seeds (none before they trained). */
export async function loadBaselines(store: SearchStore, searchId: string): Promise<BaselineScore[]> {
  return (await store.candidates(searchId, BASELINE_GENERATION)).map((b) => ({
    name: b.name, success: b.success, seeds: b.seeds.map(({ seed, success, progress }) => ({ seed, success, progress: progress ?? null })), progress: b.progress ?? null,
    meanSuccessSteps: b.meanSuccessSteps, meanReturn: b.meanReturn,
  }));
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
    seeds: record.seeds.map(({ seed, success, progress, outcome, reason }) => ({ seed, success, progress: progress ?? null, outcome, reason })),
    meanSuccessSteps: record.meanSuccessSteps,
    meanReturn: record.meanReturn,
    progress: record.progress ?? null,
    terms: record.terms,
    trainSuccessSeries: record.trainSuccessSeries,
    ...(record.episodes === undefined ? {} : { episodes: record.episodes }),
    ...(record.screen === undefined ? {} : { screen: record.screen.line }),
  };
}
