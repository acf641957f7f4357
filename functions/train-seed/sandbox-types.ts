/** The sandbox's public contract, re-exported by sandbox.ts (kept apart to avoid an import cycle). */

/** The shape of one transition: the task's observation and action sizes. */
export interface TransitionLayout {
  obsSize: number;
  /** discrete: 1 (the index); box: its dimension. */
  actionSize: number;
  /** The reward gets the action as a number (discrete) or as an array of numbers (box). */
  discrete: boolean;
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
  /** Deadline of one evaluate() call (a batch of up to ~2048 transitions) or of loading the code. @default 1000 */
  callDeadlineMs: number;
  /** Total time in the sandbox per seed-run, loading included. @default 30000 */
  totalBudgetMs: number;
  /** Most distinct term names. @default 16 */
  maxTerms: number;
  /** Longest term name, in UTF-16 code units. @default 48 */
  maxTermNameLength: number;
}

export const DEFAULT_SANDBOX_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  maxSourceBytes: 64 * 1024,
  memoryBytes: 64 * 1024 * 1024,
  stackBytes: 128 * 1024,
  callDeadlineMs: 1000,
  totalBudgetMs: 30_000,
  maxTerms: 16,
  maxTermNameLength: 48,
});

export interface RewardSandbox {
  /**
   * Rewards for a whole batch in ONE host->sandbox crossing. stepOffset numbers the first
   * transition for messages ("at step 1234"). Throws RewardFault on the first fault; after a
   * fault the sandbox is dead (further calls throw the same fault).
   */
  evaluate(batch: TransitionBatch, stepOffset?: number): RewardBatch;
  /** Milliseconds spent inside evaluate/compile so far. */
  readonly usedMs: number;
  /** Frees the module; never throws, also after a fault. */
  dispose(): void;
}
