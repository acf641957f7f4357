/**
 * "Publish the winner": score the winner and the baselines on their fresh seeds (the honest score:
 * the search score is the best of many and biased upward), copy the winner's reward and policy,
 * and write summary.json and the card. A pure function of what is stored: safe to retry.
 */
import type { PublishEvent, PublishResult } from '../shared/contracts.ts';
import { rewardKey, seedPolicyPrefix, winnerPrefix } from '../shared/keys.ts';
import { BASELINE_GENERATION, proposerUsage, type CandidateRecord, type MetaRecord } from '../shared/records.ts';
import type { SearchStore } from '../shared/search-store.ts';
import { logger, metrics, MetricUnit } from '../shared/telemetry.ts';
import type { SeedResult, SeedSummary } from '../shared/types.ts';
import { aggregateCandidate, mean, meanOrNull } from '../reflect/aggregate.ts';
import { trainedResults } from '../reflect/reflect.ts';
import { getTask } from '../../tasks/registry.ts';
import { baselinesOf } from '../propose/baselines.ts';
import { stepsAtBudget } from '../shared/chunk-size.ts';
import type { CardData, CardReward } from './card-data.ts';
import { renderCardHtml } from './card-html.ts';
import { renderCardMarkdown } from './card-md.ts';
import { buildSummary, type SearchSummary } from './summary.ts';

export class NoWinner extends Error {
  override readonly name = 'NoWinner';
}

export async function publish(store: SearchStore, event: PublishEvent): Promise<PublishResult> {
  const { searchId } = event;
  const finishedAt = new Date().toISOString();
  const { card, winnerRecord } = await assembleCard(store, searchId, event.freshResults, finishedAt);
  const { winner, baselines } = card;
  const prefix = winnerPrefix(searchId);
  const policySeed = await copyPolicy(store, searchId, winnerRecord, event.freshResults, `${prefix}/policy`);

  const keys = { reward: `${prefix}/reward.js`, cardHtml: `${prefix}/card.html`, cardMd: `${prefix}/card.md`, summary: `${prefix}/summary.json`, policy: `${prefix}/policy/` };
  const summary: SearchSummary = buildSummary(card, keys, policySeed);
  await store.blobs.put(keys.reward, winner.code, 'text/javascript');
  await store.blobs.put(keys.summary, JSON.stringify(summary, null, 2), 'application/json');
  await store.blobs.put(keys.cardMd, renderCardMarkdown(card), 'text/markdown');
  await store.blobs.put(keys.cardHtml, renderCardHtml(card), 'text/html');
  await store.putWinner(searchId, { winner: summary.winner, baselines: summary.baselines, keys, finishedAt });
  await store.updateMeta(searchId, { status: 'finished' });
  recordWinner(card, finishedAt);

  return {
    searchId,
    winner: { generation: winner.generation, candidateId: winner.candidateId, name: winner.name, searchSuccess: winner.searchSuccess, freshSuccess: winner.freshSuccess ?? 0 },
    baselines: baselines.map((b) => ({ candidateId: b.candidateId, searchSuccess: b.searchSuccess, freshSuccess: b.freshSuccess ?? 0 })),
    cardKey: keys.cardHtml,
  };
}

/** The winner's line, its fresh score and the search's duration as metrics. */
function recordWinner(card: CardData, finishedAt: string): void {
  const seconds = (Date.parse(finishedAt) - Date.parse(card.startedAt)) / 1000;
  logger.info('winner published', {
    task: card.task, winner: card.winner.candidateId, generation: card.winner.generation, searchSuccess: card.winner.searchSuccess,
    freshSuccess: card.winner.freshSuccess, durationSeconds: seconds, costUsd: card.proposer.costUsd, stoppedBy: card.stopped?.reason ?? null,
  });
  if (card.winner.freshSuccess !== null) metrics.addMetric('WinnerFreshSuccess', MetricUnit.NoUnit, card.winner.freshSuccess);
  if (Number.isFinite(seconds)) metrics.addMetric('SearchDurationSeconds', MetricUnit.Seconds, seconds);
}

/**
 * The card's data from what is stored: the best so far as the winner, scored on the fresh seeds
 * given, the baselines, every candidate, the person's feedback, the spend and why the search
 * stopped early if it did. With no fresh seeds it is an interim card of the search so far: each
 * reward is shown as it trained on the search's own seeds (its curves, terms and a greedy episode).
 */
export async function assembleCard(
  store: SearchStore, searchId: string, freshResults: SeedSummary[], finishedAt: string, waiting = false,
): Promise<{ card: CardData; winnerRecord: CandidateRecord }> {
  const meta = await store.meta(searchId);
  if (!meta.best) throw new NoWinner(`search ${searchId} has no best candidate to publish`);
  const records = await allCandidates(store, searchId, meta);
  const find = (generation: number, id: string) => records.find((r) => r.generation === generation && r.candidateId === id);
  const winnerRecord = find(meta.best.generation, meta.best.candidateId);
  if (!winnerRecord) throw new NoWinner(`no record of the best candidate ${meta.best.candidateId}`);

  const interim = freshResults.length === 0;
  const winner = await cardReward(store, searchId, winnerRecord, freshResults, interim);
  const baselines = await Promise.all(baselinesOf(getTask(meta.config.task)).map(async (b) => {
    const record = find(BASELINE_GENERATION, b.name);
    if (!record) throw new NoWinner(`no record of the baseline ${b.name}`);
    return cardReward(store, searchId, record, freshResults, interim);
  }));
  const answers = await store.answers(searchId);
  const card: CardData = {
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
    winner,
    baselines,
    bestByGeneration: (await store.summaries(searchId)).map((s) => ({
      generation: s.generation, name: s.bestOfGeneration?.name ?? '-', success: s.bestOfGeneration?.success ?? 0, bestSoFar: s.bestSoFar?.success ?? 0,
    })),
    candidates: records.map((r) => ({
      generation: r.generation, candidateId: r.candidateId, name: r.name, idea: r.idea, hostile: r.origin === 'hostile',
      success: r.success, meanSuccessSteps: r.meanSuccessSteps, meanReturn: r.meanReturn, outcome: r.outcome, reason: r.reason,
      failedCheck: r.check !== null && r.check !== undefined && r.check.verdict !== 'ok', repairOf: r.repairOf ?? null,
      seeds: r.seeds.map(({ seed, success, outcome, reason }) => ({ seed, success, outcome, reason })),
      stopped: r.stopped ?? null,
      trainSuccessArea: r.trainSuccessArea ?? null,
    })),
    feedback: (await store.feedbacks(searchId)).flatMap((f) => (f.answer ? [{ generation: f.generation, action: f.answer.action, text: f.answer.text ?? '' }] : [])),
    stopped: meta.stoppedBy ?? null,
    interim,
    waiting: interim && waiting,
    compute: computeOf(records, freshResults, stepsAtBudget(getTask(meta.config.task), meta.config.steps)),
    races: (await store.races(searchId)).filter((race) => race.schedule.length > 1),
  };
  return { card, winnerRecord };
}

/**
 * What the search trained, every seed-run of it (the baselines' and the fresh seeds' included), and
 * what it would have without racing: the same, each seed-run the race stopped counted to the budget.
 */
export function computeOf(records: CandidateRecord[], fresh: SeedSummary[], budget: number): { stepsTrained: number; stepsFullBudget: number } {
  // budget: the steps a seed-run trains to the full budget (whole rollouts: stepsAtBudget).
  const seeds = [...records.flatMap((r) => r.seeds), ...fresh];
  const trained = (s: { stepsTrained?: number }) => s.stepsTrained ?? budget;
  return {
    stepsTrained: seeds.reduce((n, s) => n + trained(s), 0),
    stepsFullBudget: seeds.reduce((n, s) => n + (s.outcome === 'stopped' ? budget : trained(s)), 0),
  };
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
  const scored = interim ? record.seeds.map((s) => ({ ...s, candidateId: record.candidateId, stepsTrained: s.stepsTrained ?? 0, trainSuccessArea: null })) : mine;
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
    searchSuccessSteps: record.meanSuccessSteps,
    searchReturn: record.meanReturn,
    freshSuccess: mine.length > 0 ? agg.success : null,
    freshSuccessSteps: agg.meanSuccessSteps,
    freshReturn: agg.meanReturn,
    freshSeeds: agg.seeds.map(({ seed, success, outcome, reason }) => ({ seed, success, outcome, reason })),
    curve: meanCurve(results),
    terms: agg.terms,
    episode: best?.episode ?? null,
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

/** Copies the policy of the winner's best fresh seed; returns that seed (null if no policy was saved). */
async function copyPolicy(store: SearchStore, searchId: string, record: CandidateRecord, fresh: SeedSummary[], to: string): Promise<number | null> {
  const trained = fresh.filter((s) => s.candidateId === record.candidateId && s.outcome === 'trained')
    .sort((a, b) => b.success - a.success || a.seed - b.seed);
  if (trained.length === 0) return null;
  const from = seedPolicyPrefix(searchId, record.generation, record.candidateId, trained[0].seed);
  const keys = await store.blobs.list(`${from}/`);
  for (const key of keys) {
    const body = await store.blobs.get(key);
    if (body) await store.blobs.put(`${to}/${key.slice(from.length + 1)}`, body);
  }
  return keys.length > 0 ? trained[0].seed : null;
}
