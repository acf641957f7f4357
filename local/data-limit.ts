/**
 * Step Functions caps every state's input and output at 256 KiB of JSON and fails the execution
 * with States.DataLimitExceeded past it (an error that not even States.ALL catches). The local
 * runner does not enforce it, so a search that would fail on AWS would pass here: this watches
 * an execution's event log, and on the first state past the cap aborts it with that error.
 */
import type { StateMachine } from 'aws-local-stepfunctions';

export const STATE_DATA_LIMIT_BYTES = 256 * 1024;

export class DataLimitExceeded extends Error {
  override readonly name = 'States.DataLimitExceeded';
}

type Execution = ReturnType<StateMachine['run']>;
type EventLog = Execution['eventLogs'] extends AsyncGenerator<infer E> ? E : never;

export class DataLimitWatch {
  /** Set on the first state past the cap; handlers refuse to run from then on. */
  exceeded: DataLimitExceeded | undefined;
  /** The largest input or output seen, in bytes, and the state it belonged to. */
  largest = { bytes: 0, state: '' };

  constructor(private readonly limit = STATE_DATA_LIMIT_BYTES) {}

  /** The execution's result; throws DataLimitExceeded if a state went past the cap. */
  async run(execution: Execution, observe?: (event: EventLog) => void): Promise<unknown> {
    const watching = this.watch(execution, observe);
    try {
      const output = await execution.result;
      await watching;
      if (this.exceeded) throw this.exceeded;
      return output;
    } catch (error) {
      await watching.catch(() => undefined);
      throw this.exceeded ?? error;
    }
  }

  /**
   * A Task handler that first lets the event log catch up (it is read asynchronously), then refuses
   * to run once a state went past the cap: nothing after the oversized state has side effects.
   */
  guard<I, O>(handler: (input: I) => Promise<O> | O): (input: I) => Promise<O> {
    return async (input) => {
      await new Promise((resolve) => setImmediate(resolve));
      if (this.exceeded) throw this.exceeded;
      return handler(input);
    };
  }

  private async watch(execution: Execution, observe?: (event: EventLog) => void): Promise<void> {
    for await (const event of execution.eventLogs) {
      observe?.(event);
      if (this.exceeded || (event.type !== 'StateEntered' && event.type !== 'StateExited')) continue;
      const data = event.type === 'StateEntered' ? event.state.input : event.state.output;
      const bytes = Buffer.byteLength(JSON.stringify(data ?? null), 'utf8');
      if (bytes > this.largest.bytes) this.largest = { bytes, state: event.state.name };
      if (bytes <= this.limit) continue;
      const what = event.type === 'StateEntered' ? 'input' : 'output';
      this.exceeded = new DataLimitExceeded(`The state "${event.state.name}" has an ${what} of ${bytes} bytes, ` +
        `over Step Functions' ${this.limit}-byte limit (States.DataLimitExceeded)`);
      execution.abort();
    }
  }
}
