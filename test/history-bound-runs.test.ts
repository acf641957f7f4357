/**
 * The history bound (functions/shared/cost/history-bound.ts) against the events the local runtime
 * counts (local/history-count.ts) on real searches small enough to run here: the definition, the
 * handlers, the offline proposer, TrainSeed's workers, on MountainCar-v0 with a few thousand steps a
 * seed-run (issue 42, item 3). The bound is a formula over the input; these runs are what the
 * definition does with it. Each search's own execution and its largest seed-run child stay within
 * their bound, and one more candidate costs the search at most what the bound adds for it: the bound
 * is linear in the candidates, and so is the count, which is how far its extrapolation to the
 * largest input is trusted (docs/reliability.md, "The history bound against real searches").
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { before, describe, it } from 'node:test';
import { historyBound, type HistoryBound } from '../functions/shared/cost/history-bound.ts';
import type { SearchSettings } from '../functions/shared/search/contracts.ts';
import type { HistoryRecord } from '../functions/shared/store/records.ts';
import { getTask } from '../tasks/registry.ts';

const SEARCH = new URL('./support/history-search.ts', import.meta.url).pathname;
const TASK = getTask('MountainCar-v0');

/** The smallest search: one generation of one candidate, one seed, one chunk, nothing raced, probed or repaired. */
const SMALLEST = { task: TASK.id, evalEpisodes: 1, steps: 2048, generations: 1, candidates: 1, seeds: 1, freshSeeds: 1, includeHostile: false, repair: false, racing: false };
/** A person's reward that fails its check (a syntax error), so that a repair request and its checks run. */
const BROKEN = { name: 'broken', code: 'function computeReward(obs) { return [obs[0] +, {}]; }' };

/** The grid: each run varies what the bound counts (generations, candidates and people's rewards, rungs, chunks, probes, repairs, pauses). */
const GRID = {
  smallest: SMALLEST,
  // Two more candidates, two fresh seeds: nothing else differs from the smallest.
  wider: { ...SMALLEST, candidates: 3, freshSeeds: 2 },
  // One more generation, and a pause for feedback between the two, timed out (0.01 minutes: a second).
  longer: { ...SMALLEST, generations: 2, feedback: 'wait', feedbackTimeoutMinutes: 0.01 },
  // Two generations raced over three rungs (2,048, 4,096, 8,192 steps) in chunks of 2,048, the hostile probes,
  // a broken person's reward and the repairs, two seeds, and a pause for feedback between the generations, timed out.
  everything: {
    ...SMALLEST, generations: 2, candidates: 2, seeds: 2, steps: 8192, chunkSteps: 2048, racing: { eta: 2, rungs: 3 },
    includeHostile: true, repair: true, humanInit: [BROKEN], feedback: 'wait', feedbackTimeoutMinutes: 0.01,
  },
} as const;

interface Generation { candidates: number; failedChecks: number; repaired: number; rungs: number }
interface Ran { config: SearchSettings; history: HistoryRecord; generations: Generation[]; pauses: number; bound: HistoryBound }

/** One search in a process of its own (test/support/history-search.ts). */
async function search(input: object): Promise<Ran> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', SEARCH, JSON.stringify(input)], {
    timeout: 5 * 60_000, maxBuffer: 1 << 24, env: { ...process.env, ANTHROPIC_API_KEY: '' },
  });
  const ran = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Omit<Ran, 'bound'>;
  return { ...ran, bound: historyBound(ran.config, getTask(ran.config.task)) };
}

describe('The history bound, against the events of real searches', () => {
  const runs = new Map<keyof typeof GRID, Ran>();

  before(async () => {
    // Two at once (the machine's two cores): the largest alone, the small ones one after another beside it.
    const small = async () => {
      for (const name of ['smallest', 'wider', 'longer'] as const) runs.set(name, await search(GRID[name]));
    };
    const [everything] = await Promise.all([search(GRID.everything), small()]);
    runs.set('everything', everything);
  });

  for (const name of Object.keys(GRID) as Array<keyof typeof GRID>) {
    it(`counts no more events than the bound, in the search's execution and in its largest seed-run: ${name}`, (t) => {
      const { history, bound } = runs.get(name)!;
      t.diagnostic(`${name}: ${history.search} events in the search's execution, bound ${bound.search}; ${history.largestSeedRun} in its largest seed-run, bound ${bound.seedRun}; ${history.seedRunExecutions} seed-run executions`);
      assert.ok(history.search > 0 && history.search <= bound.search, `${history.search} events in the search's execution, bound ${bound.search}`);
      assert.ok(history.largestSeedRun > 0 && history.largestSeedRun <= bound.seedRun, `${history.largestSeedRun} in the largest seed-run, bound ${bound.seedRun}`);
    });
  }

  it('ran what the bound counts: chunks, rungs, probes, repairs and pauses', () => {
    const everything = runs.get('everything')!;
    // Four chunks of 2,048 in a baseline's or a fresh seed's 8,192 steps: the child the bound sizes, counted as it counts it.
    assert.equal(everything.bound.seedRunChunks, 4);
    assert.equal(everything.history.largestSeedRun, everything.bound.seedRun);
    assert.deepEqual(everything.generations.map((g) => g.rungs), [3, 3], 'every generation raced over its three rungs');
    const [first] = everything.generations;
    // Two proposed, the broken person's reward and the two probes, the repaired on top.
    assert.ok(first.candidates >= 5 + first.repaired && first.failedChecks >= 3 && first.repaired >= 1, JSON.stringify(first));
    assert.equal(everything.pauses, 1, 'a pause between the generations');
    assert.equal(runs.get('longer')!.pauses, 1);
  });

  it('grows by no more than the bound for each candidate more: the bound\'s slope holds where it is extrapolated', () => {
    const [smallest, wider] = [runs.get('smallest')!, runs.get('wider')!];
    const added = wider.config.candidates - smallest.config.candidates;
    const counted = (wider.history.search - smallest.history.search) / added;
    const bounded = (wider.bound.search - smallest.bound.search) / added;
    assert.ok(counted > 0 && counted <= bounded, `${counted} events a candidate counted, ${bounded} bounded`);
    // Fresh seeds are Distributed Map children: the search's own execution does not grow with them.
    assert.equal(wider.history.seedRunExecutions - smallest.history.seedRunExecutions, added + (wider.config.freshSeeds! - smallest.config.freshSeeds!) * 3);
  });

  it('grows by no more than the bound for a generation more with its pause: the slope in the generations holds too', () => {
    const [smallest, longer] = [runs.get('smallest')!, runs.get('longer')!];
    const counted = longer.history.search - smallest.history.search;
    const bounded = longer.bound.search - smallest.bound.search;
    assert.ok(counted > 0 && counted <= bounded, `${counted} events for the generation and its pause counted, ${bounded} bounded`);
  });
});
