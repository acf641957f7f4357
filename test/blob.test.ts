/**
 * The blob store. One contract, run on the filesystem store and on S3BlobStore against s3rver, an
 * S3-compatible server each run starts on loopback (test/support/s3-server.ts), through the real
 * S3Client; also on a real S3 bucket when EUREKA_TEST_BUCKET names one (with credentials in the
 * environment). Then what only S3 does (tags, content types, 403 for a missing key), what only the
 * local store promises (layout, atomic writes, a killed writer) and the choice made from the
 * environment.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  GetObjectTaggingCommand,
  HeadObjectCommand,
  NoSuchBucket,
  NoSuchKey,
  NotFound,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { BlobStore } from '../functions/shared/store/blob.ts';
import { blobStoreFromEnv } from '../functions/shared/store/blob-from-env.ts';
import { InvalidBlobKey } from '../functions/shared/store/blob-key.ts';
import { FsBlobStore } from '../functions/shared/store/blob-fs.ts';
import { isNoSuchObject, S3BlobStore, s3ClientConfig } from '../functions/shared/store/blob-s3.ts';
import { MissingEnvironment } from '../functions/shared/ops/env.ts';
import {
  loopbackClient,
  REGION,
  S3RVER_CREDENTIALS,
  startErrorS3Server,
  startS3Server,
  type LoopbackS3,
} from './support/s3-server.ts';

const INVALID_KEYS = ['', '/searches/a', 'searches//a', 'searches/a/', '../a', 'searches/../a', 'searches/./a',
  '.hidden', 'searches/.a.partial', 'searches\\a', 'a\0b', 'x'.repeat(1025)];

/** What the contract runs on. */
interface ContractTarget {
  store: BlobStore;
  /** A fresh prefix no other run uses. */
  base: string;
  /** Frees what make started. */
  close?(): Promise<void>;
  /** How many ListObjectsV2 requests the server has answered, where a test server can tell. */
  listRequests?(): number;
}

/** The contract every BlobStore keeps. */
function blobStoreContract(name: string, make: () => Promise<ContractTarget>): void {
  describe(`BlobStore contract: ${name}`, () => {
    let store: BlobStore;
    let base: string;
    let target: ContractTarget;
    before(async () => ({ store, base } = target = await make()));
    after(async () => target.close?.());

    it('round-trips bytes and UTF-8 text', async () => {
      const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
      await store.put(`${base}/rt/weights.bin`, bytes, 'application/octet-stream');
      await store.put(`${base}/rt/card.md`, 'héllo — 🚗\n', 'text/markdown');
      assert.deepEqual(new Uint8Array((await store.get(`${base}/rt/weights.bin`)) ?? []), bytes);
      assert.equal(await store.getText(`${base}/rt/card.md`), 'héllo — 🚗\n');
      assert.equal(await store.getText(`${base}/rt/weights.bin`).then((t) => t?.length), 256);
    });

    it('stores an empty object as empty, not missing', async () => {
      await store.put(`${base}/empty/x.txt`, '');
      assert.equal(await store.getText(`${base}/empty/x.txt`), '');
      assert.equal(await store.exists(`${base}/empty/x.txt`), true);
    });

    it('answers undefined and false for keys with no object, folders included', async () => {
      await store.put(`${base}/missing/file.json`, '{}');
      for (const key of [`${base}/missing/nothing.json`, `${base}/missing`, `${base}/missing/file.json/child`]) {
        assert.equal(await store.get(key), undefined, key);
        assert.equal(await store.getText(key), undefined, key);
        assert.equal(await store.exists(key), false, key);
      }
    });

    it('replaces an object whole on a second put', async () => {
      await store.put(`${base}/over/result.json`, JSON.stringify({ long: 'x'.repeat(1000) }));
      await store.put(`${base}/over/result.json`, '{"short":1}');
      assert.equal(await store.getText(`${base}/over/result.json`), '{"short":1}');
    });

    it('lists by plain string prefix, in byte order, across folders', async () => {
      const keys = [`${base}/ls/b/2.json`, `${base}/ls/a/1.json`, `${base}/ls/ab/policy/model.json`, `${base}/ls/a/0.json`];
      for (const key of keys) await store.put(key, key);
      assert.deepEqual(await store.list(`${base}/ls/`), [...keys].sort());
      assert.deepEqual(await store.list(`${base}/ls/a`), [`${base}/ls/a/0.json`, `${base}/ls/a/1.json`, `${base}/ls/ab/policy/model.json`]);
      assert.deepEqual(await store.list(`${base}/ls/a/`), [`${base}/ls/a/0.json`, `${base}/ls/a/1.json`]);
      assert.deepEqual(await store.list(`${base}/ls/a/1`), [`${base}/ls/a/1.json`]);
      assert.deepEqual(await store.list(`${base}/ls/none/`), []);
      assert.deepEqual(await store.list(`${base}/nothing-here`), []);
    });

    it('lists more keys than one S3 page holds', async () => {
      // ListObjectsV2 answers at most 1,000 keys a page: 1,050 needs a second page.
      const keys = Array.from({ length: 1050 }, (_, i) => `${base}/many/${String(i).padStart(4, '0')}`);
      for (let i = 0; i < keys.length; i += 50) await Promise.all(keys.slice(i, i + 50).map((k) => store.put(k, 'x')));
      const listsBefore = target.listRequests?.();
      assert.deepEqual(await store.list(`${base}/many/`), keys);
      // Where the server can tell: two pages were asked for, so the paging itself was exercised.
      if (listsBefore !== undefined) assert.equal(target.listRequests?.(), listsBefore + 2);
    });

    for (const key of INVALID_KEYS) {
      it(`rejects the key ${JSON.stringify(key.length > 40 ? `${key.slice(0, 10)}…(${key.length})` : key)}`, async () => {
        await assert.rejects(store.put(key, 'x'), InvalidBlobKey);
        await assert.rejects(store.get(key), InvalidBlobKey);
        await assert.rejects(store.exists(key), InvalidBlobKey);
      });
    }

    it('rejects list prefixes that no valid key could have', async () => {
      for (const prefix of ['/', '../', 'searches//', 'searches/.']) {
        await assert.rejects(store.list(prefix), InvalidBlobKey, prefix);
      }
      assert.deepEqual(await store.list(`${base}/nothing-here/`), [], 'a prefix with no keys lists none');
    });
  });
}

const roots: string[] = [];
async function tempRoot(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'eureka-blob-'));
  roots.push(dir);
  return dir;
}
after(async () => Promise.all(roots.map((dir) => rm(dir, { recursive: true, force: true }))));

blobStoreContract('filesystem', async () => ({ store: new FsBlobStore(await tempRoot()), base: 'searches/t' }));

blobStoreContract('S3BlobStore on a loopback s3rver', async () => {
  const server = await startS3Server();
  const client = loopbackClient(server.endpoint);
  return {
    store: new S3BlobStore(server.bucket, client),
    base: 'searches/t',
    listRequests: () => listRequestsOf(server),
    close: async () => {
      client.destroy();
      await server.close();
    },
  };
});

const testBucket = process.env.EUREKA_TEST_BUCKET;
if (testBucket) {
  blobStoreContract(`S3 bucket ${testBucket}`, async () => ({
    store: new S3BlobStore(testBucket),
    base: `searches/blob-test-${randomUUID()}`,
  }));
}

/** Where S3-only behaviour is checked: a store, the client under it, and how to read tags back. */
interface S3Target {
  store: S3BlobStore;
  client: S3Client;
  base: string;
  /** The object's tags as S3 holds them. */
  tagsOf(key: string): Promise<Record<string, string>>;
  close(): Promise<void>;
}

/** What the BlobStore interface promises only on S3: tags and content types. */
function s3Behaviour(name: string, make: () => Promise<S3Target>): void {
  describe(`S3BlobStore: what only S3 keeps (${name})`, () => {
    let target: S3Target;
    before(async () => (target = await make()));
    after(async () => target.close());

    it('tags a seed policy so lifecycle rules can select it', async () => {
      // Prepare
      const key = `${target.base}/generations/1/candidates/c1/seeds/0/policy/model.json`;
      // Act
      await target.store.put(key, '{"weights":[]}', 'application/json', { 'eureka-artifact': 'seed-policy' });
      // Assess
      assert.deepEqual(await target.tagsOf(key), { 'eureka-artifact': 'seed-policy' });
    });

    it('leaves an object put without tags untagged', async () => {
      const key = `${target.base}/untagged/result.json`;
      await target.store.put(key, '{}', 'application/json');
      assert.deepEqual(await target.tagsOf(key), {});
    });

    it('keeps the content type given to put', async () => {
      // Prepare
      const json = `${target.base}/types/result.json`;
      const markdown = `${target.base}/types/card.md`;
      // Act
      await target.store.put(json, '{"success":1}', 'application/json');
      await target.store.put(markdown, '# card', 'text/markdown; charset=utf-8');
      // Assess
      const head = (key: string) => target.client.send(new HeadObjectCommand({ Bucket: target.store.bucket, Key: key }));
      assert.equal((await head(json)).ContentType, 'application/json');
      assert.equal((await head(markdown)).ContentType, 'text/markdown; charset=utf-8');
      assert.equal((await head(json)).ContentLength, '{"success":1}'.length);
    });
  });
}

s3Behaviour('loopback s3rver', async () => {
  const server = await startS3Server();
  const client = loopbackClient(server.endpoint);
  return {
    store: new S3BlobStore(server.bucket, client),
    client,
    base: 'searches/s3',
    // s3rver drops the x-amz-tagging header of PutObject (it keeps tags only from PutObjectTagging,
    // so its GetObjectTagging answers an empty set): what S3 would store is the header it was sent.
    tagsOf: async (key) => {
      const tagging = lastPutOf(server, key).headers['x-amz-tagging'];
      assert.ok(!Array.isArray(tagging), 'one x-amz-tagging header');
      return Object.fromEntries(new URLSearchParams(tagging ?? ''));
    },
    close: async () => {
      client.destroy();
      await server.close();
    },
  };
});

if (testBucket) {
  s3Behaviour(`S3 bucket ${testBucket}`, async () => {
    const client = new S3Client(s3ClientConfig());
    return {
      store: new S3BlobStore(testBucket, client),
      client,
      base: `searches/blob-test-${randomUUID()}`,
      tagsOf: async (key) => {
        const out = await client.send(new GetObjectTaggingCommand({ Bucket: testBucket, Key: key }));
        return Object.fromEntries((out.TagSet ?? []).map((tag) => [tag.Key ?? '', tag.Value ?? '']));
      },
      close: async () => client.destroy(),
    };
  });
}

/** How many ListObjectsV2 requests the server has received. */
function listRequestsOf(server: LoopbackS3): number {
  return server.requests.filter((r) => r.method === 'GET' && /[?&]list-type=2(&|$)/.test(r.url)).length;
}

/** The last PutObject the server received for a key. */
function lastPutOf(server: LoopbackS3, key: string): LoopbackS3['requests'][number] {
  const path = `/${server.bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
  const put = server.requests.findLast((r) => r.method === 'PUT' && r.url.split('?')[0] === path);
  assert.ok(put, `the server received a PUT of ${path}`);
  return put;
}

describe('S3BlobStore on a bucket that does not exist', () => {
  let server: LoopbackS3;
  let client: S3Client;
  before(async () => {
    server = await startS3Server();
    client = loopbackClient(server.endpoint);
  });
  after(async () => {
    client.destroy();
    await server.close();
  });

  it('throws NoSuchBucket from get instead of answering "no such key"', async () => {
    const store = new S3BlobStore(`${server.bucket}-missing`, client);
    await assert.rejects(store.get('searches/s/result.json'), NoSuchBucket);
  });
});

describe('S3BlobStore: 404 is no such object, 403 is an error', () => {
  // s3rver never denies, so these servers answer every request with one S3 error, the way S3 does;
  // the client is the real S3Client, over HTTP.
  const bucket = 'eureka-artifacts';
  const key = 'searches/s/generations/1/result.json';
  const opened: Array<{ close(): Promise<void> }> = [];
  after(async () => Promise.all(opened.map((s) => s.close())));

  async function storeAnswering(status: number, code: string, message: string) {
    const server = await startErrorS3Server(status, code, message);
    const client = loopbackClient(server.endpoint);
    opened.push(server, { close: async () => client.destroy() });
    return { server, store: new S3BlobStore(bucket, client) };
  }

  it('answers undefined and false when S3 says 404 NoSuchKey', async () => {
    // Prepare
    const { server, store } = await storeAnswering(404, 'NoSuchKey', 'The specified key does not exist.');
    // Act and Assess
    assert.equal(await store.get(key), undefined);
    assert.equal(await store.exists(key), false);
    assert.deepEqual(server.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`), [`GET /${bucket}/${key}`, `HEAD /${bucket}/${key}`]);
  });

  it('throws from get on 403 AccessDenied, naming a missing s3:ListBucket as a possible cause', async () => {
    // Prepare
    const { server, store } = await storeAnswering(403, 'AccessDenied', 'Access Denied');
    // Act and Assess
    await assert.rejects(store.get(key), (error: unknown) => {
      assert.ok(error instanceof S3ServiceException, 'an S3 error, not undefined');
      assert.equal(error.name, 'AccessDenied');
      assert.equal(error.$metadata.httpStatusCode, 403);
      assert.ok(error.message.startsWith(`GetObject s3://${bucket}/${key} was denied (403).`), error.message);
      assert.match(error.message, /missing key when the role lacks s3:ListBucket: Access Denied$/);
      return true;
    });
    assert.equal(server.requests[0]?.method, 'GET');
  });

  it('throws from exists on a bodiless 403 to HeadObject, naming s3:ListBucket too', async () => {
    // Prepare
    const { server, store } = await storeAnswering(403, 'AccessDenied', 'Access Denied');
    // Act and Assess: HEAD has no body, so only the status says what happened
    await assert.rejects(store.exists(key), (error: unknown) => {
      assert.ok(error instanceof S3ServiceException, 'an S3 error, not false');
      assert.equal(error.$metadata.httpStatusCode, 403);
      assert.ok(error.message.startsWith(`HeadObject s3://${bucket}/${key} was denied (403).`), error.message);
      assert.match(error.message, /s3:ListBucket/);
      return true;
    });
    assert.equal(server.requests[0]?.method, 'HEAD');
  });
});

describe('FsBlobStore: the local bucket', () => {
  it('keeps the S3 key layout as files under its root, created on the first write', async () => {
    const root = join(await tempRoot(), 'data', 'bucket');
    const store = new FsBlobStore(root);
    await store.put('searches/s1/generations/1/candidates/c1/seeds/0/result.json', '{"success":1}');
    const file = join(root, 'searches', 's1', 'generations', '1', 'candidates', 'c1', 'seeds', '0', 'result.json');
    assert.equal(await readFile(file, 'utf8'), '{"success":1}');
    assert.equal(store.pathOf('searches/s1/x'), join(root, 'searches', 's1', 'x'));
    assert.equal(store.location, root);
  });

  it('leaves no partial file behind and hides one a killed writer left', async () => {
    const root = await tempRoot();
    const store = new FsBlobStore(root);
    await store.put('searches/s/result.json', '{"ok":true}');
    assert.deepEqual(await readdir(join(root, 'searches', 's')), ['result.json']);
    await writeFile(join(root, 'searches', 's', '.result.json.dead.partial'), '{"ok":tr');
    assert.deepEqual(await store.list('searches/'), ['searches/s/result.json']);
    assert.equal(await store.getText('searches/s/result.json'), '{"ok":true}');
  });

  it('never shows a reader half of an object while writers race', async () => {
    const store = new FsBlobStore(await tempRoot());
    const bodies = Array.from({ length: 8 }, (_, i) => String.fromCharCode(97 + i).repeat(1 << 20));
    const key = 'searches/s/race.txt';
    await store.put(key, bodies[0]);
    let reads = 0;
    const writers = Promise.all(bodies.map((body) => store.put(key, body)));
    let done = false;
    void writers.then(() => (done = true));
    while (!done) {
      const text = await store.getText(key);
      assert.ok(text !== undefined && bodies.includes(text), 'a read saw a whole body');
      reads += 1;
    }
    await writers;
    assert.ok(reads > 0);
    assert.ok(bodies.includes((await store.getText(key)) ?? ''));
    assert.deepEqual(await readdir(join(store.root, 'searches', 's')), ['race.txt']);
  });

  it('keeps result.json whole when the writing process is killed mid-write', async () => {
    const root = await tempRoot();
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `
      import { FsBlobStore } from ${JSON.stringify(fileURLToPath(new URL('../functions/shared/store/blob-fs.ts', import.meta.url)))};
      const store = new FsBlobStore(${JSON.stringify(root)});
      const pad = 'x'.repeat(16 << 20);
      for (let i = 0; ; i++) {
        await store.put('searches/s/result.json', '{"i":' + i + ',"pad":"' + pad + '"}');
        if (i === 0) process.stdout.write('first\\n');
      }`], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 150));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const store = new FsBlobStore(root);
    const parsed: unknown = JSON.parse((await store.getText('searches/s/result.json')) ?? 'null');
    assert.ok(typeof parsed === 'object' && parsed !== null && 'i' in parsed, 'result.json is a whole JSON object');
    assert.deepEqual(await store.list(''), ['searches/s/result.json']);
  });

  it('refuses to write a key over a folder of other keys', async () => {
    const store = new FsBlobStore(await tempRoot());
    await store.put('searches/s/policy/model.json', '{}');
    await assert.rejects(store.put('searches/s/policy', 'x'));
    assert.deepEqual(await store.list('searches/'), ['searches/s/policy/model.json']);
  });

  it('cannot be led outside its root by a key', async () => {
    const parent = await tempRoot();
    await mkdir(join(parent, 'bucket'));
    const store = new FsBlobStore(join(parent, 'bucket'));
    await assert.rejects(store.put('../escaped', 'x'), InvalidBlobKey);
    assert.deepEqual(await readdir(parent), ['bucket']);
  });
});

describe('blobStoreFromEnv', () => {
  // Every variable these tests set, or that would change what the SDK does, is restored after.
  const NAMES = ['EUREKA_BUCKET', 'EUREKA_DATA_DIR', 'AWS_ENDPOINT_URL_S3', 'AWS_ENDPOINT_URL',
    'AWS_IGNORE_CONFIGURED_ENDPOINT_URLS', 'AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY',
    'AWS_SESSION_TOKEN', 'AWS_PROFILE', 'AWS_REQUEST_CHECKSUM_CALCULATION', 'AWS_RESPONSE_CHECKSUM_VALIDATION'] as const;
  type Name = (typeof NAMES)[number];
  const saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
  const setEnv = (values: Partial<Record<Name, string>>): void => {
    for (const name of NAMES) {
      const value = values[name];
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  after(() => {
    for (const name of NAMES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it('uses S3 when EUREKA_BUCKET is set, even with a data dir', () => {
    setEnv({ EUREKA_BUCKET: 'my-artifacts', EUREKA_DATA_DIR: '/tmp/data' });
    const store = blobStoreFromEnv();
    assert.ok(store instanceof S3BlobStore);
    assert.equal(store.location, 's3://my-artifacts');
  });

  it('uses <EUREKA_DATA_DIR>/bucket otherwise', () => {
    setEnv({ EUREKA_DATA_DIR: '/tmp/data' });
    const store = blobStoreFromEnv();
    assert.ok(store instanceof FsBlobStore);
    assert.equal(store.location, join('/tmp/data', 'bucket'));
  });

  it('fails fast naming both variables when neither is set (empty counts as unset)', () => {
    setEnv({ EUREKA_BUCKET: '' });
    assert.throws(blobStoreFromEnv, (error: unknown) => {
      assert.ok(error instanceof MissingEnvironment);
      assert.equal(error.name, 'MissingEnvironment');
      assert.match(error.message, /EUREKA_BUCKET.*EUREKA_DATA_DIR/);
      return true;
    });
  });

  it('reaches an S3-compatible server named by AWS_ENDPOINT_URL_S3, by host name, path-style', async () => {
    // Prepare: `localhost`, not an IP, so only forcePathStyle keeps the SDK from asking
    // <bucket>.localhost; everything else the production client reads from the environment.
    const server = await startS3Server();
    try {
      setEnv({
        EUREKA_BUCKET: server.bucket,
        EUREKA_DATA_DIR: '/tmp/not-used',
        AWS_ENDPOINT_URL_S3: `http://localhost:${server.port}`,
        AWS_REGION: REGION,
        AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      });
      const store = blobStoreFromEnv();
      assert.ok(store instanceof S3BlobStore);
      const bytes = Uint8Array.from({ length: 300 }, (_, i) => (i * 7) % 256);
      // Act
      await store.put('searches/env/policy/model.bin', bytes, 'application/octet-stream');
      // Assess: the bytes exactly (no aws-chunked framing around them), and the server saw path-style
      assert.deepEqual(new Uint8Array((await store.get('searches/env/policy/model.bin')) ?? []), bytes);
      assert.equal(await store.exists('searches/env/policy/model.bin'), true);
      assert.equal(await store.exists('searches/env/policy/other.bin'), false);
      assert.deepEqual(await store.list('searches/env/'), ['searches/env/policy/model.bin']);
      const put = lastPutOf(server, 'searches/env/policy/model.bin');
      assert.equal(put.headers.host, `localhost:${server.port}`);
    } finally {
      await server.close();
    }
  });
});

describe('s3ClientConfig: the default client', () => {
  it('keeps the SDK defaults on AWS, with no endpoint override', () => {
    assert.deepEqual(s3ClientConfig({}), { forcePathStyle: false });
  });

  it('addresses buckets path-style when an endpoint override is set', () => {
    assert.deepEqual(s3ClientConfig({ AWS_ENDPOINT_URL_S3: 'http://localhost:4568' }), { forcePathStyle: true });
    assert.deepEqual(s3ClientConfig({ AWS_ENDPOINT_URL: 'http://minio:9000' }), { forcePathStyle: true });
  });

  it('ignores an override the SDK is told to ignore, or that is empty', () => {
    const env = { AWS_ENDPOINT_URL_S3: 'http://localhost:4568', AWS_IGNORE_CONFIGURED_ENDPOINT_URLS: 'true' };
    assert.deepEqual(s3ClientConfig(env), { forcePathStyle: false });
    assert.deepEqual(s3ClientConfig({ AWS_ENDPOINT_URL_S3: '' }), { forcePathStyle: false });
  });
});

describe('S3BlobStore: what counts as no such object', () => {
  // The SDK's own exception classes, as its deserializer builds them from S3's answers.
  const metadata = (httpStatusCode: number) => ({ $metadata: { httpStatusCode }, message: '' });
  const cases: Array<[string, unknown, boolean]> = [
    ['GetObject NoSuchKey', new NoSuchKey(metadata(404)), true],
    ['HeadObject NotFound', new NotFound(metadata(404)), true],
    ['a 404 the model does not name', new S3ServiceException({ name: 'UnknownError', $fault: 'client', ...metadata(404) }), true],
    ['NoSuchBucket', new NoSuchBucket(metadata(404)), false],
    ['403 AccessDenied', new S3ServiceException({ name: 'AccessDenied', $fault: 'client', ...metadata(403) }), false],
    ['a network error', new Error('socket hang up'), false],
  ];
  for (const [name, error, expected] of cases) {
    it(`${name} -> ${expected ? 'missing' : 'an error'}`, () => assert.equal(isNoSuchObject(error), expected));
  }
});
