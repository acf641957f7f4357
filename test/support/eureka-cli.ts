/** The `eureka` command line run as a user runs it: a child process, its exit code and output. */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';

export const CLI = new URL('../../bin/eureka.js', import.meta.url).pathname;

export interface Ran { code: number; stdout: string; stderr: string }

/** `cwd`: where the user stands (default: this process's working directory, the repository). */
export async function eureka(args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string): Promise<Ran> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, cwd, timeout: 10 * 60_000, maxBuffer: 1 << 24 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** A command left running (a search that will pause): its output so far, and its end. */
export interface Running {
  stderr(): string;
  /** Resolves when stderr matches, rejects if the command ends first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  done: Promise<Ran>;
  /** Kills it if it still runs (a test's after/finally): no command outlives its test. */
  stop(): void;
}

export function start(args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string): Running {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
  const done = new Promise<Ran>((resolve) => child.on('close', (code) => resolve({ code: code ?? 1, stdout: out, stderr: err })));
  let ended = false;
  void done.then(() => { ended = true; });
  return {
    stderr: () => err,
    done,
    stop: () => { if (!ended) child.kill('SIGKILL'); },
    async waitFor(pattern, timeoutMs = 5 * 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(err)) {
        if (ended) throw new Error(`the command ended before ${pattern}: ${err}`);
        if (Date.now() > deadline) throw new Error(`no ${pattern} within ${timeoutMs} ms: ${err}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
  };
}
