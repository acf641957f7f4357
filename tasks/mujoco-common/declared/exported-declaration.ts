/**
 * The declaration a declared task's folder exports beside its task (`export const declaration`),
 * for what writes and checks its stored facts (scripts/robot-facts.ts, test/robot-facts.test.ts).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Task } from '../../contract.ts';
import type { MujocoTaskDeclaration } from './declaration.ts';

export type FactsDeclaration = MujocoTaskDeclaration & { facts: URL | string };

/** The task's exported declaration, where it has one that names a facts file; otherwise undefined. */
export async function exportedDeclaration(task: Pick<Task, 'id' | 'directory'>): Promise<FactsDeclaration | undefined> {
  const module = (await import(pathToFileURL(join(task.directory, 'task.ts')).href)) as { declaration?: MujocoTaskDeclaration };
  const d = module.declaration;
  return d?.id === task.id && d.facts !== undefined ? (d as FactsDeclaration) : undefined;
}
