/**
 * The local runtime runs the deployed definition: bad execution input is refused as "Start the search"
 * refuses it, with a message that names the field, before the execution starts (so before any
 * proposer runs or anything trains).
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runLocalSearch } from '../local/runtime.ts';

describe('Local: runLocalSearch', () => {
  const dirs: string[] = [];
  after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  const bad: Array<[string, Record<string, unknown>, RegExp]> = [
    ['a wrong type', { candidates: 'six' }, /"candidates" must be a whole number/],
    ['a value out of range', { seeds: 11 }, /"seeds" must be at most 10 \(got 11\)/],
    ['an unknown field', { generation: 3 }, /unknown field "generation"/],
    ['an unknown task', { task: 'Pong-v5' }, /"task" must be one of the known tasks: .*CartPole-v1.*MountainCar-v0.*\(got "Pong-v5"\)/],
  ];
  for (const [what, input, message] of bad) {
    it(`fails "Start the search" on ${what}, naming the field, before any proposer runs`, async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'eureka-bad-input-'));
      dirs.push(dataDir);
      const states: string[] = [];
      await assert.rejects(
        runLocalSearch({ dataDir, executionName: 'bad', input, onEvent: (e) => { if (e.type === 'state') states.push(e.name); } }),
        (err: Error) => message.test(err.message),
      );
      assert.deepEqual(states, [], 'refused before the execution started');
      assert.deepEqual(await readdir(join(dataDir, 'bucket')).catch(() => []), [], 'nothing was stored');
    });
  }
});
