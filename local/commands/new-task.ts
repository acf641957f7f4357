/**
 * `eureka new-task NAME [--dir D]`: writes D/NAME, a task folder that runs a smoke search as it
 * stands (the worked example under the id NAME, local/task-template.ts), and says what to fill in.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { TASK_IDS } from '../../tasks/registry.ts';
import { parseFlags, UsageError } from '../flags.ts';
import { TEMPLATE_FILES, writeTaskFolder } from '../task-template.ts';

/** The task's id and its folder's name, Gymnasium-style (the registry's rule, tasks/spec-schema.ts). */
const TASK_ID = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

const NewTaskFlags = z.object({
  name: z.string(),
  /** The directory of task folders: what goes on EUREKA_TASK_PATH. */
  dir: z.string().min(1).default('.'),
  json: z.boolean().default(false),
});

export async function newTaskCommand(raw: unknown): Promise<void> {
  const flags = parseFlags(NewTaskFlags, raw);
  if (!TASK_ID.test(flags.name)) throw new UsageError(`NAME ${JSON.stringify(flags.name)}: a task's id starts with a letter and holds only letters, digits, _ . - (such as MyTask-v0)`);
  const taskPath = resolve(flags.dir);
  const folder = join(taskPath, flags.name);
  if (existsSync(folder)) throw new UsageError(`--dir: ${folder} already exists`);
  if (TASK_IDS.includes(flags.name)) throw new UsageError(`NAME ${flags.name}: already the id of a task (eureka tasks lists them)`);
  await writeTaskFolder(folder, flags.name);
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ task: flags.name, folder, taskPath, files: TEMPLATE_FILES.map(([file]) => file) })}\n`);
    return;
  }
  process.stdout.write(`${nextSteps(flags.name, folder, taskPath)}\n`);
}

/** What the folder holds, the commands that run on it as it stands, and what to make one's own. */
function nextSteps(id: string, folder: string, taskPath: string): string {
  const width = Math.max(...TEMPLATE_FILES.map(([file]) => file.length));
  return [
    `wrote ${folder}: the worked example PointGoal-v0 (a point on a rail that must come to rest at a goal) as the task ${id}`,
    ...TEMPLATE_FILES.map(([file, what]) => `  ${file.padEnd(width)}  ${what}`),
    '',
    'It runs as it stands (from this clone):',
    `  export EUREKA_TASK_PATH=${taskPath}`,
    `  npx eureka conformance --task ${id} ${join(folder, 'recorded.json')}`,
    `  npx eureka bank --task ${id}`,
    `  npx eureka search --task ${id} --smoke`,
    '',
    'To make it yours, fill in:',
    '  1. environment.ts: your state, reset and step (float64 inside, float32 observations out); keep the',
    '     environment\'s own reward between the // reward:begin and // reward:end lines: the model does not see it.',
    '  2. task.ts: description, observation (names and bounds), action, success (the trusted test of an',
    '     episode), baselines (the environment\'s reward and your shaping, as reward code), features, render, budget.',
    '  3. Record episodes of your original (python3 tasks/record-gymnasium.py ...) and run eureka conformance on them.',
    `  4. npx eureka train --task ${id} --reward shaping.js until your shaping learns; set budget.steps to that budget.`,
    `  5. npx eureka bank --task ${id}, then npx eureka search --task ${id}.`,
    'docs/your-own-task.md walks through each step.',
  ].join('\n');
}
