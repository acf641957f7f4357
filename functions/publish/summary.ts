/**
 * winner/summary.json: the search's result for machines. The schema is versioned by `schema`;
 * the README documents each field. Success values are shares in [0, 1].
 */
import type { SearchEstimate } from '../shared/cost/estimate.ts';
import type { AnyCardData, CardCandidate, CardData, CardReward } from '../shared/card/card-data.ts';
import type { HistoryRecord } from '../shared/store/records.ts';
import { baselineVerdict, type BaselineVerdict } from '../shared/card/card-verdict.ts';
import { getTask } from '../../tasks/registry.ts';

export const SUMMARY_SCHEMA = 'eureka-serverless/summary@5';

export interface RewardSummary {
  candidateId: string;
  /** 0 for the baselines. */
  generation: number;
  name: string;
  idea: string;
  /** Mean success over the search's seeds: the best of many, so biased upward for the winner. */
  searchSuccess: number;
  /** The task's progress (tasks/<task>/task.ts), mean over the search's seeds, then over fresh seeds (null: not measured). */
  searchProgress: number | null;
  freshProgress: number | null;
  /** Mean steps of the successful evaluation episodes on the search's seeds (null: none succeeded). */
  searchSuccessSteps: number | null;
  /** Mean return on the environment's own reward on the search's seeds (compare with published numbers). */
  searchReturn: number | null;
  /** Mean success over seeds the search never used: the honest score. */
  freshSuccess: number | null;
  freshSuccessSteps: number | null;
  freshReturn: number | null;
  freshSeeds: CardReward['freshSeeds'];
  /** How early it learned on the fresh seeds (area under the training success curve in [0, 1]; steps to half its episodes succeeding). */
  freshLearning: { trainSuccessArea: number | null; stepsToHalfSuccess: number | null } | null;
}

/** A candidate's scores on the search's seeds, as summary.json lists them. */
export interface CandidateSummary {
  generation: number;
  candidateId: string;
  name: string;
  outcome: CardCandidate['outcome'];
  success: number;
  progress: number | null;
  seeds: Array<{ seed: number; success: number; progress: number | null; outcome: string }>;
}

export interface SearchSummary {
  schema: typeof SUMMARY_SCHEMA;
  /** The task's id (its Gymnasium id, as `eureka tasks` lists it). */
  task: string;
  searchId: string;
  startedAt: string;
  finishedAt: string;
  config: CardData['config'];
  proposer: CardData['proposer'];
  /** null when no candidate trained: nothingTrained says why (schema 4). */
  winner: (RewardSummary & {
    /** Bucket key of the winner's reward.js. */
    rewardKey: string;
    /** Bucket prefix of the policy (model.json + weights.bin), from the fresh seed below. */
    policyPrefix: string;
    policySeed: number | null;
  }) | null;
  /** Why no candidate trained ("no candidate trained: 3 were skipped by the screen ..."), or null when one did. */
  nothingTrained: string | null;
  baselines: RewardSummary[];
  /** Every candidate, as ranked on the search's seeds: its success and progress, per seed too (schema 5). */
  candidates: CandidateSummary[];
  /**
   * Whether the winner ranks above the best baseline on the fresh seeds (success, then the task's
   * tie-break; a tie is not a win), or null without fresh scores. When false, use that baseline.
   */
  beatsBaselines: boolean | null;
  /** The two scores behind beatsBaselines: the winner's and the best baseline's on the fresh seeds, and what decided it. */
  versusBestBaseline: {
    candidateId: string;
    name: string;
    baselineFreshSuccess: number | null;
    winnerFreshSuccess: number | null;
    decidedBy: BaselineVerdict['decidedBy'];
  } | null;
  bestByGeneration: CardData['bestByGeneration'];
  /**
   * Environment steps every seed-run of the search trained (baselines and fresh seeds included), and
   * what the same search would have trained without racing; equal with racing off.
   */
  stepsTrained: number;
  stepsFullBudget: number;
  /** Seconds every seed-run's invocations took, summed (times TrainSeed's memory: its GB-seconds). */
  seedRunSeconds: number;
  /** What "Start the search" estimated before anything trained; null in a search stored before it. */
  estimate: SearchEstimate | null;
  /**
   * Step Functions history events per execution (the quota: 25,000 each), the search's own and its
   * largest seed-run child's, as the local runtime counted them; null on AWS (the console has them).
   */
  history: HistoryRecord | null;
  /** Bucket keys of the artifacts; the winner's reward and policy are null when no candidate trained. */
  artifacts: { reward: string | null; cardHtml: string; cardMd: string; summary: string; policy: string | null };
}

export function buildSummary(
  card: AnyCardData,
  artifacts: SearchSummary['artifacts'],
  policySeed: number | null,
  history: HistoryRecord | null = null,
): SearchSummary {
  return {
    schema: SUMMARY_SCHEMA,
    task: card.task,
    searchId: card.searchId,
    startedAt: card.startedAt,
    finishedAt: card.finishedAt,
    config: card.config,
    proposer: card.proposer,
    winner: card.winner === null ? null
      : { ...rewardSummary(card.winner), rewardKey: artifacts.reward ?? '', policyPrefix: artifacts.policy ?? '', policySeed },
    nothingTrained: card.winner === null ? card.nothingTrained : null,
    baselines: card.baselines.map(rewardSummary),
    candidates: card.candidates.map(candidateSummary),
    ...(card.winner === null ? { beatsBaselines: null, versusBestBaseline: null } : verdictOf(card)),
    bestByGeneration: card.bestByGeneration,
    stepsTrained: card.compute?.stepsTrained ?? 0,
    stepsFullBudget: card.compute?.stepsFullBudget ?? 0,
    seedRunSeconds: card.compute?.seedRunSeconds ?? 0,
    estimate: card.estimate ?? null,
    history,
    artifacts,
  };
}

function verdictOf(card: CardData): Pick<SearchSummary, 'beatsBaselines' | 'versusBestBaseline'> {
  const verdict = baselineVerdict(card.winner, card.baselines, getTask(card.task).tieBreak);
  if (verdict === null) return { beatsBaselines: null, versusBestBaseline: null };
  const { candidateId, name, freshSuccess } = verdict.bestBaseline;
  return {
    beatsBaselines: verdict.beatsBaselines,
    versusBestBaseline: { candidateId, name, baselineFreshSuccess: freshSuccess, winnerFreshSuccess: card.winner.freshSuccess, decidedBy: verdict.decidedBy },
  };
}

function rewardSummary(r: CardReward): RewardSummary {
  const { candidateId, generation, name, idea, searchSuccess, searchSuccessSteps, searchReturn, freshSuccess, freshSuccessSteps, freshReturn, freshSeeds } = r;
  return {
    candidateId, generation, name, idea, searchSuccess, searchProgress: r.searchProgress ?? null, searchSuccessSteps, searchReturn,
    freshSuccess, freshProgress: r.freshProgress ?? null, freshSuccessSteps, freshReturn, freshSeeds,
    freshLearning: r.freshLearning ?? null,
  };
}

function candidateSummary(c: CardCandidate): CandidateSummary {
  return {
    generation: c.generation, candidateId: c.candidateId, name: c.name, outcome: c.outcome, success: c.success, progress: c.progress ?? null,
    seeds: c.seeds.map(({ seed, success, progress, outcome }) => ({ seed, success, progress: progress ?? null, outcome })),
  };
}
