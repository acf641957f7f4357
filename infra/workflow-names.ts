/**
 * The search's state names and the errors its states tell apart: one place, read by the
 * definition (workflow.ts), its building blocks (workflow-parts.ts), the local runtime and tests.
 * State names are short sentences: they are what the console's graph shows.
 */
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { TaskRole } from './config.ts';

/** Console names of the top-level states, in the order the search visits them. */
export const STATE = {
  start: 'Start the search',
  propose: 'Propose rewards',
  outOfBudget: 'Out of budget?',
  checkCandidates: 'Check the candidates',
  repair: 'Repair rewards',
  repairFailed: 'Repair request failed',
  checkRepaired: 'Check the repaired rewards',
  plan: 'Plan the seed-runs',
  baselinesTrained: 'Baselines trained?',
  trainBaselines: 'Train baselines',
  trainRung: 'Train rung',
  promote: 'Promote',
  moreRungs: 'More rungs?',
  reflect: 'Reflect on results',
  waitForFeedbackChoice: 'Wait for feedback?',
  preparePause: 'Prepare the pause',
  waitForFeedback: 'Wait for feedback',
  feedbackTimedOut: 'Feedback timed out',
  stopAfterFeedback: 'Stop after feedback?',
  moreGenerations: 'More generations?',
  nextGeneration: 'Next generation',
  finish: 'Finish early',
  trainFresh: 'Train on fresh seeds',
  publish: 'Publish the winner',
  announce: 'Announce the winner',
} as const;

/** The states inside one Map iteration (names are unique across the whole machine). */
export interface IterationStates {
  /** The TrainSeed Task. */
  train: string;
  /** Pass: outcome 'memory' (Lambda out of memory). */
  outOfMemory: string;
  /** Pass: outcome 'timeout' (Lambda or Task timeout). */
  timedOut: string;
  /** Pass: outcome 'error' (any other failure), the error's name as reason. */
  failed: string;
}

/** A seed-run's iteration loops over chunks: one TrainSeed invocation each, until it reached its target. */
export interface SeedRunStates extends IterationStates {
  /** Choice: back to `train` while the seed-run has not reached its target steps. */
  more: string;
  /** Pass: the seed-run's summary, the iteration's output. */
  done: string;
  /** The Distributed Map's label: its child executions are named by it. */
  label: string;
}

export const SEED_RUN_STATES = {
  baselines: {
    train: 'Train a baseline seed',
    more: 'More baseline chunks?',
    done: 'Baseline seed trained',
    outOfMemory: 'Baseline seed ran out of memory',
    timedOut: 'Baseline seed timed out',
    failed: 'Baseline seed failed',
    label: 'baselines',
  },
  seeds: {
    train: 'Train one seed',
    more: 'More chunks?',
    done: 'Seed trained',
    outOfMemory: 'Seed ran out of memory',
    timedOut: 'Seed timed out',
    failed: 'Seed failed',
    label: 'seedruns',
  },
  fresh: {
    train: 'Train a fresh seed',
    more: 'More fresh chunks?',
    done: 'Fresh seed trained',
    outOfMemory: 'Fresh seed ran out of memory',
    timedOut: 'Fresh seed timed out',
    failed: 'Fresh seed failed',
    label: 'freshseeds',
  },
} as const satisfies Record<string, SeedRunStates>;

export const CHECK_STATES = {
  candidates: {
    train: 'Check one candidate',
    outOfMemory: 'Check ran out of memory',
    timedOut: 'Check timed out',
    failed: 'Check failed',
  },
  repaired: {
    train: 'Check one repaired reward',
    outOfMemory: 'Repaired check ran out of memory',
    timedOut: 'Repaired check timed out',
    failed: 'Repaired check failed',
  },
} as const satisfies Record<string, IterationStates>;

/** Every Lambda Task state by name, with the role whose handler it runs. */
export const LAMBDA_TASK_STATES: Readonly<Record<string, TaskRole>> = {
  [STATE.start]: 'init',
  [STATE.propose]: 'propose',
  [CHECK_STATES.candidates.train]: 'check',
  [STATE.repair]: 'repair',
  [CHECK_STATES.repaired.train]: 'check',
  [STATE.plan]: 'plan',
  [SEED_RUN_STATES.baselines.train]: 'trainSeed',
  [SEED_RUN_STATES.seeds.train]: 'trainSeed',
  [STATE.promote]: 'promote',
  [STATE.reflect]: 'reflect',
  [STATE.waitForFeedback]: 'feedback',
  [STATE.finish]: 'finish',
  [SEED_RUN_STATES.fresh.train]: 'trainSeed',
  [STATE.publish]: 'publish',
};

/** Lambda errors worth retrying: the service's, not the function's (Step Functions best practice). */
export const TRANSIENT_LAMBDA_ERRORS = [
  'Lambda.ClientExecutionTimeoutException',
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
];

/** Throttling: retried longer, so a low account concurrency never fails a seed-run. */
export const THROTTLED_LAMBDA_ERRORS = ['Lambda.TooManyRequestsException'];

/**
 * A TrainSeed process that hosted a sandbox memory fault stores its result and exits before it
 * answers (see functions/train-seed/handler.ts): retried, the invocation lands on a fresh container
 * and returns the stored result.
 */
export const RETIRED_PROCESS_ERRORS = ['Runtime.ExitError'];

/**
 * Propose or Repair left a schema repair unsent for want of time (functions/propose/proposer.ts
 * ProposeOutOfTime): the retry replays the first answer from the ledger and sends the repair.
 */
export const OUT_OF_TIME_ERRORS = ['Propose.OutOfTime'];

/** Errors that mean the seed-run ran out of memory (the Lambda's or, locally, the child's cap). */
export const OUT_OF_MEMORY_ERRORS = ['Runtime.OutOfMemory'];

/** Errors that mean the seed-run ran out of time: the Lambda's own timeout or the Task's. */
export const TIMEOUT_ERRORS = ['Sandbox.Timedout', sfn.Errors.TIMEOUT];

/**
 * The labels of the three seed-run Maps' runs (their child executions are named by them). Every
 * seed-run Map is a Distributed Map: each seed-run's chunk loop is a child execution with its own
 * 25,000 history events, so the parent's history never grows with the chunks (infra/history-events.ts).
 */
export const DISTRIBUTED_MAP_LABELS = Object.values(SEED_RUN_STATES).map((s) => s.label);

/** JSONPath of the Map concurrency: the validated search configuration. */
export const MAX_CONCURRENCY_PATH = '$.search.config.maxConcurrency';

/**
 * Where "Prepare the pause" puts what "Wait for feedback" sends its function, and the JSONPath of
 * how long it waits (Init turns the input's minutes into seconds). The pause is written at
 * `$.Payload` on purpose: TimeoutSecondsPath then resolves the same against the state's input and
 * against the Task's effective input {FunctionName, Payload} (aws-local-stepfunctions reads it
 * there, after Parameters), so one definition runs on AWS and here.
 */
export const PAUSE_PATH = '$.Payload';
export const FEEDBACK_TIMEOUT_PATH = '$.Payload.timeoutSeconds';
