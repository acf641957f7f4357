/**
 * Execution inputs, generated (fast-check; issue 32). Every malformed input is refused by "Start the
 * search" (Init, on a real table) with a message that names the field it got wrong, and nothing of
 * the search is written; every input it accepts fits what Init itself makes of it: the execution's
 * 256 KiB input and Init's 256 KiB output, DynamoDB's 400 KB item (dynalite refuses a larger META).
 * Seeded: the same inputs on every run.
 *
 * The worst cases Init refuses by are not checked here with the same formulas Init uses (that
 * could not disagree with it, issue 42): the history bound against the events the local runtime
 * counts on real searches (history-bound-runs.test.ts) and at the largest accepted input
 * (workflow.test.ts), the time bound against the definition's own Tasks (time-bound.test.ts).
 */
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { initSearch } from '../functions/reflect/init.ts';
import { META_SK, searchPk } from '../functions/shared/store/records.ts';
import { InvalidSearchInput } from '../functions/shared/input/search-input.ts';
import { STATE_DATA_LIMIT_BYTES } from '../infra/aws-quotas.ts';
import { TASK_IDS } from '../tasks/registry.ts';
import { realStore } from './support/real-store.ts';

const SEED = 3232;
const bytes = (x: unknown) => Buffer.byteLength(JSON.stringify(x), 'utf8');
const code = (n: number) => `function computeReward(obs) { return [0, {}]; } // ${'x'.repeat(n)}`;

/** Inputs within the schema's own bounds, small and large, every field optional. */
const validInput = fc.record({
  task: fc.constantFrom(...TASK_IDS),
  smoke: fc.boolean(),
  generations: fc.integer({ min: 1, max: 20 }),
  candidates: fc.integer({ min: 1, max: 16 }),
  seeds: fc.integer({ min: 1, max: 10 }),
  freshSeeds: fc.integer({ min: 1, max: 10 }),
  steps: fc.oneof(fc.integer({ min: 2048, max: 200_000 }), fc.integer({ min: 2048, max: 10_000_000 })),
  evalEpisodes: fc.integer({ min: 1, max: 100 }),
  includeHostile: fc.boolean(),
  proposer: fc.constantFrom('offline', 'anthropic', 'bedrock'),
  maxConcurrency: fc.integer({ min: 1, max: 320 }),
  randomSeed: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
  repair: fc.boolean(),
  feedback: fc.constantFrom('none', 'wait'),
  feedbackTimeoutMinutes: fc.double({ min: 0.1, max: 720, noNaN: true }),
  maxCostUsd: fc.double({ min: 0.5, max: 10, noNaN: true }),
  racing: fc.oneof(fc.constant(false as const), fc.record({ eta: fc.integer({ min: 2, max: 8 }), rungs: fc.integer({ min: 2, max: 5 }) })),
  chunkSteps: fc.integer({ min: 2048, max: 10_000_000 }),
  humanInit: fc.array(fc.record({ name: fc.constantFrom('mine', 'theirs', 'person-1'), code: fc.integer({ min: 0, max: 8000 }).map(code) }), { maxLength: 16 }),
}, { requiredKeys: [] });

/** One field given a value the schema refuses, and the field the refusal must name. */
const COUNTS = ['generations', 'candidates', 'seeds', 'freshSeeds', 'steps', 'evalEpisodes', 'maxConcurrency', 'chunkSteps', 'randomSeed'] as const;
const corruption: fc.Arbitrary<{ field: string; value: unknown }> = fc.oneof(
  fc.record({ field: fc.constantFrom(...COUNTS), value: fc.oneof(fc.constant(-1), fc.constant(0.5), fc.constant(1e12), fc.string(), fc.boolean(), fc.constant(null), fc.constant([])) }),
  fc.record({ field: fc.constantFrom('task', 'proposer', 'screen', 'feedback', 'effort'), value: fc.oneof(fc.string({ minLength: 1 }).map((s) => `no-${s}`), fc.integer(), fc.constant(null)) }),
  fc.record({ field: fc.constant('racing'), value: fc.oneof(fc.constant(true), fc.constant({ eta: 1, rungs: 3 }), fc.constant({ rungs: 9 }), fc.constant('fast')) }),
  fc.record({ field: fc.constant('humanInit'), value: fc.oneof(fc.constant([{ name: 'x' }]), fc.constant([{ name: '', code: 'c' }]), fc.constant({}), fc.constant([{ name: 'x', code: 'x'.repeat(70_000) }])) }),
  fc.record({ field: fc.constantFrom('maxCostUsd', 'feedbackTimeoutMinutes'), value: fc.oneof(fc.constant(0), fc.constant(-3), fc.constant(1e9), fc.constant('ten')) }),
  fc.record({ field: fc.constantFrom('smoke', 'includeHostile', 'repair'), value: fc.oneof(fc.constant('yes'), fc.constant(1), fc.constant(null)) }),
  fc.string({ minLength: 1, maxLength: 12 }).filter((k) => /^[a-z]+$/i.test(k) && !(k in { task: 1, smoke: 1, steps: 1, seeds: 1, model: 1, effort: 1, racing: 1, screen: 1, repair: 1 }))
    .map((k) => ({ field: `${k}Typo`, value: 1 })),
);

describe('Property: execution inputs, at "Start the search"', () => {
  const real = realStore('eureka-input-properties-');
  let executions = 0;

  it('refuses every malformed input by the field it got wrong, and writes nothing', async () => {
    await fc.assert(fc.asyncProperty(validInput, corruption, async (input, { field, value }) => {
      const name = `bad-${executions++}`;
      const bad = { ...input, [field]: value };
      await assert.rejects(initSearch(real.store(), { kind: 'init', executionName: name, input: bad }, 'offline', 10),
        (error: Error) => error instanceof InvalidSearchInput && error.message.includes(`"${field}`), `${field}: ${JSON.stringify(value)?.slice(0, 80)}`);
      assert.equal(await real.table().getItem(searchPk(name), META_SK), undefined, 'no search recorded');
      assert.deepEqual((await real.table().queryPrefix(searchPk(name), '')).length, 0, 'nothing of it in the table');
    }), { seed: SEED, numRuns: 120 });
    const bucket = await readdir(real.store().blobs.location).catch(() => []);
    assert.deepEqual(bucket, [], 'nothing in the bucket');
  });

  it('keeps every input it accepts, and what Init makes of it, within a state and an item', async () => {
    let accepted = 0;
    await fc.assert(fc.asyncProperty(validInput, async (input) => {
      const name = `ok-${executions++}`;
      let init;
      try {
        init = await initSearch(real.store(), { kind: 'init', executionName: name, input }, 'offline', 10);
      } catch (error) {
        // Refused for its worst case (a quota, the execution's time): by name, and nothing written.
        assert.ok(error instanceof InvalidSearchInput, String(error));
        assert.match(error.message, /"(steps|chunkSteps|generations|maxConcurrency|feedbackTimeoutMinutes|maxCostUsd|screen)"|history events|execution's 24 h/);
        assert.equal(await real.table().getItem(searchPk(name), META_SK), undefined);
        return;
      }
      accepted += 1;
      assert.ok(bytes(input) <= STATE_DATA_LIMIT_BYTES && bytes(init) <= STATE_DATA_LIMIT_BYTES, 'the input and Init\'s output fit a state');
      assert.ok((await real.table().getItem(searchPk(name), META_SK)) !== undefined, 'its META was written (under 400 KB)');
      assert.ok(init.config.maxCostUsd === null || init.config.maxCostUsd <= 10);
    }), { seed: SEED, numRuns: 120 });
    assert.ok(accepted >= 30, `${accepted} of 120 inputs accepted: the property held on enough of them`);
  });
});
