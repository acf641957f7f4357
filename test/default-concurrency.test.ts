/** The default maxConcurrency: a generation's seed-runs (K x S) at once, within MAX_MAP_CONCURRENCY. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { estimateSearch } from '../functions/shared/cost/estimate.ts';
import { defaultConcurrency } from '../functions/shared/input/default-concurrency.ts';
import { parseSearchInput } from '../functions/shared/input/search-input.ts';
import { MAX_MAP_CONCURRENCY } from '../infra/config.ts';
import { getTask } from '../tasks/registry.ts';

const OFFLINE = { proposer: 'offline' } as const;
const ON_AWS = { cores: null, region: 'us-east-1', firstPromptChars: null };
const human = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `h${i}`, idea: '', code: 'export default 1' }));

describe('Function: defaultConcurrency', () => {
  const task = getTask('Hopper-v5');
  const cases: Array<[string, Parameters<typeof defaultConcurrency>[0], number]> = [
    ['the defaults: K=6 on S=5', { candidates: 6, seeds: 5, humanInit: [] }, 30],
    ['generation 1\'s human rewards train beside the candidates', { candidates: 6, seeds: 5, humanInit: human(2) }, 40],
    ['the fresh seeds\' Map where it is the largest (the winner and two baselines on 10 fresh seeds)', { candidates: 2, seeds: 1, humanInit: [], freshSeeds: 10 }, 30],
    ['the baselines\' Map where it is the largest (two baselines on 4 seeds, one fresh seed)', { candidates: 1, seeds: 4, humanInit: [], freshSeeds: 1 }, 8],
    ['the largest accepted input fits the cap exactly', { candidates: 16, seeds: 10, humanInit: human(16) }, MAX_MAP_CONCURRENCY],
  ];
  for (const [name, settings, expected] of cases) {
    it(name, () => assert.equal(defaultConcurrency(settings, task), expected));
  }

  it('is what a search gets unless its input names one', () => {
    assert.equal(parseSearchInput({ task: 'Hopper-v5' }, OFFLINE).maxConcurrency, 30);
    assert.equal(parseSearchInput({ task: 'Hopper-v5', candidates: 16, seeds: 10 }, OFFLINE).maxConcurrency, 160);
    assert.equal(parseSearchInput({ task: 'Hopper-v5', smoke: true }, OFFLINE).maxConcurrency, 6);
    assert.equal(parseSearchInput({ task: 'Hopper-v5', maxConcurrency: 7 }, OFFLINE).maxConcurrency, 7);
  });

  it('runs each of a default Hopper search\'s Maps in one wave on AWS: no more concurrency shortens it, and 10 at once took 2.5 times as long', () => {
    const at = (maxConcurrency?: number) => estimateSearch(parseSearchInput({ task: 'Hopper-v5', ...(maxConcurrency ? { maxConcurrency } : {}) }, OFFLINE), task, ON_AWS).aws;
    const byDefault = at();
    assert.equal(byDefault.seconds, at(MAX_MAP_CONCURRENCY).seconds);
    assert.ok(at(10).seconds > 2.4 * byDefault.seconds, `${at(10).seconds} s at 10, ${byDefault.seconds} s by default`);
    // The same work, so the same GB-seconds: concurrency buys time, not cost.
    assert.equal(at(10).gbSeconds, byDefault.gbSeconds);
  });
});
