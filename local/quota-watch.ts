/**
 * What AWS enforces on an execution and the local runner does not: a state's 256 KiB
 * (data-limit.ts), the 25,000-event history of the search and of every Distributed Map child
 * (history-count.ts), Lambda's 6 MB request and response. The watch reads the execution's event
 * log; on the first state or history past its quota it aborts the execution with AWS's error, and
 * the Task handlers it guards refuse to run from then on, so nothing after it has side effects. A
 * Lambda payload past 6 MB fails its Task with Lambda's error, which a Catch may catch, as on AWS.
 */
import type { StateMachine } from 'aws-local-stepfunctions';
import { LAMBDA_PAYLOAD } from '../infra/aws-quotas.ts';
import type { AslDefinition } from '../infra/workflow-asl.ts';
import { StateSizes } from './data-limit.ts';
import { HistoryCounter, type EventLog } from './history-count.ts';

type Execution = ReturnType<StateMachine['run']>;

/** A Lambda error as Step Functions sees it: its name is the error a Retry or Catch matches. */
export class LambdaPayloadError extends Error {
  constructor(override readonly name: string, message: string) {
    super(message);
  }
}

export class QuotaWatch {
  /** Set on the first quota an execution passed; guarded handlers refuse to run from then on. */
  exceeded: Error | undefined;
  readonly states = new StateSizes();
  readonly history: HistoryCounter;

  constructor(definition: Pick<AslDefinition, 'States'>, options: { keepHistoryTypes?: boolean } = {}) {
    this.history = new HistoryCounter(definition, options.keepHistoryTypes);
  }

  /** The execution's result; throws the quota's error if the execution passed one. */
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
   * The handler of the Task state `name`: it first lets the event log catch up (it is read
   * asynchronously), then refuses to run once a quota was passed. A Task that invokes a Lambda
   * function (by the definition's Resource) has its request and response held to Lambda's 6 MB.
   *
   * One setImmediate is enough: the runner dispatches each event synchronously (a state's entry
   * before its handler is called), and the log reaches the watch, a Map iteration's through its
   * forwarding too, by promises alone; Node drains every microtask before a setImmediate runs, so
   * the count the guard reads holds every event before this Task's own scheduling
   * (test/history-count.test.ts, "lets no handler of a wide Map run before the count has its own scheduling").
   */
  guard<I, O>(name: string, handler: (input: I) => Promise<O> | O): (input: I) => Promise<O> {
    const lambda = this.history.invokesLambda(name);
    return async (input) => {
      await new Promise((resolve) => setImmediate(resolve));
      if (this.exceeded) throw this.exceeded;
      if (lambda) {
        const bytes = jsonBytes(input);
        if (bytes > LAMBDA_PAYLOAD.requestBytes) {
          throw new LambdaPayloadError(LAMBDA_PAYLOAD.requestError,
            `${bytes} byte payload is too large for the RequestResponse invocation type (limit ${LAMBDA_PAYLOAD.requestBytes} bytes)`);
        }
      }
      const output = await handler(input);
      const bytes = lambda ? jsonBytes(output) : 0;
      if (bytes > LAMBDA_PAYLOAD.responseBytes) {
        throw new LambdaPayloadError(LAMBDA_PAYLOAD.responseError,
          `Response payload size (${bytes} bytes) exceeded maximum allowed payload size (${LAMBDA_PAYLOAD.responseBytes} bytes).`);
      }
      return output;
    };
  }

  private async watch(execution: Execution, observe?: (event: EventLog) => void): Promise<void> {
    for await (const event of execution.eventLogs) {
      observe?.(event);
      if (this.exceeded) continue;
      this.exceeded = this.history.observe(event) ?? this.states.observe(event);
      if (this.exceeded) execution.abort();
    }
  }
}

const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value ?? null), 'utf8');
