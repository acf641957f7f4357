/**
 * The search definition (infra/workflow.ts): its shape in the deployed template, read by state
 * names and transitions; the same definition rendered for the local runner; and its behaviour,
 * run by aws-local-stepfunctions with stub handlers (failed seed-runs, the generation loop, the
 * largest state of the maximum configuration).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { App, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type {
  FinishEvent, InitEvent, InitResult, PlanEvent, PromoteEvent, ProposeEvent, ProposeResult, PublishEvent, PublishResult,
  RaceState, ReflectEvent, ReflectResult, RepairEvent, RepairResult,
} from '../functions/shared/search/contracts.ts';
import type { CheckItem, CheckSummary, ChunkAnswer, SeedSummary, SeedTask } from '../functions/shared/search/types.ts';
import { FUNCTION_CAPS, TASK_FUNCTION, type TaskRole, taskTimeoutSeconds } from '../infra/config.ts';
import { EurekaStack } from '../infra/stack.ts';
import { type AslDefinition, definitionAsl, type JsonObject, LOCAL_FUNCTION_ARNS, localRoleOfResource } from '../infra/workflow-asl.ts';
import { CHECK_STATES, FEEDBACK_TIMEOUT_PATH, LAMBDA_TASK_STATES, MAX_CONCURRENCY_PATH, SEED_RUN_STATES, STATE } from '../infra/workflow.ts';

// aws-local-stepfunctions 3 needs Promise.withResolvers (Node 22) to run a Task.
import '../local/polyfills.ts';
import { StateMachine } from 'aws-local-stepfunctions';
import { DataLimitExceeded } from '../local/data-limit.ts';
import { QuotaWatch } from '../local/quota-watch.ts';
import { seedTasks } from '../functions/reflect/init.ts';
import { firstRung, promoteRung } from '../functions/reflect/race.ts';
import { raceSchedule } from '../functions/shared/search/race-schedule.ts';
import { getTask } from '../tasks/registry.ts';
import { MAX_RUNGS } from '../infra/config.ts';
import { parseSearchInput } from '../functions/shared/input/search-input.ts';
import { SUMMARY_REASON_CHARS } from '../functions/train-seed/seed-summary.ts';
import { historyBound } from '../functions/shared/cost/history-bound.ts';
import { HISTORY_EVENT_BUDGET, seedRunChildEvents } from '../infra/history-events.ts';
import { ppoConfigFor } from '../core/ppo-config.ts';

// ---------------------------------------------------------------- the deployed definition

const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const stack = new EurekaStack(app, 'EurekaServerless');
const template = Template.fromStack(stack);

/** The DefinitionString with each Fn::GetAtt as `<LogicalId.Attr>` and each Ref as `<Name>`. */
function deployedDefinition(): AslDefinition {
  const [machine] = Object.values(template.findResources('AWS::StepFunctions::StateMachine'));
  const [separator, parts] = machine.Properties.DefinitionString['Fn::Join'] as [string, unknown[]];
  const text = parts.map((part) => {
    if (typeof part === 'string') return part;
    const intrinsic = part as { 'Fn::GetAtt'?: [string, string]; Ref?: string };
    if (intrinsic['Fn::GetAtt']) return `<${intrinsic['Fn::GetAtt'].join('.')}>`;
    if (intrinsic.Ref) return `<${intrinsic.Ref}>`;
    throw new Error(`unexpected part of the DefinitionString: ${JSON.stringify(part)}`);
  }).join(separator);
  return JSON.parse(text) as AslDefinition;
}

const deployed = deployedDefinition();

/** Every state, nested ones (Map item processors) included, by name. */
function allStates(definition: Pick<AslDefinition, 'States'>): Map<string, JsonObject> {
  const found = new Map<string, JsonObject>();
  for (const [name, state] of Object.entries(definition.States)) {
    assert.ok(!found.has(name), `state name ${name} is used twice`);
    found.set(name, state);
    const processor = state.ItemProcessor as Pick<AslDefinition, 'States'> | undefined;
    for (const [nested, nestedState] of processor ? allStates(processor) : []) {
      assert.ok(!found.has(nested), `state name ${nested} is used twice`);
      found.set(nested, nestedState);
    }
  }
  return found;
}

function state(name: string): JsonObject {
  const found = allStates(deployed).get(name);
  assert.ok(found, `no state named ${name}`);
  return found;
}

function functionArnRef(role: TaskRole): string {
  const fn = stack.functions[TASK_FUNCTION[role]];
  return `<${stack.getLogicalId(fn.node.defaultChild as CfnElement)}.Arn>`;
}

describe('Workflow: shape of the deployed definition', () => {
  it('visits the states of contracts.ts in order, looping back to "Propose rewards"', () => {
    assert.equal(deployed.StartAt, STATE.start);
    const next = (name: string): unknown => state(name).Next;
    assert.equal(next(STATE.start), STATE.propose);
    assert.equal(next(STATE.propose), STATE.outOfBudget);
    assert.deepEqual(state(STATE.outOfBudget).Choices,
      [{ Variable: '$.proposal.stopped', StringEquals: 'budget', Next: STATE.finish }]);
    assert.equal(state(STATE.outOfBudget).Default, STATE.checkCandidates);
    // Nothing trains before its check: check, repair once, check the repairs, plan what passed.
    assert.equal(next(STATE.checkCandidates), STATE.repair);
    assert.equal(next(STATE.repair), STATE.checkRepaired);
    // Repair is optional: a failure the function could not catch goes on without repairs.
    assert.deepEqual(state(STATE.repair).Catch, [{ ErrorEquals: ['States.ALL'], ResultPath: '$.repair', Next: STATE.repairFailed }]);
    // A timed-out Repair may have stored its answer: it runs once more to hand that answer to the check.
    const timeoutRetry = (state(STATE.repair).Retry as Array<{ ErrorEquals: string[]; MaxAttempts: number }>).find((r) => r.ErrorEquals.includes('States.Timeout'));
    assert.equal(timeoutRetry?.MaxAttempts, 2);
    assert.equal(next(STATE.repairFailed), STATE.checkRepaired);
    assert.equal(state(STATE.repairFailed).ResultPath, '$.repair');
    assert.equal(next(STATE.checkRepaired), STATE.plan);
    assert.equal(next(STATE.plan), STATE.baselinesTrained);
    // The baselines train once, after the first Propose; later generations go straight on.
    assert.deepEqual(state(STATE.baselinesTrained).Choices,
      [{ Variable: '$.baselines', IsPresent: true, Next: STATE.trainRung }]);
    assert.equal(state(STATE.baselinesTrained).Default, STATE.trainBaselines);
    assert.equal(next(STATE.trainBaselines), STATE.trainRung);
    // The race: a rung, Promote, and back to the next rung until the budget is reached.
    assert.equal(next(STATE.trainRung), STATE.promote);
    assert.equal(next(STATE.promote), STATE.moreRungs);
    assert.deepEqual(state(STATE.moreRungs).Choices,
      [{ Variable: '$.seedRuns.more', BooleanEquals: true, Next: STATE.trainRung }]);
    assert.equal(state(STATE.moreRungs).Default, STATE.reflect);
    assert.equal(next(STATE.reflect), STATE.waitForFeedbackChoice);
    // A pause only when asked for, and only when another generation follows.
    assert.deepEqual(state(STATE.waitForFeedbackChoice).Choices, [{
      And: [{ Variable: '$.search.config.feedback', StringEquals: 'wait' }, { Variable: '$.reflection.more', BooleanEquals: true }],
      Next: STATE.preparePause,
    }]);
    assert.equal(state(STATE.waitForFeedbackChoice).Default, STATE.moreGenerations);
    assert.equal(next(STATE.preparePause), STATE.waitForFeedback);
    assert.equal(next(STATE.waitForFeedback), STATE.stopAfterFeedback);
    assert.equal(next(STATE.feedbackTimedOut), STATE.stopAfterFeedback);
    assert.deepEqual(state(STATE.stopAfterFeedback).Choices,
      [{ Variable: '$.feedback.action', StringEquals: 'stop', Next: STATE.finish }]);
    assert.equal(state(STATE.stopAfterFeedback).Default, STATE.moreGenerations);
    assert.deepEqual(state(STATE.moreGenerations).Choices,
      [{ Variable: '$.reflection.more', BooleanEquals: true, Next: STATE.nextGeneration }]);
    assert.equal(state(STATE.moreGenerations).Default, STATE.trainFresh);
    assert.equal(next(STATE.nextGeneration), STATE.propose);
    assert.equal(next(STATE.finish), STATE.trainFresh);
    assert.equal(next(STATE.trainFresh), STATE.publish);
    assert.equal(next(STATE.publish), STATE.announce);
    assert.equal(state(STATE.announce).End, true);
    assert.equal(Object.keys(deployed.States).length, Object.keys(STATE).length);
  });

  it('waits for a person on a task token, up to the search\'s timeout, and goes on without one', () => {
    const wait = state(STATE.waitForFeedback);
    assert.equal(wait.Resource, 'arn:<AWS::Partition>:states:::lambda:invoke.waitForTaskToken');
    assert.deepEqual(wait.Parameters, {
      FunctionName: functionArnRef('feedback'),
      Payload: {
        kind: 'feedback', 'searchId.$': '$.Payload.searchId', 'generation.$': '$.Payload.generation',
        'timeoutSeconds.$': '$.Payload.timeoutSeconds', 'token.$': '$$.Task.Token',
      },
    });
    // The pause sits at $.Payload, so the timeout's path means the same in the state's input and in
    // the Task's effective input {FunctionName, Payload}.
    assert.deepEqual(state(STATE.preparePause).Parameters,
      { 'searchId.$': '$.search.searchId', 'generation.$': '$.reflection.generation', 'timeoutSeconds.$': '$.search.feedbackTimeoutSeconds' });
    assert.equal(state(STATE.preparePause).ResultPath, '$.Payload');
    assert.equal(wait.TimeoutSecondsPath, '$.Payload.timeoutSeconds');
    assert.equal(FEEDBACK_TIMEOUT_PATH, '$.Payload.timeoutSeconds');
    assert.equal(wait.TimeoutSeconds, undefined);
    assert.equal(wait.HeartbeatSeconds, undefined);
    assert.equal(wait.ResultPath, '$.feedback');
    assert.deepEqual(wait.Catch, [{ ErrorEquals: ['States.Timeout'], ResultPath: '$.feedbackError', Next: STATE.feedbackTimedOut }]);
    assert.deepEqual(state(STATE.feedbackTimedOut).Parameters, { action: 'continue', timedOut: true, 'generation.$': '$.Payload.generation' });
    assert.equal(state(STATE.feedbackTimedOut).ResultPath, '$.feedback');
  });

  it('writes each result at its path of contracts.ts', () => {
    const resultPaths: Record<string, string> = {
      [STATE.trainBaselines]: '$.baselines',
      [STATE.propose]: '$.proposal',
      [STATE.checkCandidates]: '$.checks',
      [STATE.repair]: '$.repair',
      [STATE.checkRepaired]: '$.repairChecks',
      [STATE.plan]: '$.seedRuns',
      [STATE.trainRung]: '$.seedRuns.tasks',
      [STATE.promote]: '$.seedRuns',
      [STATE.finish]: '$.reflection',
      [STATE.reflect]: '$.reflection',
      [STATE.trainFresh]: '$.freshResults',
      [STATE.publish]: '$.published',
      [STATE.nextGeneration]: '$.search.nextGeneration',
    };
    for (const [name, path] of Object.entries(resultPaths)) assert.equal(state(name).ResultPath, path, name);
    // Start the search REPLACES the raw input (human-init code and all) with {search: InitResult}.
    assert.equal(state(STATE.start).ResultPath, undefined);
    // ... and starts $.feedback as "no pause yet": Propose reads it from generation 1 on.
    assert.deepEqual(state(STATE.start).ResultSelector, { 'search.$': '$', feedback: { action: 'continue', generation: 0 } });
    assert.equal(state(STATE.announce).ResultPath, null);
    assert.equal(state(STATE.announce).OutputPath, '$.published');
  });

  it('passes each handler the event of contracts.ts', () => {
    assert.deepEqual(state(STATE.start).Parameters,
      { kind: 'init', 'input.$': '$', 'executionName.$': '$$.Execution.Name' });
    // The person's answer travels with the execution into Propose and Finish early.
    assert.deepEqual(state(STATE.propose).Parameters,
      { 'searchId.$': '$.search.searchId', 'generation.$': '$.search.nextGeneration', 'feedback.$': '$.feedback' });
    assert.deepEqual(state(STATE.repair).Parameters, {
      kind: 'repair', 'searchId.$': '$.search.searchId', 'generation.$': '$.proposal.generation', 'checks.$': '$.checks',
    });
    assert.deepEqual(state(STATE.plan).Parameters, {
      kind: 'plan', 'searchId.$': '$.search.searchId', 'generation.$': '$.proposal.generation',
      'checks.$': '$.checks', 'repairChecks.$': '$.repairChecks',
    });
    assert.deepEqual(state(STATE.reflect).Parameters, {
      kind: 'reflect', 'searchId.$': '$.search.searchId', 'generation.$': '$.proposal.generation',
      'seedResults.$': '$.seedRuns.finished', 'baselines.$': '$.baselines', 'checks.$': '$.checks', 'repairChecks.$': '$.repairChecks',
    });
    assert.deepEqual(state(STATE.promote).Parameters, {
      kind: 'promote', 'searchId.$': '$.search.searchId', 'generation.$': '$.proposal.generation', 'rung.$': '$.seedRuns.rung',
      'results.$': '$.seedRuns.tasks', 'finished.$': '$.seedRuns.finished',
    });
    assert.deepEqual(state(STATE.finish).Parameters, { kind: 'finish', 'searchId.$': '$.search.searchId', 'feedback.$': '$.feedback' });
    assert.deepEqual(state(STATE.publish).Parameters,
      { 'searchId.$': '$.search.searchId', 'freshResults.$': '$.freshResults' });
    assert.deepEqual(state(STATE.announce).Parameters, {
      Entries: [{ 'Detail.$': '$.published', DetailType: 'Reward search finished', Source: 'eureka-serverless' }],
    });
  });

  it('invokes the function of each Task role, answer only', () => {
    for (const [name, role] of Object.entries(LAMBDA_TASK_STATES)) {
      if (name === STATE.waitForFeedback) continue;
      assert.equal(state(name).Resource, functionArnRef(role), name);
    }
    assert.equal(functionArnRef('init'), functionArnRef('reflect'), 'init runs in the reflect function');
    // Model-written code runs only in TrainSeed: the checks too; the repair request is Propose's.
    assert.equal(state(CHECK_STATES.candidates.train).Resource, functionArnRef('trainSeed'));
    assert.equal(state(CHECK_STATES.repaired.train).Resource, functionArnRef('trainSeed'));
    assert.equal(state(STATE.repair).Resource, functionArnRef('propose'));
    assert.equal(state(STATE.announce).Resource, 'arn:<AWS::Partition>:states:::events:putEvents');
  });

  it('gives every Task a timeout above its Lambda timeout and a retry with backoff', () => {
    const tasks = [...allStates(deployed)].filter(([, candidate]) => candidate.Type === 'Task');
    assert.equal(tasks.length, Object.keys(LAMBDA_TASK_STATES).length + 1);
    for (const [name, task] of tasks) {
      const role = LAMBDA_TASK_STATES[name];
      if (role === 'feedback') {
        assert.equal(task.TimeoutSecondsPath, FEEDBACK_TIMEOUT_PATH, name);
      } else if (role) {
        assert.equal(task.TimeoutSeconds, taskTimeoutSeconds(role), name);
        assert.ok(Number(task.TimeoutSeconds) > FUNCTION_CAPS[TASK_FUNCTION[role]].timeoutSeconds, name);
        const retried = (task.Retry as JsonObject[]).flatMap((retry) => retry.ErrorEquals as string[]);
        for (const error of ['Lambda.ServiceException', 'Lambda.AWSLambdaException', 'Lambda.SdkClientException',
          'Lambda.TooManyRequestsException']) {
          assert.ok(retried.includes(error), `${name} retries ${error}`);
        }
      } else {
        assert.ok(Number(task.TimeoutSeconds) > 0, name);
      }
      for (const retry of task.Retry as JsonObject[]) {
        assert.ok(Number(retry.BackoffRate) > 1 && Number(retry.MaxAttempts) > 1, `${name} backs off`);
      }
      const retiresProcesses = (task.Retry as JsonObject[]).some((retry) => (retry.ErrorEquals as string[]).includes('Runtime.ExitError'));
      assert.equal(retiresProcesses, role === 'trainSeed' || role === 'check', `${name}: a retired TrainSeed process is retried on a fresh one`);
    }
  });

  it('retries Propose.OutOfTime on "Propose rewards" and "Repair rewards", and on no other Task', () => {
    for (const [name, task] of [...allStates(deployed)].filter(([, candidate]) => candidate.Type === 'Task')) {
      const retried = ((task.Retry ?? []) as JsonObject[]).flatMap((retry) => retry.ErrorEquals as string[]);
      assert.equal(retried.includes('Propose.OutOfTime'), name === STATE.propose || name === STATE.repair, name);
    }
  });

  it('maps exactly SeedTasks to SeedSummaries with the search\'s concurrency, each seed-run a loop over chunks', () => {
    const maps = { [STATE.trainBaselines]: ['$.search.baselineTasks', SEED_RUN_STATES.baselines],
      [STATE.trainRung]: ['$.seedRuns.tasks', SEED_RUN_STATES.seeds],
      [STATE.trainFresh]: ['$.reflection.freshTasks', SEED_RUN_STATES.fresh] } as const;
    for (const [name, [itemsPath, names]] of Object.entries(maps)) {
      const map = state(name);
      assert.equal(map.Type, 'Map');
      assert.equal(map.ItemsPath, itemsPath);
      assert.equal(map.MaxConcurrencyPath, MAX_CONCURRENCY_PATH);
      assert.equal(map.MaxConcurrency, undefined);
      assert.deepEqual(Object.keys(map.ItemSelector as JsonObject).sort(),
        ['budget.$', 'candidateId.$', 'chunkSteps.$', 'generation.$', 'searchId.$', 'seed.$', 'targetSteps.$', 'task.$']);
      const processor = map.ItemProcessor as JsonObject;
      assert.equal(processor.StartAt, names.train);
      // One chunk per invocation, until TrainSeed says the seed-run reached its target.
      assert.equal(state(names.train).ResultPath, '$.chunk');
      assert.equal(state(names.train).Next, names.more);
      assert.deepEqual(state(names.more).Choices, [{ Variable: '$.chunk.done', BooleanEquals: true, Next: names.done }]);
      assert.equal(state(names.more).Default, names.train);
      assert.equal(state(names.done).InputPath, '$.chunk.summary');
      assert.equal(state(names.done).End, true);
      assert.deepEqual(state(names.train).Catch, [
        { ErrorEquals: ['Runtime.OutOfMemory'], ResultPath: '$.error', Next: names.outOfMemory },
        { ErrorEquals: ['Sandbox.Timedout', 'States.Timeout'], ResultPath: '$.error', Next: names.timedOut },
        { ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: names.failed },
      ]);
      for (const pass of [names.outOfMemory, names.timedOut, names.failed]) {
        assert.equal(state(pass).Type, 'Pass');
        assert.equal(state(pass).End, true);
        assert.deepEqual(Object.keys(state(pass).Parameters as JsonObject).map((key) => key.replace(/\.\$$/, '')).sort(),
          ['candidateId', 'meanReturn', 'meanSuccessSteps', 'outcome', 'progress', 'reason', 'seed', 'stepsTrained', 'success', 'trainSuccessArea']);
      }
    }
  });

  it('maps exactly CheckItems to CheckSummaries, a failure caught as a verdict', () => {
    const maps = { [STATE.checkCandidates]: ['$.proposal.checks', CHECK_STATES.candidates],
      [STATE.checkRepaired]: ['$.repair.checks', CHECK_STATES.repaired] } as const;
    for (const [name, [itemsPath, names]] of Object.entries(maps)) {
      const map = state(name);
      assert.equal(map.ItemsPath, itemsPath);
      assert.equal(map.MaxConcurrencyPath, MAX_CONCURRENCY_PATH);
      assert.deepEqual(Object.keys(map.ItemSelector as JsonObject).sort(), ['candidateId.$', 'generation.$', 'kind.$', 'searchId.$', 'task.$']);
      assert.deepEqual((state(names.train).Catch as JsonObject[]).map((c) => c.Next), [names.outOfMemory, names.timedOut, names.failed]);
      for (const pass of [names.outOfMemory, names.timedOut, names.failed]) {
        assert.deepEqual(Object.keys(state(pass).Parameters as JsonObject).map((key) => key.replace(/\.\$$/, '')).sort(), ['candidateId', 'reason', 'verdict']);
      }
    }
  });

  it('uses JSONPath only (the local runner ignores JSONata)', () => {
    const text = JSON.stringify(deployed);
    assert.doesNotMatch(text, /JSONata|\{%/);
    assert.doesNotMatch(text, /"(Arguments|Output|Assign)"/);
  });
});

describe('Workflow: the local definition', () => {
  const local = definitionAsl();

  it('is plain JSON with a placeholder ARN per Task role', () => {
    const text = JSON.stringify(local);
    assert.doesNotMatch(text, /Fn::|"Ref"|\$\{Token|<AWS::/);
    assert.deepEqual(JSON.parse(text), local);
    for (const [name, role] of Object.entries(LAMBDA_TASK_STATES)) {
      const found = allStates(local).get(name);
      const resource = name === STATE.waitForFeedback ? (found?.Parameters as JsonObject).FunctionName : found?.Resource;
      assert.equal(resource, LOCAL_FUNCTION_ARNS[role], name);
      assert.equal(localRoleOfResource(String(resource)), role);
    }
    assert.equal(localRoleOfResource('arn:aws:states:::events:putEvents'), undefined);
  });

  it('is the deployed definition, function ARNs aside', () => {
    const normalize = (definition: AslDefinition, resource: (arn: string) => string): string =>
      JSON.stringify(definition, (key, value: unknown) =>
        ((key === 'Resource' || key === 'FunctionName') && typeof value === 'string' ? resource(value) : value));
    const deployedRoles = new Map(Object.values(LAMBDA_TASK_STATES).map((role) =>
      [functionArnRef(role), TASK_FUNCTION[role]]));
    const localRoles = (arn: string): string => {
      const role = localRoleOfResource(arn);
      return role ? TASK_FUNCTION[role] : arn.replace(':aws:', ':<AWS::Partition>:');
    };
    assert.equal(normalize(local, localRoles), normalize(deployed, (arn) => deployedRoles.get(arn) ?? arn));
  });
});

// ---------------------------------------------------------------- behaviour, run locally

class LambdaError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

interface SearchShape {
  generations: number;
  candidates: number;
  seeds: number;
  /** Successive halving inside each generation, or false. @default false */
  racing?: { eta: number; rungs: number } | false;
  /** What TrainSeed's last chunk of a seed-run does: return a summary or throw. */
  trainSeed?: (task: SeedTask) => SeedSummary;
}

const BUDGET = { steps: 150_000, evalEpisodes: 20 };
/** Each seed-run of the stubs trains in chunks of this many steps: three of them to the budget. */
const CHUNK = 60_000;
const MOUNTAIN_CAR = getTask('MountainCar-v0');

function task(searchId: string, generation: number, candidateId: string, seed: number): SeedTask {
  return { searchId, task: 'MountainCar-v0', generation, candidateId, seed, budget: BUDGET, targetSteps: BUDGET.steps, chunkSteps: CHUNK };
}

function checkItem(searchId: string, generation: number, candidateId: string): CheckItem {
  return { kind: 'check', searchId, task: 'MountainCar-v0', generation, candidateId };
}

function trained(input: SeedTask): SeedSummary {
  return {
    candidateId: input.candidateId, seed: input.seed, outcome: 'trained', reason: '', success: 0.95, meanSuccessSteps: 117.35, meanReturn: -117.35, progress: 0.5,
    stepsTrained: input.targetSteps, trainSuccessArea: 0.5,
  };
}

/** TrainSeed one chunk at a time: not done until the chunks reach the seed-run's target. */
function chunked(last: (task: SeedTask) => SeedSummary, invocations: Map<string, number>) {
  const progress = new Map<string, number>();
  return (input: SeedTask): ChunkAnswer => {
    const id = `${input.generation}/${input.candidateId}/${input.seed}`;
    invocations.set(id, (invocations.get(id) ?? 0) + 1);
    const steps = Math.min(input.targetSteps, (progress.get(id) ?? 0) + input.chunkSteps);
    progress.set(id, steps);
    return steps < input.targetSteps ? { done: false, stepsTrained: steps, targetSteps: input.targetSteps } : { done: true, summary: last(input) };
  };
}

/** Stub handlers that follow contracts.ts, and a record of what they were called with. */
function stubs(shape: SearchShape) {
  const calls = {
    propose: [] as ProposeEvent[], reflect: [] as ReflectEvent[], promote: [] as PromoteEvent[], publish: [] as PublishEvent[], announce: [] as unknown[],
    /** TrainSeed invocations per seed-run (generation/candidate/seed). */
    chunks: new Map<string, number>(),
  };
  const searchSeeds = Array.from({ length: shape.seeds }, (_, i) => 1000 + i);
  const best = { generation: 1, candidateId: `g1-c1-energy-shaping-with-goal-bonus`, success: 0.95 };
  const fresh = (searchId: string) => [best.candidateId, 'environment_reward', 'human_shaping'].flatMap((id) =>
    searchSeeds.map((seed) => task(searchId, id === best.candidateId ? 1 : 0, id, seed + 5000)));
  const config = parseSearchInput({ generations: shape.generations, candidates: shape.candidates, seeds: shape.seeds, steps: BUDGET.steps,
    evalEpisodes: BUDGET.evalEpisodes, maxConcurrency: 40, randomSeed: 7, racing: shape.racing ?? false, chunkSteps: CHUNK }, { proposer: 'offline' });
  const roles: Record<TaskRole, (input: never) => unknown> = {
    init: (event: InitEvent): InitResult => ({
      searchId: event.executionName,
      config,
      baselineTasks: ['environment_reward', 'human_shaping'].flatMap((name) =>
        searchSeeds.map((seed) => task(event.executionName, 0, name, seed))),
      nextGeneration: 1,
      feedbackTimeoutSeconds: 3600,
    }),
    propose: (event: ProposeEvent): ProposeResult => {
      calls.propose.push(event);
      const ids = Array.from({ length: shape.candidates }, (_, k) => `g${event.generation}-c${k + 1}-energy-shaping-with-goal-bonus`);
      return { generation: event.generation, checks: ids.map((candidateId) => checkItem(event.searchId, event.generation, candidateId)), stopped: null };
    },
    check: (item: CheckItem): CheckSummary => ({ candidateId: item.candidateId, verdict: 'ok', reason: '' }),
    repair: (event: RepairEvent): RepairResult => ({ generation: event.generation, checks: [] }),
    plan: (event: PlanEvent): RaceState => firstRung(event.generation, [...event.checks, ...event.repairChecks].filter((c) => c.verdict === 'ok')
      .flatMap((c) => searchSeeds.map((seed) => task(event.searchId, event.generation, c.candidateId, seed))), raceSchedule(config, MOUNTAIN_CAR)),
    promote: (event: PromoteEvent): RaceState => {
      calls.promote.push(event);
      return promoteRung(config, MOUNTAIN_CAR, event).state;
    },
    trainSeed: chunked((input) => (shape.trainSeed ?? trained)(input), calls.chunks),
    reflect: (event: ReflectEvent): ReflectResult => {
      calls.reflect.push(event);
      const more = event.generation < shape.generations;
      return { generation: event.generation, nextGeneration: event.generation + 1, more, best, freshTasks: more ? [] : fresh(event.searchId) };
    },
    feedback: (): never => { throw new Error('no feedback was asked for'); },
    finish: (event: FinishEvent): ReflectResult => ({ generation: 1, nextGeneration: 2, more: false, best, freshTasks: fresh(event.searchId) }),
    publish: (event: PublishEvent): PublishResult => {
      calls.publish.push(event);
      return {
        searchId: event.searchId,
        winner: { generation: 1, candidateId: 'g1-c1-energy-shaping-with-goal-bonus', name: 'energy shaping', searchSuccess: 0.95, freshSuccess: 0.9 },
        baselines: [{ candidateId: 'environment_reward', searchSuccess: 0, freshSuccess: 0 }],
        cardKey: `searches/${event.searchId}/winner/card.html`,
      };
    },
  };
  type Handler = (input: unknown) => unknown;
  const handlers: Record<string, Handler> = {};
  for (const [name, role] of Object.entries(LAMBDA_TASK_STATES)) handlers[name] = roles[role] as Handler;
  handlers[STATE.announce] = (input) => { calls.announce.push(input); return { Entries: [{ EventId: 'e-1' }], FailedEntryCount: 0 }; };
  return { handlers, calls };
}

interface LocalRun<T> {
  output: T;
  /** Size in bytes of the largest state input or output the execution saw. */
  largestState: number;
  /** Size in bytes of the largest Map item, and of the largest Map result (its array of summaries). */
  largestMapItem: number;
  largestMapResult: number;
  retries: number;
  /** The execution's history as Step Functions counts it: the search's own events, and its seed-run children's. */
  history: ReturnType<QuotaWatch['history']['report']>;
}

async function runLocally<T>(shape: SearchShape | ReturnType<typeof stubs>, executionName = 'search-1', input: Record<string, unknown> = { smoke: false }): Promise<LocalRun<T> & ReturnType<typeof stubs>> {
  const stub = 'handlers' in shape ? shape : stubs(shape);
  const definition = definitionAsl();
  const machine = new StateMachine(definition as unknown as ConstructorParameters<typeof StateMachine>[0]);
  // The runtime's own watch: every state's input and output (256 KiB), every execution's history
  // (25,000 events), every Lambda payload (6 MB).
  const watch = new QuotaWatch(definition);
  const guarded = Object.fromEntries(Object.entries(stub.handlers).map(([name, h]) => [name, watch.guard(name, h)]));
  const execution = machine.run(input as never, {
    overrides: {
      taskResourceLocalHandlers: guarded as never,
      retryIntervalOverrides: Object.fromEntries(Object.keys(LAMBDA_TASK_STATES).map((name) => [name, 0])),
    },
    context: { Execution: { Name: executionName } },
  });
  let largestMapItem = 0;
  let largestMapResult = 0;
  let retries = 0;
  const bytes = (x: unknown) => Buffer.byteLength(JSON.stringify(x));
  const output = (await watch.run(execution, (event) => {
    if (event.type === 'StateRetried') retries += 1;
    // A Map item is what its iteration's task receives: the input of "Train ... seed".
    if (event.type === 'StateEntered' && / seed$/.test(event.state.name)) largestMapItem = Math.max(largestMapItem, bytes(event.state.input));
    if (event.type === 'StateExited' && event.state.name.startsWith('Train') && Array.isArray(mapResultOf(event.state.output))) {
      largestMapResult = Math.max(largestMapResult, bytes(mapResultOf(event.state.output)));
    }
  })) as T;
  return { ...stub, output, largestState: watch.states.largest.bytes, largestMapItem, largestMapResult, retries, history: watch.history.report() };
}

/** The array a Map state wrote at its ResultPath. */
function mapResultOf(output: unknown): unknown {
  const o = output as { baselines?: unknown; seedRuns?: { tasks?: unknown }; freshResults?: unknown };
  return o.freshResults ?? (Array.isArray(o.seedRuns?.tasks) ? o.seedRuns.tasks : undefined) ?? o.baselines;
}

describe('Workflow: behaviour, run locally', () => {
  it('loops over the generations and ends with the PublishResult, announced', async () => {
    const run = await runLocally<PublishResult>({ generations: 3, candidates: 2, seeds: 2 });
    assert.deepEqual(run.calls.propose.map((event) => event), [1, 2, 3].map((generation) => ({ searchId: 'search-1', generation, feedback: { action: 'continue', generation: 0 } })));
    assert.deepEqual(run.calls.reflect.map((event) => [event.kind, event.generation, event.seedResults.length, event.baselines.length]),
      [['reflect', 1, 4, 4], ['reflect', 2, 4, 4], ['reflect', 3, 4, 4]]);
    assert.equal(run.calls.publish.length, 1);
    assert.equal(run.calls.publish[0].freshResults.length, 3 * 2);
    // Without racing one rung, the budget, for every seed-run: 150,000 steps in chunks of 60,000.
    assert.deepEqual(run.calls.promote.map((e) => [e.generation, e.rung, e.results.length]), [[1, 1, 4], [2, 1, 4], [3, 1, 4]]);
    assert.equal(run.calls.chunks.size, 3 * 2 * 2 + 2 * 2 + 3 * 2, 'every seed-run of the generations, the baselines and the fresh seeds');
    assert.ok([...run.calls.chunks.values()].every((n) => n === 3), 'three TrainSeed invocations each');
    assert.equal(run.output.searchId, 'search-1');
    assert.deepEqual(run.calls.announce, [{
      Entries: [{ Detail: run.output, DetailType: 'Reward search finished', Source: 'eureka-serverless' }],
    }]);
  });

  it('turns a seed-run out of memory, out of time or failing into a SeedSummary', async () => {
    const failures: Record<string, Error> = {
      'g1-c1-energy-shaping-with-goal-bonus': new LambdaError('Runtime.OutOfMemory', 'Runtime exited with error: signal: killed'),
      'g1-c2-energy-shaping-with-goal-bonus': new LambdaError('Sandbox.Timedout', 'Task timed out after 600.00 seconds'),
      'g1-c3-energy-shaping-with-goal-bonus': new LambdaError('MissingReward', 'no reward.js for candidate g1-c3'),
    };
    const run = await runLocally<PublishResult>({
      generations: 1, candidates: 4, seeds: 1,
      trainSeed: (input) => {
        const failure = failures[input.candidateId];
        if (failure) throw failure;
        return trained(input);
      },
    });
    const [reflected] = run.calls.reflect;
    const byCandidate = new Map(reflected.seedResults.map((summary) => [summary.candidateId, summary]));
    assert.deepEqual(byCandidate.get('g1-c1-energy-shaping-with-goal-bonus'), {
      candidateId: 'g1-c1-energy-shaping-with-goal-bonus', seed: 1000, outcome: 'memory',
      reason: `the seed-run exceeded its ${FUNCTION_CAPS.trainSeed.memoryMb} MB memory cap (Runtime.OutOfMemory)`,
      success: 0, meanSuccessSteps: null, meanReturn: null, progress: null, stepsTrained: 150_000, trainSuccessArea: null,
    });
    assert.equal(byCandidate.get('g1-c2-energy-shaping-with-goal-bonus')?.outcome, 'timeout');
    assert.match(byCandidate.get('g1-c2-energy-shaping-with-goal-bonus')?.reason ?? '', /600 s time cap \(Sandbox\.Timedout\)/);
    assert.deepEqual(byCandidate.get('g1-c3-energy-shaping-with-goal-bonus'), {
      candidateId: 'g1-c3-energy-shaping-with-goal-bonus', seed: 1000, outcome: 'error',
      reason: 'the seed-run failed with MissingReward (its Cause is in the execution history)', success: 0, meanSuccessSteps: null, meanReturn: null,
      progress: null, stepsTrained: 150_000, trainSuccessArea: null,
    });
    assert.equal(byCandidate.get('g1-c4-energy-shaping-with-goal-bonus')?.outcome, 'trained');
  });

  it('retries a throttled seed-run instead of counting it as failed', async () => {
    const throttled = new Set<string>();
    const run = await runLocally<PublishResult>({
      generations: 1, candidates: 1, seeds: 2,
      trainSeed: (input) => {
        const id = `${input.generation}/${input.candidateId}/${input.seed}`;
        if (!throttled.has(id)) {
          throttled.add(id);
          throw new LambdaError('Lambda.TooManyRequestsException', 'Rate exceeded');
        }
        return trained(input);
      },
    });
    assert.ok(run.retries >= 2);
    assert.ok(run.calls.reflect[0].seedResults.every((summary) => summary.outcome === 'trained'));
  });

  it('races the candidates: the top 1/eta go on from each rung, the others stop there with the rung\'s results', async () => {
    // c1 scores 0.9 and c2 0.6 at every rung, c3 to c6 at most 0.2: apart by far more than chance on 2 x 20 episodes.
    const score = (id: string) => { const k = Number(/-c(\d+)-/.exec(id)?.[1]); return k === 1 ? 0.9 : k === 2 ? 0.6 : 0.25 - k / 20; };
    const run = await runLocally<PublishResult>({
      generations: 1, candidates: 6, seeds: 2, racing: { eta: 3, rungs: 3 },
      trainSeed: (input) => ({ ...trained(input), success: score(input.candidateId) }),
    });
    const schedule = raceSchedule(parseSearchInput({ steps: BUDGET.steps, racing: { eta: 3, rungs: 3 } }, { proposer: 'offline' }), MOUNTAIN_CAR);
    assert.deepEqual(schedule, [16_384, 49_152, 150_000]);
    // Rung 1: all six; rung 2: the top third (c1, c2); then c1 alone goes straight on to the budget.
    assert.deepEqual(run.calls.promote.map((e) => [e.rung, [...new Set(e.results.map((r) => r.candidateId.split('-')[1]))]]),
      [[1, ['c1', 'c2', 'c3', 'c4', 'c5', 'c6']], [2, ['c1', 'c2']], [3, ['c1']]]);
    const [reflected] = run.calls.reflect;
    assert.equal(reflected.seedResults.length, 6 * 2, 'every seed-run once, finished or stopped');
    const of = (c: string) => reflected.seedResults.filter((r) => r.candidateId.split('-')[1] === c);
    assert.deepEqual(of('c1').map((r) => [r.outcome, r.stepsTrained]), [['trained', 150_000], ['trained', 150_000]]);
    assert.deepEqual(of('c2').map((r) => [r.outcome, r.stepsTrained]), [['stopped', 49_152], ['stopped', 49_152]]);
    assert.match(of('c2')[0].reason, /^stopped by the race at rung 2 of 3 \(49,152 of 150,000 steps, 33% of the budget\), ranked 2 of 2 there/);
    for (const c of ['c3', 'c4', 'c5', 'c6']) assert.deepEqual(of(c).map((r) => [r.outcome, r.stepsTrained]), [['stopped', 16_384], ['stopped', 16_384]]);
    assert.equal(of('c4')[0].success, score('g1-c4-x'), 'a stopped seed-run keeps the rung\'s score');
    // The race trains 6x2 seed-runs to rung 1, 2x2 on to rung 2, 1x2 on to the budget.
    const trainedSteps = reflected.seedResults.reduce((n, r) => n + r.stepsTrained, 0);
    assert.equal(trainedSteps, 8 * 16_384 + 2 * 49_152 + 2 * 150_000);
  });

  it('retries a Propose that left its schema repair for want of time, and the generation goes on', async () => {
    const stub = stubs({ generations: 1, candidates: 2, seeds: 1 });
    const propose = stub.handlers[STATE.propose];
    let attempts = 0;
    stub.handlers[STATE.propose] = (input) => {
      attempts += 1;
      if (attempts === 1) throw new LambdaError('Propose.OutOfTime', 'the schema repair could stream 32000 tokens, 563 s at 60 tokens/s, and the invocation has 40 s left: a retry sends it');
      return propose(input);
    };
    const run = await runLocally<PublishResult>(stub);
    assert.equal(attempts, 2);
    assert.equal(run.calls.reflect[0].seedResults.length, 2, 'both candidates trained');
  });

  it('goes on when "Repair rewards" fails in a way its function cannot catch, the failure at $.repair', async () => {
    const stub = stubs({ generations: 2, candidates: 2, seeds: 1 });
    const repairs: unknown[] = [];
    stub.handlers[STATE.repair] = () => { throw new LambdaError('Sandbox.Timedout', 'Task timed out after 600.00 seconds'); };
    const checkRepaired = stub.handlers[CHECK_STATES.repaired.train];
    stub.handlers[CHECK_STATES.repaired.train] = (input) => { repairs.push(input); return checkRepaired(input); };
    const run = await runLocally<PublishResult>(stub);
    assert.equal(run.calls.reflect.length, 2, 'both generations trained and reflected');
    assert.deepEqual(run.calls.reflect.map((r) => r.repairChecks), [[], []]);
    assert.deepEqual(repairs, [], 'nothing to check again');
    assert.equal(run.calls.publish.length, 1);
  });

  it('keeps every state under 200 KiB at the largest search the input accepts, raced over the most rungs, every seed-run in chunks', async (t) => {
    const run = await runLocally<PublishResult>(largestSearchStubs(), 'a'.repeat(80), LARGEST_INPUT);
    assert.equal(run.calls.propose.length, LARGEST_INPUT.generations);
    assert.throws(() => parseSearchInput({ ...LARGEST_INPUT, generations: LARGEST_INPUT.generations + 1 }, { proposer: 'anthropic' }), /more than the execution's 24 h/);
    assert.equal(run.calls.reflect[0].seedResults.length, (16 + 16) * 10, 'K + human-init candidates, repaired, x S');
    assert.equal(run.calls.reflect[0].checks.length, 16 + 16 + 2, 'K + human-init + hostile candidates checked');
    assert.equal(run.calls.reflect[0].repairChecks.length, 16 + 16);
    assert.equal(run.calls.promote.filter((e) => e.generation === 1).length, MAX_RUNGS, 'every rung raced');
    assert.ok(run.calls.reflect[0].seedResults.some((s) => s.outcome === 'stopped') && run.calls.reflect[0].seedResults.some((s) => s.outcome === 'memory'));
    // The trained seed-runs looped "More chunks?", one TrainSeed invocation a chunk, rung after rung to the budget.
    const config = parseSearchInput(LARGEST_INPUT, { proposer: 'anthropic' });
    const lander = getTask(LARGEST_INPUT.task);
    assert.ok(Math.max(...run.calls.chunks.values()) > 2 * MAX_RUNGS, 'a seed-run raced to the budget took several chunks a rung');
    // About 150 KiB (the raw input, with 128 KiB of human-init code, is dropped by Start the search).
    t.diagnostic(`largest state ${run.largestState} bytes, largest Map item ${run.largestMapItem} bytes, largest Map result ${run.largestMapResult} bytes`);
    t.diagnostic(`history: ${run.history.search} events in the search's execution (bound ${historyBound(config, lander).search}), ${run.history.children} seed-run executions, the largest ${run.history.largestChild}`);
    assert.ok(run.largestState < 200 * 1024, `largest state is ${run.largestState} bytes`);
    assert.ok(run.largestMapItem > 0 && run.largestMapItem < 1024, `largest Map item is ${run.largestMapItem} bytes`);
    assert.ok(run.history.search <= historyBound(config, lander).search, 'the search\'s history within its worst case');
    assert.ok(run.history.largestChild <= historyBound(config, lander).seedRun, 'each rung\'s child within a seed-run\'s worst case');
  });

  it('fits the 25,000-event history at the largest accepted input: the most steps, the fewest steps a chunk, every seed-run looping', async (t) => {
    // At 10,000,000 steps the fewest steps a chunk accepted (search-input.test.ts): 2,441 chunks a seed-run. Without a
    // race, as many generations of these seed-runs as the execution's 24 hours take (time-bound.ts).
    const shape = { ...LARGEST_INPUT, racing: false as const, chunkSteps: 4096 };
    const generations = mostGenerations(shape);
    assert.ok(generations >= 2, `${generations}`);
    const input = { ...shape, generations };
    const config = parseSearchInput(input, { proposer: 'anthropic' });
    assert.throws(() => parseSearchInput({ ...input, generations: generations + 1 }, { proposer: 'anthropic' }), /more than the execution's 24 h/);
    const lander = getTask(input.task);
    const bound = historyBound(config, lander);
    // One seed-run of every generation, one baseline, and the winner and a baseline on a fresh seed train every chunk to the
    // budget; the other even seeds fault at their second chunk, the odd ones run out of memory at their first.
    const full = (task: SeedTask) => task.seed % 10_000 === 0 && (task.candidateId.startsWith('01-') || task.candidateId === 'environment_reward');
    const stub = largestSearchStubs('r'.repeat(SUMMARY_REASON_CHARS), input, full);
    const run = await runLocally<PublishResult>(stub, 'a'.repeat(80), input);
    assert.equal(run.calls.propose.length, generations);
    assert.equal(bound.seedRunChunks, 2_441);
    assert.equal([...run.calls.chunks.values()].filter((n) => n === bound.seedRunChunks).length, generations + 1 + 2,
      'a seed-run of every generation, a baseline, the winner and a baseline on a fresh seed: every chunk, one invocation each');
    t.diagnostic(`history: ${run.history.search} events in the search's execution (bound ${bound.search}), ${run.history.children} seed-run executions, the largest ${run.history.largestChild} (bound ${bound.seedRun})`);
    assert.equal(run.history.largestChild, bound.seedRun, 'a seed-run to the budget costs its bound, exactly');
    assert.ok(run.history.search <= bound.search && bound.search <= HISTORY_EVENT_BUDGET, `the search's own history is ${run.history.search} events`);
    assert.equal(run.history.children, 32 * 10 + (generations - 1) * 16 * 10 + 2 * 10 + 3 * 10, 'every seed-run a child execution: the generations\', the baselines\', the fresh seeds\'');
  });

  it('keeps the chunk loops out of the search\'s own history, the baselines\' and the fresh seeds\' too', async () => {
    // Issue 23's example: 2,000,000 steps in chunks of 20,480, S=10 is 98 chunks a seed-run, 7 events each. With
    // the baselines and the fresh seeds on inline Maps their loops were 18,011 events of the search's own history here
    // (half of these seed-runs run out of memory at once; 34,500 if all train), over 25,000 with more seeds or chunks.
    const input = { task: 'MountainCar-v0', generations: 1, candidates: 1, seeds: 10, steps: 2_000_000, chunkSteps: 20_480, racing: false, includeHostile: false };
    const run = await runLocally<PublishResult>(largestSearchStubs('r', input), 'issue-23', input);
    assert.equal(Math.max(...run.calls.chunks.values()), 98);
    assert.equal(run.history.largestChild, seedRunChildEvents(98));
    assert.ok(run.history.search < 1_000, `the search's own history is ${run.history.search} events`);
  });

  it('fails an execution whose state goes past 256 KiB with States.DataLimitExceeded, as AWS does', async () => {
    const stub = largestSearchStubs('x'.repeat(4096));
    await assert.rejects(runLocally(stub, 'too-big', LARGEST_INPUT), (error: Error) =>
      error instanceof DataLimitExceeded && error.name === 'States.DataLimitExceeded' && /"(Train (baselines|rung)|Promote)" has an output of \d+ bytes/.test(error.message));
    assert.equal(stub.calls.reflect.length, 0, 'nothing ran after the oversized state');
  });
});

// ---------------------------------------------------------------- the largest accepted search

/** The most generations parseSearchInput accepts of an input: the execution's 24 hours decide (time-bound.ts). */
function mostGenerations(input: Record<string, unknown>): number {
  for (let generations = 20; generations > 1; generations--) {
    try {
      parseSearchInput({ ...input, generations }, { proposer: 'anthropic' });
      return generations;
    } catch {
      // refused: one fewer
    }
  }
  return 1;
}

/**
 * Every limit of parseSearchInput at its maximum: K=16, S=10, 16 human rewards totalling 128 KiB, 5 rungs,
 * 10,000,000 steps, and the most generations the execution's 24 hours then take: one (a race of 32 has up
 * to 31 heirs, each training on to the budget after the one before: time-bound.ts).
 */
const LARGEST_SHAPE = {
  task: 'LunarLanderContinuous-v3', candidates: 16, seeds: 10, steps: 10_000_000, evalEpisodes: 100,
  includeHostile: true, proposer: 'anthropic', maxConcurrency: 320, randomSeed: 2 ** 32 - 1, racing: { eta: 2, rungs: MAX_RUNGS },
  humanInit: Array.from({ length: 16 }, (_, i) => ({ name: `human-${i}-${'n'.repeat(50)}`, idea: 'i'.repeat(500), code: `// ${'c'.repeat(8 * 1024 - 4)}\n` })),
};
const LARGEST_INPUT = { ...LARGEST_SHAPE, generations: mostGenerations(LARGEST_SHAPE) };

/**
 * Stubs shaped like the real handlers at the largest input; every seed-run ends with the longest
 * reason. TrainSeed trains one chunk per invocation, as the real one (whole rollouts, at least one
 * a chunk); `full` picks the even seed-runs that train to their target, and the others fault at
 * their second chunk. By default every even seed-run trains.
 */
function largestSearchStubs(reason = 'r'.repeat(SUMMARY_REASON_CHARS), input: Record<string, unknown> = LARGEST_INPUT, full: (task: SeedTask) => boolean = () => true) {
  const calls = { propose: [] as ProposeEvent[], reflect: [] as ReflectEvent[], promote: [] as PromoteEvent[], publish: [] as PublishEvent[], announce: [] as unknown[], chunks: new Map<string, number>() };
  let config = parseSearchInput(input, { proposer: 'anthropic' });
  const lander = getTask(config.task);
  const rollout = ((c) => c.numEnvs * c.numSteps)(ppoConfigFor(lander, 0, config.steps));
  const updates = new Map<string, number>();
  // Candidate ids as Propose makes them: "NN-" and a 40-character slug; the hostile ones by name.
  const ids = (generation: number) => [
    ...Array.from({ length: 16 + (generation === 1 ? 16 : 0) }, (_, i) => `${String(i + 1).padStart(2, '0')}-${'s'.repeat(40)}`),
    ...(generation === 1 ? ['hostile_never_returns', 'hostile_exfiltrate'] : []),
  ];
  const roles: Record<TaskRole, (input: never) => unknown> = {
    init: (event: InitEvent): InitResult => {
      config = parseSearchInput(event.input, { proposer: 'anthropic' });
      const searchId = config.searchId ?? event.executionName;
      return {
        searchId, config: { ...config, humanInit: [] }, baselineTasks: seedTasks(searchId, 0, ['environment_reward', 'human_shaping'], config, 0),
        nextGeneration: 1, feedbackTimeoutSeconds: 3600,
      };
    },
    propose: (event: ProposeEvent): ProposeResult => {
      calls.propose.push(event);
      return { generation: event.generation, checks: ids(event.generation).map((id) => checkItem(event.searchId, event.generation, id)), stopped: null };
    },
    // The worst case: every candidate fails its check with the longest reason, every one is
    // repaired (the hostile ones aside), and the repairs pass and train.
    check: (item: CheckItem): CheckSummary => (item.candidateId.endsWith('-repaired')
      ? { candidateId: item.candidateId, verdict: 'ok', reason: '' }
      : { candidateId: item.candidateId, verdict: 'error', reason }),
    repair: (event: RepairEvent): RepairResult => ({
      generation: event.generation,
      checks: event.checks.filter((c) => !c.candidateId.startsWith('hostile')).map((c) => checkItem(event.searchId, event.generation, `${c.candidateId}-repaired`)),
    }),
    plan: (event: PlanEvent): RaceState => firstRung(event.generation,
      seedTasks(event.searchId, event.generation, [...event.checks, ...event.repairChecks].filter((c) => c.verdict === 'ok').map((c) => c.candidateId), config, 0),
      raceSchedule(config, lander)),
    promote: (event: PromoteEvent): RaceState => {
      calls.promote.push(event);
      return promoteRung(config, lander, event).state;
    },
    // Odd seeds run out of memory; even ones train, chunk by chunk and rung by rung, with the longest reason a summary carries.
    trainSeed: (input: SeedTask): ChunkAnswer => {
      const id = `${input.generation}/${input.candidateId}/${input.seed}`;
      calls.chunks.set(id, (calls.chunks.get(id) ?? 0) + 1);
      if (input.seed % 2 === 1) throw new LambdaError('Runtime.OutOfMemory', 'e'.repeat(20_000));
      // Half of generation 1's candidates clearly ahead of the rest (the rung's boundary among them), so the race has something real to cut on.
      const ahead = Number(input.candidateId.slice(0, 2)) <= 16;
      const target = Math.max(1, Math.floor(input.targetSteps / rollout));
      const done = Math.min(target, (updates.get(id) ?? 0) + Math.max(1, Math.floor(input.chunkSteps / rollout)));
      updates.set(id, done);
      const summary = { candidateId: input.candidateId, seed: input.seed, outcome: 'trained' as const, reason, success: ahead ? 0.9 - (input.seed % 7) / 100 : (input.seed % 7) / 100,
        meanSuccessSteps: 123.456789, meanReturn: -123.456789, progress: 0.123456789, stepsTrained: done * rollout, trainSuccessArea: 0.123456789 };
      if (!full(input) && calls.chunks.get(id) === 2) return { done: true, summary: { ...summary, outcome: 'error', success: 0 } };
      return done < target ? { done: false, stepsTrained: done * rollout, targetSteps: input.targetSteps } : { done: true, summary };
    },
    reflect: (event: ReflectEvent): ReflectResult => {
      calls.reflect.push(event);
      const more = event.generation < config.generations;
      const best = { generation: 1, candidateId: ids(1)[0], success: 0 };
      const fresh = more ? [] : [
        ...seedTasks(event.searchId, 1, [best.candidateId], config, 10_000),
        ...seedTasks(event.searchId, 0, ['environment_reward', 'human_shaping'], config, 10_000),
      ];
      return { generation: event.generation, nextGeneration: event.generation + 1, more, best, freshTasks: fresh };
    },
    feedback: (): never => { throw new Error('no feedback was asked for'); },
    finish: (): never => { throw new Error('the search does not finish early'); },
    publish: (event: PublishEvent): PublishResult => {
      calls.publish.push(event);
      return {
        searchId: event.searchId, winner: { generation: 1, candidateId: ids(1)[0], name: 'n'.repeat(64), searchSuccess: 0, freshSuccess: 0 },
        baselines: [{ candidateId: 'environment_reward', searchSuccess: 0, freshSuccess: 0 }, { candidateId: 'human_shaping', searchSuccess: 0, freshSuccess: 0 }],
        cardKey: `searches/${event.searchId}/winner/card.html`,
      };
    },
  };
  type Handler = (input: unknown) => unknown;
  const handlers: Record<string, Handler> = {};
  for (const [name, role] of Object.entries(LAMBDA_TASK_STATES)) handlers[name] = roles[role] as Handler;
  handlers[STATE.announce] = (input) => { calls.announce.push(input); return { Entries: [{ EventId: 'e-1' }], FailedEntryCount: 0 }; };
  return { handlers, calls };
}
