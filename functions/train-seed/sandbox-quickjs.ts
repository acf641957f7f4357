/**
 * The QuickJS side of the reward sandbox: one WebAssembly module with its own capped memory, one
 * runtime and context, the trusted wrapper's functions, and every call into them, each call with
 * its share of the operations and a wall-clock backstop (sandbox-meter.ts counts and stops).
 */
import { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC, Scope } from 'quickjs-emscripten';
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
import { takeWrapperApi } from './sandbox-wrapper.ts';
import type { WrapperApi } from './sandbox-wrapper.ts';
import { checkBatch, classifyThrown, encodeBatch, isReportFault, lineOf, mib, oneLine, operations, parseThrown, readRunHeader, readRunValues } from './sandbox-report.ts';
import type { Thrown } from './sandbox-report.ts';
import { WorkMeter, type Interruption } from './sandbox-meter.ts';
import { RewardFault } from './sandbox-types.ts';
import type { RewardBatch, RewardSandbox, SandboxLimits, SandboxUsage, TransitionBatch, TransitionLayout } from './sandbox-types.ts';

/** The bits of the WebAssembly global used here (the project's TypeScript libs do not declare it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmApi {
  Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory;
  RuntimeError: new (message?: string) => Error;
}
const Wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

export const PAGE_BYTES = 64 * 1024;
/** The module is built with 16 MiB of initial memory and needs at least that. */
export const INITIAL_PAGES = 256;
/** A module whose memory grew past this share of its cap is faulted for memory. */
const MEMORY_FAULT_SHARE = 0.9;
/** Work and time allowed for trusted follow-up calls (take the values, read the progress). */
const FOLLOW_UP = { operations: 1_000_000, ms: 100 };

/**
 * A fresh module whose WebAssembly memory may not grow past limits.memoryBytes, with the code
 * loaded. What the seed-run's earlier chunks used counts as if used in this one; making the module
 * (QuickJS's start-up, every chunk) is the sandbox's own cost and counts in neither.
 */
export async function newQuickJSRewardSandbox(source: string, layout: TransitionLayout, limits: SandboxLimits, usedBefore: SandboxUsage = { ms: 0, operations: 0 }): Promise<RewardSandbox> {
  const memory = new Wasm.Memory({ initial: INITIAL_PAGES, maximum: Math.floor(limits.memoryBytes / PAGE_BYTES) });
  const module = await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmMemory: memory }));
  const sandbox = new QuickJSRewardSandbox(module, memory, layout, limits, usedBefore);
  sandbox.load(source);
  return sandbox;
}

interface Live {
  runtime: QuickJSRuntime;
  context: QuickJSContext;
  api: WrapperApi;
}

type CallResult = ReturnType<QuickJSContext['evalCode']>;

/** One call into the sandbox: the string it returned, or why it did not. */
type Crossing = { ok: true; text: string } | Failed;
type Failed = { ok: false; interrupted: Interruption | null; thrown: Thrown | null };

class QuickJSRewardSandbox implements RewardSandbox {
  private live: Live | null;
  private fault: RewardFault | null = null;
  private disposed = false;
  private readonly meter: WorkMeter;
  private spentMs: number;
  private readonly memoryFaultBytes: number;

  constructor(
    module: QuickJSWASMModule,
    private readonly memory: WasmMemory,
    private readonly layout: TransitionLayout,
    private readonly limits: SandboxLimits,
    usedBefore: SandboxUsage,
  ) {
    this.memoryFaultBytes = MEMORY_FAULT_SHARE * limits.memoryBytes;
    this.spentMs = usedBefore.ms;
    this.meter = new WorkMeter(usedBefore.operations);
    const runtime = module.newRuntime();
    runtime.setMemoryLimit(limits.memoryBytes);
    runtime.setMaxStackSize(limits.stackBytes);
    runtime.setInterruptHandler(this.meter.handler);
    const context = runtime.newContext();
    // The trusted wrapper's own set-up is not the candidate's work.
    const api = this.meter.uncounted(limits.callOperations, limits.callDeadlineMs, () => takeWrapperApi(context, layout));
    this.live = { runtime, context, api };
  }

  get usedMs(): number {
    return this.spentMs;
  }

  get usedOperations(): number {
    return this.meter.operations;
  }

  /** Operations left of the seed-run's total. */
  private remaining(): number {
    return this.limits.totalOperations - this.usedOperations;
  }

  /** Runs the candidate's top-level code and finds computeReward. */
  load(source: string): void {
    const { context, api } = this.alive();
    this.timed(() => {
      const budgetBound = this.armCall();
      const loaded = this.cross(() => context.evalCode(source, 'reward.js', { type: 'global' }), () => '');
      this.checkMemory('while loading');
      if (!loaded.ok) this.die(this.loadFault(loaded, 'top-level', budgetBound));
      const bindBound = this.armCall();
      const bound = this.cross((scope) => context.callFunction(api.bind, context.undefined,
        scope.manage(context.newNumber(this.limits.maxTerms)),
        scope.manage(context.newNumber(this.limits.maxTermNameLength))));
      if (!bound.ok) this.die(this.loadFault(bound, 'bind', bindBound));
      if (bound.text === 'missing') this.die(new RewardFault('error', 'computeReward is not defined'));
      if (bound.text) this.die(new RewardFault('error', `computeReward is a ${bound.text}, not a function`));
    });
  }

  evaluate(batch: TransitionBatch, stepOffset = 0): RewardBatch {
    checkBatch(batch, this.layout);
    const { context, api } = this.alive();
    return this.timed(() => {
      if (this.remaining() <= 0) this.die(this.budgetFault(`at step ${stepOffset}`));
      const input = encodeBatch(batch, this.layout);
      const budgetBound = this.armCall();
      const ran = this.cross((scope) => context.callFunction(api.run, context.undefined,
        scope.manage(context.newArrayBuffer(input.buffer)), scope.manage(context.newNumber(batch.count))));
      this.checkMemory(`at step ${stepOffset}`);
      if (!ran.ok) this.die(this.runFault(ran, stepOffset, budgetBound));
      const names = readRunHeader(ran.text, this.limits, stepOffset);
      if (isReportFault(names)) this.die(new RewardFault(names.outcome, names.text));
      const values = readRunValues(this.takeValues(), names, batch.count);
      if (isReportFault(values)) this.die(new RewardFault(values.outcome, values.text));
      return values;
    });
  }

  /** The float64 values the last successful run() packed, copied out of the module's memory. */
  private takeValues(): Float64Array {
    const { context, api } = this.alive();
    this.meter.arm(FOLLOW_UP.operations, FOLLOW_UP.ms);
    return Scope.withScope((scope) => {
      const buffer = scope.manage(context.callFunction(api.take, context.undefined)).unwrap();
      const bytes = scope.manage(context.getArrayBuffer(buffer)).value;
      // slice() copies into a fresh, aligned buffer that no longer points into the module.
      const copy = bytes.slice();
      return new Float64Array(copy.buffer, 0, copy.byteLength >> 3);
    });
  }

  dispose(): void {
    const live = this.live;
    this.live = null;
    this.disposed = true;
    if (!live) return; // after a fault the module is dropped, never disposed (DESIGN §4 trap 2)
    try {
      for (const handle of Object.values(live.api)) handle.dispose();
      live.context.dispose();
      live.runtime.dispose();
    } catch {
      // The references are gone either way; the garbage collector takes the whole module.
    }
  }

  private alive(): Live {
    if (this.fault) throw this.fault;
    if (!this.live || this.disposed) throw new Error('reward sandbox was disposed');
    return this.live;
  }

  /** Arms a call of the candidate's: its operations, or what is left of the total; true when that is less. */
  private armCall(): boolean {
    const remaining = this.remaining();
    this.meter.arm(Math.min(this.limits.callOperations, remaining), this.limits.callDeadlineMs);
    return remaining < this.limits.callOperations;
  }

  /**
   * Counts time in usedMs (the meter counts operations). Anything else that goes wrong in here (a
   * trap inside the WebAssembly module, a handle error) also ends the candidate with a fault.
   */
  private timed<T>(block: () => T): T {
    const start = performance.now();
    try {
      return block();
    } catch (error) {
      if (error instanceof RewardFault) throw error;
      const full = this.memory.buffer.byteLength >= this.memoryFaultBytes;
      const what = error instanceof Wasm.RuntimeError ? 'reward crashed the sandbox' : 'reward sandbox failed';
      const message = error instanceof Error ? error.message : String(error);
      this.die(new RewardFault(full ? 'memory' : 'error', `${what}: ${oneLine(message)}`));
    } finally {
      this.spentMs += performance.now() - start;
    }
  }

  /**
   * Makes one call in a strict handle scope: the argument handles `call` puts in the scope and
   * the result are freed before this returns, whatever happens (an undisposed handle would make
   * runtime.dispose() abort). `read` turns the result into text (the wrapper returns strings).
   */
  private cross(
    call: (scope: Scope) => CallResult,
    read: (value: QuickJSHandle) => string = (value) => this.readString(value),
  ): Crossing {
    return Scope.withScope((scope): Crossing => {
      const result = scope.manage(call(scope));
      if (!result.error) return { ok: true, text: read(result.value) };
      if (this.meter.interrupted) return { ok: false, interrupted: this.meter.interrupted, thrown: null };
      const thrown = this.describe(result.error);
      // Reading what was thrown can loop too (a getter on message): that is a timeout as well.
      return { ok: false, interrupted: this.meter.interrupted, thrown };
    });
  }

  private readString(value: QuickJSHandle): string {
    const { context } = this.alive();
    if (context.typeof(value) !== 'string') throw new Error('sandbox wrapper returned a non-string');
    return context.getString(value);
  }

  /**
   * Asks the wrapper what was thrown; null when even that fails (e.g. out of memory). Reading it
   * runs the candidate's code (a getter on message), so it goes on within the call's own caps.
   */
  private describe(error: QuickJSHandle): Thrown | null {
    const { context, api } = this.alive();
    const result = context.callFunction(api.describe, context.undefined, error);
    try {
      if (result.error || context.typeof(result.value) !== 'string') return null;
      return parseThrown(context.getString(result.value));
    } finally {
      result.dispose();
    }
  }

  /** Which transition the wrapper was at when it was interrupted. */
  private progress(): number {
    try {
      const { context, api } = this.alive();
      this.meter.arm(FOLLOW_UP.operations, FOLLOW_UP.ms);
      const result = context.callFunction(api.progress, context.undefined);
      try {
        return result.error || context.typeof(result.value) !== 'number' ? 0 : context.getNumber(result.value);
      } finally {
        result.dispose();
      }
    } catch {
      return 0;
    }
  }

  /** Faults while running the top-level code, or while looking up computeReward. */
  private loadFault(crossing: Failed, phase: 'top-level' | 'bind', budgetBound: boolean): RewardFault {
    const what = phase === 'top-level' ? "reward's top-level code" : 'reading computeReward';
    if (crossing.interrupted === 'operations' && budgetBound) return this.budgetFault('while loading');
    if (crossing.interrupted) return new RewardFault('timeout', `${what} did not finish within ${this.callCap(crossing.interrupted)}`);
    const thrown = crossing.thrown;
    if (!thrown) return new RewardFault('memory', `reward exceeded its ${mib(this.limits.memoryBytes)} memory limit while loading`);
    if (phase === 'top-level' && thrown.name === 'SyntaxError') {
      return new RewardFault('error', `reward has a syntax error${lineOf(thrown.stack)}: ${oneLine(thrown.message)}`);
    }
    const { outcome, text } = classifyThrown(thrown, this.limits);
    if (outcome !== 'error') return new RewardFault(outcome, `${text} while loading`);
    return new RewardFault('error', `${what} threw: ${text}`);
  }

  private runFault(crossing: Failed, stepOffset: number, budgetBound: boolean): RewardFault {
    if (crossing.interrupted) {
      const step = stepOffset + this.progress();
      if (crossing.interrupted === 'operations' && budgetBound) return this.budgetFault(`at step ${step}`);
      return new RewardFault('timeout', `reward did not return within ${this.callCap(crossing.interrupted)} at step ${step}`);
    }
    // Only the wrapper itself can throw out of run(): it ran out of memory building its answer.
    if (!crossing.thrown) return new RewardFault('memory', `reward exceeded its ${mib(this.limits.memoryBytes)} memory limit at step ${stepOffset}`);
    const { outcome, text } = classifyThrown(crossing.thrown, this.limits);
    return new RewardFault(outcome, `${text} at step ${stepOffset}`);
  }

  private budgetFault(where: string): RewardFault {
    return new RewardFault('timeout', `reward used up its seed-run's budget of ${operations(this.limits.totalOperations)} ${where}`);
  }

  /** The cap that stopped a call, as a reason names it. */
  private callCap(interruption: Interruption): string {
    return interruption === 'operations' ? operations(this.limits.callOperations) : `${this.limits.callDeadlineMs} ms`;
  }

  private checkMemory(where: string): void {
    if (this.memory.buffer.byteLength < this.memoryFaultBytes) return;
    this.die(new RewardFault('memory', `reward exceeded its ${mib(this.limits.memoryBytes)} memory limit ${where}`));
  }

  private die(fault: RewardFault): never {
    this.fault = fault;
    this.drop();
    throw fault;
  }

  /** WebAssembly memory never shrinks and QuickJS may be mid-way: throw the module away. */
  private drop(): void {
    this.live = null;
  }
}
