/**
 * Step Functions caps every state's input and output at 256 KiB of JSON and fails the execution
 * with States.DataLimitExceeded past it (an error that not even States.ALL catches). The local
 * runner does not enforce it, so the runtime's quota watch (quota-watch.ts) measures each state
 * with this and fails the execution at the first one past the cap.
 */
import { STATE_DATA_LIMIT_BYTES } from '../infra/aws-quotas.ts';
import type { EventLog } from './history-count.ts';

export { STATE_DATA_LIMIT_BYTES };

export class DataLimitExceeded extends Error {
  override readonly name = 'States.DataLimitExceeded';
}

export class StateSizes {
  /** The largest input or output seen, in bytes, and the state it belonged to. */
  largest = { bytes: 0, state: '' };

  constructor(private readonly limit = STATE_DATA_LIMIT_BYTES) {}

  /** Measures a state's input (entered) or output (exited); the error if it is past the cap. */
  observe(event: EventLog): DataLimitExceeded | undefined {
    if (event.type !== 'StateEntered' && event.type !== 'StateExited') return undefined;
    const data = event.type === 'StateEntered' ? event.state.input : event.state.output;
    const bytes = Buffer.byteLength(JSON.stringify(data ?? null), 'utf8');
    if (bytes > this.largest.bytes) this.largest = { bytes, state: event.state.name };
    if (bytes <= this.limit) return undefined;
    const what = event.type === 'StateEntered' ? 'input' : 'output';
    return new DataLimitExceeded(`The state "${event.state.name}" has an ${what} of ${bytes} bytes, ` +
      `over Step Functions' ${this.limit}-byte limit (States.DataLimitExceeded)`);
  }
}
