/**
 * What every proposer (offline, anthropic, bedrock, command, files) is given and what it answers. The context is
 * plain data rebuilt from the table, so a retried Propose asks the same question.
 */
import { ANSWER_PENDING_ERROR } from '../../infra/config.ts';
import type { TokenUsage } from '../shared/store/records.ts';
import type { BaselineScore, GenerationBest, ReflectionBest, ScoreboardEntry } from '../shared/words/reflection.ts';
import type { Candidate } from '../shared/search/types.ts';

/** The training budget the prompt states; the search's settings fill it in. */
export interface PromptBudget {
  /** Environment steps of PPO per seed-run. */
  steps: number;
  /** Seeds each candidate trains on. */
  seeds: number;
  /** Greedy evaluation episodes per seed-run. */
  evalEpisodes: number;
}

export interface ProposeContext {
  /** The task's id (tasks/): what the prompt shows and the offline grammar builds on. */
  task: string;
  /** The search's training budget, as the prompt states it. */
  budget: PromptBudget;
  generation: number;
  /** How many candidates to write. */
  k: number;
  randomSeed: number;
  model: string;
  /** The best reward so far (elitist), or null in generation 1. */
  best: ReflectionBest | null;
  /** The last generation's best when it is not the best so far (absent: none). */
  latest?: ReflectionBest | null;
  /** The baselines' scores on the search's seeds, the line to beat (absent: not trained yet). */
  baselines?: BaselineScore[];
  /** The last generation's scoreboard, every candidate with its score and outcome (the search's own hostile probes left out). */
  scoreboard: ScoreboardEntry[];
  bestByGeneration: GenerationBest[];
  /** What a person said after the last generation ("Wait for feedback"), or null. */
  feedback: string | null;
  /** Generation 1: the rewards people wrote (--human-init, the baselines), which the offline proposer mutates. */
  people?: Candidate[];
  /** After generation 1: the best rewards trained so far, the baselines among them, which the offline proposer breeds from. */
  parents?: ParentReward[];
}

/** A reward trained so far, as the offline proposer breeds from it. */
export interface ParentReward {
  candidate: Candidate;
  success: number;
  terms: ReflectionBest['terms'];
}

/** A repair request: the generation's candidates that failed their sandbox check, with why. */
/** Why a candidate goes back: its check failed (reason: the sandbox's), or the screen did (its words). */
export interface FailedWhy {
  reason: string;
  /** Absent: its check. */
  failedOn?: 'check' | 'screen';
}

export interface RepairContext extends ProposeContext {
  failed: Array<Candidate & FailedWhy>;
}

export interface ProposerAnswer {
  /** What the proposer wrote before its candidates: its reading of the feedback and what it changes, and why ('' when it wrote none). */
  analysis: string;
  candidates: Candidate[];
  /** Which proposer and model wrote them. */
  proposer: 'offline' | 'anthropic' | 'bedrock' | 'command' | 'files';
  model: string;
  /** The model's raw answer text (empty for the offline proposer). */
  raw: string;
  usage: TokenUsage | null;
  /** Estimated price in US dollars from the price table in config; null when unknown. */
  costUsd: number | null;
  /** Things the proposer fixed or noticed: renamed duplicates, cut or short lists, rejected code. */
  notes: string[];
  /** A hash of the prompt, to tell whether a cached answer answered the same question. */
  promptHash: string;
}

/** One reply of the model as billed: what the conversation needs of it, stored before it is checked. */
export interface BilledReply {
  text: string;
  stopReason: string | null;
  stopDetails: { category?: string | null; explanation?: string | null } | null;
  usage: TokenUsage;
  /** The prompt it answers. */
  promptHash: string;
}

/**
 * Where a request's replies are billed, step by step (step 1 answers the request, step 2 its schema
 * repair): functions/propose/ledger.ts keeps them in the search's table and bucket.
 */
export interface ReplyLedger {
  /** The reply an earlier attempt (a retry, a redrive, a resume) was billed for at this step of the same prompt, if any. */
  stored(step: number, promptHash: string): Promise<BilledReply | undefined>;
  /** Before a step's request is sent: its worst case is held against the budget until it is settled. */
  reserve(step: number, worstCaseUsd: number | null, promptHash: string): Promise<Reservation>;
  /** How long the invocation has left, in ms (Lambda's getRemainingTimeInMillis); absent: no deadline. */
  timeLeftMs?: () => number;
}

export interface Reservation {
  /** The reply arrived: stored with what it cost, before it is checked. */
  billed(reply: BilledReply, costUsd: number | null): Promise<void>;
  /** The API refused the request before any reply began: nothing was billed. */
  released(): Promise<void>;
}

/** A ledger that keeps nothing (a proposer used outside a search: tests, benches). */
export const NO_LEDGER: ReplyLedger = {
  stored: async () => undefined,
  reserve: async () => ({ billed: async () => {}, released: async () => {} }),
};

export interface Proposer {
  /** The generation's candidates; every reply billed in `ledger` (default: none kept). */
  propose(context: ProposeContext, ledger?: ReplyLedger): Promise<ProposerAnswer>;
  /** Fixed versions of the failed candidates, under the same names (one request). */
  repair(context: RepairContext, ledger?: ReplyLedger): Promise<ProposerAnswer>;
  /**
   * The most the next request (propose or repair) could cost, in US dollars, before it is sent:
   * 0 for the offline proposer, null when the model has no price in the table.
   */
  worstCaseCostUsd(context: ProposeContext | RepairContext): number | null;
}

/**
 * A schema repair that could not finish before the invocation's timeout, so it was not sent: the
 * state machine retries the Task (workflow-names.ts OUT_OF_TIME_ERRORS), and the retry replays the
 * first answer from the ledger and sends the repair with a whole timeout ahead of it.
 */
export class ProposeOutOfTime extends Error {
  override readonly name = 'Propose.OutOfTime';
}

/** A proposer that cannot give a usable answer (refusal, schema failure after repair, missing key). */
export class ProposerError extends Error {
  override readonly name: string = 'ProposerError';
}

/**
 * A local answer not written yet (`files:DIR`) when this invocation's share of the wait is up: the
 * state machine invokes Propose again (its Retry on ANSWER_PENDING_ERROR), which goes on waiting.
 */
export class AnswerPending extends ProposerError {
  override readonly name = ANSWER_PENDING_ERROR;
}
