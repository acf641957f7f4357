/**
 * The bucket behind one small interface: S3 on AWS, a directory locally (DESIGN §3). Keys follow
 * functions/shared/store/keys.ts; the key rule is in blob-key.ts,
 * and which store a function gets is blob-from-env.ts's choice.
 */
export interface BlobStore {
  /** Where the objects live, for messages: `s3://bucket` or a directory. */
  readonly location: string;
  /** The object's bytes, or undefined when there is no such key. */
  get(key: string): Promise<Uint8Array | undefined>;
  /** The object as UTF-8 text, or undefined when there is no such key. */
  getText(key: string): Promise<string | undefined>;
  /**
   * Writes the whole object at once: readers see the old one or the new one, never a part.
   * Tags select objects for lifecycle rules on S3; the local directory has no lifecycle and ignores them.
   */
  put(key: string, body: Uint8Array | string, contentType?: string, tags?: Record<string, string>): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Every key that starts with prefix (a plain string prefix, as S3's), in S3's order. */
  list(prefix: string): Promise<string[]>;
}
