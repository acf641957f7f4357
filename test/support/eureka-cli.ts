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
  /** Kills the command and everything it started (its process group), if it is still running. */
  stop(): void;
  /** Sends SIGINT to the command alone (not its group), as `kill -INT` does: what it starts must end with it. */
  interrupt(): void;
}

/** Process groups started here and not yet ended: killed when the test file's process exits, whatever failed. */
const groups = new Set<number>();
process.on('exit', () => {
  for (const pid of groups) killGroup(pid);
});

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * Starts the command in a process group of its own, so that `stop()` ends it with the TrainSeed
 * workers it started. Call `stop()` in a `finally` or an `after`.
 */
export function start(args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string): Running {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const pid = child.pid;
  if (pid !== undefined) groups.add(pid);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
  const done = new Promise<Ran>((resolve) => child.on('close', (code) => resolve({ code: code ?? 1, stdout: out, stderr: err })));
  let ended = false;
  void done.then(() => {
    ended = true;
    if (pid !== undefined) groups.delete(pid);
  });
  return {
    stderr: () => err,
    done,
    stop() {
      if (pid !== undefined && groups.delete(pid)) killGroup(pid);
    },
    interrupt() {
      child.kill('SIGINT');
    },
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
