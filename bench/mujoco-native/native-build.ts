/**
 * The native MuJoCo builds the benches compile their C against: Debian's `libmujoco-dev` (2.2.2:
 * apt-get install -y libmujoco-dev), and a folder holding `include/mujoco/mujoco.h` and
 * `libmujoco.so.X`: the official `mujoco` wheel's `mujoco/` folder holds 3.14.0's, the version of
 * our WebAssembly build (Google DeepMind's release build, nothing compiled here):
 *
 *   pip download --no-deps mujoco==3.14.0 -d /tmp/mj && (cd /tmp/mj && unzip -q mujoco-3.14.0-*.whl 'mujoco/*')
 *
 * A bench takes the folder from `--native DIR` or, failing that, EUREKA_NATIVE_MUJOCO.
 */
import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

export interface NativeBuild {
  /** Where it comes from, for the bench's lines. */
  label: string;
  /** The compiler's arguments that link it. */
  link: string[];
}

export const DEBIAN: NativeBuild = { label: 'Debian libmujoco-dev', link: ['-lmujoco'] };

/** Compiler flags for a native build in a folder (a wheel's mujoco/: include/ and libmujoco.so.X). */
export async function wheelLink(folder: string): Promise<string[]> {
  const lib = (await readdir(folder)).find((f) => /^libmujoco\.so\.\d/.test(f));
  if (lib === undefined) throw new Error(`--native ${folder}: no libmujoco.so.* there`);
  return [`-I${join(folder, 'include')}`, join(folder, lib), `-Wl,-rpath,${folder}`];
}

/** The folder of a native build named by `--native DIR` (the flag's value, as the bench parsed it) or EUREKA_NATIVE_MUJOCO, if any. */
export function nativeFolder(native: string | undefined): string | undefined {
  const given = native ?? process.env.EUREKA_NATIVE_MUJOCO;
  return given === undefined || given === '' ? undefined : resolve(given);
}

/** Debian's build, then the folder's where one is named (`--native`'s value, else EUREKA_NATIVE_MUJOCO): the builds a bench compares against. */
export async function nativeBuilds(native: string | undefined): Promise<NativeBuild[]> {
  const folder = nativeFolder(native);
  return folder === undefined ? [DEBIAN] : [DEBIAN, { label: folder, link: await wheelLink(folder) }];
}

/** Compiles a bench's C source against a build at -O2 (the bench's own code; MuJoCo comes built); null when it fails, with the reason. */
export async function compileAgainst(source: string, binary: string, build: NativeBuild): Promise<string | null> {
  try {
    await promisify(execFile)('cc', ['-O2', '-o', binary, source, ...build.link]);
    return null;
  } catch (error) {
    return `${build.label}: ${(error as Error).message.split('\n')[0]}`;
  }
}
