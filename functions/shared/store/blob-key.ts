/**
 * The one rule for blob keys, shared by every BlobStore so a key that works locally works on S3:
 * S3-style paths of non-empty `/`-separated segments. A segment may not start with a dot (that
 * rules out `.` and `..`, so a key can never leave the local store's directory, and keeps the
 * local store's in-progress `.partial` files out of the key space), nor hold a backslash or NUL.
 */

export class InvalidBlobKey extends Error {
  override readonly name = 'InvalidBlobKey';
}

const SEGMENT = /^[^./\\\0][^/\\\0]*$/;

/** Returns the key unchanged, or throws InvalidBlobKey saying what is wrong with it. */
export function checkBlobKey(key: string): string {
  if (key.length === 0 || key.length > 1024) {
    throw new InvalidBlobKey(`Blob key must be 1 to 1024 characters (got ${key.length})`);
  }
  for (const segment of key.split('/')) {
    if (!SEGMENT.test(segment)) {
      throw new InvalidBlobKey(
        `Invalid blob key ${JSON.stringify(key)}: segments must be non-empty, must not start with ` +
          `a dot and must not contain a backslash or NUL`,
      );
    }
  }
  return key;
}

/**
 * A list prefix is a key prefix: empty (everything), a folder ending in `/`, or any beginning of
 * a valid key. It is never turned into a path on its own, but is checked the same way.
 */
export function checkBlobPrefix(prefix: string): string {
  if (prefix === '') return prefix;
  const trimmed = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  checkBlobKey(trimmed);
  return prefix;
}
