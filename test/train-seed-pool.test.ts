/**
 * TrainSeed locally: warm worker processes with their Lambda's caps. Past the memory cap a worker
 * is killed as Runtime.OutOfMemory, past the time cap as Sandbox.Timedout (the errors the state
 * machine catches), and replaced; at most `slots` run at once; a worker serves one invocation after
 * another, as a warm container; one that hosted a sandbox memory fault ends, and no other candidate
 * ever runs in it; a finished seed-run is returned, not re-trained.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { rewardKey, seedResultKey } from '../functions/shared/keys.ts';
import type { ChunkAnswer, SeedTask } from '../functions/shared/types.ts';
import { TrainSeedPool, type SeedProgress } from '../local/train-seed-pool.ts';

const task = (seed: number, candidateId = 'energy'): SeedTask => ({
  searchId: 'pool', task: 'MountainCar-v0', generation: 1, candidateId, seed, budget: { steps: 4096, evalEpisodes: 5 }, targetSteps: 4096, chunkSteps: 4096,
});
/** The summary of a seed-run that finished in one chunk. */
const summaryOf = (answer: ChunkAnswer) => {
  assert.ok(answer.done, 'the seed-run reached its target');
  return answer.summary;
};

describe('Local: TrainSeedPool', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'eureka-pool-'));
    for (const [id, file] of [['energy', 'energy.js'], ['hog', 'hostile/memory-arrays.js']]) {
      const reward = join(dataDir, 'bucket', rewardKey('pool', 1, id));
      await mkdir(dirname(reward), { recursive: true });
      await writeFile(reward, await readFile(new URL(`../examples/${file}`, import.meta.url), 'utf8'));
    }
    env = { PATH: process.env.PATH, HOME: process.env.HOME, EUREKA_DATA_DIR: dataDir };
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('kills a seed-run over its memory cap as Runtime.OutOfMemory', async () => {
    const pool = new TrainSeedPool({ memoryMb: 40, timeoutSeconds: 600 }, env);
    await assert.rejects(pool.invoke(task(0)), (err: Error) => err.name === 'Runtime.OutOfMemory' && /over its 40 MB memory cap/.test(err.message));
    pool.close();
  });

  it('kills a seed-run over its time cap as Sandbox.Timedout', async () => {
    const pool = new TrainSeedPool({ memoryMb: 4000, timeoutSeconds: 1 }, env, undefined, 1);
    await assert.rejects(pool.invoke(task(1)), (err: Error) => err.name === 'Sandbox.Timedout');
    assert.equal(pool.started[0].dead, true, 'the worker was killed');
    pool.close();
  });

  it('runs at most `slots` seed-runs at once, and returns a finished one without training it again', async () => {
    let running = 0;
    let most = 0;
    const onProgress = (p: SeedProgress) => {
      if (p.state === 'started') most = Math.max(most, ++running);
      if (p.state === 'finished') running -= 1;
    };
    const pool = new TrainSeedPool({ memoryMb: 1769, timeoutSeconds: 600 }, env, onProgress, 1);
    const [a, b] = (await Promise.all([pool.invoke(task(2)), pool.invoke(task(3))])).map(summaryOf);
    assert.equal(most, 1);
    assert.deepEqual([a.outcome, b.outcome], ['trained', 'trained']);

    const resultPath = join(dataDir, 'bucket', seedResultKey('pool', 1, 'energy', 2));
    const written = (await stat(resultPath)).mtimeMs;
    assert.deepEqual(summaryOf(await pool.invoke(task(2))), a);
    assert.equal((await stat(resultPath)).mtimeMs, written);
    assert.equal(pool.started.length, 1, 'one warm worker served all three');
    assert.equal(pool.started[0].served, 3);
    pool.close();
  });

  it('ends the worker that hosted a sandbox memory fault; the retry returns the stored result, and the next candidate trains on a fresh worker', async () => {
    const pool = new TrainSeedPool({ memoryMb: 1769, timeoutSeconds: 600 }, env, undefined, 1);
    // As Lambda: the faulting invocation never answers (Runtime.ExitError), its result is stored.
    await assert.rejects(pool.invoke(task(0, 'hog')), (err: Error) => err.name === 'Runtime.ExitError');
    const retried = summaryOf(await pool.invoke(task(0, 'hog')));
    assert.equal(retried.outcome, 'memory');
    const other = summaryOf(await pool.invoke(task(4)));
    assert.equal(other.outcome, 'trained', other.reason);
    assert.equal(pool.started.length, 2);
    assert.deepEqual(pool.started.map((w) => [w.dead, w.served]), [[true, 1], [false, 2]]);
    pool.close();
  });
});
