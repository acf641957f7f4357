/**
 * The bucket on AWS. Thin on purpose: each method is one S3 call (list: one per page), and the
 * only logic is mapping "no such object" to undefined / false.
 *
 * S3 answers 403, not 404, for a missing key when the caller may not s3:ListBucket; the roles
 * need ListBucket on the bucket (condition s3:prefix `searches/*`) for get and exists to work.
 *
 * Checksums stay at the SDK's defaults (`requestChecksumCalculation` and
 * `responseChecksumValidation` WHEN_SUPPORTED), on purpose. put hands the SDK the whole body as a
 * string or Uint8Array, so PutObject sends its CRC32 in an `x-amz-checksum-crc32` header that S3
 * verifies and keeps with the object, and GetObject asks for it back (`x-amz-checksum-mode`) and
 * the SDK checks the bytes against it. Only a streamed Body goes out aws-chunked, with the CRC32 in
 * a trailer, and S3-compatible test servers such as s3rver store that framing as the object's
 * bytes. `WHEN_REQUIRED` would avoid the framing by sending no checksum at all with PutObject
 * (then only the signed x-amz-content-sha256 protects the upload, and the object keeps no CRC32
 * for GetObject to check), a cost a buffered body does not need to pay. test/blob.test.ts runs
 * the store against s3rver under these same defaults, so a put that starts streaming fails there.
 */
import {
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  paginateListObjectsV2,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { BlobStore } from './blob.ts';
import { checkBlobKey, checkBlobPrefix } from './blob-key.ts';

export class S3BlobStore implements BlobStore {
  constructor(
    readonly bucket: string,
    private readonly client: S3Client = new S3Client(s3ClientConfig()),
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

/**
 * The default client's settings beyond what the SDK reads from the environment itself (region,
 * credentials, and the endpoint: AWS_ENDPOINT_URL_S3, else AWS_ENDPOINT_URL).
 *
 * Path-style addressing (`http://host/bucket/key`) only when an endpoint override is set: an
 * S3-compatible server (s3rver, MinIO, LocalStack) named by a host name such as `localhost` has no
 * `<bucket>.localhost` to resolve, so the SDK's default virtual-hosted style fails there (an IP
 * endpoint gets path-style from the SDK anyway). On AWS, with no override, nothing changes:
 * virtual-hosted style, the one AWS recommends. An override in the shared config
 * file's `services` section is not seen here; set the environment variable for such servers.
 */
export function s3ClientConfig(env: NodeJS.ProcessEnv = process.env): S3ClientConfig {
  return { forcePathStyle: configuredEndpoint(env) !== undefined };
}

/** The endpoint override the SDK will use from the environment, by the SDK's own rules. */
function configuredEndpoint(env: NodeJS.ProcessEnv): string | undefined {
  if (env.AWS_IGNORE_CONFIGURED_ENDPOINT_URLS === 'true') return undefined;
  return env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined;
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
