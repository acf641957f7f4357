/**
 * "Start the search" (functions/reflect/init.ts) against a real table (dynalite): a search belongs
 * to the execution that started it. Its redrive continues it; another execution naming its id in
 * the input is refused (it would attach to the search, and its pauses overwrite the first one's
 * task token).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { initSearch } from '../functions/reflect/init.ts';
import { META_SK, searchPk } from '../functions/shared/store/records.ts';
import { InvalidSearchInput } from '../functions/shared/input/search-input.ts';
import { realStore } from './support/real-store.ts';

const INPUT = { task: 'MountainCar-v0', generations: 1, candidates: 1, seeds: 1, steps: 4096, includeHostile: false, proposer: 'offline' };

describe('Function: initSearch, whose search it is', () => {
  const real = realStore('eureka-init-');

  it('lets the execution that started a search continue it (a redrive), with the stored configuration', async () => {
    await initSearch(real.store(), { kind: 'init', executionName: 'first', input: { ...INPUT, searchId: 'shared' } }, 'offline');
    const again = await initSearch(real.store(), { kind: 'init', executionName: 'first', input: { ...INPUT, searchId: 'shared', candidates: 4 } }, 'offline');
    assert.equal(again.searchId, 'shared');
    assert.equal(again.config.candidates, 1, 'the stored configuration, not the new input');
    assert.equal((await real.store().meta('shared')).executionName, 'first');
  });

  it('refuses another execution whose input names the search, and leaves the search as it was', async () => {
    const before = await real.store().meta('shared');
    await assert.rejects(initSearch(real.store(), { kind: 'init', executionName: 'second', input: { ...INPUT, searchId: 'shared' } }, 'offline'),
      (error: Error) => error instanceof InvalidSearchInput
        && error.message === 'Invalid search input: "searchId" shared names a search that execution first started: only a redrive of that execution continues it; start a new search with a new id');
    assert.deepEqual(await real.store().meta('shared'), before);
  });

  it('takes a search recorded before executions were as started by the execution its id names', async () => {
    await real.table().putItem({ pk: searchPk('old'), sk: META_SK, ...(await real.store().meta('shared')), executionName: undefined });
    await assert.rejects(initSearch(real.store(), { kind: 'init', executionName: 'other', input: { ...INPUT, searchId: 'old' } }, 'offline'), InvalidSearchInput);
    assert.equal((await initSearch(real.store(), { kind: 'init', executionName: 'old', input: INPUT }, 'offline')).searchId, 'old');
  });

  it('refuses an input whose worst case cannot finish in the execution\'s 24 hours, and writes nothing', async () => {
    const long = { task: 'LunarLander-v3', generations: 8, candidates: 16, seeds: 10, steps: 10_000_000, proposer: 'anthropic' };
    await assert.rejects(initSearch(real.store(), { kind: 'init', executionName: 'a-day-and-more', input: long }, 'anthropic', 10),
      (error: Error) => error instanceof InvalidSearchInput && /more than the execution's 24 h: .*would fit$/.test(error.message));
    assert.equal(await real.table().getItem(searchPk('a-day-and-more'), META_SK), undefined);
  });
});
