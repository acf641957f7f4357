/**
 * A model given as files, not one string: the MJCF file and the folder beside it (its `<include>`d
 * XML, meshes, textures, height fields), compiled through the engine's virtual file system
 * (`MjVFS.addBuffer`, then `MjModel.from_xml_path` inside it), as a Menagerie robot folder is laid
 * out (`scene.xml` including the robot's XML, `assets/*.stl`). MuJoCo resolves every file name against
 * the main file's folder (and `meshdir`, `texturedir`, `assetdir`), so the whole folder goes in,
 * under names relative to it; the VFS is freed once the model is compiled.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { mujoco, type MjModel } from './engine.ts';

export interface ModelFiles {
  /** The main MJCF file's name among `files` ("scene.xml"). */
  main: string;
  /** Every file of the model's folder by its path relative to that folder, "/"-separated ("assets/trunk.stl"). */
  files: ReadonlyMap<string, Uint8Array>;
  /** Where they were read from, for messages. */
  folder?: string;
}

/** A model as one XML string (Gymnasium's robots), or as files. */
export type ModelSource = string | ModelFiles;

export class ModelFolderTooLarge extends Error {
  override readonly name = 'ModelFolderTooLarge';
}

/**
 * What a model's folder may hold: a Menagerie robot folder is a few MB (a quadruped's 10 meshes, 6 MB); a
 * folder far past these is not a model's (a home directory), and reading it would only stall.
 */
export const FOLDER_LIMITS = { files: 2_000, bytes: 256 * 1024 * 1024 } as const;

/** Files and folders never part of a model: version control, dependencies. */
const SKIPPED = new Set(['.git', 'node_modules']);

/** The MJCF file at `xmlPath` and every file under its folder, read now. */
export function readModelFolder(xmlPath: string): ModelFiles {
  const folder = dirname(xmlPath);
  const files = new Map<string, Uint8Array>();
  let bytes = 0;
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      if (SKIPPED.has(name)) continue;
      const path = join(dir, name);
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else if (stat.isFile()) {
        bytes += stat.size;
        if (files.size + 1 > FOLDER_LIMITS.files || bytes > FOLDER_LIMITS.bytes) {
          throw new ModelFolderTooLarge(`${folder} holds more than ${FOLDER_LIMITS.files} files or ${FOLDER_LIMITS.bytes / 2 ** 20} MB: keep the model (its XML and assets) in a folder of its own`);
        }
        files.set(relative(folder, path).split(sep).join('/'), readFileSync(path));
      }
    }
  };
  walk(folder);
  return { main: basename(xmlPath), files, folder };
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
