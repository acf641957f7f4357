/**
 * What `eureka new-task` writes: a copy of the worked example (examples/tasks/point-goal, a point
 * on a rail that must come to rest at a goal) under the user's id, which runs a smoke search as it
 * stands, with what a folder outside this repository needs beside it. One template, the example
 * itself, so the toy a user starts from is the one the docs measure and the tests run.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const EXAMPLE = new URL('../examples/tasks/point-goal/', import.meta.url);
const ENTRY = new URL('../tasks/task-entry.ts', import.meta.url);
const TYPES = new URL('../node_modules/@types/', import.meta.url);

export const EXAMPLE_ID = 'PointGoal-v0';

/** What the folder holds, in the order the command lists it, with what each file is for. */
export const TEMPLATE_FILES: ReadonlyArray<readonly [file: string, what: string]> = [
  ['task.ts', 'the task: id, description, spaces, success test, baselines, features, card, budget'],
  ['environment.ts', 'the environment: reset and step of one copy (the model reads this file, all but its reward lines)'],
  ['point_goal.py', 'the toy\'s Python original, which recorded.json was recorded from'],
  ['recorded.json', 'episodes recorded from point_goal.py, for eureka conformance'],
  ['package.json', '"type": "module": a task folder\'s TypeScript loads as an ES module'],
  ['tsconfig.json', 'for your editor: where eureka-serverless/task is on this machine'],
];

/** Replaces `from` in `text` exactly once: a template that changed shape fails loudly, here. */
function replaceOnce(text: string, from: string, to: string, file: string): string {
  if (text.split(from).length !== 2) throw new Error(`the template's ${file} no longer holds ${JSON.stringify(from)} once`);
  return text.replace(from, () => to);
}

/** Writes the folder `dir` (which must not exist) for the task `id`. */
export async function writeTaskFolder(dir: string, id: string): Promise<void> {
  const read = (file: string) => readFile(new URL(file, EXAMPLE), 'utf8');
  let task = replaceOnce(await read('task.ts'), `id: '${EXAMPLE_ID}'`, `id: '${id}'`, 'task.ts');
  task = replaceOnce(task, task.slice(0, task.indexOf('\n')),
    `/** ${id}: made by \`eureka new-task\` from the worked example ${EXAMPLE_ID} (docs/your-own-task.md). Make it yours. */`, 'task.ts');
  const recording = JSON.parse(await read('recorded.json')) as { task: string };
  recording.task = id;
  const editor = editorFiles(id);
  await mkdir(dir, { recursive: true });
  await Promise.all([
    writeFile(join(dir, 'task.ts'), task),
    writeFile(join(dir, 'environment.ts'), await read('environment.ts')),
    writeFile(join(dir, 'point_goal.py'), await read('point_goal.py')),
    writeFile(join(dir, 'recorded.json'), `${JSON.stringify(recording)}\n`),
    writeFile(join(dir, 'package.json'), editor.packageJson),
    writeFile(join(dir, 'tsconfig.json'), editor.tsconfig),
  ]);
}

/** What every task folder outside this repository has beside its task: its package.json and the editor's tsconfig.json. */
export function editorFiles(id: string): { packageJson: string; tsconfig: string } {
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true,
      allowImportingTsExtensions: true, skipLibCheck: true,
      // File paths, not URLs' pathnames: in a checkout under "My Projects" a pathname says My%20Projects.
      paths: { 'eureka-serverless/task': [fileURLToPath(ENTRY)] },
      typeRoots: [fileURLToPath(TYPES)], types: ['node'],
    },
  };
  return {
    packageJson: `${JSON.stringify({ name: id.toLowerCase(), private: true, type: 'module' }, null, 2)}\n`,
    tsconfig: `${JSON.stringify(tsconfig, null, 2)}\n`,
  };
}
