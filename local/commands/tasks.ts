/** `eureka tasks`: the registered tasks, with what a search needs to know of each. */
import { z } from 'zod';
import { dirname, isAbsolute, relative } from 'node:path';
import type { Task } from '../../tasks/contract.ts';
import { SKIPPED_TASK_FOLDERS, TASKS } from '../../tasks/registry.ts';
import { firstLine } from '../../tasks/outside-folders.ts';
import { BUILT_IN_DIR } from '../../tasks/task-files.ts';
import { sampleTransitions } from '../../functions/train-seed/check-reward.ts';
import { EXIT } from '../exit-codes.ts';
import { parseFlags } from '../flags.ts';

const TasksFlags = z.object({ json: z.boolean().default(false), strict: z.boolean().default(false) });

export interface TaskListing {
  id: string;
  folder: string;
  description: string;
  maxEpisodeSteps: number;
  rewardThreshold: number | null;
  observation: Array<{ name: string; low: number | string; high: number | string }>;
  /** What the environment records beside the observation for the success test and progress (the reward may read it). */
  recorded: string[];
  action: Task['action'];
  success: string;
  /** The task's progress in words: what the rank reads after success, never a reward. */
  progress: string;
  tieBreak: Task['tieBreak'];
  budget: Task['budget'];
}

/** JSON has no infinities: an unbounded observation bound is written "Infinity" / "-Infinity". */
const bound = (x: number): number | string => (Number.isFinite(x) ? x : String(x));

/** Relative to the working directory when inside it (tasks/<folder>), else absolute (never ../../tmp/...). */
function shownFolder(directory: string): string {
  const shown = relative(process.cwd(), directory);
  return shown === '' ? '.' : shown.startsWith('..') || isAbsolute(shown) ? directory : shown;
}

export function listing(task: Task): TaskListing {
  return {
    id: task.id,
    folder: shownFolder(task.directory),
    description: task.description,
    maxEpisodeSteps: task.maxEpisodeSteps,
    rewardThreshold: task.rewardThreshold ?? null,
    observation: task.observation.map((d) => ({ name: d.name, low: bound(d.low), high: bound(d.high) })),
    recorded: (task.recorded ?? []).map((d) => d.name),
    action: task.action,
    success: task.success.describe,
    progress: task.progress.describe,
    tieBreak: task.tieBreak,
    budget: task.budget,
  };
}

/**
 * --strict: each task on EUREKA_TASK_PATH stepped as a reward's check first steps it (16 transitions
 * of random actions), since what its declaration names in the robot's XML (a behaviour's healthy
 * range, a recorded body) is read when it first steps, not when it loads. Each failure is one line
 * on stderr; returns how many failed.
 */
async function unsteppable(): Promise<number> {
  let failed = 0;
  for (const task of TASKS.filter((t) => dirname(t.directory) !== BUILT_IN_DIR)) {
    try {
      await task.prepare?.();
      sampleTransitions(task, 16, 0);
    } catch (error) {
      failed++;
      const said = firstLine(error);
      // A behaviour's own error begins with its id, which the line has said already.
      process.stderr.write(`eureka: task ${task.id} (${task.directory}) does not step: ${said.startsWith(`${task.id}: `) ? said.slice(task.id.length + 2) : said}\n`);
    }
  }
  return failed;
}

export async function tasksCommand(raw: unknown): Promise<void> {
  const flags = parseFlags(TasksFlags, raw);
  const all = TASKS.map(listing);
  // For a script or CI that checks task folders: what was skipped (each said on stderr as it loaded) fails it,
  // and so does a folder that loads but does not step.
  if (flags.strict && ((await unsteppable()) > 0 || SKIPPED_TASK_FOLDERS.length > 0)) process.exitCode = EXIT.failure;
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ tasks: all })}\n`);
    return;
  }
  const lines = all.flatMap((t) => {
    const action = t.action.kind === 'discrete'
      ? `discrete: ${t.action.names.map((n, i) => `${i} ${n}`).join(', ')}`
      : `box: ${t.action.names.map((n, i) => `${n} in [${t.action.kind === 'box' ? `${t.action.low[i]}, ${t.action.high[i]}` : ''}]`).join(', ')}`;
    return [
      `${t.id}  (${t.folder})`,
      `  ${t.description}`,
      `  observation: ${t.observation.map((d) => d.name).join(', ')}`,
      ...(t.recorded.length > 0 ? [`  recorded: ${t.recorded.join('; ')}`] : []),
      `  action: ${action}`,
      `  success: ${t.success}`,
      `  progress: ${t.progress}`,
      `  budget: ${t.budget.steps.toLocaleString('en-US')} steps per seed-run, ${t.budget.evalEpisodes} evaluation episodes (smoke: ${t.budget.smokeSteps.toLocaleString('en-US')} steps)`,
      '',
    ];
  });
  process.stdout.write(lines.join('\n'));
}
