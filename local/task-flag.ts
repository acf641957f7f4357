/**
 * The --task flag. Apart from flags.ts because it loads the task registry: the CLI's entry imports
 * flags.ts, and a broken task folder must fail the command that needs tasks with one line, not the
 * whole CLI with a stack trace before it can report anything.
 */
import { z } from 'zod';
import { DEFAULT_TASK_ID, TASK_IDS, unknownTaskMessage } from '../tasks/registry.ts';

/** A task id flag: one of the registered tasks (the error names them all). */
export function taskFlag() {
  return z.string()
    .refine((id) => TASK_IDS.includes(id), { error: (issue) => unknownTaskMessage(issue.input) })
    .default(DEFAULT_TASK_ID);
}
