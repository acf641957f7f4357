/** Contracts between the state machine and the handlers. Payloads stay small: references, not blobs. */
import type { EpisodeRecord } from '../../../tasks/contract.ts';
import type { Screen } from './screen-types.ts';

/**
 * How a seed-run ended: trained to its budget; stopped early by the race at a rung (its partial
 * result stands); or ended by a fault of the candidate's code (its own time or memory, an error).
 */
export type Outcome = 'trained' | 'stopped' | 'timeout' | 'memory' | 'error';

/** What one seed-run is given: the Map item of "Train seeds". */
export interface SeedTask {
  searchId: string;
  /** The task's id (its Gymnasium id): TrainSeed reads no table, so the item carries it. */
  task: string;
  generation: number;
  candidateId: string;
  seed: number;
  budget: Budget;
  /** Train to this many environment steps, then grade: the budget, or a rung's share of it (racing). */
  targetSteps: number;
  /** Environment steps per TrainSeed invocation, at most (the task's measured speed sets it). */
  chunkSteps: number;
}

export interface Budget {
  /** Environment steps of PPO training. */
  steps: number;
  /** Greedy evaluation episodes used to grade the policy. */
  evalEpisodes: number;
}

/** What "Check the candidates" gives each Map iteration: one candidate to run in the sandbox. */
export interface CheckItem {
  kind: 'check';
  searchId: string;
  task: string;
  generation: number;
  candidateId: string;
}

export type CheckVerdict = 'ok' | 'timeout' | 'memory' | 'error';

/** A candidate's check, stored as check.json: what `eureka check-reward` says of it. */
export interface CheckRecord {
  candidateId: string;
  verdict: CheckVerdict;
  reason: string;
  /** Mean value per transition of each term (empty on a fault). */
  terms: Record<string, number>;
  /** What it pays on the task's bank of successes and failures (null on a fault; absent in a check stored before the screen). */
  screen?: Screen | null;
  /** What it pays a step as the first, untrained policies act (null on a fault; absent in a check stored before it). */
  firstSteps?: FirstStepsPay | null;
}

/**
 * What a reward pays a step as the first, untrained policies act (check-reward.ts draws 4,096 such
 * steps): on a step that goes on and on one that ends the episode. Where failing ends it, going on
 * paying below zero makes ending pay for those policies (docs/behaviours.md: the ant's turn).
 */
export interface FirstStepsPay {
  /** Mean total on the transitions that do not end the episode (null: every one ended it). */
  goingOn: number | null;
  /** Mean total on the transitions that end it (null: none did). */
  ending: number | null;
  /** How many transitions end it, of `steps`. */
  endings: number;
  steps: number;
}

/** What a check returns to the state machine. */
export interface CheckSummary {
  candidateId: string;
  verdict: CheckVerdict;
  reason: string;
}

/** Per-term statistics, Eureka-style. */
export interface TermStats {
  /** Mean value per step over the first 10% of updates. */
  early: number;
  /** Mean value per step over the last 10% of updates. */
  late: number;
  /** Mean value per step at 10 evenly spaced checkpoints of training. */
  series: number[];
  /**
   * The same of the term's absolute value: its size, which the flags read (a potential difference
   * telescopes to a mean near 0 per step however large its steps are). Absent on older results.
   */
  abs?: { early: number; late: number; series: number[] };
}

/**
 * How a set of episodes ended, as shares that sum to 1: passed the task's success test (however the
 * episode ended), ended by the environment otherwise (crashed, fell), cut at the time limit
 * otherwise. `episodes: 0` (nothing ended) has every share and mean null; so has a share the
 * trainer did not count (a checkpoint of an older trainer).
 */
export interface EpisodeEndings {
  episodes: number;
  success: number | null;
  terminated: number | null;
  truncated: number | null;
  meanLength: number | null;
  /** Mean return on the environment's own reward (Eureka's ground-truth score). */
  meanReturn: number | null;
}

/** What one seed-run's episodes did: the training episodes at 10 checkpoints, and the evaluation episodes. */
export interface SeedEpisodes {
  training: EpisodeEndings[];
  evaluation: EpisodeEndings;
}

/** The full result of one seed-run, stored as result.json next to the policy. */
export interface SeedResult {
  task: string;
  candidateId: string;
  seed: number;
  outcome: Outcome;
  /** Empty when trained; otherwise one line that says what went wrong. */
  reason: string;
  /** Share of greedy evaluation episodes that passed the task's success test (0 when not trained). */
  success: number;
  /** Mean length of the successful evaluation episodes (null when none succeeded). */
  meanSuccessSteps: number | null;
  /** Mean return of the evaluation episodes on the environment's own reward (null when not trained). */
  meanReturn: number | null;
  /** The task's progress (tasks/<task>/task.ts), averaged over the evaluation episodes (null when not trained). */
  progress: number | null;
  terms: Record<string, TermStats>;
  /** Share of finished training episodes that passed the success test, at 10 checkpoints. */
  trainSuccessSeries: number[];
  /**
   * How early it learned: the area under its training success curve over the steps trained, in
   * [0, 1] (1: every training episode succeeded from the start); null when no episode ended.
   */
  trainSuccessArea: number | null;
  /** Steps trained when half its training episodes first succeeded (a rollout's); null if never. */
  stepsToHalfSuccess: number | null;
  /** One point per PPO update. */
  curve: CurvePoint[];
  /** How its training and evaluation episodes ended (null when it faulted; absent on older results). */
  episodes?: SeedEpisodes | null;
  /** One greedy evaluation episode, for the card (null when not trained). */
  episode: EpisodeRecord | null;
  /** The seed-run's budget: environment steps it trains to, unless a race stops it first. */
  steps: number;
  /** Environment steps it trained: the budget, a rung's share of it, or where a fault stopped it. */
  stepsTrained: number;
  /** SHA-256 of the final parameters' float32 bytes (null when it faulted). */
  thetaSha256: string | null;
  /** TrainSeed invocations it took (one chunk each). */
  chunks: number;
  wallSeconds: number;
  /** Wall-clock seconds inside the sandbox's calls: a measure, not what its budget counts. */
  sandboxSeconds: number;
  /**
   * QuickJS operations the reward did (functions/train-seed/sandbox-types.ts): what its budget
   * counts, the same on any machine. Absent in results stored before it was counted.
   */
  sandboxOperations?: number;
  backend: string;
}

export interface CurvePoint {
  step: number;
  /** Mean of the candidate's reward per step in the rollout. */
  meanReward: number;
  /** Share of the training episodes that ended in this rollout which passed the success test (null: none ended). */
  trainSuccess: number | null;
  /** Mean length of the episodes that ended in this rollout (null: none ended). */
  episodeLength: number | null;
}

/** What TrainSeed returns to the state machine: small on purpose. */
export interface SeedSummary {
  candidateId: string;
  seed: number;
  outcome: Outcome;
  reason: string;
  success: number;
  meanSuccessSteps: number | null;
  meanReturn: number | null;
  /** SeedResult.progress: the task's own measure of how far the greedy episodes got, the rank's second key. */
  progress: number | null;
  /** Environment steps it trained (for a killed seed-run: its target, what it could have). */
  stepsTrained: number;
  /** SeedResult.trainSuccessArea: how early it learned, the race's last tie-break. */
  trainSuccessArea: number | null;
  /** SeedResult.wallSeconds: what its invocations took, every chunk so far (absent: killed, or stored before it was kept). */
  wallSeconds?: number;
}

/** What TrainSeed answers for one chunk of a seed-run: the summary once it reached its target. */
export type ChunkAnswer =
  | { done: true; summary: SeedSummary }
  | { done: false; stepsTrained: number; targetSteps: number };

/** A candidate reward function: JavaScript source defining computeReward. */
export interface Candidate {
  name: string;
  idea: string;
  code: string;
}
