/**
 * THE definition of the search (DESIGN §2, functions/shared/contracts.ts): one chained expression
 * built from four Lambda targets. The CDK stack deploys it; workflow-asl.ts renders the same
 * chain to plain ASL for the local runner. JSONPath only: the local runner ignores JSONata.
 */
import { Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import type { Construct } from 'constructs';
import {
  ANNOUNCE_TIMEOUT_SECONDS,
  EVENT_SOURCE,
  FINISHED_DETAIL_TYPE,
  FUNCTION_CAPS,
  type TaskRole,
  taskTimeoutSeconds,
} from './config.ts';

/** Console names of the top-level states, in the order the search visits them. */
export const STATE = {
  start: 'Start the search',
  propose: 'Propose rewards',
  baselinesTrained: 'Baselines trained?',
  trainBaselines: 'Train baselines',
  trainSeeds: 'Train seeds',
  reflect: 'Reflect on results',
  moreGenerations: 'More generations?',
  nextGeneration: 'Next generation',
  trainFresh: 'Train on fresh seeds',
  publish: 'Publish the winner',
  announce: 'Announce the winner',
} as const;

/** The states inside one seed-run Map iteration (names are unique across the whole machine). */
export interface SeedRunStates {
  /** The TrainSeed Task. */
  train: string;
  /** Pass: outcome 'memory' (Lambda out of memory). */
  outOfMemory: string;
  /** Pass: outcome 'timeout' (Lambda or Task timeout). */
  timedOut: string;
  /** Pass: outcome 'error' (any other failure), the error's name as reason. */
  failed: string;
}

export const SEED_RUN_STATES = {
  baselines: {
    train: 'Train a baseline seed',
    outOfMemory: 'Baseline seed ran out of memory',
    timedOut: 'Baseline seed timed out',
    failed: 'Baseline seed failed',
  },
  seeds: {
    train: 'Train one seed',
    outOfMemory: 'Seed ran out of memory',
    timedOut: 'Seed timed out',
    failed: 'Seed failed',
  },
  fresh: {
    train: 'Train a fresh seed',
    outOfMemory: 'Fresh seed ran out of memory',
    timedOut: 'Fresh seed timed out',
    failed: 'Fresh seed failed',
  },
} as const satisfies Record<string, SeedRunStates>;

/** Every Lambda Task state by name, with the role whose handler it runs. */
export const LAMBDA_TASK_STATES: Readonly<Record<string, TaskRole>> = {
  [STATE.start]: 'init',
  [SEED_RUN_STATES.baselines.train]: 'trainSeed',
  [STATE.propose]: 'propose',
  [SEED_RUN_STATES.seeds.train]: 'trainSeed',
  [STATE.reflect]: 'reflect',
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
 * A TrainSeed process that hosted a sandbox memory fault exits on its next invocation (see
 * functions/train-seed/handler.ts): retried, the seed-run lands on a fresh container.
 */
export const RETIRED_PROCESS_ERRORS = ['Runtime.ExitError'];

/** Errors that mean the seed-run ran out of memory (the Lambda's or, locally, the child's cap). */
export const OUT_OF_MEMORY_ERRORS = ['Runtime.OutOfMemory'];

/** Errors that mean the seed-run ran out of time: the Lambda's own timeout or the Task's. */
export const TIMEOUT_ERRORS = ['Sandbox.Timedout', sfn.Errors.TIMEOUT];

/** JSONPath of the Map concurrency: the validated search configuration. */
export const MAX_CONCURRENCY_PATH = '$.search.config.maxConcurrency';

/** The Lambda functions behind the Task roles; init and reflect may be the same function. */
export type SearchTargets = Readonly<Record<TaskRole, lambda.IFunction>>;

export interface SearchDefinition {
  /** Start the search -> ... -> Announce the winner. */
  chain: sfn.IChainable;
}

/** Builds the search's states in `scope` (construct ids are the state names). */
export function buildSearchDefinition(scope: Construct, targets: SearchTargets): SearchDefinition {
  // The validated search REPLACES the raw input: human-init code (up to 128 KiB) is stored by Init
  // and never travels on through the 256 KiB states.
  const start = invoke(scope, STATE.start, targets, 'init', {
    kind: 'init',
    input: sfn.JsonPath.entirePayload,
    executionName: sfn.JsonPath.executionName,
  }, undefined, { 'search.$': '$' });

  const trainBaselines = seedRunMap(scope, STATE.trainBaselines, '$.search.baselineTasks', '$.baselines',
    SEED_RUN_STATES.baselines, targets);

  const propose = invoke(scope, STATE.propose, targets, 'propose', {
    searchId: sfn.JsonPath.stringAt('$.search.searchId'),
    generation: sfn.JsonPath.numberAt('$.search.nextGeneration'),
  }, '$.proposal');

  const trainSeeds = seedRunMap(scope, STATE.trainSeeds, '$.proposal.tasks', '$.seedResults',
    SEED_RUN_STATES.seeds, targets);

  const reflect = invoke(scope, STATE.reflect, targets, 'reflect', {
    kind: 'reflect',
    searchId: sfn.JsonPath.stringAt('$.search.searchId'),
    generation: sfn.JsonPath.numberAt('$.proposal.generation'),
    seedResults: sfn.JsonPath.listAt('$.seedResults'),
    baselines: sfn.JsonPath.listAt('$.baselines'),
  }, '$.reflection');

  // Propose always reads $.search.nextGeneration ("the generation the next Propose writes"), so the
  // loop copies the reflection's answer there; $.proposal, $.seedResults and $.reflection are
  // overwritten each generation, and the state never grows with G.
  const nextGeneration = new sfn.Pass(scope, STATE.nextGeneration, {
    inputPath: '$.reflection.nextGeneration',
    resultPath: '$.search.nextGeneration',
  });

  const trainFresh = seedRunMap(scope, STATE.trainFresh, '$.reflection.freshTasks', '$.freshResults',
    SEED_RUN_STATES.fresh, targets);

  const publish = invoke(scope, STATE.publish, targets, 'publish', {
    searchId: sfn.JsonPath.stringAt('$.search.searchId'),
    freshResults: sfn.JsonPath.listAt('$.freshResults'),
  }, '$.published');

  const announce = new tasks.EventBridgePutEvents(scope, STATE.announce, {
    entries: [{
      source: EVENT_SOURCE,
      detailType: FINISHED_DETAIL_TYPE,
      detail: sfn.TaskInput.fromJsonPathAt('$.published'),
    }],
    taskTimeout: sfn.Timeout.duration(Duration.seconds(ANNOUNCE_TIMEOUT_SECONDS)),
    resultPath: sfn.JsonPath.DISCARD,
    // The execution's output is the PublishResult.
    outputPath: '$.published',
  });
  announce.addRetry({ errors: [sfn.Errors.TASKS_FAILED], ...backoff(2, 3) });

  const moreGenerations = new sfn.Choice(scope, STATE.moreGenerations)
    .when(sfn.Condition.booleanEquals('$.reflection.more', true), nextGeneration.next(propose))
    .otherwise(trainFresh.next(publish).next(announce));

  // The baselines train once, after the first Propose: a search whose proposer cannot answer (no
  // key, a refusal) fails before anything trains.
  trainSeeds.next(reflect).next(moreGenerations);
  const baselinesTrained = new sfn.Choice(scope, STATE.baselinesTrained)
    .when(sfn.Condition.isPresent('$.baselines'), trainSeeds)
    .otherwise(trainBaselines.next(trainSeeds));

  const chain = sfn.Chain.start(start).next(propose).next(baselinesTrained);
  return { chain };
}

/** A LambdaInvoke Task: the function's answer only, an explicit timeout, retries on transients. */
function invoke(scope: Construct, name: string, targets: SearchTargets, role: TaskRole,
  payload: Record<string, unknown>, resultPath?: string, resultSelector?: Record<string, unknown>): tasks.LambdaInvoke {
  const task = new tasks.LambdaInvoke(scope, name, {
    lambdaFunction: targets[role],
    payload: sfn.TaskInput.fromObject(payload),
    payloadResponseOnly: true,
    retryOnServiceExceptions: false,
    taskTimeout: sfn.Timeout.duration(Duration.seconds(taskTimeoutSeconds(role))),
    // No ResultPath means the answer replaces the input (the local runner mistakes an explicit '$').
    ...(resultPath === undefined ? {} : { resultPath }),
    ...(resultSelector === undefined ? {} : { resultSelector }),
  });
  task.addRetry({ errors: TRANSIENT_LAMBDA_ERRORS, ...backoff(2, 6) });
  task.addRetry({ errors: THROTTLED_LAMBDA_ERRORS, ...backoff(5, 12) });
  return task;
}

function backoff(intervalSeconds: number, maxAttempts: number): sfn.RetryProps {
  return {
    interval: Duration.seconds(intervalSeconds),
    maxAttempts,
    backoffRate: 2,
    maxDelay: Duration.seconds(120),
    jitterStrategy: sfn.JitterType.FULL,
  };
}

/**
 * A Map over SeedTasks whose iteration never fails: TrainSeed's answer, or a SeedSummary made by
 * a Pass state when the Lambda ran out of memory, out of time, or failed otherwise.
 */
function seedRunMap(scope: Construct, name: string, itemsPath: string, resultPath: string,
  states: SeedRunStates, targets: SearchTargets): sfn.Map {
  const item = (field: string): string => `$$.Map.Item.Value.${field}`;
  const map = new sfn.Map(scope, name, {
    itemsPath,
    maxConcurrencyPath: MAX_CONCURRENCY_PATH,
    // Exactly a SeedTask, whatever else the item carries.
    itemSelector: {
      'searchId.$': item('searchId'),
      'task.$': item('task'),
      'generation.$': item('generation'),
      'candidateId.$': item('candidateId'),
      'seed.$': item('seed'),
      'budget.$': item('budget'),
    },
    resultPath,
  });

  const train = invoke(scope, states.train, targets, 'trainSeed', {
    searchId: sfn.JsonPath.stringAt('$.searchId'),
    task: sfn.JsonPath.stringAt('$.task'),
    generation: sfn.JsonPath.numberAt('$.generation'),
    candidateId: sfn.JsonPath.stringAt('$.candidateId'),
    seed: sfn.JsonPath.numberAt('$.seed'),
    budget: sfn.JsonPath.objectAt('$.budget'),
  });
  train.addRetry({ errors: RETIRED_PROCESS_ERRORS, ...backoff(1, 2) });
  const { memoryMb, timeoutSeconds } = FUNCTION_CAPS.trainSeed;
  const failure = (id: string, outcome: 'memory' | 'timeout' | 'error', reason: string): sfn.Pass =>
    new sfn.Pass(scope, id, { parameters: failedSeedSummary(outcome, reason) });
  train.addCatch(failure(states.outOfMemory, 'memory',
    `States.Format('the seed-run exceeded its ${memoryMb} MB memory cap ({})', $.error.Error)`),
  { errors: OUT_OF_MEMORY_ERRORS, resultPath: '$.error' });
  train.addCatch(failure(states.timedOut, 'timeout',
    `States.Format('the seed-run did not finish within its ${timeoutSeconds} s time cap ({})', $.error.Error)`),
  { errors: TIMEOUT_ERRORS, resultPath: '$.error' });
  // Not the Cause: it can hold 32 KB of stack trace, and 80 of them would burst the 256 KiB state.
  train.addCatch(failure(states.failed, 'error',
    "States.Format('the seed-run failed with {} (its Cause is in the execution history)', $.error.Error)"),
    { errors: [sfn.Errors.ALL], resultPath: '$.error' });

  map.itemProcessor(train);
  return map;
}

/** Pass parameters of a SeedSummary for a seed-run that never returned (input: SeedTask + $.error). */
function failedSeedSummary(outcome: 'memory' | 'timeout' | 'error', reasonExpression: string): Record<string, unknown> {
  return {
    'candidateId.$': '$.candidateId',
    'seed.$': '$.seed',
    outcome,
    'reason.$': reasonExpression,
    success: 0,
    // CDK drops null literals from Parameters; this intrinsic yields JSON null.
    'meanSuccessSteps.$': "States.StringToJson('null')",
    'meanReturn.$': "States.StringToJson('null')",
    // Where result.json would be (functions/shared/keys.ts seedResultKey); no object exists there.
    'resultKey.$': "States.Format('searches/{}/generations/{}/candidates/{}/seeds/{}/result.json', "
      + '$.searchId, $.generation, $.candidateId, $.seed)',
  };
}
