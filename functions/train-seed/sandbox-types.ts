/** The sandbox's public contract, re-exported by sandbox.ts (kept apart to avoid an import cycle). */
import { SANDBOX_CAPS } from '../../infra/config.ts';

/**
 * QuickJS calls its interrupt handler once every 10,000 of its interrupt polls
 * (JS_INTERRUPT_COUNTER_INIT), and polls at every function call and loop back-edge and in the
 * regular-expression engine's backtracking: a fixed count of the interpreter's own work, whatever
 * the clock says. The sandbox counts those calls ("ticks"); an operation is one poll.
 */
export const OPERATIONS_PER_TICK = 10_000;

/** The shape of one transition: the task's observation and action sizes. */
export interface TransitionLayout {
  obsSize: number;
  /** discrete: 1 (the index); box: its dimension. */
  actionSize: number;
  /** The reward gets the action as a number (discrete) or as an array of numbers (box). */
  discrete: boolean;
  /** Entries of the task's recorded state: the reward gets it before and after the step, as its 5th and 6th arguments. @default 0 */
  recordSize?: number;
}

export interface TransitionBatch {
  count: number;
  /** count x obsSize: the observation the action was taken in. */
  obs: Float32Array;
  /** count x actionSize: the action as the environment applied it (an index, or clipped values). */
  actions: Float64Array;
  /** count x obsSize: the next observation; the final one when an episode ended. */
  nextObs: Float32Array;
  /** count: 1 when the environment terminated the episode on this step. */
  terminated: Uint8Array;
  /** count x recordSize: the recorded state before the step, and after it (the final one when an episode ended); where the task records any. */
  state?: Float64Array;
  nextState?: Float64Array;
}

export interface RewardBatch {
  /** count rewards. */
  rewards: Float64Array;
  /** One array of count values per term, in first-seen order; a term missing at a transition is 0 there. */
  terms: Map<string, Float64Array>;
}

export type FaultOutcome = 'timeout' | 'memory' | 'error';

/** The candidate's first fault: what happened (outcome) and a one-line reason (message). */
export class RewardFault extends Error {
  readonly name = 'RewardFault';
  constructor(readonly outcome: FaultOutcome, reason: string) {
    super(reason);
  }
}

export interface SandboxLimits {
  /** Largest candidate source, in UTF-8 bytes. @default 65536 (64 KiB) */
  maxSourceBytes: number;
  /** Cap on the module's whole WebAssembly memory, its own 16 MiB included. @default 67108864 (64 MiB) */
  memoryBytes: number;
  /** QuickJS stack; 512 KiB or more overflows the module's own stack and corrupts it. @default 131072 (128 KiB) */
  stackBytes: number;
  /**
   * Work one evaluate() call (a batch of up to ~2048 transitions) or loading the code may do, in
   * QuickJS operations (OPERATIONS_PER_TICK): a count, so the same reward stops at the same point
   * on any machine under any load. @default sandboxCallOperations(obsSize): SANDBOX_CAPS.callOperations, more for a long observation
   */
  callOperations: number;
  /** Wall-clock backstop of one call, for work that counts few operations. @default sandboxCallDeadlineMs(obsSize) */
  callDeadlineMs: number;
  /** Operations in the sandbox per seed-run, loading included; seed-run.ts scales it to the steps. @default SANDBOX_CAPS.seedRunMinOperations */
  totalOperations: number;
  /** Most distinct term names. @default 16 */
  maxTerms: number;
  /** Longest term name, in UTF-16 code units. @default 48 */
  maxTermNameLength: number;
}

/** The caps in force unless a caller lowers them: the deployment's (infra/config.ts), the one source; a call's two grow with the observation (sandbox-budget.ts). */
export const DEFAULT_SANDBOX_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  maxSourceBytes: SANDBOX_CAPS.maxSourceBytes,
  memoryBytes: SANDBOX_CAPS.memoryBytes,
  stackBytes: SANDBOX_CAPS.stackBytes,
  callOperations: SANDBOX_CAPS.callOperations,
  callDeadlineMs: SANDBOX_CAPS.callDeadlineMs,
  totalOperations: SANDBOX_CAPS.seedRunMinOperations,
  maxTerms: SANDBOX_CAPS.maxTerms,
  maxTermNameLength: SANDBOX_CAPS.maxTermNameLength,
});

/** What a seed-run's earlier chunks used in their sandboxes: it counts in this one's. */
export interface SandboxUsage {
  /** Wall-clock milliseconds inside load and evaluate calls (a measure, not a cap). */
  ms: number;
  /** QuickJS operations: what the budget counts. */
  operations: number;
}

export interface RewardSandbox {
  /**
   * Rewards for a whole batch in ONE host->sandbox crossing. stepOffset numbers the first
   * transition for messages ("at step 1234"). Throws RewardFault on the first fault; after a
   * fault the sandbox is dead (further calls throw the same fault).
   */
  evaluate(batch: TransitionBatch, stepOffset?: number): RewardBatch;
  /** Milliseconds spent inside evaluate/compile so far (earlier chunks' included); the module's start-up is not. */
  readonly usedMs: number;
  /** QuickJS operations so far (earlier chunks' included), in whole ticks of OPERATIONS_PER_TICK. */
  readonly usedOperations: number;
  /** Frees the module; never throws, also after a fault. */
  dispose(): void;
}
