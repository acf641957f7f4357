/**
 * The blob store. One contract, run on the filesystem store always and on a real S3 bucket when
 * EUREKA_TEST_BUCKET names one (with credentials in the environment); then what only the local
 * store promises (layout, atomic writes, a killed writer) and the choice made from the environment.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { NoSuchBucket, NoSuchKey, NotFound, S3ServiceException } from '@aws-sdk/client-s3';
import { blobStoreFromEnv, type BlobStore } from '../functions/shared/blob.ts';
import { InvalidBlobKey } from '../functions/shared/blob-key.ts';
import { FsBlobStore } from '../functions/shared/blob-fs.ts';
import { isNoSuchObject, S3BlobStore } from '../functions/shared/blob-s3.ts';
import { MissingEnvironment } from '../functions/shared/env.ts';

const INVALID_KEYS = ['', '/searches/a', 'searches//a', 'searches/a/', '../a', 'searches/../a', 'searches/./a',
  '.hidden', 'searches/.a.partial', 'searches\\a', 'a\0b', 'x'.repeat(1025)];

/** The contract every BlobStore keeps; `base` is a fresh prefix no other run uses. */
function blobStoreContract(name: string, make: () => Promise<{ store: BlobStore; base: string }>): void {
  describe(`BlobStore contract: ${name}`, () => {
    let store: BlobStore;
    let base: string;
    before(async () => ({ store, base } = await make()));

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
      const keys = Array.from({ length: 1005 }, (_, i) => `${base}/many/${String(i).padStart(4, '0')}`);
      for (let i = 0; i < keys.length; i += 50) await Promise.all(keys.slice(i, i + 50).map((k) => store.put(k, 'x')));
      assert.deepEqual(await store.list(`${base}/many/`), keys);
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
      assert.ok(Array.isArray(await store.list(`${base}/`)));
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

const testBucket = process.env.EUREKA_TEST_BUCKET;
if (testBucket) {
  blobStoreContract(`S3 bucket ${testBucket}`, async () => ({
    store: new S3BlobStore(testBucket),
    base: `searches/blob-test-${randomUUID()}`,
  }));
}

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
      import { FsBlobStore } from ${JSON.stringify(fileURLToPath(new URL('../functions/shared/blob-fs.ts', import.meta.url)))};
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
  const saved = { bucket: process.env.EUREKA_BUCKET, dataDir: process.env.EUREKA_DATA_DIR };
  const setEnv = (bucket: string | undefined, dataDir: string | undefined): void => {
    for (const [name, value] of [['EUREKA_BUCKET', bucket], ['EUREKA_DATA_DIR', dataDir]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  after(() => setEnv(saved.bucket, saved.dataDir));

  it('uses S3 when EUREKA_BUCKET is set, even with a data dir', () => {
    setEnv('my-artifacts', '/tmp/data');
    const store = blobStoreFromEnv();
    assert.ok(store instanceof S3BlobStore);
    assert.equal(store.location, 's3://my-artifacts');
  });

  it('uses <EUREKA_DATA_DIR>/bucket otherwise', () => {
    setEnv(undefined, '/tmp/data');
    const store = blobStoreFromEnv();
    assert.ok(store instanceof FsBlobStore);
    assert.equal(store.location, join('/tmp/data', 'bucket'));
  });

  it('fails fast naming both variables when neither is set (empty counts as unset)', () => {
    setEnv('', undefined);
    assert.throws(blobStoreFromEnv, (error: unknown) => {
      assert.ok(error instanceof MissingEnvironment);
      assert.equal(error.name, 'MissingEnvironment');
      assert.match(error.message, /EUREKA_BUCKET.*EUREKA_DATA_DIR/);
      return true;
    });
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
