/**
 * The embedded runtime: the SAME state-machine definition that AWS runs (infra/workflow.ts,
 * rendered to ASL), run by aws-local-stepfunctions (only the clock of TrainSeed's Task states is
 * longer: poolTimedDefinition). Each Task state runs the matching handler:
 * Propose, Reflect and Publish in this process, TrainSeed in warm capped worker processes. The table is
 * dynalite and the bucket a directory, both under the data directory.
 */
import './polyfills.ts';
import { appendFile, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { StateMachine } from 'aws-local-stepfunctions';
import { CHILD_PROCESS_CAPS, FUNCTION_CAPS, type FunctionCaps, type TaskRole } from '../infra/config.ts';
import { definitionAsl, taskStates, type AslDefinition } from '../infra/workflow-asl.ts';
import { LAMBDA_TASK_STATES } from '../infra/workflow-names.ts';
import type { InitResult, RaceState, ReflectResult } from '../functions/shared/search/contracts.ts';
import type { CheckItem, SeedTask } from '../functions/shared/search/types.ts';
import { BASELINE_GENERATION, FRESH_SEED_OFFSET, META_SK, searchPk } from '../functions/shared/store/records.ts';
import { SearchStore } from '../functions/shared/store/search-store.ts';
import type { InvocationContext } from '../functions/shared/ops/telemetry.ts';
import { InvalidSearchInput, parseSearchInput } from '../functions/shared/input/search-input.ts';
import { Table } from '../functions/shared/store/table.ts';
import { FsBlobStore } from '../functions/shared/store/blob-fs.ts';
import { QuotaWatch } from './quota-watch.ts';
import { recordHistory } from './history-record.ts';
import { checkEventEntry } from '../functions/shared/ops/events.ts';
import { localAwsEnv, openLocalTable, startLocalTable } from './dynalite.ts';
import { localFeedbackWait } from './feedback-wait.ts';
import { TEST_HOOK_VARS } from '../functions/shared/ops/test-hold.ts';
import { taskWallSeconds, TrainSeedPool, type SeedProgress } from './train-seed-pool.ts';
import { markEnded, markRunning } from './search-process.ts';

export type RuntimeEvent =
  | { type: 'stage'; label: string; seeds: number }
  | { type: 'seed'; progress: SeedProgress }
  | { type: 'state'; name: string }
  | { type: 'waiting'; searchId: string; generation: number; deadline: string; cardPath: string | null; dataDir: string };

export interface LocalRunOptions {
  dataDir: string;
  executionName: string;
  input: Record<string, unknown>;
  /** Continue a search the data directory already holds (fails if it holds none by that name). */
  resume?: boolean;
  /** The caps of each TrainSeed child process. @default CHILD_PROCESS_CAPS (its Lambda's) */
  trainSeedCaps?: FunctionCaps;
  /** More environment for each TrainSeed child (EUREKA_SANDBOX_MEMORY_MB, say). */
  trainSeedEnv?: Record<string, string>;
  onEvent?: (event: RuntimeEvent) => void;
}

/** Where the search's EventBridge events go locally, under the data directory. */
export const EVENTS_FILE = 'events.jsonl';
/** Where the handlers' Powertools logs and metrics go locally (JSON lines), not the terminal. */
export const LOG_FILE = 'search.log';

export class UnknownSearch extends Error {
  override readonly name = 'UnknownSearch';
}

type Handler = (event: unknown) => Promise<unknown>;

/** Runs one execution of the search to its end; returns the state machine's output. */
export async function runLocalSearch(options: LocalRunOptions): Promise<{ output: unknown; dataDir: string }> {
  const dataDir = resolve(options.dataDir);
  const emit = options.onEvent ?? (() => {});
  await mkdir(dataDir, { recursive: true });
  const table = await startLocalTable({ dir: join(dataDir, 'table') });
  let stopWorkers = () => {};
  try {
    Object.assign(process.env, localAwsEnv(table), {
      EUREKA_DATA_DIR: dataDir,
      EUREKA_EVENTS_FILE: join(dataDir, EVENTS_FILE),
      EUREKA_LOG_FILE: join(dataDir, LOG_FILE),
      EUREKA_DEFAULT_PROPOSER: process.env.ANTHROPIC_API_KEY ? 'anthropic' : 'offline',
    });
    const searchId = typeof options.input.searchId === 'string' ? options.input.searchId : options.executionName;
    const stored = await new Table(table.tableName).getItem(searchPk(searchId), META_SK);
    if (options.resume && !stored) throw new UnknownSearch(`no search ${searchId} in ${dataDir}`);
    if (!options.resume) refuseAtStart(options.input, stored !== undefined, searchId, dataDir);
    const { setTelemetrySink, fileSink } = await import('../functions/shared/ops/telemetry.ts');
    setTelemetrySink(fileSink(join(dataDir, LOG_FILE)));
    const caps = options.trainSeedCaps ?? CHILD_PROCESS_CAPS;
    const { handlers, pool } = await loadHandlers(dataDir, emit, caps, options.trainSeedEnv);
    stopWorkers = () => pool.close();
    const definition = definitionAsl();
    const machine = new StateMachine(poolTimedDefinition(definition, caps) as never, { validationOptions: { checkArn: false } });
    // As on AWS: a state past 256 KiB, a history past 25,000 events, a Lambda payload past 6 MB
    // fail the execution (the local runner would not).
    const watch = new QuotaWatch(definition);
    const execution = machine.run(options.input as never, {
      overrides: { taskResourceLocalHandlers: localHandlers(definition, handlers, dataDir, emit, watch, options.executionName) as never },
      context: {
        Execution: { Id: `local:${options.executionName}`, Name: options.executionName, Input: options.input as never, StartTime: new Date().toISOString() },
        // $$.Task.Token of "Wait for feedback"; locally the answer travels through the table instead.
        Task: { Token: `local:${options.executionName}` },
      },
    });
    await markRunning(dataDir, searchId);
    try {
      const output = await watch.run(execution);
      await markEnded(dataDir, searchId);
      return { output, dataDir };
    } catch (err) {
      await markEnded(dataDir, searchId, err);
      throw err;
    } finally {
      // The search's history, as AWS would have counted it, for eureka show (a search refused at its start has no record).
      await recordHistory(watch.history, searchId, 0).catch(() => undefined);
    }
  } finally {
    stopWorkers();
    await table.close();
  }
}

/**
 * What "Start the search" would refuse, refused before the execution starts (the CLI's exit 2):
 * an input that parseSearchInput rejects (a bad field, a worst case past a quota), or a new search
 * under an id the data directory holds already (only --resume continues one).
 */
function refuseAtStart(input: Record<string, unknown>, exists: boolean, searchId: string, dataDir: string): void {
  parseSearchInput(input, { proposer: 'offline', local: true });
  if (exists) {
    throw new InvalidSearchInput([`"searchId" ${searchId} names a search ${dataDir} holds already: eureka search --resume ${searchId} continues it, a new search needs a new id`]);
  }
}

/**
 * Opens the data directory's table and bucket (eureka show, eureka feedback), then closes them:
 * the table of a search running there, or its stored copy.
 */
export async function withLocalStore<T>(dataDir: string, fn: (store: SearchStore) => Promise<T>): Promise<T> {
  const table = await openLocalTable({ dir: join(resolve(dataDir), 'table') });
  try {
    Object.assign(process.env, localAwsEnv(table));
    return await fn(new SearchStore(new Table(table.tableName), new FsBlobStore(join(resolve(dataDir), 'bucket'))));
  } finally {
    await table.close();
  }
}

/** Handlers are imported after the environment is set: they read it once when they load. */
async function loadHandlers(dataDir: string, emit: (e: RuntimeEvent) => void, caps: FunctionCaps, extraEnv: Record<string, string> = {}): Promise<{ handlers: Record<TaskRole, Handler>; pool: TrainSeedPool }> {
  const [propose, reflect, publish] = await Promise.all([
    import('../functions/propose/handler.ts'),
    import('../functions/reflect/handler.ts'),
    import('../functions/publish/handler.ts'),
  ]);
  // TrainSeed gets what its Lambda gets: the bucket, no table, no keys.
  const childEnv = {
    PATH: process.env.PATH, HOME: process.env.HOME, EUREKA_DATA_DIR: dataDir, EUREKA_TFJS_BACKEND: process.env.EUREKA_TFJS_BACKEND,
    // The same tasks as this process: a task folder kept outside tasks/ is found in the child too.
    EUREKA_TASKS_DIR: process.env.EUREKA_TASKS_DIR, EUREKA_TASK_PATH: process.env.EUREKA_TASK_PATH,
    EUREKA_LOG_FILE: join(dataDir, LOG_FILE),
    // The kill-and-resume test's hooks (functions/shared/ops/test-hold.ts): unset, they do nothing.
    ...Object.fromEntries(TEST_HOOK_VARS.map((name) => [name, process.env[name]])),
    ...extraEnv,
  };
  const pool = new TrainSeedPool(caps, childEnv, (progress) => emit({ type: 'seed', progress }));
  const staged = (tasksOf: (out: never) => SeedTask[]) => (h: Handler): Handler => async (event) => {
    const out = await h(event);
    const tasks = tasksOf(out as never);
    if (tasks.length > 0) emit({ type: 'stage', label: stageOf(tasks[0]), seeds: tasks.length });
    return out;
  };
  const handlers: Record<TaskRole, Handler> = {
    init: staged((o: InitResult) => o.baselineTasks)(reflect.handler),
    propose: withDeadline(propose.handler, FUNCTION_CAPS.propose.timeoutSeconds),
    check: (event) => pool.check(event as CheckItem),
    repair: withDeadline(propose.handler, FUNCTION_CAPS.propose.timeoutSeconds),
    plan: staged((o: RaceState) => o.tasks)(reflect.handler),
    promote: staged((o: RaceState) => o.tasks)(reflect.handler),
    trainSeed: (event) => pool.invoke(event as SeedTask),
    reflect: staged((o: ReflectResult) => o.freshTasks)(reflect.handler),
    feedback: localFeedbackWait(reflect.handler, () => SearchStore.fromEnv(), (w) => emit({
      type: 'waiting', searchId: w.searchId, generation: w.generation, deadline: w.deadline, cardPath: w.cardKey === '' ? null : join(dataDir, 'bucket', w.cardKey), dataDir,
    })),
    finish: staged((o: ReflectResult) => o.freshTasks)(reflect.handler),
    publish: publish.handler as Handler,
  };
  return { handlers, pool };
}

/**
 * A handler given what Lambda's context gives it, its invocation's deadline (Propose leaves a schema
 * repair it could not finish in time to the Task's retry, as on Lambda).
 */
function withDeadline(handler: (event: unknown, context: InvocationContext) => Promise<unknown>, timeoutSeconds: number): Handler {
  return (event) => {
    const end = Date.now() + timeoutSeconds * 1000;
    return handler(event, { getRemainingTimeInMillis: () => Math.max(0, end - Date.now()) });
  };
}

/** The stage a seed-run belongs to, for progress: the fresh-seed re-check, the baselines, or its generation. */
export function stageOf(task: SeedTask): string {
  if (task.seed >= FRESH_SEED_OFFSET) return 'fresh seeds';
  if (task.generation === BASELINE_GENERATION) return 'baselines';
  // A rung of the race short of the budget says how far it trains.
  const rung = task.targetSteps < task.budget.steps ? ` to ${task.targetSteps.toLocaleString('en-US')} steps` : '';
  return `generation ${task.generation}${rung}`;
}

/**
 * The definition as the interpreter runs it here: the same, but for the TimeoutSeconds of the Task
 * states the worker pool runs. The interpreter would count those on the clock, and the machine's
 * cores are shared, so a seed-run slowed down by other work would time out though it used less CPU
 * than its Lambda gets; the pool holds each invocation to its cap in CPU time instead
 * (train-seed-pool.ts), and the Task's clock only backs that up.
 */
export function poolTimedDefinition(definition: AslDefinition, caps: FunctionCaps): AslDefinition {
  const copy = structuredClone(definition);
  for (const [name, state] of taskStates(copy.States)) {
    const role = LAMBDA_TASK_STATES[name];
    if (role === 'trainSeed' || role === 'check') state.TimeoutSeconds = taskWallSeconds(caps);
  }
  return copy;
}

/** Every Task state, Map iterations included, mapped to its local handler by its name. */
function localHandlers(
  definition: AslDefinition, handlers: Record<TaskRole, Handler>, dataDir: string, emit: (e: RuntimeEvent) => void, watch: QuotaWatch, executionName: string,
): Record<string, Handler> {
  const out: Record<string, Handler> = {};
  for (const name of taskStates(definition.States).keys()) {
    const role = LAMBDA_TASK_STATES[name];
    const run: Handler = role ? handlers[role] : (event) => putEventsLocally(dataDir, event, executionName);
    out[name] = watch.guard(name, (event: unknown) => {
      emit({ type: 'state', name });
      // summary.json carries the search's history so far and what the states after Publish add.
      const running = role === 'publish'
        ? recordHistory(watch.history, (event as { searchId: string }).searchId, AFTER_PUBLISH_EVENTS).then(() => run(event))
        : run(event);
      // The runner stops awaiting a Task it timed out, or when the execution fails: its late
      // failure is then nobody's, and must not take the process down.
      running.catch(() => {});
      return running;
    });
  }
  return out;
}

/**
 * What the history gains once Publish has started: its success and exit, "Announce the winner"
 * (a Task), ExecutionSucceeded; as long as nothing after Publish is retried.
 */
const AFTER_PUBLISH_EVENTS = 2 + 5 + 1;

/**
 * "Announce the winner" locally: the EventBridge entries go to <data-dir>/events.jsonl, each held to
 * EventBridge's 256 KB with the two ARNs Step Functions' integration appends to its Resources.
 */
async function putEventsLocally(dataDir: string, event: unknown, executionName: string): Promise<unknown> {
  const entries = ((event as { Entries?: unknown[] }).Entries ?? [event]) as unknown[];
  const resources = [`arn:aws:states:local:000000000000:execution:EurekaSearch:${executionName}`, 'arn:aws:states:local:000000000000:stateMachine:EurekaSearch'];
  for (const entry of entries as Array<{ Source?: string; DetailType?: string; Detail?: unknown }>) {
    const detail = typeof entry.Detail === 'string' ? entry.Detail : JSON.stringify(entry.Detail ?? {});
    // Step Functions names a service's error after the service: EventBridge.ValidationException.
    checkEventEntry({ Source: entry.Source ?? '', DetailType: entry.DetailType ?? '', Detail: detail, Resources: resources }, 'EventBridge.');
  }
  await appendFile(join(dataDir, EVENTS_FILE), entries.map((e) => `${JSON.stringify({ time: new Date().toISOString(), ...(e as object) })}\n`).join(''));
  return { Entries: entries.map((_, i) => ({ EventId: `local-${Date.now()}-${i}` })), FailedEntryCount: 0 };
}

