/**
 * The table helpers against dynalite, reached the way handlers reach DynamoDB: a client built
 * from the environment alone (AWS_ENDPOINT_URL_DYNAMODB, EUREKA_TABLE), no endpoint in code.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { marshallItem, type Table, tableFromEnv } from '../functions/shared/store/table.ts';
import { type LocalTable, localAwsEnv, startLocalTable } from '../local/dynalite.ts';
import { DYNAMODB_ITEM_LIMIT_BYTES } from '../infra/aws-quotas.ts';

const ENV_NAMES = ['AWS_ENDPOINT_URL_DYNAMODB', 'AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'EUREKA_TABLE'];
const savedEnv = Object.fromEntries(ENV_NAMES.map((name) => [name, process.env[name]]));

function pointEnvAt(local: LocalTable): void {
  Object.assign(process.env, localAwsEnv(local));
}

describe('Table on dynalite', () => {
  let dir: string;
  let local: LocalTable;
  let table: Table;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'eureka-table-'));
    local = await startLocalTable({ dir: join(dir, 'dynalite'), tableName: 'eureka-test' });
    pointEnvAt(local);
    table = tableFromEnv();
  });

  after(async () => {
    table.client.destroy();
    await local.close();
    await rm(dir, { recursive: true, force: true });
    for (const [name, value] of Object.entries(savedEnv)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('serves a loopback endpoint on a port of its own and names the table', () => {
    assert.match(local.endpoint, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(local.endpoint, 'http://127.0.0.1:0');
    assert.equal(local.tableName, 'eureka-test');
    assert.equal(table.tableName, 'eureka-test');
  });

  it('round-trips JSON-like values of every kind', async () => {
    const fields = {
      text: 'héllo 🚗',
      empty: '',
      numbers: [0, -3, 0.1 + 0.2, 1e-7, 1e21, Number.MAX_SAFE_INTEGER, -2.5e-300 * 1e170],
      yes: true,
      no: false,
      nothing: null,
      nested: { list: [1, 'two', [3], { four: 4 }], map: { deep: { deeper: 'x' } }, emptyList: [], emptyMap: {} },
    };
    await table.putItem({ pk: 'SEARCH#rt', sk: 'META', ...fields });
    assert.deepEqual(await table.getItem('SEARCH#rt', 'META'), { pk: 'SEARCH#rt', sk: 'META', ...fields });
  });

  it('stores a number past either end of DynamoDB\'s range as the nearest it holds, where the write would fail', async () => {
    // A Gaussian reward term far from its centre averages 7.6e-204 (a flip search's term statistics failed Reflect so).
    const numbers = [7.6e-204, -4.3e-140, 1e-130, -1e-130, 1e300, -1e300, 9.999999999999998e125, 0.5];
    await assert.rejects(table.client.send(new PutItemCommand({ TableName: table.tableName, Item: { pk: { S: 'SEARCH#raw' }, sk: { S: 'META' }, n: { N: '7.6e-204' } } })),
      /Number underflow/, 'DynamoDB (here dynalite) refuses it as written');
    await table.putItem({ pk: 'SEARCH#range', sk: 'META', numbers, nested: { mean: 7.6e-204 } });
    assert.deepEqual(await table.getItem('SEARCH#range', 'META'), {
      pk: 'SEARCH#range', sk: 'META', numbers: [0, 0, 1e-130, -1e-130, 9.999999999999998e125, -9.999999999999998e125, 9.999999999999998e125, 0.5], nested: { mean: 0 },
    });
  });

  it('leaves undefined fields out and turns undefined list elements into null, as JSON does', async () => {
    await table.putItem({ pk: 'SEARCH#undef', sk: 'META', gone: undefined, list: [1, undefined, 3] });
    assert.deepEqual(await table.getItem('SEARCH#undef', 'META'), { pk: 'SEARCH#undef', sk: 'META', list: [1, null, 3] });
  });

  it('answers undefined for an item that is not there', async () => {
    assert.equal(await table.getItem('SEARCH#none', 'META'), undefined);
  });

  it('replaces the whole item on putItem', async () => {
    await table.putItem({ pk: 'SEARCH#over', sk: 'META', a: 1, b: 2 });
    await table.putItem({ pk: 'SEARCH#over', sk: 'META', a: 3 });
    assert.deepEqual(await table.getItem('SEARCH#over', 'META'), { pk: 'SEARCH#over', sk: 'META', a: 3 });
  });

  const unstorable: Array<[string, unknown, RegExp]> = [
    ['NaN', Number.NaN, /score: NaN is not a finite number/],
    ['Infinity in a list', [1, Infinity], /score\[1\]: Infinity is not a finite number/],
    ['a Date', new Date(0), /score: a Date is not a JSON value/],
    ['a Map', new Map(), /score: a Map is not a JSON value/],
    ['a bigint', 1n, /score: a bigint is not a JSON value/],
    ['a function nested in a map', { f: () => 1 }, /score\.f: a function is not a JSON value/],
  ];
  for (const [name, value, message] of unstorable) {
    it(`refuses ${name}, naming the field`, async () => {
      await assert.rejects(table.putItem({ pk: 'SEARCH#bad', sk: 'META', score: value }), message);
    });
  }

  it('refuses an item without string keys', () => {
    assert.throws(() => marshallItem(JSON.parse('{"pk":"SEARCH#x"}')), /string pk and sk/);
  });

  it('refuses an item past DynamoDB\'s 400 KB with DynamoDB\'s ValidationException, and takes one at the limit', async () => {
    // DynamoDB's item size: each attribute's name and value in UTF-8, here 7 bytes ("pk", "p", "sk", "s", "v") and v's length.
    const item = (bytes: number) => ({ pk: 'p', sk: 's', v: 'x'.repeat(bytes - 7) });
    await table.putItem(item(DYNAMODB_ITEM_LIMIT_BYTES));
    assert.equal(String((await table.getItem('p', 's'))?.v).length, DYNAMODB_ITEM_LIMIT_BYTES - 7);
    await assert.rejects(table.putItem(item(DYNAMODB_ITEM_LIMIT_BYTES + 1)), (error: Error) => {
      assert.equal(error.name, 'ValidationException');
      assert.match(error.message, /^Item size has exceeded the maximum allowed size/);
      return true;
    });
    await assert.rejects(table.updateFields('p', 's', { w: 'y' }), { name: 'ValidationException' }, 'an update that grows it past the limit too');
  });

  it('writes with putIfAbsent once, then leaves the first item alone', async () => {
    assert.equal(await table.putIfAbsent({ pk: 'SEARCH#once', sk: 'GEN#0001#PROPOSAL', answer: 'first' }), true);
    assert.equal(await table.putIfAbsent({ pk: 'SEARCH#once', sk: 'GEN#0001#PROPOSAL', answer: 'second' }), false);
    assert.equal((await table.getItem('SEARCH#once', 'GEN#0001#PROPOSAL'))?.answer, 'first');
  });

  it('lets exactly one of two concurrent putIfAbsent win, and the loser reads the winner', async () => {
    for (let race = 0; race < 20; race++) {
      const key = { pk: `SEARCH#race${race}`, sk: 'GEN#0001#PROPOSAL' };
      const [a, b] = await Promise.all([
        table.putIfAbsentOrGet({ ...key, writer: 'a' }),
        table.putIfAbsentOrGet({ ...key, writer: 'b' }),
      ]);
      assert.equal(Number(a.created) + Number(b.created), 1, `race ${race}: exactly one write wins`);
      const winner = a.created ? 'a' : 'b';
      assert.deepEqual(a.item, { ...key, writer: winner });
      assert.deepEqual(b.item, { ...key, writer: winner });
    }
  });

  it('queries a partition by sort-key prefix, in sort-key order, and nothing else', async () => {
    const pk = 'SEARCH#q';
    const sks = ['GEN#0002#CAND#a', 'GEN#0001#SUMMARY', 'META', 'GEN#0001#CAND#b', 'GEN#0001#CAND#a', 'GEN#0010#CAND#a'];
    for (const sk of sks) await table.putItem({ pk, sk });
    await table.putItem({ pk: 'SEARCH#q2', sk: 'GEN#0001#CAND#a' });
    const sksOf = async (prefix: string) => (await table.queryPrefix(pk, prefix)).map((item) => item.sk);
    assert.deepEqual(await sksOf('GEN#0001#CAND#'), ['GEN#0001#CAND#a', 'GEN#0001#CAND#b']);
    assert.deepEqual(await sksOf('GEN#0001#'), ['GEN#0001#CAND#a', 'GEN#0001#CAND#b', 'GEN#0001#SUMMARY']);
    assert.deepEqual(await sksOf(''), [...sks].sort());
    assert.deepEqual(await sksOf('GEN#0003#'), []);
  });

  it('follows a query past DynamoDB\'s 1 MB page', async () => {
    const pk = 'SEARCH#pages';
    const pad = 'x'.repeat(60_000);
    const sks = Array.from({ length: 40 }, (_, i) => `GEN#0001#CAND#${String(i).padStart(2, '0')}`);
    await Promise.all(sks.map((sk) => table.putItem({ pk, sk, pad })));
    const firstPage = await table.client.send(
      new QueryCommand({ TableName: table.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': { S: pk } } }),
    );
    assert.ok(firstPage.LastEvaluatedKey, 'one page does not hold them all');
    const items = await table.queryPrefix(pk, 'GEN#0001#CAND#');
    assert.deepEqual(items.map((item) => item.sk), sks);
  });

  it('updates named fields, keeps the rest, and returns the item as stored', async () => {
    await table.putItem({ pk: 'SEARCH#up', sk: 'META', status: 'running', config: { generations: 4 } });
    const updated = await table.updateFields('SEARCH#up', 'META', {
      status: 'done', // a DynamoDB reserved word
      'best.so#far': { generation: 2, candidateId: 'c3' },
      skipped: undefined,
    });
    const expected = { pk: 'SEARCH#up', sk: 'META', status: 'done', config: { generations: 4 }, 'best.so#far': { generation: 2, candidateId: 'c3' } };
    assert.deepEqual(updated, expected);
    assert.deepEqual(await table.getItem('SEARCH#up', 'META'), expected);
  });

  it('creates the item when updateFields finds none', async () => {
    assert.deepEqual(await table.updateFields('SEARCH#new', 'META', { status: 'started' }), {
      pk: 'SEARCH#new',
      sk: 'META',
      status: 'started',
    });
  });

  it('refuses to update the key or nothing at all', async () => {
    await assert.rejects(table.updateFields('SEARCH#up', 'META', { sk: 'OTHER' }), /key field "sk"/);
    await assert.rejects(table.updateFields('SEARCH#up', 'META', { nothing: undefined }), /at least one/);
  });

  it('refuses a second server on a directory that is in use, with a message that says so', async () => {
    await assert.rejects(startLocalTable({ dir: join(dir, 'dynalite') }), /already open in process \d+/);
    assert.deepEqual(await table.getItem('SEARCH#once', 'GEN#0001#PROPOSAL').then((item) => item?.answer), 'first');
  });

  it('takes over a directory whose previous process died without closing it', async () => {
    const stale = join(dir, 'stale');
    await mkdir(stale);
    await writeFile(join(stale, 'eureka-dynalite.pid'), '999999999\n'); // no such process
    const second = await startLocalTable({ dir: stale });
    await second.close();
  });

  it('keeps its data across a close and a restart on the same directory', async () => {
    await table.putItem({ pk: 'SEARCH#durable', sk: 'META', status: 'running' });
    table.client.destroy();
    await local.close();
    local = await startLocalTable({ dir: join(dir, 'dynalite'), tableName: 'eureka-test' });
    pointEnvAt(local);
    table = tableFromEnv();
    assert.deepEqual(await table.getItem('SEARCH#durable', 'META'), { pk: 'SEARCH#durable', sk: 'META', status: 'running' });
    assert.equal((await table.queryPrefix('SEARCH#q', '')).length, 6);
  });
});
