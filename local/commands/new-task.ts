/**
 * `eureka new-task NAME [--dir D]`: writes D/NAME, a task folder that runs a smoke search as it
 * stands (the worked example under the id NAME, local/task-template.ts), and says what to fill in.
 * With `--xml FILE`: a robot declared from its MJCF file instead (local/robot-template.ts), its
 * folder copied into the task's `model/` (or, with `--in-place`, referenced where it is), and
 * stepped as a reward's check steps it before the command says it runs (local/robot-trial.ts).
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { TASK_IDS } from '../../tasks/registry.ts';
import { TASK_ID, TASK_ID_RULE } from '../../tasks/spec-schema.ts';
import { parseFlags, UsageError } from '../flags.ts';
import { ModelFolderTooLarge } from '../../physics/mujoco/model-files.ts';
import { ModelRefused, robotTemplateFiles, writeRobotFolder } from '../robot-template.ts';
import { RobotRefused } from '../robot-task-text.ts';
import { tryRobotFolder } from '../robot-trial.ts';
import { TEMPLATE_FILES, writeTaskFolder } from '../task-template.ts';

const NewTaskFlags = z.object({
  name: z.string(),
  /** The directory of task folders: what goes on EUREKA_TASK_PATH. */
  dir: z.string().min(1).default('.'),
  /** A robot's MJCF file: the task is declared from it. */
  xml: z.string().min(1).optional(),
  /** Reference the XML where it is rather than copy its folder. */
  inPlace: z.boolean().default(false),
  json: z.boolean().default(false),
});

export async function newTaskCommand(raw: unknown): Promise<void> {
  const flags = parseFlags(NewTaskFlags, raw);
  if (!TASK_ID.test(flags.name)) throw new UsageError(`NAME ${JSON.stringify(flags.name)}: a task's id ${TASK_ID_RULE}`);
  const taskPath = resolve(flags.dir);
  const folder = join(taskPath, flags.name);
  if (existsSync(folder)) throw new UsageError(`--dir: ${folder} already exists`);
  if (TASK_IDS.includes(flags.name)) throw new UsageError(`NAME ${flags.name}: already the id of a task (eureka tasks lists them)`);
  if (flags.inPlace && flags.xml === undefined) throw new UsageError('--in-place: only with --xml FILE (it references that XML where it is)');
  if (flags.xml !== undefined) {
    await robotFolder(flags.name, folder, taskPath, flags.xml, flags.inPlace, flags.json);
    return;
  }
  await writeTaskFolder(folder, flags.name);
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ task: flags.name, folder, taskPath, files: TEMPLATE_FILES.map(([file]) => file) })}\n`);
    return;
  }
  process.stdout.write(`${nextSteps(flags.name, folder, taskPath)}\n`);
}

async function robotFolder(id: string, folder: string, taskPath: string, xml: string, inPlace: boolean, json: boolean): Promise<void> {
  if (!existsSync(xml)) throw new UsageError(`--xml: no file ${xml}`);
  let notes: string[];
  try {
    notes = await writeRobotFolder(folder, id, xml, inPlace);
    await tryRobotFolder(taskPath, id);
  } catch (error) {
    // The model may be copied before the template refuses it, or the folder written before its trial
    // steps go unstable: the folder did not exist, so it goes, and NAME stays free.
    if (error instanceof RobotRefused) await rm(folder, { recursive: true, force: true });
    if (error instanceof ModelRefused || error instanceof ModelFolderTooLarge || error instanceof RobotRefused) throw new UsageError(refusal(error));
    throw error;
  }
  const files = robotTemplateFiles(inPlace);
  if (json) {
    process.stdout.write(`${JSON.stringify({ task: id, folder, taskPath, files: files.map(([file]) => file), notes })}\n`);
    return;
  }
  const width = Math.max(...files.map(([file]) => file.length));
  process.stdout.write(`${[
    `wrote ${folder}: the task ${id}, declared from ${resolve(xml)}${inPlace ? ' (referenced where it is)' : ''}`,
    ...files.map(([file, what]) => `  ${file.padEnd(width)}  ${what}`),
    '',
    ...notes.flatMap((n) => [n, '']),
    'It runs as it stands (from this clone):',
    `  export EUREKA_TASK_PATH=${taskPath}`,
    '  npx eureka tasks',
    `  npx eureka search --task ${id} --smoke`,
    '',
    'To make it yours, in task.ts:',
    '  1. observation: what the policy sees (hide what it should not; add sensors), with typical ranges.',
    '  2. actions, reset (keyframe, noise), termination (healthy ranges) and the time limit.',
    '  3. description, success and progress: every line marked PLACEHOLDER.',
    '  4. baselines (your shaping), features, then train until your shaping learns and set budget.steps.',
    'docs/your-own-task.md ("Your own robot") walks through each step.',
  ].join('\n')}\n`);
}

/** One line for a model new-task will not declare a task from. */
function refusal(error: ModelRefused | ModelFolderTooLarge | RobotRefused): string {
  if (error instanceof ModelFolderTooLarge) return `--xml: ${error.message} (or use --in-place)`;
  return error instanceof RobotRefused ? `--xml: ${error.message}` : error.message;
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
