/**
 * What `eureka new-task NAME --xml FILE` writes: a declared robot's task folder (robot-task-text.ts)
 * whose model is the XML's folder copied into `model/` with its assets, and with the files the XML
 * names beside its folder (`meshdir="../meshes"`) in the same layout around it, so that the copy
 * stands on its own as a Menagerie robot folder does; files it names by an absolute path stay where
 * they are, as MuJoCo reads them there. With `--in-place`, the XML is referenced where it is. The
 * model is compiled first, through the same virtual file system the task loads it with, so an XML
 * MuJoCo refuses is refused here with MuJoCo's words (or, for a file not where MuJoCo would open
 * it, with the path it would open).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadMujoco } from '../physics/mujoco/engine.ts';
import { compileModel, ModelFileMissing, readModelFolder, type ModelFiles } from '../physics/mujoco/model-files.ts';
import { isAbsolutePath } from '../physics/mujoco/model-references.ts';
import { outline, robotTaskText, templateNotes } from './robot-task-text.ts';
import { editorFiles } from './task-template.ts';

export const MODEL_FOLDER = 'model';

/** What the folder holds, in the order the command lists it. */
export function robotTemplateFiles(inPlace: boolean): ReadonlyArray<readonly [file: string, what: string]> {
  return [
    ['task.ts', 'the task, declared: the XML, observation, actions, reset, termination, recorded state; success, progress, baselines and budget (placeholders)'],
    ...(inPlace ? [] : [[`${MODEL_FOLDER}/`, 'the XML\'s folder, copied with its includes and assets (and files it names beside its folder, in their layout)'] as const]),
    ['package.json', '"type": "module": a task folder\'s TypeScript loads as an ES module'],
    ['tsconfig.json', 'for your editor: where eureka-serverless/task is on this machine'],
  ];
}

export class ModelRefused extends Error {
  override readonly name = 'ModelRefused';
}

/** Writes the folder `dir` (which must not exist) for the task `id` declared from `xml`; returns what the template chose where the XML left it open. */
export async function writeRobotFolder(dir: string, id: string, xml: string, inPlace: boolean): Promise<string[]> {
  const xmlPath = resolve(xml);
  const files = modelFiles(xmlPath);
  await loadMujoco();
  let robot;
  try {
    const model = compileModel(files);
    try {
      robot = outline(model);
    } finally {
      model.delete();
    }
  } catch (error) {
    throw new ModelRefused(`--xml: MuJoCo does not compile ${xmlPath}: ${(error as Error).message}`);
  }
  const [xmlUrl, label] = inPlace ? [pathToFileURL(xmlPath).href, xmlPath] : [`./${MODEL_FOLDER}/${files.main}`, `${MODEL_FOLDER}/${files.main}`];
  await mkdir(dir, { recursive: true });
  if (!inPlace) await copyModel(files, join(dir, MODEL_FOLDER));
  const editor = editorFiles(id);
  await Promise.all([
    writeFile(join(dir, 'task.ts'), robotTaskText(id, xmlUrl, label, robot)),
    writeFile(join(dir, 'package.json'), editor.packageJson),
    writeFile(join(dir, 'tsconfig.json'), editor.tsconfig),
  ]);
  return templateNotes(robot);
}

function modelFiles(xmlPath: string): ModelFiles {
  try {
    return readModelFolder(xmlPath);
  } catch (error) {
    if (error instanceof ModelFileMissing) throw new ModelRefused(`--xml: MuJoCo does not compile ${xmlPath}: ${error.message}`);
    throw error;
  }
}

/** The model's files under `to` by their relative names (the XML's folder and what it names beside it, in their layout); absolute ones stay where the XML names them. */
async function copyModel(files: ModelFiles, to: string): Promise<void> {
  for (const [name, bytes] of files.files) {
    if (isAbsolutePath(name)) continue;
    await mkdir(dirname(join(to, name)), { recursive: true });
    await writeFile(join(to, name), bytes);
  }
}
