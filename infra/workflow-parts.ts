/**
 * The search definition's building blocks: a Lambda Task with our timeouts and retries, and the
 * two kinds of Map whose iterations never fail (seed-runs and sandbox checks): a Lambda that ran
 * out of memory, out of time or failed otherwise becomes a result with that outcome, made by a
 * Pass state, so one bad candidate never fails the search.
 */
import { Duration } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import type { Construct } from 'constructs';
import { FUNCTION_CAPS, RETRY_BACKOFF, type TaskRole, taskTimeoutSeconds } from './config.ts';
import {
  MAX_CONCURRENCY_PATH, OUT_OF_MEMORY_ERRORS, RETIRED_PROCESS_ERRORS, THROTTLED_LAMBDA_ERRORS, TIMEOUT_ERRORS,
  TRANSIENT_LAMBDA_ERRORS, type IterationStates, type SeedRunStates,
} from './workflow-names.ts';

/** The Lambda functions behind the Task roles; several roles may be the same function. */
export type SearchTargets = Readonly<Record<TaskRole, lambda.IFunction>>;

export interface InvokeOptions {
  resultPath?: string;
  resultSelector?: Record<string, unknown>;
}

/** A LambdaInvoke Task: the function's answer only, an explicit timeout, retries on transients. */
export function invoke(scope: Construct, name: string, targets: SearchTargets, role: TaskRole,
  payload: Record<string, unknown>, options: InvokeOptions = {}): tasks.LambdaInvoke {
  const task = new tasks.LambdaInvoke(scope, name, {
    lambdaFunction: targets[role],
    payload: sfn.TaskInput.fromObject(payload),
    payloadResponseOnly: true,
    retryOnServiceExceptions: false,
    taskTimeout: sfn.Timeout.duration(Duration.seconds(taskTimeoutSeconds(role))),
    // No ResultPath means the answer replaces the input (the local runner mistakes an explicit '$').
    ...(options.resultPath === undefined ? {} : { resultPath: options.resultPath }),
    ...(options.resultSelector === undefined ? {} : { resultSelector: options.resultSelector }),
  });
  retryTransients(task);
  return task;
}

export function retryTransients(task: sfn.TaskStateBase): void {
  task.addRetry({ errors: TRANSIENT_LAMBDA_ERRORS, ...backoff(2, 6) });
  task.addRetry({ errors: THROTTLED_LAMBDA_ERRORS, ...backoff(5, 12) });
}

export function backoff(intervalSeconds: number, maxAttempts: number): sfn.RetryProps {
  return {
    interval: Duration.seconds(intervalSeconds),
    maxAttempts,
    backoffRate: RETRY_BACKOFF.rate,
    maxDelay: Duration.seconds(RETRY_BACKOFF.maxDelaySeconds),
    jitterStrategy: sfn.JitterType.FULL,
  };
}

const item = (field: string): string => `$$.Map.Item.Value.${field}`;

/**
 * A Map over SeedTasks: TrainSeed's SeedSummary, or one made by a Pass state on a failure. A
 * Distributed Map, each iteration a STANDARD child execution (a seed-run can take 10 minutes, past
 * an EXPRESS child's 5): a seed-run's chunk loop costs 7 history events a chunk, and in a child of
 * its own it counts against that child's 25,000, never the search's. It also runs wider than an
 * inline Map's 40 iterations at once.
 */
export function seedRunMap(scope: Construct, name: string, itemsPath: string, resultPath: string,
  states: SeedRunStates, targets: SearchTargets): sfn.MapBase {
  const fields = ['searchId', 'task', 'generation', 'candidateId', 'seed', 'budget', 'targetSteps', 'chunkSteps'];
  const loop = { more: states.more, done: states.done };
  return iterationMap(scope, { name, itemsPath, resultPath, states, targets, role: 'trainSeed', fields, what: 'seed-run', label: states.label, loop }, (outcome, reason) => ({
    'candidateId.$': '$.candidateId',
    'seed.$': '$.seed',
    outcome,
    'reason.$': reason,
    success: 0,
    // CDK drops null literals from Parameters; this intrinsic yields JSON null.
    'meanSuccessSteps.$': "States.StringToJson('null')",
    'meanReturn.$': "States.StringToJson('null')",
    'progress.$': "States.StringToJson('null')",
    // What it could have trained: the compute it held, for the search's count of steps.
    'stepsTrained.$': '$.targetSteps',
    'trainSuccessArea.$': "States.StringToJson('null')",
  }));
}

/** A Map over CheckItems: TrainSeed's CheckSummary, or one made by a Pass state on a failure. */
export function checkMap(scope: Construct, name: string, itemsPath: string, resultPath: string,
  states: IterationStates, targets: SearchTargets): sfn.MapBase {
  const fields = ['kind', 'searchId', 'task', 'generation', 'candidateId'];
  return iterationMap(scope, { name, itemsPath, resultPath, states, targets, role: 'check', fields, what: 'check' }, (verdict, reason) => ({
    'candidateId.$': '$.candidateId',
    verdict,
    'reason.$': reason,
  }));
}

interface MapSpec {
  name: string;
  itemsPath: string;
  resultPath: string;
  states: IterationStates;
  targets: SearchTargets;
  /** The role of the iteration's Task: both are the TrainSeed function on AWS. */
  role: 'trainSeed' | 'check';
  /** The fields of each item the Task receives: exactly those, whatever else the item carries. */
  fields: string[];
  /** "seed-run" or "check", for the reasons of the failures. */
  what: string;
  /** A Distributed Map's label; none: an inline Map. */
  label?: string;
  /** A seed-run: the Task trains one chunk ($.chunk), `more` loops back until it is done, `done` outputs the summary. */
  loop?: { more: string; done: string };
}

type Failure = (outcome: 'memory' | 'timeout' | 'error', reasonExpression: string) => Record<string, unknown>;

function iterationMap(scope: Construct, spec: MapSpec, failed: Failure): sfn.MapBase {
  const props = {
    itemsPath: spec.itemsPath,
    maxConcurrencyPath: MAX_CONCURRENCY_PATH,
    itemSelector: Object.fromEntries(spec.fields.map((f) => [`${f}.$`, item(f)])),
    resultPath: spec.resultPath,
  };
  const map = spec.label !== undefined
    ? new sfn.DistributedMap(scope, spec.name, { ...props, mapExecutionType: sfn.StateMachineType.STANDARD, label: spec.label })
    : new sfn.Map(scope, spec.name, props);
  const payload = Object.fromEntries(spec.fields.map((f) => [`${f}.$`, `$.${f}`]));
  const train = new tasks.LambdaInvoke(scope, spec.states.train, {
    lambdaFunction: spec.targets[spec.role],
    payload: sfn.TaskInput.fromObject(payload),
    payloadResponseOnly: true,
    retryOnServiceExceptions: false,
    taskTimeout: sfn.Timeout.duration(Duration.seconds(taskTimeoutSeconds(spec.role))),
    ...(spec.loop ? { resultPath: '$.chunk' } : {}),
  });
  retryTransients(train);
  train.addRetry({ errors: RETIRED_PROCESS_ERRORS, ...backoff(1, 2) });
  const { memoryMb, timeoutSeconds } = FUNCTION_CAPS.trainSeed;
  const pass = (id: string, outcome: 'memory' | 'timeout' | 'error', reason: string): sfn.Pass =>
    new sfn.Pass(scope, id, { parameters: failed(outcome, reason) });
  train.addCatch(pass(spec.states.outOfMemory, 'memory',
    `States.Format('the ${spec.what} exceeded its ${memoryMb} MB memory cap ({})', $.error.Error)`),
  { errors: OUT_OF_MEMORY_ERRORS, resultPath: '$.error' });
  train.addCatch(pass(spec.states.timedOut, 'timeout',
    `States.Format('the ${spec.what} did not finish within its ${timeoutSeconds} s time cap ({})', $.error.Error)`),
  { errors: TIMEOUT_ERRORS, resultPath: '$.error' });
  // Not the Cause: it can hold 32 KB of stack trace, and 80 of them would burst the 256 KiB state.
  train.addCatch(pass(spec.states.failed, 'error',
    `States.Format('the ${spec.what} failed with {} (its Cause is in the execution history)', $.error.Error)`),
  { errors: [sfn.Errors.ALL], resultPath: '$.error' });
  if (spec.loop) {
    const done = new sfn.Pass(scope, spec.loop.done, { inputPath: '$.chunk.summary' });
    train.next(new sfn.Choice(scope, spec.loop.more).when(sfn.Condition.booleanEquals('$.chunk.done', true), done).otherwise(train));
  }
  map.itemProcessor(train);
  return map;
}
