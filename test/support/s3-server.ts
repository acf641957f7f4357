/**
 * S3-compatible servers on loopback, started by the tests themselves, so S3BlobStore is tested
 * through the real S3Client and real HTTP on every run, with no AWS account:
 * - startS3Server: s3rver (an in-process fake S3 keeping objects in a temp directory);
 * - startErrorS3Server: a few lines of node:http that answer every request with one S3 error,
 *   for the answers s3rver never gives (403 AccessDenied).
 * Both record the requests they received, so a test can check what went over the wire.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import { s3ClientConfig } from '../../functions/shared/store/blob-s3.ts';

/** One request as the server saw it. */
export interface ReceivedRequest {
  method: string;
  /** Path and query, e.g. `/bucket/key?x-id=GetObject`. */
  url: string;
  headers: IncomingHttpHeaders;
}

export interface LoopbackS3 {
  /** `http://127.0.0.1:<port>`: an IP, so the SDK addresses it path-style without being told. */
  readonly endpoint: string;
  readonly port: number;
  /** A bucket created fresh for this server. */
  readonly bucket: string;
  /** Every request the server has received, in order of arrival. */
  readonly requests: ReceivedRequest[];
  /** Stops the server and deletes its directory. */
  close(): Promise<void>;
}

/** s3rver's one account: it rejects other access keys (and does not check SigV4 signatures). */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;
export const REGION = 'us-east-1';

/** The slice of s3rver's untyped API used here (node_modules/s3rver/lib/s3rver.js). */
interface S3rverOptions {
  port: number;
  address: string;
  silent: boolean;
  directory: string;
  configureBuckets: Array<{ name: string }>;
}
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  /** Set by run(). */
  httpServer?: Server;
}
const require = createRequire(import.meta.url);
const S3rver = require('s3rver') as new (options: S3rverOptions) => S3rverInstance;

/**
 * s3rver 3.7.1 makes ListObjectsV2 continuation tokens with single DES (`des`, DES-CBC), which
 * OpenSSL 3 (Node 17 and later) keeps in its legacy provider: without it, every listing longer than
 * one page of 1,000 keys is a 500 InternalError (ERR_OSSL_EVP_UNSUPPORTED). Triple DES with one
 * 8-byte key repeated three times computes the same bytes as single DES and is in the default
 * provider, so while an s3rver runs, `des` on node:crypto's CommonJS exports (what s3rver's
 * require('crypto') sees) is served by `des-ede3-cbc`; every other algorithm goes through as is.
 * Nothing is patched where `des` works (node --openssl-legacy-provider).
 */
type CipherFactory = (algorithm: string, ...rest: unknown[]) => unknown;
const cjsCrypto = require('node:crypto') as { createCipheriv: CipherFactory; createDecipheriv: CipherFactory };
let desUsers = 0;
let restoreDes: (() => void) | undefined;

function singleDesWorks(): boolean {
  try {
    cjsCrypto.createCipheriv('des', Buffer.alloc(8), Buffer.alloc(8));
    return true;
  } catch {
    return false;
  }
}

/** Makes `des` work until the returned function is called (by the last of its users). */
function provideSingleDes(): () => void {
  if (desUsers++ === 0 && !singleDesWorks()) {
    const originals = { createCipheriv: cjsCrypto.createCipheriv, createDecipheriv: cjsCrypto.createDecipheriv };
    for (const name of ['createCipheriv', 'createDecipheriv'] as const) {
      const original = originals[name];
      cjsCrypto[name] = (algorithm, key, ...rest) =>
        algorithm === 'des' && Buffer.isBuffer(key) && key.length === 8
          ? original('des-ede3-cbc', Buffer.concat([key, key, key]), ...rest)
          : original(algorithm, key, ...rest);
    }
    restoreDes = () => Object.assign(cjsCrypto, originals);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--desUsers === 0) {
      restoreDes?.();
      restoreDes = undefined;
    }
  };
}

/** s3rver on a free loopback port, with one fresh bucket, storing into a new temp directory. */
export async function startS3Server(): Promise<LoopbackS3> {
  const directory = await mkdtemp(join(tmpdir(), 'eureka-s3rver-'));
  const bucket = `eureka-test-${randomUUID().slice(0, 8)}`;
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] });
  const releaseDes = provideSingleDes();
  let port: number;
  try {
    ({ port } = await server.run());
  } catch (error) {
    releaseDes();
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  const requests: ReceivedRequest[] = [];
  // Recorded ahead of s3rver's handler, so a request is on the list before its answer is sent.
  server.httpServer?.prependListener('request', (req) => requests.push(received(req)));
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    bucket,
    requests,
    close: async () => {
      try {
        await server.close();
      } finally {
        releaseDes();
        await rm(directory, { recursive: true, force: true });
      }
    },
  };
}

/** Like LoopbackS3, less the bucket: this server has none. */
export type ErrorS3Server = Omit<LoopbackS3, 'bucket'>;

/**
 * A server that answers every request with `status` and an S3 error document (as S3 does; a HEAD
 * answer carries no body, so the client sees only the status, again as with S3).
 */
export async function startErrorS3Server(status: number, code: string, message: string): Promise<ErrorS3Server> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    requests.push(received(req));
    const requestId = randomUUID();
    const body =
      `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message>` +
      `<RequestId>${requestId}</RequestId><HostId>loopback</HostId></Error>`;
    req.resume(); // a PutObject body is read and dropped, so the client is not left writing
    res.writeHead(status, { 'content-type': 'application/xml', 'x-amz-request-id': requestId });
    res.end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/**
 * A real client for a loopback server: the settings S3BlobStore's default client takes from an
 * endpoint override in the environment, given here directly (endpoint, region, credentials) so
 * that tests need not change process.env.
 */
export function loopbackClient(endpoint: string): S3Client {
  return new S3Client({
    ...s3ClientConfig({ AWS_ENDPOINT_URL_S3: endpoint }),
    endpoint,
    region: REGION,
    credentials: S3RVER_CREDENTIALS,
  });
}

function received(req: { method?: string; url?: string; headers: IncomingHttpHeaders }): ReceivedRequest {
  return { method: req.method ?? '', url: req.url ?? '', headers: req.headers };
}
