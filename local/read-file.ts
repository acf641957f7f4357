import { readFile } from 'node:fs/promises';
import { UsageError } from './flags.ts';

/** Reads a file the user named; a missing or unreadable file is a usage error with one line. */
export async function readUserFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (err as Error).message;
    throw new UsageError(`cannot read ${path}: ${why}`);
  }
}
