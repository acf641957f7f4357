/**
 * The local runtime's count of the execution history (local/history-count.ts) against what AWS
 * records: each expected sequence is the event types of a GetExecutionHistory of a real execution
 * of the same shape (recorded for localstack's snapshot tests, tests/aws/services/stepfunctions/v2/:
 * test_lambda_invoke_with_retry_base, test_map_state_break_condition, the distributed Map tests,
 * test_sqs_wait_for_task_token, test_put_events_base), and the quota as AWS applies it (event
 * 25,000 may only be ExecutionSucceeded; past it, States.Runtime).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import '../local/polyfills.ts';
import { StateMachine } from 'aws-local-stepfunctions';
import { HISTORY_EVENT_LIMIT } from '../infra/history-events.ts';
import { PARENT } from '../local/history-count.ts';
import { QuotaWatch } from '../local/quota-watch.ts';

const LAMBDA = 'arn:aws:lambda:us-east-1:000000000000:function:f';
type Handlers = Record<string, (input: never) => unknown>;

class Failure extends Error {
  constructor(override readonly name: string) {
    super(name);
  }
}

async function run(definition: { StartAt: string; States: Record<string, unknown> }, handlers: Handlers = {}, input: unknown = {}) {
  const watch = new QuotaWatch(definition as never, { keepHistoryTypes: true });
  const machine = new StateMachine(definition as never, { validationOptions: { checkArn: false } });
  const execution = machine.run(input as never, {
    overrides: { taskResourceLocalHandlers: Object.fromEntries(Object.entries(handlers).map(([n, h]) => [n, watch.guard(n, h)])) as never, retryIntervalOverrides: Object.fromEntries(Object.keys(handlers).map((n) => [n, 0])) },
  });
  const output = await watch.run(execution).then((o) => ({ ok: true as const, o }), (error: Error) => ({ ok: false as const, error }));
  return { output, types: watch.history.types, events: watch.history.events };
}

const lambdaAttempt = ['LambdaFunctionScheduled', 'LambdaFunctionStarted', 'LambdaFunctionFailed'];

describe('Local: the execution history, counted as Step Functions records it', () => {
  it('a Lambda Task retried three times, then caught', async () => {
    const { types } = await run({
      StartAt: 'InvokeLambdaWithRetry', States: {
        InvokeLambdaWithRetry: { Type: 'Task', Resource: LAMBDA, Retry: [{ ErrorEquals: ['States.ALL'], MaxAttempts: 3, IntervalSeconds: 1 }],
          Catch: [{ ErrorEquals: ['States.ALL'], Next: 'HandleError' }], End: true },
        HandleError: { Type: 'Pass', End: true },
      },
    }, { InvokeLambdaWithRetry: () => { throw new Failure('Exception'); } });
    assert.deepEqual(types.get(PARENT), ['ExecutionStarted', 'TaskStateEntered', ...lambdaAttempt, ...lambdaAttempt, ...lambdaAttempt, ...lambdaAttempt,
      'TaskStateExited', 'PassStateEntered', 'PassStateExited', 'ExecutionSucceeded']);
  });

  it('an inline Map: its own events and each iteration\'s, in the search\'s history', async () => {
    const { types } = await run({
      StartAt: 'StartState', States: {
        StartState: { Type: 'Pass', Result: { arr: [1] }, Next: 'MapState' },
        MapState: { Type: 'Map', ItemsPath: '$.arr', ItemProcessor: { StartAt: 'Equals3', States: {
          Equals3: { Type: 'Choice', Choices: [{ Variable: '$', NumericEquals: 3, Next: 'Fail' }], Default: 'Pass' },
          Fail: { Type: 'Fail' }, Pass: { Type: 'Pass', End: true } } }, End: true },
      },
    });
    assert.deepEqual(types.get(PARENT), ['ExecutionStarted', 'PassStateEntered', 'PassStateExited', 'MapStateEntered', 'MapStateStarted',
      'MapIterationStarted', 'ChoiceStateEntered', 'ChoiceStateExited', 'PassStateEntered', 'PassStateExited', 'MapIterationSucceeded',
      'MapStateSucceeded', 'MapStateExited', 'ExecutionSucceeded']);
  });

  it('a Distributed Map: a Map Run in the search\'s history, each item a child execution with a history of its own', async () => {
    const { types } = await run({
      StartAt: 'MapState', States: {
        MapState: { Type: 'Map', ItemsPath: '$.items', ItemProcessor: { ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' }, StartAt: 'Train', States: {
          Train: { Type: 'Task', Resource: LAMBDA, ResultPath: '$.chunk', Next: 'More?' },
          'More?': { Type: 'Choice', Choices: [{ Variable: '$.chunk.done', BooleanEquals: true, Next: 'Done' }], Default: 'Train' },
          Done: { Type: 'Pass', End: true } } }, End: true },
      },
    }, { Train: (() => { const n = new Map<number, number>(); return (x: { i: number }) => { n.set(x.i, (n.get(x.i) ?? 0) + 1); return { done: n.get(x.i) === x.i + 1 }; }; })() },
    { items: [{ i: 0 }, { i: 2 }] });
    assert.deepEqual(types.get(PARENT), ['ExecutionStarted', 'MapStateEntered', 'MapStateStarted', 'MapRunStarted', 'MapRunSucceeded', 'MapStateSucceeded',
      'MapStateExited', 'ExecutionSucceeded']);
    const chunk = ['TaskStateEntered', 'LambdaFunctionScheduled', 'LambdaFunctionStarted', 'LambdaFunctionSucceeded', 'TaskStateExited', 'ChoiceStateEntered', 'ChoiceStateExited'];
    assert.deepEqual(types.get('MapState#1/0'), ['ExecutionStarted', ...chunk, 'PassStateEntered', 'PassStateExited', 'ExecutionSucceeded']);
    assert.deepEqual(types.get('MapState#1/1'), ['ExecutionStarted', ...chunk, ...chunk, ...chunk, 'PassStateEntered', 'PassStateExited', 'ExecutionSucceeded']);
  });

  it('a .waitForTaskToken Task adds TaskSubmitted; an integration\'s Task (PutEvents) records Task events', async () => {
    const { types } = await run({
      StartAt: 'SendMessageWithWait', States: {
        SendMessageWithWait: { Type: 'Task', Resource: 'arn:aws:states:::lambda:invoke.waitForTaskToken', Parameters: { FunctionName: LAMBDA, Payload: {} }, Next: 'PutEvents' },
        PutEvents: { Type: 'Task', Resource: 'arn:aws:states:::events:putEvents', Parameters: { Entries: [] }, End: true },
      },
    }, { SendMessageWithWait: () => ({}), PutEvents: () => ({}) });
    assert.deepEqual(types.get(PARENT), ['ExecutionStarted',
      'TaskStateEntered', 'TaskScheduled', 'TaskStarted', 'TaskSubmitted', 'TaskSucceeded', 'TaskStateExited',
      'TaskStateEntered', 'TaskScheduled', 'TaskStarted', 'TaskSucceeded', 'TaskStateExited', 'ExecutionSucceeded']);
  });
});

/** A loop of `laps` Pass-and-Choice visits: 4 × laps + 8 events in all. */
function loop(laps: number) {
  return {
    StartAt: 'Begin', States: {
      Begin: { Type: 'Pass', Result: { i: 0 }, Next: 'Again?' },
      'Again?': { Type: 'Choice', Choices: [{ Variable: '$.i', NumericLessThan: laps, Next: 'Lap' }], Default: 'Done' },
      Lap: { Type: 'Pass', Parameters: { 'i.$': 'States.MathAdd($.i, 1)' }, Next: 'Again?' },
      Done: { Type: 'Pass', End: true },
    },
  };
}

describe('Local: the 25,000-event quota, as AWS applies it', () => {
  it('lets an execution whose 25,000th event is ExecutionSucceeded succeed', async () => {
    const laps = (HISTORY_EVENT_LIMIT - 8) / 4;
    const { output, events } = await run(loop(laps));
    assert.ok(output.ok, output.ok ? '' : output.error.message);
    assert.equal(events.get(PARENT), HISTORY_EVENT_LIMIT);
  });

  it('fails one event longer with States.Runtime, "The execution reached the maximum number of history events (25000)."', async () => {
    const { output, events } = await run(loop((HISTORY_EVENT_LIMIT - 8) / 4 + 1));
    assert.equal(output.ok, false);
    assert.equal(!output.ok && output.error.name, 'States.Runtime');
    assert.match(!output.ok ? output.error.message : '', /^The execution reached the maximum number of history events \(25000\)\. \(the search's execution\)$/);
    assert.equal(events.get(PARENT), HISTORY_EVENT_LIMIT);
  });

  it('counts each Distributed Map child on its own: a child past the quota fails the search, its name in the error', async () => {
    const chunks = Math.ceil(HISTORY_EVENT_LIMIT / 7);
    let calls = 0;
    const { output, events } = await run({
      StartAt: 'MapState', States: {
        MapState: { Type: 'Map', ItemsPath: '$.items', ItemProcessor: { ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' }, StartAt: 'Train', States: {
          Train: { Type: 'Task', Resource: LAMBDA, ResultPath: '$.chunk', Next: 'More?' },
          'More?': { Type: 'Choice', Choices: [{ Variable: '$.chunk.done', BooleanEquals: true, Next: 'Done' }], Default: 'Train' },
          Done: { Type: 'Pass', End: true } } }, End: true },
      },
    }, { Train: () => ({ done: ++calls >= chunks }) }, { items: [{}] });
    assert.equal(!output.ok && output.error.name, 'States.Runtime');
    assert.match(!output.ok ? output.error.message : '', /\(child execution MapState#1\/0\)$/);
    assert.ok((events.get(PARENT) ?? 0) < 10, 'the search\'s own history holds the Map Run only');
    assert.ok(calls < chunks, 'nothing ran after the child passed its quota');
  });

  it('lets no handler of a wide Map run before the count has its own scheduling: none runs past the quota (issue 32, defect 8)', async () => {
    // 40 iterations at once, each handler answering after a varying number of turns of the event loop, so that they interleave.
    const seen: number[] = [];
    const watch = new QuotaWatch({ StartAt: 'MapState', States: { MapState: { Type: 'Map', ItemsPath: '$.items', MaxConcurrency: 40,
      ItemProcessor: { StartAt: 'Work', States: { Work: { Type: 'Task', Resource: LAMBDA, End: true } } }, End: true } } } as never, { keepHistoryTypes: true });
    const definition = { StartAt: 'MapState', States: { MapState: { Type: 'Map', ItemsPath: '$.items', MaxConcurrency: 40,
      ItemProcessor: { StartAt: 'Work', States: { Work: { Type: 'Task', Resource: LAMBDA, End: true } } }, End: true } } };
    const machine = new StateMachine(definition as never, { validationOptions: { checkArn: false } });
    let turn = 0;
    const work = watch.guard('Work', async () => {
      seen.push(watch.history.events.get(PARENT) ?? 0);
      for (let i = turn++ % 5; i > 0; i--) await new Promise((r) => setImmediate(r));
      return {};
    });
    const items = Array.from({ length: 4000 }, () => ({}));
    const execution = machine.run({ items } as never, { overrides: { taskResourceLocalHandlers: { Work: work } as never } });
    await assert.rejects(watch.run(execution), (error: Error) => error.name === 'States.Runtime');
    const types = watch.history.types.get(PARENT) ?? [];
    const scheduled = types.flatMap((t, i) => (t === 'LambdaFunctionScheduled' ? [i + 1] : []));
    assert.ok(seen.length > 3000 && seen.length < items.length, `${seen.length} handlers ran`);
    // The j-th handler to run is the j-th scheduled: the count it was let through on already held its own scheduling.
    seen.forEach((count, j) => assert.ok(scheduled[j] <= count, `handler ${j + 1} ran at a count of ${count}, its scheduling is event ${scheduled[j]}`));
    assert.ok(Math.max(...seen) <= HISTORY_EVENT_LIMIT);
  });
});
