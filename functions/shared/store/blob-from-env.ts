/** Which blob store a function gets: S3 on AWS, a directory locally, as its environment says. */
import { join } from 'node:path';
import type { BlobStore } from './blob.ts';
import { FsBlobStore } from './blob-fs.ts';
import { S3BlobStore } from './blob-s3.ts';
import { MissingEnvironment, optionalEnv } from '../ops/env.ts';

/**
 * The store the environment names: `EUREKA_BUCKET` (S3, on AWS) wins over `EUREKA_DATA_DIR`
 * (local: the directory `<dir>/bucket`). Throws MissingEnvironment when neither is set.
 */
export function blobStoreFromEnv(): BlobStore {
  const bucket = optionalEnv('EUREKA_BUCKET');
  if (bucket !== undefined) return new S3BlobStore(bucket);
  const dataDir = optionalEnv('EUREKA_DATA_DIR');
  if (dataDir !== undefined) return new FsBlobStore(join(dataDir, 'bucket'));
  throw new MissingEnvironment(
    'No blob store configured: set EUREKA_BUCKET to an S3 bucket (AWS) or EUREKA_DATA_DIR to a local data directory',
  );
}
