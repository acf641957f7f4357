/**
 * The local bucket: a directory with the S3 key layout. A write goes to a `.partial` file beside
 * its target, is flushed, then renamed over it, so a reader (or a process killed mid-write) sees
 * either the old object or the whole new one, never half of result.json.
 */
import { randomUUID } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { BlobStore } from './blob.ts';
import { checkBlobKey, checkBlobPrefix } from './blob-key.ts';

export class FsBlobStore implements BlobStore {
  readonly root: string;

  /** @param root the bucket's directory; created on the first write */
  constructor(root: string) {
    this.root = resolve(root);
  }

  get location(): string {
    return this.root;
  }

  /** The file that holds a key (for logs and for handing a path to a browser). */
  pathOf(key: string): string {
    return join(this.root, ...checkBlobKey(key).split('/'));
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async getText(key: string): Promise<string | undefined> {
    const body = await this.get(key);
    return body === undefined ? undefined : new TextDecoder().decode(body);
  }

  /** The content type is not kept: a file's extension says it locally. */
  async put(key: string, body: Uint8Array | string, _contentType?: string): Promise<void> {
    const path = this.pathOf(key);
    const name = key.slice(key.lastIndexOf('/') + 1, key.lastIndexOf('/') + 65);
    const partial = join(dirname(path), `.${name}.${randomUUID()}.partial`);
    await mkdir(dirname(path), { recursive: true });
    try {
      await writeFile(partial, body, { flush: true });
      await rename(partial, path);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  /** Every key that starts with prefix, in S3's order (UTF-8 bytes). */
  async list(prefix: string): Promise<string[]> {
    checkBlobPrefix(prefix);
    const folder = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    const keys: string[] = [];
    await this.walk(folder, keys);
    return keys.filter((key) => key.startsWith(prefix)).sort(byUtf8);
  }

  private async walk(folder: string, keys: string[]): Promise<void> {
    let entries: Dirent[];
    try {
      entries = await readdir(folder === '' ? this.root : join(this.root, ...folder.split('/')), {
        withFileTypes: true,
      });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue; // in-progress writes and anything not a key
      const key = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) await this.walk(key, keys);
      else if (entry.isFile()) keys.push(key);
    }
  }
}

/** ENOENT, or a key whose folder is a file or whose file is a folder: no such object. */
function isMissing(error: unknown): boolean {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}

function byUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
