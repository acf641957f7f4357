/**
 * "Start the search" (functions/reflect/init.ts) against a real table (dynalite): a search belongs
 * to the execution that started it. Its redrive continues it; another execution naming its id in
 * the input is refused (it would attach to the search, and its pauses overwrite the first one's
 * task token).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { initSearch } from '../functions/reflect/init.ts';
import { FsBlobStore } from '../functions/shared/blob-fs.ts';
import { META_SK, searchPk } from '../functions/shared/records.ts';
import { InvalidSearchInput } from '../functions/shared/search-input.ts';
import { SearchStore } from '../functions/shared/search-store.ts';
import { Table } from '../functions/shared/table.ts';
import { localAwsEnv, startLocalTable, type LocalTable } from '../local/dynalite.ts';

const INPUT = { task: 'MountainCar-v0', generations: 1, candidates: 1, seeds: 1, steps: 4096, includeHostile: false, proposer: 'offline' };

describe('Function: initSearch, whose search it is', () => {
  let dir = '';
  let local: LocalTable;
  let store: SearchStore;
  const saved = { ...process.env };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'eureka-init-'));
    local = await startLocalTable({ dir: join(dir, 'table') });
    Object.assign(process.env, localAwsEnv(local));
    store = new SearchStore(new Table(local.tableName), new FsBlobStore(join(dir, 'bucket')));
  });
  after(async () => {
    await local.close();
    await rm(dir, { recursive: true, force: true });
    process.env = saved;
  });

  it('lets the execution that started a search continue it (a redrive), with the stored configuration', async () => {
    await initSearch(store, { kind: 'init', executionName: 'first', input: { ...INPUT, searchId: 'shared' } }, 'offline');
    const again = await initSearch(store, { kind: 'init', executionName: 'first', input: { ...INPUT, searchId: 'shared', candidates: 4 } }, 'offline');
    assert.equal(again.searchId, 'shared');
    assert.equal(again.config.candidates, 1, 'the stored configuration, not the new input');
    assert.equal((await store.meta('shared')).executionName, 'first');
  });

  it('refuses another execution whose input names the search, and leaves the search as it was', async () => {
    const before = await store.meta('shared');
    await assert.rejects(initSearch(store, { kind: 'init', executionName: 'second', input: { ...INPUT, searchId: 'shared' } }, 'offline'),
      (error: Error) => error instanceof InvalidSearchInput
        && error.message === 'Invalid search input: "searchId" shared names a search that execution first started: only a redrive of that execution continues it; start a new search with a new id');
    assert.deepEqual(await store.meta('shared'), before);
  });

  it('takes a search recorded before executions were as started by the execution its id names', async () => {
    await new Table(local.tableName).putItem({ pk: searchPk('old'), sk: META_SK, ...(await store.meta('shared')), executionName: undefined });
    await assert.rejects(initSearch(store, { kind: 'init', executionName: 'other', input: { ...INPUT, searchId: 'old' } }, 'offline'), InvalidSearchInput);
    assert.equal((await initSearch(store, { kind: 'init', executionName: 'old', input: INPUT }, 'offline')).searchId, 'old');
  });
});
