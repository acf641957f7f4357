/**
 * What resolveRobot reads from a declared robot's XML, kept in a file beside its task (the
 * declaration's `facts`), so that loading the task needs neither MuJoCo nor a compile: every
 * process that loads the task registry (each command, each seed-run worker, each Lambda) would
 * otherwise load MuJoCo's WebAssembly and compile the model, about half a second of CPU for a
 * Menagerie quadruped, whether or not it touches that task.
 *
 * The file holds a SHA-256 of what the facts were read from: the model's files, the parts of the
 * declaration resolveRobot reads, and FACTS_VERSION. A file whose digest differs (the XML edited,
 * an actuator renamed in the declaration) is ignored and the model compiled as without one, so
 * stale facts are never used; `npx tsx scripts/robot-facts.ts ID` writes them again, and
 * test/robot-facts.test.ts holds every built-in task's file to a fresh compile.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { ModelFiles } from '../../../physics/mujoco/model-files.ts';
import type { MujocoTaskDeclaration } from './declaration.ts';
import type { RobotModel } from './robot-model.ts';

/** Raise when robot-model.ts reads more or otherwise from the XML: every stored file then misses. */
export const FACTS_VERSION = 1;

type Facts = Omit<RobotModel, 'files'>;

interface FactsFile {
  format: 'robot-facts@1';
  digest: string;
  facts: Facts;
}

/** The digest of what resolveRobot reads: the model's files and the declaration's names and numbers. */
export function factsDigest(d: MujocoTaskDeclaration, files: ModelFiles): string {
  const hash = createHash('sha256');
  const read = { version: FACTS_VERSION, main: files.main, observation: d.observation, recorded: d.recorded ?? null, termination: d.termination ?? null, reset: d.reset ?? null, actions: d.actions, frameSkip: d.frameSkip };
  hash.update(JSON.stringify(read));
  for (const [name, bytes] of [...files.files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    hash.update(`\0${name}\0${bytes.length}\0`);
    hash.update(bytes);
  }
  return hash.digest('hex');
}

/** The stored facts, where the file exists and was read from these files and this declaration. */
export function readFacts(path: string, d: MujocoTaskDeclaration, files: ModelFiles): RobotModel | undefined {
  if (!existsSync(path)) return undefined;
  let stored: FactsFile;
  try {
    stored = JSON.parse(readFileSync(path, 'utf8'), (_key, value: unknown) => (value === 'Infinity' ? Infinity : value === '-Infinity' ? -Infinity : value)) as FactsFile;
  } catch {
    return undefined;
  }
  if (stored?.format !== 'robot-facts@1' || stored.digest !== factsDigest(d, files)) return undefined;
  const f = stored.facts;
  return { ...f, files, startQpos: Float64Array.from(f.startQpos), restCtrl: Float64Array.from(f.restCtrl) };
}

/** The file's text for a robot resolved from `files` (JSON has no Infinity: an unlimited ctrl range's bounds are strings). */
export function factsText(d: MujocoTaskDeclaration, robot: RobotModel): string {
  const { files, ...facts } = robot;
  const file: FactsFile = { format: 'robot-facts@1', digest: factsDigest(d, files), facts: { ...facts, startQpos: [...robot.startQpos] as never, restCtrl: [...robot.restCtrl] as never } };
  return `${JSON.stringify(file, (_key, value: unknown) => (value === Infinity ? 'Infinity' : value === -Infinity ? '-Infinity' : value), 1)}\n`;
}

export function writeFacts(path: string, d: MujocoTaskDeclaration, robot: RobotModel): void {
  writeFileSync(path, factsText(d, robot));
}
