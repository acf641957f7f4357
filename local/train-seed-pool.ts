/**
 * TrainSeed locally: every invocation is a child process with its Lambda's memory and time caps
 * (killed past either), at most one per core at a time, so a runaway seed-run cannot take the
 * runtime down. A kill becomes the error the state machine catches, as on AWS.
 */
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { FunctionCaps } from '../infra/config.ts';
import type { CheckItem, CheckSummary, SeedSummary, SeedTask } from '../functions/shared/types.ts';

const CHILD = new URL('./train-seed-child.ts', import.meta.url);
const MEMORY_POLL_MS = 200;

export class SeedRunKilled extends Error {
  constructor(override readonly name: 'Runtime.OutOfMemory' | 'Sandbox.Timedout' | 'Runtime.ExitError', message: string) {
    super(message);
  }
}

export interface SeedProgress {
  task: SeedTask;
  state: 'started' | 'progress' | 'finished';
  update?: number;
  total?: number;
  summary?: SeedSummary;
}

export class TrainSeedPool {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly caps: FunctionCaps,
    private readonly env: NodeJS.ProcessEnv,
    private readonly onProgress: (p: SeedProgress) => void = () => {},
    readonly slots = availableParallelism(),
  ) {}

  async invoke(task: SeedTask): Promise<SeedSummary> {
    await this.acquire();
    try {
      this.onProgress({ task, state: 'started' });
      const summary = await this.runChild<SeedSummary>(task, 'seed-run');
      this.onProgress({ task, state: 'finished', summary });
      return summary;
    } finally {
      this.release();
    }
  }

  /** A candidate's sandbox check ("Check the candidates"): the same isolation, no progress. */
  async check(item: CheckItem): Promise<CheckSummary> {
    await this.acquire();
    try {
      return await this.runChild<CheckSummary>(item, 'check');
    } finally {
      this.release();
    }
  }

  private runChild<T>(task: SeedTask | CheckItem, what: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const child = fork(CHILD, [], { env: this.env, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      let settled = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearInterval(watch);
        if (child.exitCode === null) child.kill('SIGKILL');
        fn();
      };
      const timer = setTimeout(() => finish(() => reject(new SeedRunKilled('Sandbox.Timedout',
        `${what} killed after its ${this.caps.timeoutSeconds} s time cap`))), this.caps.timeoutSeconds * 1000);
      const watch = setInterval(() => {
        const rssMb = residentMb(child.pid);
        if (rssMb > this.caps.memoryMb) {
          finish(() => reject(new SeedRunKilled('Runtime.OutOfMemory', `${what} killed at ${rssMb.toFixed(0)} MB, over its ${this.caps.memoryMb} MB memory cap`)));
        }
      }, MEMORY_POLL_MS);
      child.on('message', (m: { type: string; summary?: T; name?: string; message?: string; update?: number; total?: number }) => {
        if (m.type === 'progress' && !('kind' in task)) this.onProgress({ task, state: 'progress', update: m.update, total: m.total });
        if (m.type === 'result' && m.summary) finish(() => resolve(m.summary!));
        if (m.type === 'error') finish(() => reject(Object.assign(new Error(m.message), { name: m.name ?? 'Error' })));
      });
      child.on('exit', (code, signal) => finish(() => reject(new SeedRunKilled('Runtime.ExitError',
        `${what} process exited (${signal ?? `code ${code}`}) without a result`))));
      child.send(task);
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

/** Resident memory of a process in MB (Linux /proc); 0 where it cannot be read. */
function residentMb(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}
