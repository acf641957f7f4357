/**
 * "Reflect on results": record each candidate's check and aggregate its seed-runs, rank the generation, keep the best
 * so far (elitist: a worse generation never replaces it), write the scoreboard and the reflection
 * the next proposer reads, and say whether to go on or re-check the winner on fresh seeds.
 */
import type { ReflectEvent, ReflectResult } from '../shared/search/contracts.ts';
import { BASELINE_GENERATION, FAILED_CHECK, SCREEN_KEPT, type BestPointer, type CandidateRecord, type ProposedCandidate, type RaceRecord, type RequestFailure, type ScreenNote } from '../shared/store/records.ts';
import { loadBaselines, loadReflection, toReflectionBest } from '../shared/words/reflection-context.ts';
import { rewardKey } from '../shared/store/keys.ts';
import { failsScreen, screenLine } from '../shared/words/screen-words.ts';
import { loadScreenPlan, storedScreen, type ScreenPlan } from './screen-plan.ts';
import type { SearchStore } from '../shared/store/search-store.ts';
import { logger, metrics, MetricUnit } from '../shared/ops/telemetry.ts';
import type { CheckSummary, SeedSummary } from '../shared/search/types.ts';
import { getTask } from '../../tasks/registry.ts';
import { baselinesOf } from '../shared/search/baselines.ts';
import { reflectionText } from '../shared/words/reflection.ts';
import type { TieBreak } from '../../tasks/contract.ts';
import { aggregateCandidate, compareRecords, compareScores, pointerOf, stageOf } from '../shared/results/aggregate.ts';
import { freshTasks } from './fresh-seeds.ts';
import { writeInterimCard } from './interim-card.ts';
import { trainedResults } from '../shared/results/trained-results.ts';
import { proposedCandidate } from '../shared/store/proposed-candidate.ts';
import { testMoment } from '../shared/ops/test-hold.ts';

export class MissingProposal extends Error {
  override readonly name = 'MissingProposal';
}

export async function reflect(store: SearchStore, event: ReflectEvent): Promise<ReflectResult> {
  const { searchId, generation } = event;
  const meta = await store.meta(searchId);
  const proposal = await store.answer(searchId, generation, 'proposal');
  if (!proposal) throw new MissingProposal(`generation ${generation} of ${searchId} has no stored proposal`);

  const task = getTask(meta.config.task);
  const baselines = baselinesOf(task).map((b) => proposedCandidate(b.name, b, 'baseline'));
  await recordCandidates(store, searchId, BASELINE_GENERATION, baselines, event.baselines);
  const repairAnswer = await store.answer(searchId, generation, 'repair');
  const repaired = repairAnswer?.candidates ?? [];
  const checks = new Map([...event.checks, ...event.repairChecks].map((c) => [c.candidateId, c]));
  const race = (await store.race(searchId, generation)) ?? null;
  const screened = { plan: await loadScreenPlan(store, searchId, generation), notes: await screenNotes(store, searchId, generation, [...checks.keys()]) };
  const ranked = (await recordCandidates(store, searchId, generation, [...proposal.candidates, ...repaired], event.seedResults, checks, race, repairAnswer?.failure, screened))
    .sort((a, b) => compareRecords(a, b, task.tieBreak));
  // The kill-and-resume test's moment (test-hold.ts): the records written, the summary not yet.
  testMoment('reflect', `g${generation}`);

  // Only a reward that trained to the budget on at least one seed can be the generation's best: never
  // one the race stopped (its score is a partial one), one that failed its check, or one whose every
  // seed-run faulted (a timeout, a memory cap, an error: nothing was learned, so there is nothing to
  // re-check or publish). A search in which none trained ends with a card that says why (nothing-trained.ts).
  const finalist = ranked.find((c) => stageOf(c) === 0 && c.twinOf === undefined);
  const bestOfGeneration = finalist ? pointerOf(finalist) : null;
  // The best before this generation is the previous generation's summary's, not the search's: a
  // resumed search replays every Reflect, and by then the search's best may be a later generation's.
  const before = generation > 1 ? (await store.summary(searchId, generation - 1))?.bestSoFar ?? null : null;
  const bestSoFar = better(bestOfGeneration, before, task.tieBreak);
  const context = await loadReflection(store, searchId, generation - 1, before);
  const bestByGeneration = [...context.bestByGeneration, {
    generation, name: bestOfGeneration?.name ?? '-', success: bestOfGeneration?.success ?? 0, bestSoFar: bestSoFar?.success ?? 0,
  }];
  const scoreboard = ranked.map(({ candidateId, name, idea, success, progress, meanSuccessSteps, meanReturn, outcome, reason, stopped, screen }) =>
    ({ candidateId, name, idea, success, progress, meanSuccessSteps, meanReturn, outcome, reason, stopped, ...(screen === undefined ? {} : { screen: screen.line }) }));
  // The best so far is this generation's best or the one the context already holds; this
  // generation's best is shown beside it when it fell short.
  const top = ranked.find((c) => c.twinOf === undefined) ?? ranked[0];
  const ofGeneration = top !== undefined
    ? toReflectionBest(top, (await store.blobs.getText(rewardKey(searchId, generation, top.candidateId))) ?? '')
    : null;
  const best = bestSoFar && bestSoFar !== before ? ofGeneration : context.best;
  const latest = best === ofGeneration ? null : ofGeneration;
  const reflection = reflectionText(task, { best, latest, scoreboard, bestByGeneration, baselines: await loadBaselines(store, searchId) });
  await store.putSummary(searchId, { generation, scoreboard, bestOfGeneration, bestSoFar, reflection });
  await store.updateMeta(searchId, { best: bestSoFar });
  recordGeneration(ranked, bestOfGeneration, bestSoFar);
  // A person can watch the search as it runs: eureka show --open.
  await writeInterimCard(store, searchId, generation, false);

  // A budget that refused this generation's repair request ends the search after it.
  const more = generation < meta.config.generations && !meta.stoppedBy;
  return {
    generation,
    nextGeneration: generation + 1,
    more,
    best: bestSoFar ? { generation: bestSoFar.generation, candidateId: bestSoFar.candidateId, success: bestSoFar.success } : { generation, candidateId: '', success: 0 },
    freshTasks: more || !bestSoFar ? [] : freshTasks(searchId, bestSoFar, meta.config),
  };
}

/**
 * Aggregates and stores each candidate's seed-runs of one generation. A candidate that failed its
 * check never trained: its outcome is the check's, its score 0 (and, if its repair request failed, why).
 */
async function recordCandidates(
  store: SearchStore, searchId: string, generation: number, candidates: ProposedCandidate[], summaries: SeedSummary[],
  checks: Map<string, CheckSummary> = new Map(), race: RaceRecord | null = null, repairFailure?: RequestFailure,
  screened: { plan: ScreenPlan | null; notes: Map<string, ScreenNote> } = { plan: null, notes: new Map() },
): Promise<CandidateRecord[]> {
  const records = await Promise.all(candidates.map(async (candidate) => {
    const check = checks.get(candidate.candidateId);
    const mine = summaries.filter((s) => s.candidateId === candidate.candidateId);
    const results = await trainedResults(store, searchId, generation, mine);
    const record = check !== undefined && check.verdict !== 'ok'
      ? failedCheck(candidate, generation, check, repairFailure?.candidateIds.includes(candidate.candidateId) ? repairFailure.reason : undefined)
      : check === undefined && mine.length === 0 ? neverChecked(candidate, generation)
        : aggregateCandidate(candidate, generation, mine, results, check ?? null, race);
    const note = screened.notes.get(candidate.candidateId);
    return note === undefined ? record : { ...record, screen: note };
  }));
  const named = new Map(records.map((r) => [r.candidateId, r]));
  const final = records.map((r) => notTrained(r, screened.plan, named));
  await Promise.all(final.map((r) => store.putCandidate(searchId, r)));
  return final;
}

/** A candidate the screen did not let train (screen-plan.ts) says why; a twin takes the scores of the one that trained for both. */
function notTrained(record: CandidateRecord, plan: ScreenPlan | null, named: Map<string, CandidateRecord>): CandidateRecord {
  const decision = plan?.notTrained.find((n) => n.candidateId === record.candidateId);
  if (decision === undefined) return record;
  const other = decision.of === undefined ? undefined : named.get(decision.of);
  if (decision.why === 'twin' && other !== undefined) {
    const { candidateId, name, idea, codeHash, origin, repairOf, generation, screen } = record;
    return { ...other, candidateId, name, idea, codeHash, origin, ...(repairOf === undefined ? {} : { repairOf }), generation, ...(screen === undefined ? {} : { screen }),
      twinOf: other.name, seeds: [], stepsTrained: 0,
      reason: `${SCREEN_KEPT}: the same reward as ${other.name} on every episode of the bank (to 1e-9), trained once as it; its scores are ${other.name}'s` };
  }
  const why = decision.why === 'skipped'
    ? `${SCREEN_KEPT}: skipped (screen: "skip"): ${decision.words}`
    : `${SCREEN_KEPT}: sent back by the screen (${decision.words}); its repair ${other?.name ?? decision.of} trained instead`;
  return { ...record, outcome: 'error', reason: why };
}

/** What the screen said of each checked candidate, from its stored check.json. */
async function screenNotes(store: SearchStore, searchId: string, generation: number, candidateIds: string[]): Promise<Map<string, ScreenNote>> {
  const notes = await Promise.all(candidateIds.map(async (id) => {
    const screen = await storedScreen(store, searchId, generation, id);
    return screen === null ? null : [id, { auc: screen.auc, fails: failsScreen(screen), line: screenLine(screen) }] as const;
  }));
  return new Map(notes.filter((n): n is readonly [string, ScreenNote] => n !== null));
}

function failedCheck(candidate: ProposedCandidate, generation: number, check: CheckSummary, repairFailure?: string): CandidateRecord {
  return {
    ...aggregateCandidate(candidate, generation, [], [], check),
    outcome: check.verdict === 'ok' ? 'error' : check.verdict,
    reason: `${FAILED_CHECK}: ${check.reason}${repairFailure === undefined ? '' : `; ${repairFailure}`}`,
  };
}

/**
 * A candidate with no check and no seed-run: a repair whose answer was stored, but whose step failed
 * before "Check the repaired rewards" had its candidates (the Catch leaves none to check).
 */
function neverChecked(candidate: ProposedCandidate, generation: number): CandidateRecord {
  return {
    ...aggregateCandidate(candidate, generation, [], []),
    outcome: 'error',
    reason: 'never checked or trained: the step that wrote it failed before its check ran',
  };
}

/** One line per generation and the count of its candidates that did not train (a failed check or seed-run). */
function recordGeneration(ranked: CandidateRecord[], bestOfGeneration: BestPointer | null, bestSoFar: BestPointer | null): void {
  const failed = ranked.filter((c) => c.outcome !== 'trained');
  logger.info('generation reflected', {
    candidates: ranked.length, failed: failed.length, failedChecks: failed.filter((c) => c.reason.startsWith(FAILED_CHECK)).length,
    bestOfGeneration: bestOfGeneration?.candidateId ?? null, bestSuccess: bestOfGeneration?.success ?? 0, bestSoFarSuccess: bestSoFar?.success ?? 0,
  });
  metrics.addMetric('CandidatesFailed', MetricUnit.Count, failed.length);
  metrics.addMetric('Candidates', MetricUnit.Count, ranked.length);
}

/** The new best only when its score is strictly better; a tie keeps the old one (elitist). */
export function better(candidate: BestPointer | null, current: BestPointer | null, tieBreak: TieBreak): BestPointer | null {
  if (!candidate) return current;
  if (!current) return candidate;
  return compareScores(candidate, current, tieBreak) < 0 ? candidate : current;
}
