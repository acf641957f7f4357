/**
 * Task folders kept outside this repository, on EUREKA_TASK_PATH (a colon-separated list of
 * directories that hold task folders). Such a folder imports what it needs as
 * `eureka-serverless/task`, which a resolve hook resolves (entry-hook.ts), so it needs no
 * node_modules and no install. A folder that does not load or whose spec is wrong is skipped and
 * reported in one line naming the folder and the field: one user's broken task does not stop the
 * commands that need the others.
 */
import { existsSync, readFileSync } from 'node:fs';
import { register } from 'node:module';
import { dirname, join, resolve } from 'node:path';

/** A folder on EUREKA_TASK_PATH that is not a task: where, and why, in one line. */
export interface SkippedFolder {
  directory: string;
  reason: string;
  /** An entry of EUREKA_TASK_PATH itself (not one of its folders) that yields no task folder. */
  pathEntry?: boolean;
}

/** The directories on EUREKA_TASK_PATH, resolved; an empty variable or entry counts as none. */
export function taskPathDirs(value = process.env.EUREKA_TASK_PATH ?? ''): string[] {
  return value.split(':').filter((d) => d !== '').map((d) => resolve(d));
}

let hookRegistered = false;

/** Makes `eureka-serverless/task` resolve from any folder in this process (once). */
export function registerEntryHook(): void {
  if (hookRegistered) return;
  hookRegistered = true;
  register(new URL('./entry-hook.ts', import.meta.url), { data: { entryUrl: new URL('./task-entry.ts', import.meta.url).href } });
}

/**
 * Why a folder's TypeScript would not load as an ES module, if it would not: Node (and tsx) take
 * a .ts file for CommonJS unless the nearest package.json says `"type": "module"`, and CommonJS
 * resolves no hook's names (`eureka new-task` writes that package.json).
 */
export function notAnEsModule(where: string): string | undefined {
  for (let dir = where; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const type = (JSON.parse(readFileSync(file, 'utf8')) as { type?: unknown }).type;
      return type === 'module' ? undefined : `${file} does not say "type": "module", so task.ts would load as CommonJS`;
    }
    if (dirname(dir) === dir) return 'no package.json with "type": "module" in the folder or above it, so task.ts would load as CommonJS';
  }
}

/** The first line of what went wrong: one line on stderr per skipped folder. */
export function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n').find((line) => line.trim() !== '')?.trim() ?? 'failed to load';
}

/**
 * Says which folders were skipped, on stderr, once per process. A forked TrainSeed worker says
 * nothing (process.send exists there): the command that started it already did.
 */
export function reportSkipped(skipped: readonly SkippedFolder[]): void {
  if (process.send !== undefined) return;
  for (const s of skipped) process.stderr.write(`eureka: ${s.pathEntry ? 'EUREKA_TASK_PATH entry' : 'skipped task folder'} ${s.directory}: ${s.reason}\n`);
}
