/**
 * Which process runs a local search. The table says `running` from "Start the search" until
 * "Publish the winner", on AWS as here; but here a search whose process was killed (Ctrl-C,
 * SIGKILL, a closed terminal) or whose execution failed would read `running` forever. So the
 * runtime leaves `processes/<searchId>.json` in the data directory while it runs a search: its
 * pid and host, and, if the execution failed, why. `eureka show` reads a `running` search as
 * `stopped` when that process is gone and as `failed` when it failed (docs/cli.md).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

const DIR = 'processes';

interface ProcessRecord {
  pid: number;
  host: string;
  startedAt: string;
  /** Set when the execution failed: the error's one line. */
  failed?: string;
}

/** What the table's `running` means locally: still running, stopped (its process is gone), or failed. */
export type LocalState = { state: 'running' } | { state: 'stopped' } | { state: 'failed'; reason: string };

const fileOf = (dataDir: string, searchId: string) => join(dataDir, DIR, `${searchId}.json`);

/** Called before the execution starts: this process runs the search. */
export async function markRunning(dataDir: string, searchId: string): Promise<void> {
  await mkdir(join(dataDir, DIR), { recursive: true });
  const record: ProcessRecord = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  await writeFile(fileOf(dataDir, searchId), `${JSON.stringify(record)}\n`);
}

/** Called when the execution ended: finished (the table says so) or failed (kept here, with why). */
export async function markEnded(dataDir: string, searchId: string, error?: unknown): Promise<void> {
  if (error === undefined) {
    await rm(fileOf(dataDir, searchId), { force: true });
    return;
  }
  const message = (error instanceof Error ? error.message : String(error)).replace(/^Execution has failed with the following error: /, '');
  const record: ProcessRecord = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), failed: message.split('\n')[0] };
  await writeFile(fileOf(dataDir, searchId), `${JSON.stringify(record)}\n`);
}

/** Is the process alive? EPERM: it is, another user's; ESRCH: it is gone. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * What a search the table calls `running` is here. No record: no process of this runtime runs it
 * (a search stored before records were kept, or a record removed). Another host's record cannot be
 * checked from here: it reads as running. A pid reused by another process reads as running until
 * that process ends.
 */
export async function localState(dataDir: string, searchId: string): Promise<LocalState> {
  const file = fileOf(dataDir, searchId);
  if (!existsSync(file)) return { state: 'stopped' };
  const record = JSON.parse(await readFile(file, 'utf8')) as ProcessRecord;
  if (record.failed !== undefined) return { state: 'failed', reason: record.failed };
  if (record.host !== hostname() || alive(record.pid)) return { state: 'running' };
  return { state: 'stopped' };
}
