/**
 * TrainSeed locally, as Lambda runs it: warm worker processes (local/train-seed-child.ts) kept
 * between invocations like Lambda's containers, at most one per core, each with its Lambda's memory
 * and time caps. A worker past its memory cap or its invocation's time cap is killed and replaced,
 * and the kill becomes the error the state machine catches, as on AWS. A worker that exits (the
 * handler ends its process after a sandbox memory fault) is never reused.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { TASK_TIMEOUT_MARGIN_SECONDS, type FunctionCaps } from '../infra/config.ts';
import { cpuSeconds, residentMb } from './process-usage.ts';
import type { CheckItem, CheckSummary, ChunkAnswer, SeedSummary, SeedTask } from '../functions/shared/search/types.ts';

const CHILD = new URL('./train-seed-child.ts', import.meta.url);
/** tsx as this package resolves it: `--import tsx` would look for it from the working directory, which may be anywhere. */
const TSX = import.meta.resolve('tsx');
/** How often a busy worker's memory and CPU time are read. */
const POLL_MS = 200;
/**
 * The most CPU a new worker may use to load its handler (Lambda's Init), unless its pool is given
 * another cap: Lambda gives Init 10 s apart from the invocation's timeout; loading takes about 2.3 s
 * of CPU here (measured beside a search on both cores), so the cap only stops a worker that will
 * never load, and, counted in CPU, not one that a busy machine starves.
 */
const INIT_CAP_SECONDS = 120;

/** A pool's caps: its Lambda's, and Init's (INIT_CAP_SECONDS unless given, as the tests give a short one). */
export type PoolCaps = FunctionCaps & { initSeconds?: number };

/**
 * A worker is killed once its Init or its invocation has run this many times its time cap on the
 * clock, however little CPU it used: one that makes no progress (a deadlock) still ends, and a
 * machine so busy that a worker gets less than a fifth of a core says so instead of running on for days.
 */
const WALL_BACKSTOP = 5;
const wallBackstopSeconds = (capSeconds: number): number => capSeconds * WALL_BACKSTOP;

/**
 * The longest an invocation can take here on the clock, Init included (each with its backstop): what
 * the local runtime gives the Task states of TrainSeed as their TimeoutSeconds, so that the pool's
 * caps, not the clock, end a seed-run (local/runtime.ts), with the margin AWS leaves between a Task's
 * timeout and its Lambda's.
 */
export const taskWallSeconds = (caps: PoolCaps): number =>
  wallBackstopSeconds(caps.initSeconds ?? INIT_CAP_SECONDS) + wallBackstopSeconds(caps.timeoutSeconds) + TASK_TIMEOUT_MARGIN_SECONDS;

/** A pool's workers by default: one a core this process may run on. */
export const defaultPoolSlots = (): number => availableParallelism();

export class SeedRunKilled extends Error {
  constructor(override readonly name: 'Runtime.OutOfMemory' | 'Sandbox.Timedout' | 'Runtime.ExitError', message: string) {
    super(message);
  }
}

export interface SeedProgress {
  task: SeedTask;
  state: 'started' | 'progress' | 'finished' | 'killed';
  update?: number;
  total?: number;
  summary?: SeedSummary;
  /** 'killed': the cap that ended the process, as measured here (the state machine's Catch makes the seed's result). */
  killed?: { name: SeedRunKilled['name']; message: string };
}

interface ChildMessage { type: string; id?: number; summary?: unknown; name?: string; message?: string; update?: number; total?: number }

/** One warm process and what it is doing now. */
class Worker {
  readonly child: ChildProcess;
  /** Set once the process is gone or killed: never handed another invocation. */
  dead = false;
  /** Invocations this worker has served (tests read it: warm means more than one). */
  served = 0;
  /** Resolves once the handler's modules are loaded (Lambda's Init phase), or the process is gone. */
  readonly ready: Promise<void>;
  private current: { id: number; onMessage: (m: ChildMessage) => void; onGone: (reason: string) => void } | null = null;

  constructor(env: NodeJS.ProcessEnv) {
    this.child = fork(CHILD, [], { env, execArgv: ['--import', TSX], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let loaded = () => {};
    this.ready = new Promise((resolve) => { loaded = resolve; });
    this.child.on('message', (m: ChildMessage) => {
      if (m.type === 'ready') loaded();
      else if (m.id === this.current?.id || m.id === undefined) this.current?.onMessage(m);
    });
    this.child.on('exit', (code, signal) => {
      this.dead = true;
      loaded();
      this.current?.onGone(signal ?? `code ${code}`);
    });
  }

  run(id: number, event: unknown, onMessage: (m: ChildMessage) => void, onGone: (reason: string) => void): void {
    this.current = { id, onMessage, onGone };
    this.served += 1;
    this.child.send({ id, event });
  }

  idle(): void {
    this.current = null;
  }

  kill(): void {
    this.dead = true;
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

export class TrainSeedPool {
  private running = 0;
  private nextId = 1;
  private readonly waiting: Array<() => void> = [];
  private readonly idle: Worker[] = [];
  /** Every worker started, for the tests' view of warmth. */
  readonly started: Worker[] = [];

  constructor(
    private readonly caps: PoolCaps,
    private readonly env: NodeJS.ProcessEnv,
    private readonly onProgress: (p: SeedProgress) => void = () => {},
    readonly slots = defaultPoolSlots(),
  ) {}

  /** One chunk of a seed-run ("Train one seed"); 'finished' once the seed-run reached its target. */
  async invoke(task: SeedTask): Promise<ChunkAnswer> {
    return this.withWorker(async (worker) => {
      this.onProgress({ task, state: 'started' });
      const answer = await this.runOn<ChunkAnswer>(worker, task, 'seed-run', (m) => {
        if (m.type === 'progress') this.onProgress({ task, state: 'progress', update: m.update, total: m.total });
      }).catch((error: unknown) => {
        if (error instanceof SeedRunKilled) this.onProgress({ task, state: 'killed', killed: { name: error.name, message: error.message } });
        throw error;
      });
      if (answer.done) this.onProgress({ task, state: 'finished', summary: answer.summary });
      return answer;
    });
  }

  /** A candidate's sandbox check ("Check the candidates"): the same isolation, no progress. */
  async check(item: CheckItem): Promise<CheckSummary> {
    return this.withWorker((worker) => this.runOn<CheckSummary>(worker, item, 'check', () => {}));
  }

  /**
   * Ends every worker, idle or busy (the search is over, or its caller failed): an invocation still
   * running rejects as Runtime.ExitError, and no process outlives the pool.
   */
  close(): void {
    this.idle.length = 0;
    for (const worker of this.started) worker.kill();
  }

  private async withWorker<T>(fn: (worker: Worker) => Promise<T>): Promise<T> {
    await this.acquire();
    let worker: Worker | undefined;
    try {
      worker = this.takeIdle() ?? this.spawn();
      return await fn(worker);
    } finally {
      if (worker && !worker.dead) {
        worker.idle();
        this.idle.push(worker);
      }
      this.release();
    }
  }

  private takeIdle(): Worker | undefined {
    let worker = this.idle.pop();
    while (worker?.dead) worker = this.idle.pop();
    return worker;
  }

  private spawn(): Worker {
    const worker = new Worker(this.env);
    this.started.push(worker);
    return worker;
  }

  /**
   * One invocation on a worker, with its time cap and the worker's memory cap watched. As on Lambda,
   * the time cap counts from when the worker has loaded its handler (Init is not the invocation's
   * time), and it counts the CPU time the worker used (process-usage.ts): a Lambda has its vCPU to
   * itself, a worker here shares the cores, so a busy machine slows a seed-run down without
   * killing it. A new worker's Init is capped the same way, in CPU time, with its own cap
   * (INIT_CAP_SECONDS). Where the CPU time cannot be read, and as a backstop for a worker that
   * makes no progress, wall time: WALL_BACKSTOP times the cap.
   */
  private runOn<T>(worker: Worker, event: SeedTask | CheckItem, what: string, onOther: (m: ChildMessage) => void): Promise<T> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const since = () => ({ wall: performance.now(), cpu: cpuSeconds(worker.child.pid) });
      let phase = { init: true, ...since() };
      const finish = (fn: () => void, kill = false) => {
        if (settled) return;
        settled = true;
        clearInterval(watch);
        if (kill) worker.kill();
        fn();
      };
      const killed = (name: SeedRunKilled['name'], message: string) => finish(() => reject(new SeedRunKilled(name, message)), true);
      void worker.ready.then(() => {
        phase = { init: false, ...since() };
      });
      const watch = setInterval(() => {
        const rssMb = residentMb(worker.child.pid);
        if (rssMb > this.caps.memoryMb) killed('Runtime.OutOfMemory', `${what} killed at ${rssMb.toFixed(0)} MB, over its ${this.caps.memoryMb} MB memory cap`);
        const wall = (performance.now() - phase.wall) / 1000;
        const now = cpuSeconds(worker.child.pid);
        const cpu = phase.cpu === undefined || now === undefined ? wall : now - phase.cpu;
        const cap = phase.init ? this.caps.initSeconds ?? INIT_CAP_SECONDS : this.caps.timeoutSeconds;
        const killedHow = phase.init ? `${what} killed: its worker did not load its handler` : `${what} killed`;
        if (cpu >= cap) killed('Sandbox.Timedout', phase.init ? `${killedHow} within its ${cap} s time cap` : `${killedHow} after its ${cap} s time cap`);
        else if (wall >= wallBackstopSeconds(cap)) {
          killed('Sandbox.Timedout', `${killedHow} after ${wall.toFixed(0)} s on the clock, in which it used ${cpu.toFixed(0)} s of the CPU ` +
            `(its cap is ${cap} s of CPU): stuck, or this machine is too busy to run it`);
        }
      }, POLL_MS);
      worker.run(this.nextId++, event, (m) => {
        if (m.type === 'result') finish(() => resolve(m.summary as T));
        else if (m.type === 'error') finish(() => reject(Object.assign(new Error(m.message), { name: m.name ?? 'Error' })));
        else onOther(m);
      }, (reason) => finish(() => reject(new SeedRunKilled('Runtime.ExitError', `${what} process exited (${reason}) without a result`))));
    });
  }

  private async acquire(): Promise<void> {
    if (this.running < this.slots) {
      this.running += 1;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }
}
