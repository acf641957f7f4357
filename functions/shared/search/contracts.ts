/**
 * What each state of the search passes to the next (JSONPath, DESIGN §2). The state machine's
 * data is {search} (Init's result replaces the raw input) plus these small results at fixed paths:
 *
 *   $.search        InitResult        "Start the search"      (reflect function, kind 'init'); $.feedback starts as
 *                                                              "no pause yet" (feedback-copy.ts NO_FEEDBACK_YET)
 *   $.proposal      ProposeResult     "Propose rewards"       (propose function)
 *                                     "Out of budget?"        Choice: $.proposal.stopped == 'budget' -> Finish early
 *   $.checks        CheckSummary[]    "Check the candidates"  (Map over $.proposal.checks, TrainSeed kind 'check')
 *   $.repair        RepairResult      "Repair rewards"        (propose function, kind 'repair'), or "Repair request
 *                                                              failed" (Pass, after a failure the function could not catch)
 *   $.repairChecks  CheckSummary[]    "Check the repaired rewards" (Map over $.repair.checks)
 *   $.seedRuns      PlanResult        "Plan the seed-runs"    (reflect function, kind 'plan')
 *                                     "Baselines trained?"    Choice: is $.baselines present?
 *   $.baselines     SeedSummary[]     "Train baselines"       (Map over $.search.baselineTasks; once)
 *   $.seedRuns      SeedSummary[]     "Train seeds"           (Distributed Map over $.seedRuns.tasks; its results
 *                                                              replace the plan, which is not needed after)
 *   $.reflection    ReflectResult     "Reflect on results"    (reflect function, kind 'reflect'), or "Finish early" (kind 'finish')
 *                                     "Wait for feedback?"    Choice: feedback 'wait' and more generations
 *   $.Payload       {searchId, generation, timeoutSeconds}  "Prepare the pause" (Pass; see PAUSE_PATH)
 *   $.feedback      FeedbackAnswer    "Wait for feedback"     (reflect function kind 'feedback', .waitForTaskToken): the
 *                                                              token's output, carried into Propose and Finish early
 *                                     "Stop after feedback?", "More generations?" Choices
 *   $.freshResults  SeedSummary[]     "Train on fresh seeds"  (Map over $.reflection.freshTasks)
 *   $.published     PublishResult     "Publish the winner"    (publish function)
 *                                     "Announce the winner"   EventBridge PutEvents
 *
 * A seed-run or a check that fails outside the sandbox (Lambda out of memory, timeout) is caught
 * inside its Map iteration and turned into a result with outcome 'memory' or 'timeout' by a Pass
 * state, so one bad candidate never fails the search.
 */
import type { CheckItem, CheckSummary, SeedSummary, SeedTask } from './types.ts';

export interface InitEvent {
  kind: 'init';
  /** The raw execution input, validated here with zod. */
  input: unknown;
  /** $$.Execution.Name: the default searchId, so a redrive shares the cache. */
  executionName: string;
}

export interface InitResult {
  searchId: string;
  /** The validated search configuration with every default filled in. */
  config: SearchSettings;
  /** The two baselines on the search's seeds, trained as generation 0. */
  baselineTasks: SeedTask[];
  /** The generation the next Propose writes. */
  nextGeneration: number;
  /** How long "Wait for feedback" waits (the input's minutes, in seconds as Step Functions wants them). */
  feedbackTimeoutSeconds: number;
}

/** The validated, defaulted execution input (the zod schema lives in search-input.ts). */
export interface SearchSettings {
  /** The task's id, from tasks/ (its Gymnasium id, as `eureka tasks` lists it). */
  task: string;
  generations: number;
  candidates: number;
  seeds: number;
  /** Seeds of the re-check after the last generation (the winner and both baselines); unset: `seeds`. */
  freshSeeds?: number;
  steps: number;
  evalEpisodes: number;
  includeHostile: boolean;
  /** Who writes the rewards; 'command' and 'files' (any model, or a person) run only locally. */
  proposer: 'offline' | 'anthropic' | 'bedrock' | 'command' | 'files';
  /** The model id; for 'command' the command line that answers, for 'files' the directory it answers in. */
  model: string;
  /** The model's effort (output_config.effort); unset leaves the model's default. */
  effort?: 'low' | 'medium' | 'high' | 'xhigh' | 'max';
  /** Extended thinking's budget in tokens, on top of the answer's output cap, where the model has it; unset: off. */
  thinkingBudget?: number;
  maxConcurrency: number;
  /** Seed of the offline proposer and of everything random the search decides. */
  randomSeed: number;
  humanInit: Array<{ name: string; idea: string; code: string }>;
  /** Send the candidates that fail their sandbox check back to the proposer once per generation. */
  repair: boolean;
  /**
   * What a candidate that fails the screen (it prefers a failure of the task's bank to its
   * successes) gets: 'report' trains it and says so; 'repair' sends it back with the generation's
   * repair (with the screen's words) and trains what comes back; 'skip' never trains it. Unset
   * (a search stored before the screen): 'report'.
   */
  screen?: ScreenMode;
  /** 'wait': pause after each reflection for a person's feedback (a task token), up to feedbackTimeoutMinutes. */
  feedback: 'none' | 'wait';
  feedbackTimeoutMinutes: number;
  /** The most the model proposer may cost, in US dollars; null: no ceiling. */
  maxCostUsd: number | null;
  /**
   * Successive halving inside each generation: `rungs` rungs, the last the full budget, each
   * `eta` times the one before; the top 1/eta of the candidates go on from each rung. false:
   * every candidate that passed its check trains to the full budget (Eureka's way).
   */
  racing: { eta: number; rungs: number } | false;
  /** Steps per TrainSeed invocation; unset: the task's measured size (functions/shared/search/chunk-size.ts). */
  chunkSteps?: number;
}

export type ScreenMode = 'report' | 'repair' | 'skip';

export interface ProposeEvent {
  searchId: string;
  generation: number;
  /** $.feedback: the person's answer to the last pause, as the execution carries it (see feedback-copy.ts). */
  feedback?: FeedbackAnswer;
}

export interface ProposeResult {
  generation: number;
  /** One sandbox check per candidate of the generation. */
  checks: CheckItem[];
  /** 'budget' when the next request would pass maxCostUsd: nothing was asked, the search finishes early. */
  stopped: 'budget' | null;
}

export interface RepairEvent {
  kind: 'repair';
  searchId: string;
  generation: number;
  checks: CheckSummary[];
}

export interface RepairResult {
  generation: number;
  /** One sandbox check per repaired candidate (none when nothing failed, repair is off or the budget is spent). */
  checks: CheckItem[];
  /** "repair request failed: ..." when the request gave no answer; the failed candidates stay failed. */
  failure?: string;
}

export interface PlanEvent {
  kind: 'plan';
  searchId: string;
  generation: number;
  checks: CheckSummary[];
  repairChecks: CheckSummary[];
}

/**
 * Where a generation's race stands ("Plan the seed-runs", then each "Promote"): the seed-runs of
 * the rung to train next, and those that are over. "Train rung" replaces `tasks` with their
 * summaries, which Promote reads. A candidate is in `tasks` or in `finished`, never both, so the
 * state never holds more than K x S summaries.
 */
export interface RaceState {
  generation: number;
  /** 1-based: the rung `tasks` train to. */
  rung: number;
  rungs: number;
  tasks: SeedTask[];
  /** Seed-runs that are over: trained to the budget, stopped by the race, or faulted. */
  finished: SeedSummary[];
  /** Another rung to train ("More rungs?"). */
  more: boolean;
}

/** Kept for the name the plan had before racing: the first rung's race state. */
export type PlanResult = RaceState;

export interface PromoteEvent {
  kind: 'promote';
  searchId: string;
  generation: number;
  rung: number;
  /** The rung's summaries ("Train rung"'s results, at $.seedRuns.tasks). */
  results: SeedSummary[];
  finished: SeedSummary[];
}

export interface FeedbackEvent {
  kind: 'feedback';
  searchId: string;
  generation: number;
  /** How long the pause lasts (the state's TimeoutSecondsPath): the record's deadline. */
  timeoutSeconds: number;
  /** The task token "Wait for feedback" hands out; `eureka feedback` sends it back. */
  token: string;
}

/** What a person answers ("Wait for feedback"'s output, through SendTaskSuccess). */
export interface FeedbackAnswer {
  action: 'continue' | 'stop';
  /** Feedback in the person's words, for the next prompt. */
  text?: string;
  /** Set by "Feedback timed out": nobody answered in time. */
  timedOut?: boolean;
  /** The generation the pause followed (0: no pause yet, as "Start the search" sets it). */
  generation?: number;
}

export interface FinishEvent {
  kind: 'finish';
  searchId: string;
  /** $.feedback: a person's "stop" arrives here. */
  feedback?: FeedbackAnswer;
}

export interface ReflectEvent {
  kind: 'reflect';
  searchId: string;
  generation: number;
  seedResults: SeedSummary[];
  baselines: SeedSummary[];
  /** The generation's checks, of the candidates as proposed and of the repaired ones. */
  checks: CheckSummary[];
  repairChecks: CheckSummary[];
}

export interface ReflectResult {
  generation: number;
  nextGeneration: number;
  more: boolean;
  best: { generation: number; candidateId: string; success: number };
  /** Winner and baselines on seeds the search never used; empty while more is true. */
  freshTasks: SeedTask[];
}

export interface PublishEvent {
  searchId: string;
  freshResults: SeedSummary[];
}

export interface PublishResult {
  searchId: string;
  /** null when no candidate trained (summary.json's nothingTrained says why). */
  winner: { generation: number; candidateId: string; name: string; searchSuccess: number; freshSuccess: number } | null;
  baselines: Array<{ candidateId: string; searchSuccess: number; freshSuccess: number }>;
  cardKey: string;
}
