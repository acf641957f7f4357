import { readFile } from 'node:fs/promises';
import { UsageError } from './flags.ts';

/** Reads a file the user named; a missing or unreadable file is a usage error with one line. */
export async function readUserFile(path: string): Promise<string> {
  return (await readUserBytes(path)).toString('utf8');
}

/** The bytes of a file the user named (a gzipped recording), with readUserFile's errors. */
export async function readUserBytes(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (err as Error).message;
    throw new UsageError(`cannot read ${path}: ${why}`);
  }
}
