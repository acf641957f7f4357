/**
 * THE definition of the search (DESIGN §2, functions/shared/search/contracts.ts): one chained expression
 * built from the Lambda targets of its Task roles. The CDK stack deploys it; workflow-asl.ts
 * renders the same chain to plain ASL for the local runner. JSONPath only: the local runner
 * ignores JSONata. State names and error lists are in workflow-names.ts, the Task and Map
 * building blocks in workflow-parts.ts.
 *
 * One generation: Propose rewards -> Check the candidates (each in the sandbox, in TrainSeed) ->
 * Repair rewards (one request for those that failed) -> Check the repaired rewards -> Plan the
 * seed-runs (only what passed) -> Train rung -> Promote -> More rungs? (the race) -> Reflect on
 * results -> (Wait for feedback) -> More generations? Each seed-run trains in chunks, one TrainSeed
 * invocation each ("Train one seed" -> "More chunks?"). A proposer out of budget, or a person's "stop", finishes early: the best so
 * far is re-checked on fresh seeds and published, as after the last generation.
 */
import { Duration } from 'aws-cdk-lib';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import type { Construct } from 'constructs';
import {
  ANNOUNCE_TIMEOUT_SECONDS, ANSWER_PENDING_ERROR, ANSWER_PENDING_RETRIES, EVENT_SOURCE, FINISHED_DETAIL_TYPE, TIME_RETRIES,
} from './config.ts';
import { NO_FEEDBACK_YET } from '../functions/shared/store/feedback-copy.ts';
import { CHECK_STATES, FEEDBACK_TIMEOUT_PATH, OUT_OF_TIME_ERRORS, PAUSE_PATH, SEED_RUN_STATES, STATE } from './workflow-names.ts';
import { backoff, checkMap, invoke, retryTransients, seedRunMap, type SearchTargets } from './workflow-parts.ts';

export * from './workflow-names.ts';
export type { SearchTargets } from './workflow-parts.ts';

export interface SearchDefinition {
  /** Start the search -> ... -> Announce the winner. */
  chain: sfn.IChainable;
}

const searchId = () => sfn.JsonPath.stringAt('$.search.searchId');
const generation = () => sfn.JsonPath.numberAt('$.proposal.generation');

/** Builds the search's states in `scope` (construct ids are the state names). */
export function buildSearchDefinition(scope: Construct, targets: SearchTargets): SearchDefinition {
  // The validated search REPLACES the raw input: human-init code (up to 128 KiB) is stored by Init
  // and never travels on through the 256 KiB states.
  const start = invoke(scope, STATE.start, targets, 'init', {
    kind: 'init',
    input: sfn.JsonPath.entirePayload,
    executionName: sfn.JsonPath.executionName,
  }, { resultSelector: { 'search.$': '$', feedback: NO_FEEDBACK_YET } });

  // The person's answer to the last pause travels with the execution ($.feedback) into Propose,
  // which keeps the table's copy: it never depends on a write made after SendTaskSuccess.
  const propose = invoke(scope, STATE.propose, targets, 'propose', {
    searchId: searchId(),
    generation: sfn.JsonPath.numberAt('$.search.nextGeneration'),
    feedback: sfn.JsonPath.objectAt('$.feedback'),
  }, { resultPath: '$.proposal' });
  // A 32,000-token answer and its schema repair do not fit one 600 s invocation: the retry sends the repair.
  propose.addRetry({ errors: OUT_OF_TIME_ERRORS, ...backoff(TIME_RETRIES.outOfTime.intervalSeconds, TIME_RETRIES.outOfTime.maxAttempts) });

  const checkCandidates = checkMap(scope, STATE.checkCandidates, '$.proposal.checks', '$.checks', CHECK_STATES.candidates, targets);

  const repair = invoke(scope, STATE.repair, targets, 'repair', {
    kind: 'repair', searchId: searchId(), generation: generation(), checks: sfn.JsonPath.listAt('$.checks'),
  }, { resultPath: '$.repair' });
  repair.addRetry({ errors: OUT_OF_TIME_ERRORS, ...backoff(TIME_RETRIES.outOfTime.intervalSeconds, TIME_RETRIES.outOfTime.maxAttempts) });
  // Repair is optional: whatever fails it (the function catches and records the model's failures
  // itself; this catches its own: a timeout, a crash) leaves the failed candidates failed, and the
  // search goes on. The error lands at $.repair and is replaced by a small RepairResult.
  const repairFailed = new sfn.Pass(scope, STATE.repairFailed, {
    parameters: {
      'generation.$': '$.proposal.generation',
      'checks.$': 'States.Array()',
      'failure.$': "States.Format('repair request failed: {} (its Cause is in the execution history)', $.repair.Error)",
    },
    resultPath: '$.repair',
  });
  // A Repair that timed out may have stored its answer already (or its replies are billed): once
  // more (twice at most), it returns that answer to be checked instead of leaving the repaired candidates unchecked.
  repair.addRetry({ errors: [sfn.Errors.TIMEOUT], ...backoff(TIME_RETRIES.repairTimeout.intervalSeconds, TIME_RETRIES.repairTimeout.maxAttempts) });
  repair.addCatch(repairFailed, { errors: [sfn.Errors.ALL], resultPath: '$.repair' });
  // A person's answer (files:DIR, local only) is awaited in slices, each within Propose's timeout;
  // between two slices at most 10 s (the backoff is capped: a slice is the wait, not the delay).
  for (const task of [propose, repair]) {
    task.addRetry({ errors: [ANSWER_PENDING_ERROR], interval: Duration.seconds(1), maxAttempts: ANSWER_PENDING_RETRIES, backoffRate: 2, maxDelay: Duration.seconds(10) });
  }

  const checkRepaired = checkMap(scope, STATE.checkRepaired, '$.repair.checks', '$.repairChecks', CHECK_STATES.repaired, targets);

  const plan = invoke(scope, STATE.plan, targets, 'plan', {
    kind: 'plan', searchId: searchId(), generation: generation(),
    checks: sfn.JsonPath.listAt('$.checks'), repairChecks: sfn.JsonPath.listAt('$.repairChecks'),
  }, { resultPath: '$.seedRuns' });

  const trainBaselines = seedRunMap(scope, STATE.trainBaselines, '$.search.baselineTasks', '$.baselines', SEED_RUN_STATES.baselines, targets);
  // The race (functions/reflect/race.ts): a rung's seed-runs, then Promote ranks them, hands the
  // best on to the next rung and stops the rest; without racing, one rung at the full budget.
  // "Train rung" can be 320 wide (K=16 plus 16, S=10). Its results
  // REPLACE the rung's tasks at $.seedRuns.tasks, and Promote replaces $.seedRuns: a seed-run is in
  // the rung or among the finished, never both, so the largest search fits the 256 KiB state.
  const trainRung = seedRunMap(scope, STATE.trainRung, '$.seedRuns.tasks', '$.seedRuns.tasks', SEED_RUN_STATES.seeds, targets);
  const promote = invoke(scope, STATE.promote, targets, 'promote', {
    kind: 'promote', searchId: searchId(), generation: generation(), rung: sfn.JsonPath.numberAt('$.seedRuns.rung'),
    results: sfn.JsonPath.listAt('$.seedRuns.tasks'), finished: sfn.JsonPath.listAt('$.seedRuns.finished'),
  }, { resultPath: '$.seedRuns' });

  const reflect = invoke(scope, STATE.reflect, targets, 'reflect', {
    kind: 'reflect', searchId: searchId(), generation: generation(),
    seedResults: sfn.JsonPath.listAt('$.seedRuns.finished'), baselines: sfn.JsonPath.listAt('$.baselines'),
    checks: sfn.JsonPath.listAt('$.checks'), repairChecks: sfn.JsonPath.listAt('$.repairChecks'),
  }, { resultPath: '$.reflection' });

  // Propose always reads $.search.nextGeneration ("the generation the next Propose writes"), so the
  // loop copies the reflection's answer there; everything per generation is overwritten each time,
  // and the state never grows with G.
  const nextGeneration = new sfn.Pass(scope, STATE.nextGeneration, {
    inputPath: '$.reflection.nextGeneration',
    resultPath: '$.search.nextGeneration',
  });

  const preparePause = new sfn.Pass(scope, STATE.preparePause, {
    parameters: {
      'searchId.$': '$.search.searchId',
      'generation.$': '$.reflection.generation',
      'timeoutSeconds.$': '$.search.feedbackTimeoutSeconds',
    },
    resultPath: PAUSE_PATH,
  });
  const waitForFeedback = feedbackWait(scope, targets);
  preparePause.next(waitForFeedback);
  const feedbackTimedOut = new sfn.Pass(scope, STATE.feedbackTimedOut, {
    parameters: { action: 'continue', timedOut: true, 'generation.$': `${PAUSE_PATH}.generation` },
    resultPath: '$.feedback',
  });
  waitForFeedback.addCatch(feedbackTimedOut, { errors: [sfn.Errors.TIMEOUT], resultPath: '$.feedbackError' });

  const finish = invoke(scope, STATE.finish, targets, 'finish', {
    kind: 'finish', searchId: searchId(), feedback: sfn.JsonPath.objectAt('$.feedback'),
  }, { resultPath: '$.reflection' });
  const trainFresh = seedRunMap(scope, STATE.trainFresh, '$.reflection.freshTasks', '$.freshResults', SEED_RUN_STATES.fresh, targets);
  const publish = invoke(scope, STATE.publish, targets, 'publish', {
    searchId: searchId(), freshResults: sfn.JsonPath.listAt('$.freshResults'),
  }, { resultPath: '$.published' });
  const announce = announceWinner(scope);
  const ending = trainFresh.next(publish).next(announce);
  finish.next(trainFresh);

  const moreGenerations = new sfn.Choice(scope, STATE.moreGenerations)
    .when(sfn.Condition.booleanEquals('$.reflection.more', true), nextGeneration.next(propose))
    .otherwise(ending);
  const stopAfterFeedback = new sfn.Choice(scope, STATE.stopAfterFeedback)
    .when(sfn.Condition.stringEquals('$.feedback.action', 'stop'), finish)
    .otherwise(moreGenerations);
  waitForFeedback.next(stopAfterFeedback);
  feedbackTimedOut.next(stopAfterFeedback);
  const waitForFeedbackChoice = new sfn.Choice(scope, STATE.waitForFeedbackChoice)
    .when(sfn.Condition.and(
      sfn.Condition.stringEquals('$.search.config.feedback', 'wait'),
      sfn.Condition.booleanEquals('$.reflection.more', true),
    ), preparePause)
    .otherwise(moreGenerations);

  // The baselines train once, after the first Propose: a search whose proposer cannot answer (no
  // key, a refusal) fails before anything trains.
  reflect.next(waitForFeedbackChoice);
  const moreRungs = new sfn.Choice(scope, STATE.moreRungs)
    .when(sfn.Condition.booleanEquals('$.seedRuns.more', true), trainRung)
    .otherwise(reflect);
  trainRung.next(promote).next(moreRungs);
  const baselinesTrained = new sfn.Choice(scope, STATE.baselinesTrained)
    .when(sfn.Condition.isPresent('$.baselines'), trainRung)
    .otherwise(trainBaselines.next(trainRung));
  const outOfBudget = new sfn.Choice(scope, STATE.outOfBudget)
    .when(sfn.Condition.stringEquals('$.proposal.stopped', 'budget'), finish)
    .otherwise(checkCandidates.next(repair).next(checkRepaired).next(plan).next(baselinesTrained));
  repairFailed.next(checkRepaired);

  const chain = sfn.Chain.start(start).next(propose).next(outOfBudget);
  return { chain };
}

/**
 * "Wait for feedback": the reflect function stores the task token, writes an interim card and
 * announces the pause; the execution waits until `eureka feedback` sends the token back
 * (SendTaskSuccess with {action, text}), or the search's feedback timeout passes.
 */
function feedbackWait(scope: Construct, targets: SearchTargets): tasks.LambdaInvoke {
  const wait = new tasks.LambdaInvoke(scope, STATE.waitForFeedback, {
    lambdaFunction: targets.feedback,
    integrationPattern: sfn.IntegrationPattern.WAIT_FOR_TASK_TOKEN,
    payload: sfn.TaskInput.fromObject({
      kind: 'feedback',
      searchId: sfn.JsonPath.stringAt(`${PAUSE_PATH}.searchId`),
      generation: sfn.JsonPath.numberAt(`${PAUSE_PATH}.generation`),
      timeoutSeconds: sfn.JsonPath.numberAt(FEEDBACK_TIMEOUT_PATH),
      token: sfn.JsonPath.taskToken,
    }),
    retryOnServiceExceptions: false,
    taskTimeout: sfn.Timeout.at(FEEDBACK_TIMEOUT_PATH),
    resultPath: '$.feedback',
  });
  retryTransients(wait);
  return wait;
}

function announceWinner(scope: Construct): tasks.EventBridgePutEvents {
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
  return announce;
}
