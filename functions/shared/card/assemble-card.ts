/**
 * The card's data from what is stored, for the final card (Publish) and the interim one written
 * after every generation (Reflect): the two steps meet here and in the store, never in each other.
 */
import { rewardKey } from '../store/keys.ts';
import { BASELINE_GENERATION, proposerUsage, type CandidateRecord, type MetaRecord } from '../store/records.ts';
import type { SearchStore } from '../store/search-store.ts';
import type { SeedResult, SeedSummary } from '../search/types.ts';
import { aggregateCandidate, mean, meanOrNull } from '../results/aggregate.ts';
import { trainedResults } from '../results/trained-results.ts';
import { baselinesOf } from '../search/baselines.ts';
import { stepsAtBudget } from '../search/chunk-size.ts';
import { getTask, prepareTask } from '../../../tasks/registry.ts';
import type { CardData, CardReward, NoWinnerCardData } from './card-data.ts';
import { nothingTrainedReason } from './nothing-trained.ts';

/** The record of the best candidate or of a baseline is missing: the store does not hold what the search pointed at. */
export class NoWinner extends Error {
  override readonly name = 'NoWinner';
}

/**
 * The card's data from what is stored: the best so far as the winner, scored on the fresh seeds
 * given, the baselines, every candidate, the person's feedback, the spend and why the search
 * stopped early if it did. With no fresh seeds it is an interim card of the search so far: each
 * reward is shown as it trained on the search's own seeds (its curves, terms and a greedy episode).
 */
export async function assembleCard(
  store: SearchStore, searchId: string, freshResults: SeedSummary[], finishedAt: string, waiting = false,
): Promise<{ card: CardData; winnerRecord: CandidateRecord } | { card: NoWinnerCardData; winnerRecord: null }> {
  const meta = await store.meta(searchId);
  const records = await allCandidates(store, searchId, meta);
  const find = (generation: number, id: string) => records.find((r) => r.generation === generation && r.candidateId === id);
  // The card draws the task's episodes: a robot's from its engine's own geometry, loaded here.
  const task = await prepareTask(meta.config.task);
  if (!meta.best) {
    // Nothing trained: the card says why, with what the baselines that trained scored on the search's seeds.
    const baselines = await Promise.all(baselinesOf(task).flatMap((b) => {
      const record = find(BASELINE_GENERATION, b.name);
      return record === undefined ? [] : [cardReward(store, searchId, record, freshResults, true)];
    }));
    const rest = await cardRest(store, searchId, meta, records, freshResults, finishedAt, false);
    return { card: { ...rest, winner: null, baselines, interim: false, nothingTrained: nothingTrainedReason(records, meta.stoppedBy ?? null) }, winnerRecord: null };
  }
  const winnerRecord = find(meta.best.generation, meta.best.candidateId);
  if (!winnerRecord) throw new NoWinner(`no record of the best candidate ${meta.best.candidateId}`);

  const interim = freshResults.length === 0;
  const winner = await cardReward(store, searchId, winnerRecord, freshResults, interim);
  const baselines = await Promise.all(baselinesOf(task).map(async (b) => {
    const record = find(BASELINE_GENERATION, b.name);
    if (!record) throw new NoWinner(`no record of the baseline ${b.name}`);
    return cardReward(store, searchId, record, freshResults, interim);
  }));
  const rest = await cardRest(store, searchId, meta, records, freshResults, finishedAt, interim && waiting);
  return { card: { ...rest, winner, baselines, interim }, winnerRecord };
}

/** Everything on a card but its winner and baselines: the search, its candidates, its people, its compute. */
async function cardRest(
  store: SearchStore, searchId: string, meta: MetaRecord, records: CandidateRecord[], freshResults: SeedSummary[], finishedAt: string, waiting: boolean,
): Promise<Omit<CardData, 'winner' | 'baselines' | 'interim'>> {
  const answers = await store.answers(searchId);
  return {
    task: meta.config.task,
    searchId,
    startedAt: meta.startedAt,
    finishedAt,
    config: { ...meta.config },
    proposer: {
      kind: meta.config.proposer,
      model: answers[0]?.model ?? meta.config.model,
      ...proposerUsage(answers, await store.bills(searchId)),
    },
    bestByGeneration: (await store.summaries(searchId)).map((s) => ({
      generation: s.generation, name: s.bestOfGeneration?.name ?? '-', success: s.bestOfGeneration?.success ?? 0, bestSoFar: s.bestSoFar?.success ?? 0,
    })),
    candidates: records.map((r) => ({
      generation: r.generation, candidateId: r.candidateId, name: r.name, idea: r.idea, hostile: r.origin === 'hostile',
      success: r.success, progress: r.progress ?? null, meanSuccessSteps: r.meanSuccessSteps, meanReturn: r.meanReturn, outcome: r.outcome, reason: r.reason,
      failedCheck: r.check !== null && r.check !== undefined && r.check.verdict !== 'ok', repairOf: r.repairOf ?? null,
      seeds: r.seeds.map(({ seed, success, progress, outcome, reason }) => ({ seed, success, progress: progress ?? null, outcome, reason })),
      stopped: r.stopped ?? null,
      trainSuccessArea: r.trainSuccessArea ?? null,
      ...(r.screen === undefined ? {} : { screen: r.screen }),
    })),
    feedback: (await store.feedbacks(searchId)).flatMap((f) => (f.answer ? [{ generation: f.generation, action: f.answer.action, text: f.answer.text ?? '' }] : [])),
    stopped: meta.stoppedBy ?? null,
    waiting,
    compute: computeOf(records, freshResults, stepsAtBudget(getTask(meta.config.task), meta.config.steps)),
    races: (await store.races(searchId)).filter((race) => race.schedule.length > 1),
    ...(meta.estimate === undefined ? {} : { estimate: meta.estimate }),
    analyses: await analysesOf(store, searchId, meta.config.generations),
  };
}

/**
 * What the search trained, every seed-run of it (the baselines' and the fresh seeds' included), and
 * what it would have without racing: the same, each seed-run the race stopped counted to the budget.
 */
export function computeOf(records: CandidateRecord[], fresh: SeedSummary[], budget: number): { stepsTrained: number; stepsFullBudget: number; seedRunSeconds: number } {
  // budget: the steps a seed-run trains to the full budget (whole rollouts: stepsAtBudget).
  const seeds = [...records.flatMap((r) => r.seeds), ...fresh];
  const trained = (s: { stepsTrained?: number }) => s.stepsTrained ?? budget;
  return {
    stepsTrained: seeds.reduce((n, s) => n + trained(s), 0),
    stepsFullBudget: seeds.reduce((n, s) => n + (s.outcome === 'stopped' ? budget : trained(s)), 0),
    seedRunSeconds: seeds.reduce((n, s) => n + (s.wallSeconds ?? 0), 0),
  };
}

/** Each generation's analysis as the proposer wrote it, proposal and repair (generations not proposed are left out). */
async function analysesOf(store: SearchStore, searchId: string, generations: number): Promise<NonNullable<CardData['analyses']>> {
  const each = await Promise.all(Array.from({ length: generations }, async (_, g) => {
    const [proposal, repair] = await Promise.all([store.answer(searchId, g + 1, 'proposal'), store.answer(searchId, g + 1, 'repair')]);
    return proposal ? [{ generation: g + 1, proposal: proposal.analysis ?? '', repair: repair ? repair.analysis ?? '' : null }] : [];
  }));
  return each.flat();
}

async function allCandidates(store: SearchStore, searchId: string, meta: MetaRecord): Promise<CandidateRecord[]> {
  const generations = Array.from({ length: meta.config.generations + 1 }, (_, g) => g);
  return (await Promise.all(generations.map((g) => store.candidates(searchId, g)))).flat();
}

/**
 * A reward's search score beside its fresh-seed score, and its curve, terms and one greedy episode:
 * from its fresh seeds, or (interim) from the search's own seeds it was scored on.
 */
async function cardReward(store: SearchStore, searchId: string, record: CandidateRecord, fresh: SeedSummary[], interim: boolean): Promise<CardReward> {
  const mine = fresh.filter((s) => s.candidateId === record.candidateId);
  // Interim: the search's own seeds it was scored on (to the budget, or to the rung the race stopped it at).
  const scored = interim
    ? record.seeds.map((s) => ({ ...s, candidateId: record.candidateId, progress: s.progress ?? null, stepsTrained: s.stepsTrained ?? 0, trainSuccessArea: null }))
    : mine;
  const results = await trainedResults(store, searchId, record.generation, scored);
  const agg = aggregateCandidate(record, record.generation, mine, results);
  const best = [...results].sort((a, b) => b.success - a.success || a.seed - b.seed)[0];
  return {
    candidateId: record.candidateId,
    generation: record.generation,
    name: record.name,
    idea: record.idea,
    code: (await store.blobs.getText(rewardKey(searchId, record.generation, record.candidateId))) ?? '',
    hostile: record.origin === 'hostile',
    searchSuccess: record.success,
    searchProgress: record.progress ?? null,
    searchSuccessSteps: record.meanSuccessSteps,
    searchReturn: record.meanReturn,
    freshSuccess: mine.length > 0 ? agg.success : null,
    freshProgress: mine.length > 0 ? agg.progress : null,
    freshSuccessSteps: agg.meanSuccessSteps,
    freshReturn: agg.meanReturn,
    freshSeeds: agg.seeds.map(({ seed, success, progress, outcome, reason }) => ({ seed, success, progress: progress ?? null, outcome, reason })),
    curve: meanCurve(results),
    terms: agg.terms,
    episode: best?.episode ?? null,
    episodes: results.flatMap((r) => (r.episodes ? [{ seed: r.seed, ...r.episodes }] : [])),
    freshLearning: interim ? undefined : { trainSuccessArea: agg.trainSuccessArea, stepsToHalfSuccess: agg.stepsToHalfSuccess },
  };
}

/** The seeds' mean curve; a point where no seed measured a value (no episode ended) is a gap (null). */
function meanCurve(results: SeedResult[]): CardReward['curve'] {
  const length = Math.min(...results.map((r) => r.curve.length));
  if (!Number.isFinite(length)) return [];
  return Array.from({ length }, (_, k) => ({
    step: results[0].curve[k].step,
    meanReward: mean(results.map((r) => r.curve[k].meanReward)),
    trainSuccess: meanOrNull(results.map((r) => r.curve[k].trainSuccess ?? null)),
    episodeLength: meanOrNull(results.map((r) => r.curve[k].episodeLength ?? null)),
  }));
}
