/**
 * The task registry, after Gymnasium's: every folder under tasks/ with a `task.ts` is a task, found
 * when this module loads; nothing else lists them. A folder's spec is checked here, so a mistake
 * in a user's task is one message naming the folder and the field, before any search runs.
 *
 * The folders come from this directory (in a Lambda bundle, the copy of tasks/ beside index.mjs;
 * esbuild bundles every `./<folder>/task.ts` through the import pattern below), or from
 * EUREKA_TASKS_DIR when set.
 * EUREKA_TASK_PATH adds folders from elsewhere on this machine (a colon-separated list of
 * directories that hold task folders), for tasks kept outside the repository.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ClipActions } from './clip-actions.ts';
import type { Task, TaskSpec, VecEnv } from './contract.ts';
import { TaskSpecSchema, describeSpecIssues } from './spec-schema.ts';
import { BUILT_IN_DIR } from './task-files.ts';

export class UnknownTask extends Error {
  override readonly name = 'UnknownTask';
}

export class InvalidTask extends Error {
  override readonly name = 'InvalidTask';
}

export { DEFAULT_TASK_ID } from './default-task.ts';


/**
 * Lines from `reward:begin` to `reward:end` (in a line comment, or a ` * ` line of a doc comment)
 * are the environment's own reward: the model does not read them (Eureka's prune_env.py).
 */
export function pruneReward(source: string): string {
  return source
    .replace(/^[ \t]*(?:\/\/|\*) reward:begin[^\n]*\n[\s\S]*?^[ \t]*(?:\/\/|\*) reward:end[^\n]*\n/gm, '')
    // What the cut leaves: no doubled blank lines, in code or in a doc comment.
    .replace(/\n{3,}/g, '\n\n')
    .replace(/(^[ \t]*\*[ \t]*\n){2,}/gm, (run) => `${run.split('\n')[0]}\n`);
}

function taskFolders(dir: string): string[] {
  if (!existsSync(dir)) return [];
  // existsSync follows symlinks, so a linked task folder counts too.
  return readdirSync(dir).filter((name) => existsSync(join(dir, name, 'task.ts'))).sort();
}

async function loadFolder(dir: string, folder: string, builtIn: boolean): Promise<Task> {
  const where = join(dir, folder);
  // The template literal is what lets esbuild bundle every built-in task.ts into a Lambda.
  const module = (builtIn
    ? await import(`./${folder}/task.ts`)
    : await import(pathToFileURL(join(where, 'task.ts')).href)) as { default?: TaskSpec };
  const parsed = TaskSpecSchema.safeParse(module.default);
  if (!parsed.success) throw new InvalidTask(`task folder ${where}: ${describeSpecIssues(parsed.error)}`);
  const spec = module.default as TaskSpec;
  const file = join(where, spec.environmentFile ?? 'environment.ts');
  if (!existsSync(file)) throw new InvalidTask(`task folder ${where}: no ${spec.environmentFile ?? 'environment.ts'} for the model to read`);
  const { action } = spec;
  const gymnasiumEnv = (n: number, seed: number): VecEnv => spec.makeEnv(n, seed);
  return {
    ...spec,
    makeEnv: action.kind === 'box' ? (n, seed) => new ClipActions(gymnasiumEnv(n, seed), action.low, action.high) : gymnasiumEnv,
    gymnasiumEnv,
    folder,
    directory: where,
    obsSize: spec.observation.length,
    actionSize: spec.action.kind === 'discrete' ? 1 : spec.action.names.length,
    environmentSource: pruneReward(readFileSync(file, 'utf8')),
  };
}

async function loadTasks(): Promise<Task[]> {
  const extra = (process.env.EUREKA_TASK_PATH ?? '').split(':').filter((d) => d !== '').map((d) => resolve(d));
  const tasks = [
    ...(await Promise.all(taskFolders(BUILT_IN_DIR).map((f) => loadFolder(BUILT_IN_DIR, f, true)))),
    ...(await Promise.all(extra.flatMap((dir) => taskFolders(dir).map((f) => loadFolder(dir, f, false))))),
  ];
  const seen = new Map<string, string>();
  for (const task of tasks) {
    const other = seen.get(task.id);
    if (other !== undefined) throw new InvalidTask(`task id ${task.id} is declared by two folders: ${other} and ${task.folder}`);
    seen.set(task.id, task.folder);
  }
  return tasks;
}

/** Every registered task, in folder order. */
export const TASKS: readonly Task[] = await loadTasks();

export const TASK_IDS: readonly string[] = TASKS.map((t) => t.id);

export function getTask(id: string): Task {
  const task = TASKS.find((t) => t.id === id);
  if (!task) throw new UnknownTask(`unknown task "${id}": the known tasks are ${TASK_IDS.join(', ')}`);
  return task;
}

/** The task, with what its environment needs loaded (a physics engine's WebAssembly): ready for makeEnv. */
export async function prepareTask(id: string): Promise<Task> {
  const task = getTask(id);
  await task.prepare?.();
  return task;
}
