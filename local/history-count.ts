/**
 * The execution history Step Functions would record, counted from the local runner's event log:
 * per execution, the search's own and each Distributed Map child's (one per item of each Map Run),
 * with AWS's event types (infra/history-events.ts). The local runner logs a state once when it is
 * entered and once when it exits, fails, is retried or caught; AWS records more for some (a Task
 * is entered, scheduled and started), so each local event stands for the AWS events it implies.
 * The events inside a Map's iterations carry the iteration's index and belong to the one Map the
 * parent is in (the search never runs two Maps at once).
 */
import type { StateMachine } from 'aws-local-stepfunctions';
import { HISTORY_EVENT_LIMIT, HISTORY_LIMIT_ERROR } from '../infra/history-events.ts';
import type { AslDefinition, JsonObject } from '../infra/workflow-asl.ts';

type Execution = ReturnType<StateMachine['run']>;
export type EventLog = Execution['eventLogs'] extends AsyncGenerator<infer E> ? E : never;

/** What decides a state's events: its type, a Task's kind, a Map's mode. */
interface StateKind { type: string; lambda: boolean; token: boolean; distributed: boolean }

/** The search's own execution, in counts and reports. */
export const PARENT = 'search';

/** Past the quota: the execution, and the error AWS fails it with. */
export class HistoryLimitExceeded extends Error {
  override readonly name: string = HISTORY_LIMIT_ERROR.error;
  constructor(readonly execution: string, readonly events: number) {
    super(`${HISTORY_LIMIT_ERROR.cause} (${execution === PARENT ? 'the search\'s execution' : `child execution ${execution}`})`);
  }
}

export class HistoryCounter {
  /** AWS history events per execution: PARENT, and `<Map>#<run>/<item>` for each Distributed Map child. */
  readonly events = new Map<string, number>();
  /** Kept only when asked for (tests): each execution's event types, in order. */
  readonly types = new Map<string, string[]>();
  private readonly kinds: Map<string, StateKind>;
  private readonly runs = new Map<string, number>();
  private map: { name: string; run: number; distributed: boolean } | null = null;
  private readonly caught = new Set<string>();

  constructor(definition: Pick<AslDefinition, 'States'>, private readonly keepTypes = false, private readonly limit = HISTORY_EVENT_LIMIT) {
    this.kinds = stateKinds(definition.States);
  }

  /** Counts one local event; returns the error the execution fails with if it passed the quota. */
  observe(event: EventLog): HistoryLimitExceeded | undefined {
    const where = this.executionOf(event);
    const types = this.awsTypes(event, where);
    if (types.length === 0) return undefined;
    const count = (this.events.get(where) ?? 0) + types.length;
    this.events.set(where, count);
    if (this.keepTypes) this.types.set(where, [...(this.types.get(where) ?? []), ...types]);
    const last = types[types.length - 1];
    // Event 25,000 may be the execution's success; any other event there fails it.
    const over = count > this.limit || (count === this.limit && last !== 'ExecutionSucceeded');
    return over ? new HistoryLimitExceeded(where, count) : undefined;
  }

  /** Whether the named Task state invokes a Lambda function (its request and response are held to Lambda's 6 MB). */
  invokesLambda(name: string): boolean {
    return this.kinds.get(name)?.lambda ?? false;
  }

  /** The search's events, and its children's: how many, the most any had, and which one. */
  report(): { search: number; children: number; largestChild: number; largestChildName: string | null } {
    let largest: [string | null, number] = [null, 0];
    for (const [name, n] of this.events) if (name !== PARENT && n > largest[1]) largest = [name, n];
    return { search: this.events.get(PARENT) ?? 0, children: this.events.size - (this.events.has(PARENT) ? 1 : 0), largestChild: largest[1], largestChildName: largest[0] };
  }

  private executionOf(event: EventLog): string {
    const inside = event.type.startsWith('MapIteration') || ('index' in event && event.index !== undefined);
    if (!inside || this.map === null || !this.map.distributed) return PARENT;
    return `${this.map.name}#${this.map.run}/${(event as { index: number }).index}`;
  }

  private awsTypes(event: EventLog, where: string): string[] {
    const child = where !== PARENT;
    switch (event.type) {
      case 'ExecutionStarted': return ['ExecutionStarted'];
      case 'ExecutionSucceeded': return ['ExecutionSucceeded'];
      case 'ExecutionFailed': return ['ExecutionFailed'];
      case 'ExecutionAborted': return ['ExecutionAborted'];
      case 'ExecutionTimeout': return ['ExecutionTimedOut'];
      case 'MapIterationStarted': return [child ? 'ExecutionStarted' : 'MapIterationStarted'];
      case 'MapIterationSucceeded': return [child ? 'ExecutionSucceeded' : 'MapIterationSucceeded'];
      case 'MapIterationFailed': return [child ? 'ExecutionFailed' : 'MapIterationFailed'];
      case 'ParallelBranchStarted': case 'ParallelBranchSucceeded': case 'ParallelBranchFailed': return [];
      default: return this.stateTypes(event, where);
    }
  }

  private stateTypes(event: Extract<EventLog, { state: unknown }>, where: string): string[] {
    const name = event.state.name;
    const kind = this.kinds.get(name) ?? { type: event.state.type, lambda: false, token: false, distributed: false };
    const key = `${where}:${name}:${event.index ?? ''}`;
    if (kind.type === 'Map' && event.index === undefined) this.trackMap(event.type, name, kind.distributed);
    if (kind.type === 'Task') {
      const step = kind.lambda ? 'LambdaFunction' : 'Task';
      switch (event.type) {
        case 'StateEntered': return ['TaskStateEntered', `${step}Scheduled`, `${step}Started`, ...(kind.token ? ['TaskSubmitted'] : [])];
        case 'StateRetried': return [`${step}Scheduled`, `${step}Started`];
        case 'StateFailed': return [event.Error === 'States.Timeout' ? `${step}TimedOut` : `${step}Failed`];
        case 'StateCaught': this.caught.add(key); return [];
        case 'StateExited': return this.caught.delete(key) ? ['TaskStateExited'] : [`${step}Succeeded`, 'TaskStateExited'];
      }
    }
    if (kind.type === 'Map') {
      const run = kind.distributed;
      switch (event.type) {
        case 'StateEntered': return ['MapStateEntered', 'MapStateStarted', ...(run ? ['MapRunStarted'] : [])];
        case 'StateFailed': return [...(run ? ['MapRunFailed'] : []), 'MapStateFailed'];
        case 'StateExited': return [...(run ? ['MapRunSucceeded'] : []), 'MapStateSucceeded', 'MapStateExited'];
        default: return [];
      }
    }
    if (event.type === 'StateEntered') return [`${kind.type}StateEntered`];
    if (event.type === 'StateExited') return [`${kind.type}StateExited`];
    return [];
  }

  private trackMap(type: EventLog['type'], name: string, distributed: boolean): void {
    if (type === 'StateEntered') {
      const run = (this.runs.get(name) ?? 0) + 1;
      this.runs.set(name, run);
      this.map = { name, run, distributed };
    } else if (type === 'StateExited' || type === 'StateFailed') {
      this.map = null;
    }
  }
}

/** Every state's kind, Map iterations included, by name (names are unique across the machine). */
function stateKinds(states: Record<string, JsonObject>, into = new Map<string, StateKind>()): Map<string, StateKind> {
  for (const [name, state] of Object.entries(states)) {
    const processor = (state.ItemProcessor ?? state.Iterator) as { States?: Record<string, JsonObject>; ProcessorConfig?: { Mode?: string } } | undefined;
    const resource = typeof state.Resource === 'string' ? state.Resource : '';
    into.set(name, {
      type: String(state.Type),
      lambda: /^arn:[^:]+:lambda:/.test(resource),
      token: resource.endsWith('.waitForTaskToken'),
      distributed: processor?.ProcessorConfig?.Mode === 'DISTRIBUTED',
    });
    if (processor?.States) stateKinds(processor.States, into);
  }
  return into;
}
