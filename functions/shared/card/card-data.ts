/**
 * What the winner's card shows (card.html and its Markdown twin card.md): plain data gathered by
 * Publish from the table and the stored seed results, plus the few judgements both renderers share
 * (who won, by how much, number formats). Everything textual in it came from a candidate or a model
 * and is escaped by the renderers.
 */
import type { EpisodeRecord, Task } from '../../../tasks/contract.ts';
import { getTask } from '../../../tasks/registry.ts';
import { ENVIRONMENT_REWARD_ID, HUMAN_SHAPING_ID } from '../search/baselines.ts';
import type { RaceRecord, StoppedAt } from '../store/records.ts';
import { FUNCTION_CAPS } from '../../../infra/config.ts';
import type { SearchEstimate } from '../cost/estimate.ts';
import type { SeedsEpisodes } from '../words/episodes-text.ts';
import { durationOf } from '../cost/estimate-text.ts';

export interface CardSeed {
  seed: number;
  success: number;
  /** The task's progress on this seed's greedy episodes (absent on older results). */
  progress?: number | null;
  outcome: string;
  reason: string;
}

export interface CardReward {
  candidateId: string;
  generation: number;
  name: string;
  idea: string;
  code: string;
  hostile: boolean;
  /** Mean success over the search's seeds: the number the reward was picked on. */
  searchSuccess: number;
  /** The task's progress on the search's seeds, then on fresh seeds (null: not measured; absent on older cards). */
  searchProgress?: number | null;
  freshProgress?: number | null;
  /** Mean steps of the successful episodes, and mean return on the environment's reward, on the search's seeds. */
  searchSuccessSteps: number | null;
  searchReturn: number | null;
  /** The same on fresh seeds (null if not re-trained). */
  freshSuccess: number | null;
  freshSuccessSteps: number | null;
  freshReturn: number | null;
  freshSeeds: CardSeed[];
  /** Mean over fresh seeds (interim: over the search's seeds), one point per PPO update. */
  curve: Array<{ step: number; meanReward: number; trainSuccess: number | null; episodeLength: number | null }>;
  terms: Record<string, { early: number; late: number; series: number[] }>;
  /** One greedy evaluation episode of a fresh seed (interim: of a search seed; null when none trained). */
  episode: EpisodeRecord | null;
  /** How early it learned on the fresh seeds: the area under the training success curve, and steps to half its training episodes succeeding. */
  freshLearning?: { trainSuccessArea: number | null; stepsToHalfSuccess: number | null };
  /** How its episodes ended, per seed of those the card shows (fresh; interim: the search's): absent or empty on older results. */
  episodes?: SeedsEpisodes;
}

export interface CardCandidate {
  generation: number;
  candidateId: string;
  name: string;
  idea: string;
  hostile: boolean;
  success: number;
  /** The task's progress, the rank's second key (absent on older cards). */
  progress?: number | null;
  meanSuccessSteps: number | null;
  meanReturn: number | null;
  outcome: 'trained' | 'stopped' | 'timeout' | 'memory' | 'error';
  reason: string;
  /** Where the race stopped it (its scores are that rung's), or null. */
  stopped?: StoppedAt | null;
  /** How early it learned on the search's seeds (the rank's last tie-break). */
  trainSuccessArea?: number | null;
  /** It never trained: its sandbox check before training failed (reason says why). */
  failedCheck: boolean;
  /** The candidate this one repairs ("Repair rewards"), or null. */
  repairOf: string | null;
  /** What the screen said of it before training (absent: not screened). */
  screen?: { auc: number | null; fails: boolean; line: string };
  seeds: CardSeed[];
}

export interface CardData {
  /** The task's id: the card speaks its words and draws its episode (tasks/<task>/render.ts). */
  task: string;
  searchId: string;
  startedAt: string;
  finishedAt: string;
  config: {
    generations: number; candidates: number; seeds: number; steps: number; evalEpisodes: number;
    includeHostile: boolean; proposer: string; model: string; maxConcurrency: number; randomSeed: number;
    repair?: boolean; feedback?: string; maxCostUsd?: number | null;
  };
  /** outputTokens counts every output token billed; thinkingTokens (absent on older cards) how many of them were extended thinking. */
  proposer: { kind: string; model: string; requests: number; inputTokens: number; outputTokens: number; thinkingTokens?: number; costUsd: number | null; repairRequests: number };
  winner: CardReward;
  /** environment_reward and human_shaping. */
  baselines: CardReward[];
  bestByGeneration: Array<{ generation: number; name: string; success: number; bestSoFar: number }>;
  /** Every candidate of every generation (baselines are generation 0). */
  candidates: CardCandidate[];
  /** What a person answered after each generation they were asked about ("Wait for feedback"). */
  feedback: Array<{ generation: number; action: 'continue' | 'stop'; text: string }>;
  /** Why the search finished before its last generation (the budget, or a person), or null. */
  stopped: { reason: 'budget' | 'feedback'; generation: number; detail: string; spentUsd: number | null } | null;
  /** A card of the search so far (after each generation): the best so far on the search's seeds, not yet re-checked on fresh ones. */
  interim: boolean;
  /**
   * Environment steps every seed-run of the search trained (baselines and fresh seeds included),
   * and what the same search would have trained without racing (each stopped seed-run to the budget).
   */
  compute?: { stepsTrained: number; stepsFullBudget: number; seedRunSeconds?: number };
  /** What the proposer wrote before its candidates, each generation: the proposal's analysis and its repair's ('' none written; null no repair). */
  analyses?: Array<{ generation: number; proposal: string; repair: string | null }>;
  /** What "Start the search" estimated before anything trained (absent in searches stored before it). */
  estimate?: SearchEstimate;
  /** Each generation's race: the rungs and their standings (empty without racing). */
  races?: RaceRecord[];
  /** An interim card written as the search pauses for a person's feedback. */
  waiting?: boolean;
}

/**
 * The card of a search in which no candidate trained (every one skipped by the screen, failed its
 * check or faulted, or the search stopped before one could): no winner, and why.
 */
export type NoWinnerCardData = Omit<CardData, 'winner'> & {
  winner: null;
  /** "no candidate trained: 3 were skipped by the screen (screen: "skip"), 2 failed their sandbox check". */
  nothingTrained: string;
};

/** Either card: Publish writes the one its search has. */
export type AnyCardData = CardData | NoWinnerCardData;

// ---------------------------------------------------------------- colours, shared by every chart

export const WINNER_COLOR = '#2f5bd3';
const BASELINE_COLORS: Record<string, string> = { [HUMAN_SHAPING_ID]: '#c26a06', [ENVIRONMENT_REWARD_ID]: '#6b7280' };
const OTHER_COLORS = ['#0f8a7e', '#a23b72', '#7a5c00'];

export function rewardColor(reward: CardReward, index: number, winner: CardReward): string {
  if (reward === winner) return WINNER_COLOR;
  return BASELINE_COLORS[reward.candidateId] ?? OTHER_COLORS[index % OTHER_COLORS.length];
}

/** How a person would call a baseline. */
export function rewardLabel(reward: CardReward): string {
  if (reward.candidateId === HUMAN_SHAPING_ID) return 'the person\'s shaping';
  if (reward.candidateId === ENVIRONMENT_REWARD_ID) return 'the environment\'s reward';
  return reward.name;
}

// ---------------------------------------------------------------- numbers

const finite = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x);

/** 0.953 -> "95%"; null or non-finite -> "—". */
export function pct(x: number | null | undefined): string {
  return finite(x) ? `${Math.round(x * 100)}%` : '—';
}

/** Signed percentage points: +45, −5, ±0. */
export function points(delta: number): string {
  const p = Math.round(delta * 100);
  return p > 0 ? `+${p}` : p < 0 ? `−${-p}` : '±0';
}

export function steps(x: number | null | undefined): string {
  return finite(x) ? String(Math.round(x)) : '—';
}

/** Three significant digits, thousands grouped, no exponent for ordinary magnitudes. */
export function num(x: number | null | undefined): string {
  if (!finite(x)) return '—';
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1000) return Math.round(x).toLocaleString('en-US');
  if (a < 1e-4) return x.toExponential(1);
  return String(Number(x.toPrecision(3)));
}

export function int(x: number): string {
  return finite(x) ? Math.round(x).toLocaleString('en-US') : '—';
}

/** The proposer's output tokens, and how many of them were extended thinking when there were any. */
export function outputTokens(p: CardData['proposer']): string {
  return p.thinkingTokens ? `${int(p.outputTokens)} (${int(p.thinkingTokens)} thinking)` : int(p.outputTokens);
}

export function usd(x: number | null): string {
  if (!finite(x)) return '—';
  return x < 0.01 && x > 0 ? `$${x.toFixed(4)}` : `$${x.toFixed(2)}`;
}

/** "1 h 12 min", "3 min 05 s"; "—" when a timestamp is missing or invalid. */
export function duration(startedAt: string, finishedAt: string): string {
  return durationOf((Date.parse(finishedAt) - Date.parse(startedAt)) / 1000);
}

/** "2025-06-14 09:12:03 UTC"; an unparsable timestamp is returned as given (the renderers escape it). */
export function timestamp(iso: string): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return iso;
  return `${new Date(t).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** The column that shows what the rank reads after success: the task's progress, and steps where its tie-break counts them. */
export interface RankColumn {
  title: string;
  /** The progress's label, its unit: "mean metres forward". */
  label: string;
  /** For the candidates table's lede: what the column holds. */
  explain: string;
  value(score: { progress?: number | null; meanSuccessSteps: number | null }): string;
}

export function rankColumn(task: Pick<Task, 'tieBreak' | 'progress'>): RankColumn {
  const progress = (s: { progress?: number | null }): string => (s.progress === undefined || s.progress === null ? '-' : num(s.progress));
  const explain = `progress is ${task.progress.label} (${task.progress.describe}), what the rank reads after success`;
  const label = task.progress.label;
  return task.tieBreak === 'fewer-steps'
    ? { title: 'Progress · steps', label, explain: `${explain}; steps are the mean length of the successful evaluation episodes`, value: (s) => `${progress(s)} · ${steps(s.meanSuccessSteps)}` }
    : { title: 'Progress', label, explain, value: progress };
}

/**
 * The headline table's column: the rank's value on the fresh seeds, or, for a reward that has none
 * yet (an interim card), on the search's, marked so: the candidates' table gives the search's.
 */
export function headlineRankCell(column: RankColumn, r: {
  freshSuccess: number | null; freshProgress?: number | null; freshSuccessSteps: number | null; searchProgress?: number | null; searchSuccessSteps: number | null;
}): string {
  return r.freshSuccess !== null
    ? column.value({ progress: r.freshProgress, meanSuccessSteps: r.freshSuccessSteps })
    : `${column.value({ progress: r.searchProgress, meanSuccessSteps: r.searchSuccessSteps })} (search)`;
}

/** The headline table's title of that column, with the progress's unit: "Fresh progress (mean metres forward)". */
export const headlineRankTitle = (column: RankColumn): string => `Fresh ${column.title.toLowerCase().replace('progress', `progress (${column.label})`)}`;

/** The candidates the proposer wrote, which the winner was picked from: the search's own hostile probes never compete. */
export function proposedCount(data: Pick<CardData, 'candidates'>): number {
  return data.candidates.filter((c) => c.generation > 0 && !c.hostile).length;
}

/** The task a card is about. */
export function cardTask(data: Pick<CardData, 'task'>): Task {
  return getTask(data.task);
}

// ---------------------------------------------------------------- compute and learning speed

/** "trained 1,234,000 environment steps, 31% of the 4,000,000 a search without racing would have". */
export function computeSentence(data: Pick<CardData, 'compute'>): string | null {
  const c = data.compute;
  if (!c || c.stepsFullBudget <= 0) return null;
  if (c.stepsTrained >= c.stepsFullBudget) return `trained ${int(c.stepsTrained)} environment steps, every candidate to the full budget`;
  return `trained ${int(c.stepsTrained)} environment steps, ${pct(c.stepsTrained / c.stepsFullBudget)} of the ${int(c.stepsFullBudget)} ` +
    'the same search would have trained without racing';
}

/**
 * The estimate beside what was spent: "estimated before it started: about 11,683,840 steps, 3 min 32 s
 * and 404 GB-seconds of seed-runs; it trained 10,420,224 in 3 min 10 s and 380 GB-seconds". Where it
 * ran on AWS the estimate's AWS figures are the ones compared. Null without an estimate.
 */
export function estimateSentence(data: Pick<CardData, 'estimate' | 'compute' | 'startedAt' | 'finishedAt' | 'interim'>): string | null {
  const e = data.estimate;
  if (!e || !data.compute || data.interim) return null;
  const where = e.local ?? e.aws;
  const took = duration(data.startedAt, data.finishedAt);
  const gb = (FUNCTION_CAPS.trainSeed.memoryMb / 1024) * (data.compute.seedRunSeconds ?? 0);
  return `Estimated before it started: about ${int(e.steps.raced)} environment steps, ${durationOf(where.seconds)} and ${int(where.gbSeconds)} GB-seconds of seed-runs` +
    ` (${e.local ? `this machine, ${e.local.cores} at once` : `AWS, ${e.aws.concurrency} at once`}); it trained ${int(data.compute.stepsTrained)}` +
    `${took === '—' ? '' : ` in ${took}`}${data.compute.seedRunSeconds === undefined ? '' : ` and ${int(gb)} GB-seconds`}.`;
}

/**
 * How much sooner than the person's shaping the winner learned, on the fresh seeds: the steps at
 * which half its training episodes first succeeded, and the area under the training success curve.
 * Null when there is nothing to compare.
 */
export function learnedSoonerSentence(data: Pick<CardData, 'winner' | 'baselines'>): string | null {
  const person = data.baselines.find((b) => b.candidateId === HUMAN_SHAPING_ID);
  const w = data.winner.freshLearning;
  const p = person?.freshLearning;
  if (!w || !p || w.trainSuccessArea === null || p.trainSuccessArea === null) return null;
  const area = `area under its training success curve ${num(w.trainSuccessArea)} against ${num(p.trainSuccessArea)} for the person's shaping`;
  const theirs = p.stepsToHalfSuccess === null ? 'the person\'s shaping never had half succeed' : `the person's shaping did after ${int(p.stepsToHalfSuccess)} steps`;
  const halfway = w.stepsToHalfSuccess === null
    ? `it never had half its training episodes succeed (${theirs})`
    : `half its training episodes succeeded after ${int(w.stepsToHalfSuccess)} steps (${theirs})`;
  const ratio = w.stepsToHalfSuccess !== null && p.stepsToHalfSuccess !== null && w.stepsToHalfSuccess > 0
    ? p.stepsToHalfSuccess / w.stepsToHalfSuccess : null;
  const verdict = ratio === null
    ? (w.stepsToHalfSuccess !== null && p.stepsToHalfSuccess === null ? 'It learned where the person\'s shaping did not'
      : w.trainSuccessArea > p.trainSuccessArea ? 'It learned sooner than the person\'s shaping' : 'It did not learn sooner than the person\'s shaping')
    : ratio > 1.05 ? `It learned ${num(ratio)}× sooner than the person's shaping`
      : ratio < 0.95 ? `It learned ${num(1 / ratio)}× later than the person's shaping` : 'It learned about as soon as the person\'s shaping';
  return `${verdict} on the fresh seeds: ${halfway}; ${area}.`;
}

/** Where a card's curves, terms and episode come from: "fresh seeds", or the search's own on an interim card. */
export function shownSeeds(data: Pick<CardData, 'interim'>): { plural: string; one: string } {
  return data.interim ? { plural: 'the search\'s seeds', one: 'one of the search\'s seeds' } : { plural: 'fresh seeds', one: 'a fresh seed' };
}
