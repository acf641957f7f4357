/**
 * The sandbox for model-written reward code (DESIGN §4): QuickJS compiled to WebAssembly, one
 * fresh module per candidate, no host functions exposed, only data crossing.
 *
 * - sandbox-types.ts: the contract (batches, limits, RewardFault, RewardSandbox).
 * - sandbox-wrapper.ts: the trusted script evaluated in the context before the candidate. It
 *   calls computeReward for a whole batch, checks every return, and answers with a JSON string
 *   (term names or the first fault) plus a buffer of raw float64 values.
 * - sandbox-report.ts: the host's checks of that answer, and the one-line fault reasons.
 * - sandbox-quickjs.ts: the module, runtime, context and every call into them.
 * - sandbox-meter.ts: what a call may do, counted in QuickJS's operations (the same on any
 *   machine, under any load), with a wall-clock backstop.
 *
 * Memory: QuickJS's own memory limit is not enforced for big arrays, typed arrays and strings
 * (measured: a loop of `new Array(1 << 16).fill(1)` under a 16 MiB limit grew the module to 1 GB,
 * strings alike, plain objects to 5x the limit). What does hold is the WebAssembly memory's
 * `maximum`: we give each module its own memory capped at `memoryBytes`, so growth past it makes
 * malloc fail and QuickJS throws "out of memory" within a few hundred ms. A module whose memory
 * got close to the cap is faulted too, in case the candidate caught that error and carried on.
 */
import { kib } from './sandbox-report.ts';
import { sandboxCallDeadlineMs, sandboxCallOperations } from './sandbox-budget.ts';
import { INITIAL_PAGES, newQuickJSRewardSandbox, PAGE_BYTES } from './sandbox-quickjs.ts';
import { DEFAULT_SANDBOX_LIMITS, RewardFault } from './sandbox-types.ts';
import type { RewardSandbox, SandboxLimits, SandboxUsage, TransitionLayout } from './sandbox-types.ts';

export { DEFAULT_SANDBOX_LIMITS, OPERATIONS_PER_TICK, RewardFault } from './sandbox-types.ts';
export type { FaultOutcome, RewardBatch, RewardSandbox, SandboxLimits, SandboxUsage, TransitionBatch, TransitionLayout } from './sandbox-types.ts';

/** The layout of a task's transitions. */
export function layoutOf(task: { obsSize: number; actionSize: number; recordSize?: number; action: { kind: string } }): TransitionLayout {
  const recordSize = task.recordSize ?? 0;
  return { obsSize: task.obsSize, actionSize: task.actionSize, discrete: task.action.kind === 'discrete', ...(recordSize > 0 ? { recordSize } : {}) };
}

/**
 * Compiles the candidate once for a task's layout; throws RewardFault if it cannot be loaded.
 * `usedBefore`: what earlier chunks of the same seed-run used; their operations count against the budget.
 */
export async function openRewardSandbox(
  source: string, layout: TransitionLayout, limits: Partial<SandboxLimits> = {}, usedBefore: SandboxUsage = { ms: 0, operations: 0 },
): Promise<RewardSandbox> {
  // A call's caps grow with the observation, as an ordinary reward's work does (sandbox-budget.ts).
  // The recorded state is read as the observation is: it counts in the entries the budgets grow with.
  const entries = layout.obsSize + (layout.recordSize ?? 0);
  const all = resolveLimits({ callOperations: sandboxCallOperations(entries), callDeadlineMs: sandboxCallDeadlineMs(entries), ...limits });
  const bytes = Buffer.byteLength(source, 'utf8');
  if (bytes > all.maxSourceBytes) {
    throw new RewardFault('error', `reward source is ${bytes} bytes, over the ${kib(all.maxSourceBytes)} limit`);
  }
  return newQuickJSRewardSandbox(source, layout, all, usedBefore);
}

function resolveLimits(partial: Partial<SandboxLimits>): SandboxLimits {
  const all: SandboxLimits = { ...DEFAULT_SANDBOX_LIMITS, ...partial };
  for (const [key, value] of Object.entries(all)) {
    if (!(Number.isFinite(value) && value > 0)) throw new RangeError(`sandbox limit ${key} must be a positive number`);
  }
  if (all.memoryBytes < 2 * INITIAL_PAGES * PAGE_BYTES) throw new RangeError('sandbox memoryBytes must be at least 32 MiB');
  if (all.stackBytes >= 512 * 1024) throw new RangeError('sandbox stackBytes must be below 512 KiB');
  return all;
}
