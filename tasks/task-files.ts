/**
 * Where the built-in task folders are on disk: this directory, or in a Lambda bundle (one
 * index.mjs) the tasks/ copied beside it, or EUREKA_TASKS_DIR. The registry reads each
 * environment's source from there, and a task reads its own data files (a robot's XML) the same way.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const fromEnv = process.env.EUREKA_TASKS_DIR;

export const BUILT_IN_DIR = fromEnv !== undefined && fromEnv !== '' ? fromEnv : existsSync(join(HERE, 'tasks', 'registry.ts')) ? join(HERE, 'tasks') : HERE;

/** A file of a built-in task folder, as text ("hopper", "hopper.xml"). */
export function readTaskFile(folder: string, name: string): string {
  return readFileSync(join(BUILT_IN_DIR, folder, name), 'utf8');
}
