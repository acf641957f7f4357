/**
 * Seed-runs killed in the middle of training, end to end: through the real local runtime, a
 * TrainSeed child that grows past its memory cap and ones that run past their time cap are killed
 * (as Lambda would be), the state machine's Catch turns each into a seed result with outcome
 * `memory` or `timeout` and a reason, and the search goes on to its end: with every seed-run faulted
 * nothing learned, so it publishes a card without a winner and re-checks nothing on fresh seeds.
 * The caps are lowered for the test (the budget makes every other seed-run outlast its time cap).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { PublishResult } from '../functions/shared/search/contracts.ts';
import { runLocalSearch, withLocalStore, type RuntimeEvent } from '../local/runtime.ts';

/**
 * Fine for its check and the screen (4,096 and 5,120 MountainCar transitions) and the first
 * rollouts of training, then keeps 300 MiB in its sandbox, whose cap the test raises to 512 MiB
 * (EUREKA_SANDBOX_MEMORY_MB): the process, not the sandbox, runs out of memory, as a leak the
 * sandbox did not count would make it.
 */
const HOARDER = `// idea: grows its process's memory once training is under way
const hoard = [];
let calls = 0;
function computeReward(obs, action, nextObs, terminated) {
  calls += 1;
  if (calls > 16384 && hoard.length < 300) hoard.push(new Float64Array(1 << 17).fill(calls));
  return [0, { hoarded: hoard.length }];
}
`;

/**
 * Measured here (peak resident memory): the others peak at 200-230 MB when the time cap kills them
 * after they reported progress; the hoarder grows toward 500 MB and is killed on its way past 350,
 * about 3 s after its worker loaded at load 15 (the time cap counts from then, as on Lambda). The
 * time cap leaves it three times that to get there, and to report progress. One chunk of 10,000,000
 * MountainCar steps (about 3 minutes of an idle core here), so that no invocation ends before the
 * time cap on any machine.
 */
const CAPS = { memoryMb: 350, timeoutSeconds: 10 };
const STEPS = 10_000_000;
const SANDBOX = { EUREKA_SANDBOX_MEMORY_MB: '512' };

describe('Local: seed-runs killed for memory and for time during training', () => {
  let dataDir = '';
  let output: PublishResult;
  const progressed = new Set<string>();
  /** What the pool killed, by candidate: the caps that ended each process, as measured. */
  const killed = new Map<string, Array<{ name: string; message: string }>>();

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'eureka-killed-'));
    const onEvent = (e: RuntimeEvent) => {
      if (e.type === 'seed' && e.progress.state === 'progress') progressed.add(e.progress.task.candidateId);
      if (e.type === 'seed' && e.progress.killed) killed.set(e.progress.task.candidateId, [...(killed.get(e.progress.task.candidateId) ?? []), e.progress.killed]);
    };
    const result = await runLocalSearch({
      dataDir, executionName: 'killed', onEvent, trainSeedCaps: CAPS, trainSeedEnv: SANDBOX,
      input: {
        task: 'MountainCar-v0', generations: 1, candidates: 1, seeds: 1, steps: STEPS, evalEpisodes: 5, includeHostile: false, proposer: 'offline', racing: false, chunkSteps: STEPS,
        humanInit: [{ name: 'hoarder', idea: 'hoards memory', code: HOARDER }],
      },
    });
    output = result.output as PublishResult;
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('records the hoarder as killed for memory and the other candidate as killed for time, both after training began', async () => {
    await withLocalStore(dataDir, async (store) => {
      const records = await store.candidates('killed', 1);
      const hoarder = records.find((r) => r.name === 'hoarder');
      const other = records.find((r) => r.origin === 'proposer');
      assert.equal(hoarder?.outcome, 'memory', hoarder?.reason);
      assert.match(hoarder?.reason ?? '', /\(Runtime\.OutOfMemory\)$/);
      assert.equal(other?.outcome, 'timeout', other?.reason);
      assert.match(other?.reason ?? '', /\(Sandbox\.Timedout\)$/);
      // The caps that killed them are the test's, far below the Lambda's the reasons name (1769 MB, 600 s).
      const [memory] = killed.get(hoarder?.candidateId ?? '') ?? [];
      assert.equal(memory?.name, 'Runtime.OutOfMemory');
      const rss = Number(/^seed-run killed at (\d+) MB, over its (\d+) MB memory cap$/.exec(memory?.message ?? '')?.[1]);
      assert.ok(rss > CAPS.memoryMb && memory?.message.endsWith(`over its ${CAPS.memoryMb} MB memory cap`), memory?.message);
      // Killed on its search seed, and never re-checked on a fresh one: it is not a winner.
      const timedOut = killed.get(other?.candidateId ?? '') ?? [];
      assert.equal(timedOut.length, 1, 'killed for time once');
      for (const k of timedOut) assert.deepEqual(k, { name: 'Sandbox.Timedout', message: `seed-run killed after its ${CAPS.timeoutSeconds} s time cap` });
      for (const record of [hoarder, other]) {
        assert.ok(record && progressed.has(record.candidateId), `${record?.name} reported training progress before it was killed`);
        assert.equal(record?.success, 0);
      }
    });
  });

  it('finishes without a winner, the baselines killed for time too, and trains nothing on fresh seeds', async () => {
    await withLocalStore(dataDir, async (store) => {
      const meta = await store.meta('killed');
      assert.equal(meta.status, 'finished');
      assert.equal(meta.best ?? null, null, 'no reward whose every seed-run faulted is the best');
      const baselines = await store.candidates('killed', 0);
      assert.deepEqual(baselines.map((b) => b.outcome), ['timeout', 'timeout']);
      for (const b of baselines) assert.deepEqual(killed.get(b.candidateId)?.map((k) => k.message), [`seed-run killed after its ${CAPS.timeoutSeconds} s time cap`], b.candidateId);
    });
    assert.equal(output.winner, null);
    assert.deepEqual(output.baselines.map((b) => b.freshSuccess), [0, 0]);
  });
});
