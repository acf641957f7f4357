/**
 * The re-check on fresh seeds (issue 22's measurements want at least 5): input `freshSeeds`
 * (`--fresh-seeds`) sets how many, apart from the search's own seeds; unset, as many as `seeds`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { freshTasks } from '../functions/reflect/fresh-seeds.ts';
import { FRESH_SEED_OFFSET } from '../functions/shared/store/records.ts';
import { InvalidSearchInput, parseSearchInput } from '../functions/shared/input/search-input.ts';

const OFFLINE = { proposer: 'offline' } as const;
const BEST = { generation: 2, candidateId: '01-winner', name: 'winner', success: 0.5, meanSuccessSteps: null, meanReturn: null };
const seedsOf = (tasks: Array<{ candidateId: string; seed: number }>, id: string): number[] => tasks.filter((t) => t.candidateId === id).map((t) => t.seed);

describe('Function: freshTasks with input freshSeeds', () => {
  it('re-checks the winner and both baselines on freshSeeds seeds, whatever the search\'s own seeds', () => {
    const config = parseSearchInput({ seeds: 3, freshSeeds: 5 }, OFFLINE);
    assert.equal(config.freshSeeds, 5);
    const tasks = freshTasks('s', BEST, config);
    const five = [0, 1, 2, 3, 4].map((i) => FRESH_SEED_OFFSET + i);
    for (const id of ['01-winner', 'environment_reward', 'human_shaping']) assert.deepEqual(seedsOf(tasks, id), five, id);
  });

  it('uses as many as the search\'s seeds when unset', () => {
    const tasks = freshTasks('s', BEST, parseSearchInput({ seeds: 3 }, OFFLINE));
    assert.deepEqual(seedsOf(tasks, '01-winner'), [0, 1, 2].map((i) => FRESH_SEED_OFFSET + i));
  });

  it('refuses more than the seeds a search may use, naming the field', () => {
    assert.throws(() => parseSearchInput({ freshSeeds: 11 }, OFFLINE), (e: unknown) =>
      e instanceof InvalidSearchInput && e.message === 'Invalid search input: "freshSeeds" must be at most 10 (got 11)');
  });
});
