/**
 * A model given as files, not one string: the MJCF file, the folder beside it (its `<include>`d
 * XML, meshes, textures, height fields) and any file the model names outside that folder, compiled
 * through the engine's virtual file system (`MjVFS.addBuffer`, then `MjModel.from_xml_path` inside
 * it), as a Menagerie robot folder is laid out (`scene.xml` including the robot's XML,
 * `assets/*.stl`). Every file the XML names is first looked for where MuJoCo's own rules put it on
 * disk (model-references.ts): one that is not there is refused with the path MuJoCo would open,
 * since the VFS would otherwise settle for any file of the same base name and the model would load
 * here and nowhere else. The files go in under the names MuJoCo opens them by: relative to the
 * nearest folder that holds the XML's folder and every file it names beside it (so `../meshes`
 * stays `../meshes` and two files of one base name stay two), or absolute where the model names
 * them so (an absolute meshdir). The VFS is freed once the model is compiled.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { mujoco, type MjModel } from './engine.ts';
import { isAbsolutePath, modelReferences, mujocoPath, type FileReference } from './model-references.ts';

export interface ModelFiles {
  /** The main MJCF file's name among `files`: "scene.xml", or "mjcf/robot.xml" when the model names files beside its folder. */
  main: string;
  /**
   * Every file of the XML's folder and every file the model names outside it, by the name MuJoCo
   * opens it by: its path relative to `folder`, "/"-separated ("assets/trunk.stl",
   * "meshes/torso.stl"), or its absolute path where the model names it by one.
   */
  files: ReadonlyMap<string, Uint8Array>;
  /** Where the relative names start: the XML's folder, or the nearest folder above it that holds what the model names. For messages. */
  folder?: string;
}

/** A model as one XML string (Gymnasium's robots), or as files. */
export type ModelSource = string | ModelFiles;

export class ModelFolderTooLarge extends Error {
  override readonly name = 'ModelFolderTooLarge';
}

/** A file the model names is not where MuJoCo would open it. */
export class ModelFileMissing extends Error {
  override readonly name = 'ModelFileMissing';
}

/**
 * What a model's folder may hold: a Menagerie robot folder is a few MB (a quadruped's 10 meshes, 6 MB); a
 * folder far past these is not a model's (a home directory), and reading it would only stall.
 */
export const FOLDER_LIMITS = { files: 2_000, bytes: 256 * 1024 * 1024 } as const;

/** Files and folders never part of a model: version control, dependencies. */
const SKIPPED = new Set(['.git', 'node_modules']);

/** The MJCF file at `xmlPath`, every file under its folder and every file it names elsewhere, read now. */
export function readModelFolder(xmlPath: string): ModelFiles {
  const main = resolve(xmlPath);
  const folder = dirname(main);
  const read = limitedReader(folder);
  const inFolder = folderFiles(folder, read);
  const references = modelReferences(main, (path) => (isFile(path) ? Buffer.from(read(path)).toString('utf8') : undefined));
  const missing = references.filter((r) => !isFile(r.path));
  if (missing.length > 0) throw new ModelFileMissing(missing.map((r) => missingText(r, main, inFolder)).join('; '));
  const root = commonFolder([folder, ...references.filter((r) => !isAbsolutePath(r.opened)).map((r) => dirname(r.path))]);
  const mainDir = relative(root, folder).split(sep).join('/');
  const files = new Map<string, Uint8Array>();
  for (const [name, bytes] of inFolder) files.set(mujocoPath(mainDir, name), bytes);
  for (const r of references) files.set(isAbsolutePath(r.opened) ? r.opened : mujocoPath(mainDir, r.opened), read(r.path));
  return { main: mujocoPath(mainDir, basename(main)), files, folder: root };
}

/** Reads each file once, and refuses past FOLDER_LIMITS counting every file read. */
function limitedReader(folder: string): (path: string) => Uint8Array {
  const read = new Map<string, Uint8Array>();
  let bytes = 0;
  return (path) => {
    const known = read.get(path);
    if (known !== undefined) return known;
    bytes += statSync(path).size;
    if (read.size + 1 > FOLDER_LIMITS.files || bytes > FOLDER_LIMITS.bytes) {
      throw new ModelFolderTooLarge(`${folder} holds more than ${FOLDER_LIMITS.files} files or ${FOLDER_LIMITS.bytes / 2 ** 20} MB: keep the model (its XML and assets) in a folder of its own`);
    }
    const got = readFileSync(path);
    read.set(path, got);
    return got;
  };
}

/** Every file under `folder` by its "/"-separated path relative to it. */
function folderFiles(folder: string, read: (path: string) => Uint8Array): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      if (SKIPPED.has(name)) continue;
      const path = join(dir, name);
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else if (stat.isFile()) files.set(relative(folder, path).split(sep).join('/'), read(path));
    }
  };
  walk(folder);
  return files;
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

/** The deepest folder holding every one of `folders` (absolute paths). */
function commonFolder(folders: string[]): string {
  let common = folders[0].split(sep);
  for (const folder of folders.slice(1)) {
    const parts = folder.split(sep);
    let k = 0;
    while (k < common.length && common[k] === parts[k]) k += 1;
    common = common.slice(0, k);
  }
  return common.length <= 1 ? sep : common.join(sep);
}

/** `<mesh name="torso"> file "torso.stl" resolves to /abs/torso.stl (no meshdir), which does not exist (the XML's folder has meshes/torso.stl)`. */
function missingText(r: FileReference, main: string, inFolder: ReadonlyMap<string, Uint8Array>): string {
  const where = r.writtenIn === main ? '' : ` (in ${relative(dirname(main), r.writtenIn)})`;
  const what = existsSync(r.path) ? 'which is not a file' : 'which does not exist';
  const base = r.file.split(/[\\/]/).pop();
  const alike = [...inFolder.keys()].filter((name) => name.split('/').pop() === base).slice(0, 3);
  const hint = alike.length === 0 ? '' : ` (the XML's folder has ${alike.join(', ')})`;
  return `<${r.element}${r.name === undefined ? '' : ` name="${r.name}"`}> ${r.attribute} "${r.file}"${where} resolves to ${r.path} (${r.rule}), ${what}${hint}`;
}

/** Compiles the model: from the string, or from the files through a VFS freed before returning. */
export function compileModel(source: ModelSource): MjModel {
  const mj = mujoco();
  if (typeof source === 'string') return mj.MjModel.from_xml_string(source);
  if (!source.files.has(source.main)) throw new Error(`the model's files hold no ${source.main}`);
  const vfs = new mj.MjVFS();
  try {
    for (const [name, bytes] of source.files) vfs.addBuffer(name, bytes);
    return mj.MjModel.from_xml_path(source.main, vfs);
  } finally {
    vfs.delete();
  }
}
