/**
 * The bucket on AWS. Thin on purpose: each method is one S3 call (list: one per page), and the
 * only logic is mapping "no such object" to undefined / false.
 *
 * S3 answers 403, not 404, for a missing key when the caller may not s3:ListBucket; the roles
 * need ListBucket on the bucket (condition s3:prefix `searches/*`) for get and exists to work.
 */
import {
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  paginateListObjectsV2,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { BlobStore } from './blob.ts';
import { checkBlobKey, checkBlobPrefix } from './blob-key.ts';

export class S3BlobStore implements BlobStore {
  constructor(
    readonly bucket: string,
    private readonly client: S3Client = new S3Client({}),
  ) {}

  get location(): string {
    return `s3://${this.bucket}`;
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: checkBlobKey(key) }));
      return out.Body ? await out.Body.transformToByteArray() : new Uint8Array();
    } catch (error) {
      if (isNoSuchObject(error)) return undefined;
      throw explain(error, 'GetObject', this.bucket, key);
    }
  }

  async getText(key: string): Promise<string | undefined> {
    const body = await this.get(key);
    return body === undefined ? undefined : new TextDecoder().decode(body);
  }

  async put(key: string, body: Uint8Array | string, contentType?: string, tags?: Record<string, string>): Promise<void> {
    const tagging = tags ? new URLSearchParams(tags).toString() : undefined;
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: checkBlobKey(key), Body: body, ContentType: contentType, Tagging: tagging }),
    );
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: checkBlobKey(key) }));
      return true;
    } catch (error) {
      if (isNoSuchObject(error)) return false;
      throw explain(error, 'HeadObject', this.bucket, key);
    }
  }

  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    const pages = paginateListObjectsV2(
      { client: this.client },
      { Bucket: this.bucket, Prefix: checkBlobPrefix(prefix) },
    );
    for await (const page of pages) {
      for (const object of page.Contents ?? []) if (object.Key !== undefined) keys.push(object.Key);
    }
    return keys;
  }
}

/** GetObject says NoSuchKey; HeadObject has no body, so only its status says NotFound. */
export function isNoSuchObject(error: unknown): boolean {
  if (error instanceof NoSuchKey || error instanceof NotFound) return true;
  return error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404 && error.name !== 'NoSuchBucket';
}

function explain(error: unknown, operation: string, bucket: string, key: string): unknown {
  if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 403) {
    error.message =
      `${operation} s3://${bucket}/${key} was denied (403). S3 also says 403 for a missing key when the ` +
      `role lacks s3:ListBucket: ${error.message}`;
  }
  return error;
}
