/**
 * Every cap and default of the deployment in one place, read by the CDK stack and by the local
 * runtime (DESIGN §4: "Timeout and memory caps from one config module shared by CDK and the local
 * runtime"). Plain values only: importing aws-cdk-lib here would slow down the CLI.
 */

/** The four Lambda functions; the init step runs in the reflect function (kind 'init'). */
export type FunctionRole = 'propose' | 'trainSeed' | 'reflect' | 'publish';

/**
 * The Task roles of the state machine, each served by one of the four functions: init, plan,
 * promote, feedback and finish run in the reflect function, repair in propose, check in trainSeed.
 */
export type TaskRole = 'init' | FunctionRole | 'check' | 'repair' | 'plan' | 'promote' | 'feedback' | 'finish';

export interface FunctionCaps {
  /** Lambda memory size in MB; locally the child process's memory cap. */
  memoryMb: number;
  /** Lambda timeout in seconds; locally TrainSeed's workers count it in the CPU time they used (local/train-seed-pool.ts), the other handlers on the clock. */
  timeoutSeconds: number;
}

export const FUNCTION_CAPS: Readonly<Record<FunctionRole, FunctionCaps>> = {
  /**
   * Streams a long model answer: at most 32,000 tokens (MODEL_DEFAULTS.maxTokens), ~9 min at ~60
   * tokens/s; a schema repair that would not fit the rest goes to the Task's retry (below).
   */
  propose: { memoryMb: 1024, timeoutSeconds: 600 },
  /**
   * One seed-run: 1769 MB is exactly one vCPU. 150,000 steps take ~10-20 s on a desktop core and
   * 2-3x that on a Lambda vCPU, so 600 s is a >10x margin that still fits a 1M-step run, while a
   * stuck seed-run holds a Map slot for at most 10 minutes (900 s would buy nothing).
   */
  trainSeed: { memoryMb: 1769, timeoutSeconds: 600 },
  /** Init and reflect: read at most K x S result.json files, rank, write a summary. */
  reflect: { memoryMb: 1024, timeoutSeconds: 120 },
  /** Renders the card and copies the winner's reward and policy. */
  publish: { memoryMb: 1024, timeoutSeconds: 300 },
};

/**
 * The slowest streaming the proposer plans for (Claude streams ~60 output tokens a second): a
 * 32,000-token answer takes ~530 s, so Propose's 600 s hold one answer and not a second. A schema
 * repair that could not finish in what the invocation has left, with this margin, is left to a
 * retry of the Task (functions/propose/model-answer.ts).
 */
export const MODEL_STREAM_TOKENS_PER_SECOND = 60;
export const MODEL_STREAM_MARGIN_SECONDS = 30;

/** Which function serves each Task role. */
export const TASK_FUNCTION: Readonly<Record<TaskRole, FunctionRole>> = {
  init: 'reflect',
  propose: 'propose',
  check: 'trainSeed',
  repair: 'propose',
  plan: 'reflect',
  promote: 'reflect',
  trainSeed: 'trainSeed',
  reflect: 'reflect',
  feedback: 'reflect',
  finish: 'reflect',
  publish: 'publish',
};

/**
 * The definition's retries of a Task that ran out of time (a slow search takes them; the retries of
 * faults are elsewhere): Propose and Repair that left a schema repair unsent (Propose.OutOfTime), and
 * a Repair that timed out (States.Timeout). The worst case of a search counts each attempt at its
 * Task's timeout, and the waits between them (functions/shared/cost/time-bound.ts).
 */
export const TIME_RETRIES = {
  outOfTime: { intervalSeconds: 1, maxAttempts: 2 },
  repairTimeout: { intervalSeconds: 2, maxAttempts: 2 },
} as const;

/** A retry's backoff: each wait twice the one before, at most this long (full jitter: up to it). */
export const RETRY_BACKOFF = { rate: 2, maxDelaySeconds: 120 } as const;

/** Iterations an inline Map (the checks) runs at once at most, whatever its MaxConcurrency says (AWS's limit). */
export const INLINE_MAP_MAX_CONCURRENCY = 40;

/** A Task's TimeoutSeconds sits this far above its Lambda's timeout, so the Lambda stops first. */
export const TASK_TIMEOUT_MARGIN_SECONDS = 30;

/** TimeoutSeconds of the Task state that invokes the given role. */
export function taskTimeoutSeconds(role: TaskRole): number {
  return FUNCTION_CAPS[TASK_FUNCTION[role]].timeoutSeconds + TASK_TIMEOUT_MARGIN_SECONDS;
}

/**
 * A seed-run trains in chunks, one per TrainSeed invocation, each of at most about this long on a
 * Lambda vCPU, so that no invocation comes near the 600 s timeout whatever the budget.
 */
export const CHUNK_SECONDS = 120;

/** A Lambda vCPU against one core of the machines the tasks' speeds were measured on (2-3x slower). */
export const LAMBDA_VCPU_SLOWDOWN = 3;

/**
 * Racing's defaults (input `racing`): rungs at 1/9, 1/3 and all of the budget, the top third of
 * the candidates going on from each (chosen from measurements: see the README's racing table).
 */
export const RACING_DEFAULTS = { eta: 3, rungs: 3 } as const;

/** The most rungs a race may have (the largest-state test runs it). */
export const MAX_RUNGS = 5;

/** The most environment steps a seed-run may train (input `steps`). */
export const MAX_SEED_RUN_STEPS = 10_000_000;

/** TimeoutSeconds of "Announce the winner" (one EventBridge PutEvents call). */
export const ANNOUNCE_TIMEOUT_SECONDS = 30;

/** A whole execution is stopped after this long (the Standard default is a year). */
export const SEARCH_TIMEOUT_SECONDS = 24 * 60 * 60;

/**
 * What the pauses for feedback must leave of SEARCH_TIMEOUT_SECONDS to the search itself: G-1
 * pauses of feedbackTimeoutMinutes may take at most the rest (parseSearchInput checks). 12 h is 2.5
 * times the default search's (its default task, G=4, K=6, S=5, concurrency 10) worst case with the offline
 * proposer (4.8 h: functions/shared/cost/time-bound.ts counts every Task at its timeout), 1.3 times
 * it with a model (9 h), and 33 times the 21.5 min that search measured; the time bound refuses a
 * search whose pauses and work together would not finish.
 */
export const SEARCH_WORK_RESERVE_SECONDS = 12 * 60 * 60;

/**
 * Upper bound of SearchSettings.maxConcurrency, read by the Maps' MaxConcurrencyPath; init rejects
 * more. The seed-run Maps are Distributed Maps and run that many seed-runs at once; the inline Maps
 * (the checks) run at most 40 whatever it says. 320 is K=16 (plus 16 human
 * rewards in generation 1) x S=10, and a third of an account's default 1,000 Lambda concurrency.
 */
export const MAX_MAP_CONCURRENCY = 320;

/** The hostile candidates generation 1 adds with includeHostile (functions/propose/hostile.ts; the history bound counts them). */
export const HOSTILE_CANDIDATE_COUNT = 2;

/** Seeds per candidate at most: K=16 x S=10 is 160 seed-runs per generation. */
export const MAX_SEEDS = 10;

/** Greedy evaluation episodes a seed-run is graded on, at most (a task's budget has 20). */
export const MAX_EVAL_EPISODES = 100;

/** Lambda runtime (nodejs20.x can no longer be created; 22 is the closest to the Node 20 we test on). */
export const LAMBDA_RUNTIME = 'nodejs22.x';

/** Lambda architecture: Graviton is cheaper per vCPU-second and TensorFlow.js wasm runs on both. */
export const LAMBDA_ARCHITECTURE: 'arm64' | 'x86_64' = 'arm64';

/** Days CloudWatch keeps function, state-machine and flow logs (a value CloudWatch accepts). */
export const LOG_RETENTION_DAYS = 30;

/** Default model of the anthropic proposer (Anthropic API model id). */
export const DEFAULT_MODEL_ID = 'claude-sonnet-5-5';

/** Model of the bedrock proposer: a global inference profile; the Propose role may invoke only it. */
export const DEFAULT_BEDROCK_MODEL_ID = 'global.anthropic.claude-sonnet-5-5';

/** The foundation model behind DEFAULT_BEDROCK_MODEL_ID (IAM needs both ARNs). */
export const DEFAULT_BEDROCK_FOUNDATION_MODEL = 'anthropic.claude-sonnet-5-5';

/**
 * Input thinkingBudget's range: the API's smallest budget (1,024), and a largest that, with the
 * answer's 32,000 output tokens (functions/propose/anthropic.ts), stays within a 64,000-token cap.
 */
export const THINKING_BUDGET_LIMITS = { min: 1024, max: 32_000 } as const;

/**
 * Caps of the QuickJS sandbox that runs a candidate reward (DESIGN §4), on AWS and locally: the
 * only source (functions/train-seed/sandbox-types.ts DEFAULT_SANDBOX_LIMITS reads them). Work is
 * counted in QuickJS operations (interrupt polls: calls and loop iterations), not in time, so a
 * reward's outcome does not depend on the machine or its load; the wall clock is only a backstop.
 */
export const SANDBOX_CAPS = {
  /** Largest candidate source, in UTF-8 bytes. */
  maxSourceBytes: 64 * 1024,
  /** The module's WebAssembly memory (QuickJS's own limit does not hold for large arrays: DESIGN §4). */
  memoryBytes: 64 * 1024 * 1024,
  /** QuickJS stack limit: 512 KiB or more overflows the host stack (DESIGN §4). */
  stackBytes: 128 * 1024,
  /**
   * Operations one batched call (a rollout, or loading the code) may do at least; where the
   * observation is long, a rollout of callTransitions at the seed-run's budget a step, which keeps
   * that budget's headroom (functions/train-seed/sandbox-budget.ts): 105 entries, 3.85 million.
   */
  callOperations: 2_000_000,
  /** The transitions one call is sized for: a rollout of 2,048 (16 x 128, or the MuJoCo tasks' 1 x 2,048). */
  callTransitions: 2048,
  /**
   * Wall-clock backstop of a call of callOperations, for work whose operations are slow: past what
   * callOperations takes at the slowest rate a reward-like code measured (~0.8 million a second,
   * building JSON text: ~2.5 s here, a few times that on a Lambda vCPU); a call allowed more
   * operations gets as much more time. Checked when QuickJS calls the interrupt handler, so a loop
   * around one long native call (which counts one operation a call) is stopped late, and one
   * native call that never ends only by the process's time cap.
   */
  callDeadlineMs: 10_000,
  /**
   * Operations a seed-run may do in the sandbox per environment step: this much, plus
   * seedRunOperationsPerObservation for each observation entry. Measured (`npx tsx
   * bench/reward-operations.ts`, docs/figures.md): the heaviest of each MuJoCo robot's baselines and
   * five model-written rewards (test/fixtures/model-rewards/) does 679 a step on the largest
   * observation (105 entries; the environment's own reward 215) and 195 on one of 17; the budget,
   * chosen on those two, is 1,880 and 472 (2.8x and 2.4x), and holds at least 2x on the six other
   * robots, checked (test/sandbox-budget.test.ts; docs/figures.md names them). A default chunk of a
   * reward at its budget stays within TrainSeed's 600 s on a Lambda vCPU (~1.5 million operations a
   * second there): 2 million steps of a 2-entry observation at 232 a step, about 310 s; 94,208 of
   * the 105-entry one at 1,880, about 120 s.
   */
  seedRunOperationsPerStep: 200,
  /** ...an observation entry: an ordinary reward reads the observation once or twice, up to 4 operations an entry read (a loop and a call). */
  seedRunOperationsPerObservation: 16,
  /** ...and at least, whatever its steps (a short run, the candidate's check). */
  seedRunMinOperations: 100_000_000,
  /** Most distinct term names, and the longest. */
  maxTerms: 16,
  maxTermNameLength: 48,
} as const;

/** Caps of one local seed-run child process: the same as its Lambda (DESIGN §4). */
export const CHILD_PROCESS_CAPS: FunctionCaps = FUNCTION_CAPS.trainSeed;

/** Seed-run policies are tagged with this on upload; the bucket expires tagged objects. */
export const SEED_POLICY_TAG = { key: 'eureka-artifact', value: 'seed-policy' } as const;

/** Days before a seed-run's policy files expire (the winner's copy under winner/ stays). */
export const SEED_POLICY_EXPIRY_DAYS = 30;

/** Environment variables the stack sets on the functions. */
export const ENV_VARS = {
  /** DynamoDB table name. */
  table: 'EUREKA_TABLE',
  /** S3 bucket name. */
  bucket: 'EUREKA_BUCKET',
  /** Secrets Manager ARN of the Anthropic API key (Propose only). */
  anthropicSecretArn: 'ANTHROPIC_SECRET_ARN',
  /** Bedrock model id the Propose role may invoke. */
  bedrockModelId: 'EUREKA_BEDROCK_MODEL_ID',
  /** The stack's spending ceiling in US dollars ("Start the search" applies it; cdk -c maxCostUsd). */
  maxCostUsd: 'EUREKA_MAX_COST_USD',
} as const;

/**
 * The stack's spending ceiling on the model, in US dollars, for every search it starts (cdk
 * -c maxCostUsd=... sets another): whoever may put an event on the bus or start an execution gets
 * at most this. An execution input's maxCostUsd may only lower it. $10 is a default search's
 * worst case (G=4, K=6, a repair of all six every generation) with claude-sonnet-5-5, at most
 * $5.91 on any task shipped, rounded up (test/repair-budget.test.ts). Real requests cost a fraction of their worst case.
 */
export const DEFAULT_MAX_COST_USD = 10;

/** The largest ceiling an input or the stack may set. */
export const MAX_COST_USD_LIMIT = 10_000;

/**
 * A local answerer's answer not there yet (`files:DIR`): one Propose invocation waits at most this
 * long, within its Lambda's timeout, then fails with ANSWER_PENDING_ERROR, and the definition's
 * Retry invokes it again to go on waiting, up to the pause's timeout in all.
 */
export const ANSWER_WAIT_SLICE_SECONDS = FUNCTION_CAPS.propose.timeoutSeconds - 60;
export const ANSWER_PENDING_ERROR = 'Proposer.AnswerPending';
/** Enough retries to wait for the whole execution. */
export const ANSWER_PENDING_RETRIES = Math.ceil(SEARCH_TIMEOUT_SECONDS / ANSWER_WAIT_SLICE_SECONDS);

/** EventBridge source of the events the search sends and listens to. */
export const EVENT_SOURCE = 'eureka-serverless';

/** detail-type that starts a search (detail = the execution input). */
export const START_DETAIL_TYPE = 'Start reward search';

/** detail-type announced when a search finishes (detail = PublishResult). */
export const FINISHED_DETAIL_TYPE = 'Reward search finished';

/** Default CloudFormation stack name (`eureka start --stack`). */
export const DEFAULT_STACK_NAME = 'EurekaServerless';

/** CloudFormation output keys `eureka start` reads with DescribeStacks. */
export const STACK_OUTPUT_KEYS = {
  stateMachineArn: 'StateMachineArn',
  bucketName: 'BucketName',
  tableName: 'TableName',
  secretArn: 'SecretArn',
  /** `eureka train --remote` invokes it. */
  trainSeedFunctionName: 'TrainSeedFunctionName',
  /** Attach to whoever answers `eureka feedback` on AWS. */
  feedbackPolicyArn: 'FeedbackPolicyArn',
} as const;

/** detail-type announced when a search pauses for a person's feedback (detail: searchId, generation, cardKey, deadline). */
export const WAITING_DETAIL_TYPE = 'Waiting for feedback';

/** Powertools: the service name on every log line and metric, and the metrics' namespace. */
export const TELEMETRY = { serviceName: 'eureka-serverless', metricsNamespace: 'EurekaServerless' } as const;
