/**
 * A link to one object of the stack's bucket that a browser can open without AWS credentials:
 * a presigned GetObject URL, signed here with the caller's own credentials (so it grants no more
 * than they hold: s3:GetObject on the cards, in the responder policy) and valid for an hour.
 */
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { s3ClientConfig } from '../functions/shared/store/blob-s3.ts';

export const PRESIGNED_URL_SECONDS = 3600;

export async function presignedUrl(bucket: string, key: string): Promise<string> {
  const client = new S3Client(s3ClientConfig());
  try {
    return await getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: key }), { expiresIn: PRESIGNED_URL_SECONDS });
  } finally {
    client.destroy();
  }
}
