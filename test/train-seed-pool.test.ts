/**
 * TrainSeed locally: each invocation is a child process with its Lambda's caps. Past the memory cap
 * it is killed as Runtime.OutOfMemory, past the time cap as Sandbox.Timedout (the errors the state
 * machine catches); at most `slots` run at once; a finished seed-run is returned, not re-trained.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { rewardKey, seedResultKey } from '../functions/shared/keys.ts';
import type { SeedTask } from '../functions/shared/types.ts';
import { TrainSeedPool, type SeedProgress } from '../local/train-seed-pool.ts';

const task = (seed: number): SeedTask => ({ searchId: 'pool', task: 'MountainCar-v0', generation: 1, candidateId: 'energy', seed, budget: { steps: 4096, evalEpisodes: 5 } });

describe('Local: TrainSeedPool', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'eureka-pool-'));
    const reward = join(dataDir, 'bucket', rewardKey('pool', 1, 'energy'));
    await mkdir(dirname(reward), { recursive: true });
    await writeFile(reward, await readFile(new URL('../examples/energy.js', import.meta.url), 'utf8'));
    env = { PATH: process.env.PATH, HOME: process.env.HOME, EUREKA_DATA_DIR: dataDir };
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('kills a seed-run over its memory cap as Runtime.OutOfMemory', async () => {
    const pool = new TrainSeedPool({ memoryMb: 40, timeoutSeconds: 600 }, env);
    await assert.rejects(pool.invoke(task(0)), (err: Error) => err.name === 'Runtime.OutOfMemory' && /over its 40 MB memory cap/.test(err.message));
  });

  it('kills a seed-run over its time cap as Sandbox.Timedout', async () => {
    const pool = new TrainSeedPool({ memoryMb: 4000, timeoutSeconds: 1 }, env);
    await assert.rejects(pool.invoke(task(1)), (err: Error) => err.name === 'Sandbox.Timedout');
  });

  it('runs at most `slots` seed-runs at once, and returns a finished one without training it again', async () => {
    let running = 0;
    let most = 0;
    const onProgress = (p: SeedProgress) => {
      if (p.state === 'started') most = Math.max(most, ++running);
      if (p.state === 'finished') running -= 1;
    };
    const pool = new TrainSeedPool({ memoryMb: 1769, timeoutSeconds: 600 }, env, onProgress, 1);
    const [a, b] = await Promise.all([pool.invoke(task(2)), pool.invoke(task(3))]);
    assert.equal(most, 1);
    assert.deepEqual([a.outcome, b.outcome], ['trained', 'trained']);

    const resultPath = join(dataDir, 'bucket', seedResultKey('pool', 1, 'energy', 2));
    const written = (await stat(resultPath)).mtimeMs;
    assert.deepEqual(await pool.invoke(task(2)), a);
    assert.equal((await stat(resultPath)).mtimeMs, written);
  });
});
