/**
 * The task registry, after Gymnasium's: every folder under tasks/ with a `task.ts` is a task, found
 * when this module loads; nothing else lists them. A folder's spec is checked here, so a mistake
 * in a user's task is one message naming the folder and the field, before any search runs.
 *
 * The folders come from this directory (in a Lambda bundle, the copy of tasks/ beside index.mjs;
 * esbuild bundles every `./<folder>/task.ts` through the import pattern below), or from
 * EUREKA_TASKS_DIR when set.
 * EUREKA_TASK_PATH adds folders from elsewhere on this machine (a colon-separated list of
 * directories that hold task folders), for tasks kept outside the repository (outside-folders.ts):
 * a broken one of those is skipped and reported, not fatal to the others.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ClipActions } from './clip-actions.ts';
import type { Task, TaskSpec, VecEnv } from './contract.ts';
import { TaskSpecSchema, describeSpecIssues } from './spec-schema.ts';
import { firstLine, notAnEsModule, registerEntryHook, reportSkipped, taskPathDirs, type SkippedFolder } from './outside-folders.ts';
import { BUILT_IN_DIR } from './task-files.ts';
import { RENAMED_TASKS } from './renamed.ts';
import { InvalidTask } from './invalid-task.ts';

export class UnknownTask extends Error {
  override readonly name = 'UnknownTask';
}

export { InvalidTask } from './invalid-task.ts';

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

/** What the model reads: each file without its reward lines, several under a line naming each. */
function environmentSource(files: readonly string[]): string {
  const sources = files.map((f) => pruneReward(readFileSync(f, 'utf8')));
  return files.length === 1 ? sources[0] : sources.map((source, k) => `// ===== ${basename(files[k])} =====\n${source}`).join('\n');
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
    : await import(pathToFileURL(join(where, 'task.ts')).href)) as { default?: TaskSpec | Promise<TaskSpec> };
  // A declared robot's spec is a promise (defineMujocoTask reads its XML): its errors name the field too.
  let exported: unknown;
  try {
    exported = await module.default;
  } catch (err) {
    throw new InvalidTask(`task folder ${where}: ${firstLine(err)}`);
  }
  const parsed = TaskSpecSchema.safeParse(exported);
  if (!parsed.success) throw new InvalidTask(`task folder ${where}: ${describeSpecIssues(parsed.error)}`);
  const spec = exported as TaskSpec;
  const files = (spec.environmentFiles ?? [spec.environmentFile ?? 'environment.ts']).map((f) => (isAbsolute(f) ? f : join(where, f)));
  const missing = spec.environmentText === undefined ? files.find((f) => !existsSync(f)) : undefined;
  if (missing !== undefined) throw new InvalidTask(`task folder ${where}: no ${missing} for the model to read`);
  const { action } = spec;
  const gymnasiumEnv = (n: number, seed: number): VecEnv => spec.makeEnv(n, seed);
  return {
    ...spec,
    success: { ...spec.success, test: said(`task folder ${where}: its success test`, spec.success, spec.success.test, isBoolean) },
    progress: { ...spec.progress, measure: said(`task folder ${where}: its progress`, spec.progress, spec.progress.measure, isFiniteNumber) },
    makeEnv: action.kind === 'box' ? (n, seed) => new ClipActions(gymnasiumEnv(n, seed), action.low, action.high) : gymnasiumEnv,
    gymnasiumEnv,
    folder,
    directory: where,
    obsSize: spec.observation.length,
    recordSize: spec.recorded?.length ?? 0,
    tieBreak: spec.tieBreak ?? 'none',
    actionSize: spec.action.kind === 'discrete' ? 1 : spec.action.names.length,
    environmentSource: `${spec.environmentText ?? environmentSource(files)}${spec.environmentNote === undefined ? '' : `\n${spec.environmentNote}\n`}`,
  };
}

/**
 * A task folder's own code, called by the trainer and the grader: what it throws is said as the
 * folder's ("task folder DIR: its success test threw: ..."), not as a bare message from nowhere,
 * and so is a value of the wrong kind (a test that forgot its `return`, a progress of NaN), which
 * would otherwise grade every episode a failure, or rank a search on NaN, without a word.
 */
function said<A extends unknown[], R>(what: string, owner: object, fn: (...args: A) => R, expected: (value: unknown) => string | null): (...args: A) => R {
  return (...args) => {
    let value: R;
    try {
      // Called on its own object, as before: a test written as a method may read `this`.
      value = fn.apply(owner, args);
    } catch (err) {
      throw new InvalidTask(`${what} threw: ${firstLine(err)}`);
    }
    const wrong = expected(value);
    if (wrong !== null) throw new InvalidTask(`${what} returned ${wrong}`);
    return value;
  };
}

const isBoolean = (value: unknown): string | null => (typeof value === 'boolean' ? null : `${describeReturned(value)}, not true or false`);
const isFiniteNumber = (value: unknown): string | null => (Number.isFinite(value) ? null : `${describeReturned(value)}, not a finite number`);

function describeReturned(value: unknown): string {
  if (typeof value === 'number' || value === undefined || value === null) return String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return `a ${Array.isArray(value) ? 'list' : typeof value}`;
}

/**
 * One folder outside this repository, loaded as a folder on EUREKA_TASK_PATH is (`eureka new-task`
 * tries the folder it wrote): its task, or why it would be skipped.
 */
export async function loadTaskFolder(dir: string, folder: string): Promise<Task | SkippedFolder> {
  registerEntryHook();
  return loadOutsideFolder(resolve(dir), folder);
}

/** A folder on EUREKA_TASK_PATH: its task, or why it was skipped. */
async function loadOutsideFolder(dir: string, folder: string): Promise<Task | SkippedFolder> {
  const where = join(dir, folder);
  try {
    const notModule = notAnEsModule(where);
    if (notModule !== undefined) return { directory: where, reason: notModule };
    return await loadFolder(dir, folder, false);
  } catch (err) {
    const reason = firstLine(err).replace(`task folder ${where}: `, '');
    return { directory: where, reason: err instanceof InvalidTask ? reason : `task.ts does not load: ${reason}` };
  }
}

/**
 * An EUREKA_TASK_PATH entry that yields no task folder, and why: a user who names the task folder
 * itself, or mistypes the path, would otherwise see only "unknown task" later, with no hint.
 */
function pathEntryProblem(dir: string, folders: readonly string[]): SkippedFolder[] {
  const reason = !existsSync(dir) ? 'no such directory'
    : existsSync(join(dir, 'task.ts')) ? `this is a task folder (it holds task.ts): name the directory that holds it, ${dirname(dir)}`
      : folders.length === 0 ? 'holds no task folder (a directory with a task.ts)' : null;
  return reason === null ? [] : [{ directory: dir, reason, pathEntry: true }];
}

async function loadTasks(): Promise<{ tasks: Task[]; skipped: SkippedFolder[] }> {
  const builtIn = await Promise.all(taskFolders(BUILT_IN_DIR).map((f) => loadFolder(BUILT_IN_DIR, f, true)));
  const extra = taskPathDirs().map((dir) => ({ dir, folders: taskFolders(dir) }));
  if (extra.length > 0) registerEntryHook();
  const outside = await Promise.all(extra.flatMap(({ dir, folders }) => folders.map((f) => loadOutsideFolder(dir, f))));
  const tasks: Task[] = [];
  const skipped: SkippedFolder[] = extra.flatMap(({ dir, folders }) => pathEntryProblem(dir, folders));
  const seen = new Map<string, string>();
  for (const task of builtIn) {
    const other = seen.get(task.id);
    // Two built-in folders with one id is this repository's bug: no command should run.
    if (other !== undefined) throw new InvalidTask(`task id ${task.id} is declared by two folders: ${other} and ${task.folder}`);
    seen.set(task.id, task.directory);
    tasks.push(task);
  }
  for (const loaded of outside) {
    if (!('id' in loaded)) skipped.push(loaded);
    else if (seen.has(loaded.id)) skipped.push({ directory: loaded.directory, reason: `id: ${loaded.id} is already the id of ${seen.get(loaded.id)}` });
    else {
      seen.set(loaded.id, loaded.directory);
      tasks.push(loaded);
    }
  }
  reportSkipped(skipped);
  return { tasks, skipped };
}

const loaded = await loadTasks();

/** Every registered task, in folder order (built-in first). */
export const TASKS: readonly Task[] = loaded.tasks;

/** The folders on EUREKA_TASK_PATH that were skipped, and why (reported on stderr when loaded). */
export const SKIPPED_TASK_FOLDERS: readonly SkippedFolder[] = loaded.skipped;

export const TASK_IDS: readonly string[] = TASKS.map((t) => t.id);

export function getTask(id: string): Task {
  const task = TASKS.find((t) => t.id === id);
  if (!task) throw new UnknownTask(unknownTaskMessage(id));
  return task;
}

/** "unknown task ...: the known tasks are ...", and the skipped folders, where the task may be. */
export function unknownTaskMessage(id: unknown): string {
  const renamed = renamedNote(id);
  if (renamed !== null) return `unknown task ${JSON.stringify(id)}: it ${renamed}`;
  const skipped = SKIPPED_TASK_FOLDERS.length === 0 ? '' : ` (skipped on EUREKA_TASK_PATH: ${SKIPPED_TASK_FOLDERS.map((s) => s.directory).join(', ')})`;
  // The likeliest slips: the id in another case, or a folder of one's own in a shell without EUREKA_TASK_PATH.
  const other = typeof id === 'string' ? TASK_IDS.find((known) => known.toLowerCase() === id.toLowerCase()) : undefined;
  const unset = (process.env.EUREKA_TASK_PATH ?? '') === '' ? ' (EUREKA_TASK_PATH is not set, so no task folder of your own is loaded)' : '';
  if (other !== undefined) return `unknown task ${JSON.stringify(id)}: did you mean ${other}? (ids are case-sensitive)`;
  return `unknown task ${JSON.stringify(id)}: the known tasks are ${TASK_IDS.join(', ')}${skipped}${unset}`;
}

/** "was renamed ..., as ..." for an id a task was renamed from (tasks/renamed.ts); null for any other. */
export function renamedNote(id: unknown): string | null {
  const renamed = typeof id === 'string' && Object.hasOwn(RENAMED_TASKS, id) ? RENAMED_TASKS[id] : undefined;
  return renamed !== undefined && TASK_IDS.includes(renamed.now) ? `was renamed ${renamed.now}, as ${renamed.why}` : null;
}

/** The task, with what its environment needs loaded (a physics engine's WebAssembly): ready for makeEnv. */
export async function prepareTask(id: string): Promise<Task> {
  const task = getTask(id);
  await task.prepare?.();
  return task;
}
