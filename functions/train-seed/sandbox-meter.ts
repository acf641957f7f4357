/**
 * The sandbox's meter: what the reward's work is counted in, and what stops a call. QuickJS calls
 * the interrupt handler at a fixed count of its own operations (OPERATIONS_PER_TICK), so counting
 * those calls ("ticks") measures work the same way on any machine and under any load; a call stops
 * at its share of the operations. The wall clock is looked at on the same ticks, as a backstop for
 * work whose operations are slow.
 */
import { OPERATIONS_PER_TICK } from './sandbox-types.ts';

/** Why the handler stopped a call: its operations ran out, or the wall-clock backstop. */
export type Interruption = 'operations' | 'clock';

export class WorkMeter {
  private ticks: number;
  private tickLimit = 0;
  private deadline = 0;
  /** Why the handler stopped the current call; null while it may go on. */
  interrupted: Interruption | null = null;

  /** `usedBefore`: operations earlier chunks of the seed-run counted. */
  constructor(usedBefore = 0) {
    this.ticks = Math.ceil(usedBefore / OPERATIONS_PER_TICK);
  }

  /** The runtime's interrupt handler: true stops the running call. */
  readonly handler = (): boolean => {
    this.ticks += 1;
    if (this.ticks >= this.tickLimit) this.interrupted = 'operations';
    else if (performance.now() >= this.deadline) this.interrupted = 'clock';
    return this.interrupted !== null;
  };

  /** Operations counted so far, in whole ticks. */
  get operations(): number {
    return this.ticks * OPERATIONS_PER_TICK;
  }

  /** The next call may do `operations` (in whole ticks, at least one) and take `ms` of wall clock. */
  arm(operations: number, ms: number): void {
    this.interrupted = null;
    this.tickLimit = this.ticks + Math.max(1, Math.ceil(operations / OPERATIONS_PER_TICK));
    this.deadline = performance.now() + ms;
  }

  /** Runs trusted set-up (the wrapper's) under the given caps without counting its operations. */
  uncounted<T>(operations: number, ms: number, block: () => T): T {
    const before = this.ticks;
    this.arm(operations, ms);
    try {
      return block();
    } finally {
      this.ticks = before;
    }
  }
}
