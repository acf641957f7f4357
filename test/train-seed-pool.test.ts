/**
 * TrainSeed locally: warm worker processes with their Lambda's caps. Past the memory cap a worker
 * is killed as Runtime.OutOfMemory, past the time cap (in CPU time) as Sandbox.Timedout (the errors the state
 * machine catches), and replaced; at most `slots` run at once; a worker serves one invocation after
 * another, as a warm container; one that hosted a sandbox memory fault ends, and no other candidate
 * ever runs in it; a finished seed-run is returned, not re-trained.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { rewardKey, seedResultKey } from '../functions/shared/store/keys.ts';
import type { ChunkAnswer, SeedTask } from '../functions/shared/search/types.ts';
import type { FunctionCaps } from '../infra/config.ts';
import { statFields } from '../local/process-usage.ts';
import { TrainSeedPool, type SeedProgress } from '../local/train-seed-pool.ts';

const task = (seed: number, candidateId = 'energy', steps = 4096): SeedTask => ({
  searchId: 'pool', task: 'MountainCar-v0', generation: 1, candidateId, seed, budget: { steps, evalEpisodes: 5 }, targetSteps: steps, chunkSteps: steps,
});
/** The summary of a seed-run that finished in one chunk. */
const summaryOf = (answer: ChunkAnswer) => {
  assert.ok(answer.done, 'the seed-run reached its target');
  return answer.summary;
};
/**
 * A seed-run no machine finishes in a 1-second cap: 10,000,000 MountainCar steps in one chunk
 * (about 3 minutes of one idle core here; a core would have to be 100 times faster).
 */
const FAR_BEYOND_ANY_CAP = 10_000_000;

/** The process has ended: gone, or a zombie its new parent (init) has not reaped yet. */
function exited(pid: number): boolean {
  const fields = statFields(pid);
  return fields === undefined || fields[0] === 'Z';
}

interface PoolOptions { caps: FunctionCaps; onProgress?: (p: SeedProgress) => void; slots?: number }

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

  /** A pool closed whatever the test's assertions do, so no worker outlives a failed test. */
  async function withPool(options: PoolOptions, fn: (pool: TrainSeedPool) => Promise<void>): Promise<void> {
    const pool = new TrainSeedPool(options.caps, env, options.onProgress, options.slots);
    try {
      await fn(pool);
    } finally {
      pool.close();
    }
  }

  it('kills a seed-run over its memory cap as Runtime.OutOfMemory', () => withPool({ caps: { memoryMb: 40, timeoutSeconds: 600 } }, async (pool) => {
    await assert.rejects(pool.invoke(task(0, 'energy', FAR_BEYOND_ANY_CAP)), (err: Error) => err.name === 'Runtime.OutOfMemory' && /over its 40 MB memory cap/.test(err.message));
  }));

  it('kills a seed-run over its time cap as Sandbox.Timedout', () => withPool({ caps: { memoryMb: 4000, timeoutSeconds: 1 }, slots: 1 }, async (pool) => {
    await assert.rejects(pool.invoke(task(1, 'energy', FAR_BEYOND_ANY_CAP)), (err: Error) => err.name === 'Sandbox.Timedout' && err.message === 'seed-run killed after its 1 s time cap');
    assert.equal(pool.started[0].dead, true, 'the worker was killed');
  }));

  it('counts the time cap in the CPU time a worker used, not on the clock: one held still outlives its cap, and the wall backstop ends it', async () => {
    // The worker holds still (no CPU: test-hold.ts) as soon as its invocation begins; a busy machine
    // is the same to a worker, which then gets little CPU. Killed on the clock, the message would be
    // the cap's after 2 s; in CPU time only the backstop, at five times the cap, ends it.
    const hold = join(dataDir, 'hold.json');
    const marker = join(dataDir, 'held');
    await writeFile(hold, JSON.stringify({ moment: 'invoked', identities: ['1/energy/6'], marker }));
    const pool = new TrainSeedPool({ memoryMb: 4000, timeoutSeconds: 2 }, { ...env, EUREKA_TEST_HOLD: hold }, undefined, 1);
    try {
      await assert.rejects(pool.invoke(task(6)), (err: Error) => err.name === 'Sandbox.Timedout' &&
        /^seed-run killed after 1\d s on the clock, in which it used 0 s of the CPU \(its cap is 2 s of CPU\): stuck, or this machine is too busy to run it$/.test(err.message));
      assert.match(await readFile(marker, 'utf8'), /^invoked\t1\/energy\/6\n$/, 'it was held, and killed while held');
      assert.equal(pool.started[0].dead, true);
    } finally {
      pool.close();
    }
  });

  it("gives a new worker's Init the same cap, in CPU time: one held still while loading outlives its cap, and the wall backstop ends it", async () => {
    // Held before its handler loads (the 'init' moment, test-hold.ts), the worker uses no CPU, as one
    // starved by a busy machine gets little: a cap on the clock would end it after 3 s, as a worker
    // that cannot load; in CPU time only the backstop, at five times the cap, ends it, and says so.
    // (Loading up to the hold, tsx and the hook but not the handler, took 0.4-0.5 s of CPU here: the
    // 3 s cap leaves a machine six times slower room.)
    const hold = join(dataDir, 'hold-init.json');
    const marker = join(dataDir, 'held-init');
    await writeFile(hold, JSON.stringify({ moment: 'init', identities: ['worker'], marker }));
    const pool = new TrainSeedPool({ memoryMb: 4000, timeoutSeconds: 600, initSeconds: 3 }, { ...env, EUREKA_TEST_HOLD: hold }, undefined, 1);
    try {
      await assert.rejects(pool.invoke(task(8)), (err: Error) => err.name === 'Sandbox.Timedout' &&
        /^seed-run killed: its worker did not load its handler after 1\d s on the clock, in which it used [012] s of the CPU \(its cap is 3 s of CPU\): stuck, or this machine is too busy to run it$/.test(err.message));
      assert.match(await readFile(marker, 'utf8'), /^init\tworker\n$/, 'it was held while loading, and killed while held');
      assert.equal(pool.started[0].dead, true);
    } finally {
      pool.close();
    }
  });

  it('ends a worker still training when it is closed, so a failed caller leaves no process behind', async () => {
    let training = () => {};
    const trainingBegan = new Promise<void>((resolve) => { training = resolve; });
    const pool = new TrainSeedPool({ memoryMb: 4000, timeoutSeconds: 600 }, env, (p) => { if (p.state === 'progress') training(); }, 1);
    try {
      const running = pool.invoke(task(5, 'energy', FAR_BEYOND_ANY_CAP));
      await trainingBegan;
      const [worker] = pool.started;
      const exited = new Promise((resolve) => worker.child.once('exit', resolve));
      pool.close();
      await assert.rejects(running, (err: Error) => err.name === 'Runtime.ExitError');
      await exited;
      assert.equal(worker.dead, true);
    } finally {
      pool.close();
    }
  });

  it('leaves no worker behind when its parent is killed: the worker ends at its next report, quietly', async () => {
    // A parent process with a pool, one seed-run training; it prints its worker's pid once training reports.
    const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `
      const { TrainSeedPool } = await import(${JSON.stringify(new URL('../local/train-seed-pool.ts', import.meta.url).pathname)});
      let said = false;
      const pool = new TrainSeedPool({ memoryMb: 4000, timeoutSeconds: 600 }, ${JSON.stringify(env)}, (p) => {
        if (p.state === 'progress' && !said) { said = true; process.stdout.write(pool.started[0].child.pid + '\\n'); }
      }, 1);
      await pool.invoke(${JSON.stringify(task(7, 'energy', FAR_BEYOND_ANY_CAP))});
    `], { cwd: new URL('..', import.meta.url).pathname, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    parent.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    // 'close': every holder of the pipes is gone, the worker (which inherited them) included.
    const closed = new Promise((resolve) => parent.once('close', resolve));
    const pid = await new Promise<number>((resolve, reject) => {
      parent.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
      parent.once('exit', () => reject(new Error(`the parent ended before its worker trained: ${stderr}`)));
    });
    parent.kill('SIGKILL');
    await closed;
    assert.ok(exited(pid), 'the worker is gone');
    assert.ok(stderr === '', `nothing on the terminal, found: ${stderr.slice(0, 300)}`);
  });

  it('runs at most `slots` seed-runs at once, and returns a finished one without training it again', async () => {
    let running = 0;
    let most = 0;
    const onProgress = (p: SeedProgress) => {
      if (p.state === 'started') most = Math.max(most, ++running);
      if (p.state === 'finished') running -= 1;
    };
    await withPool({ caps: { memoryMb: 1769, timeoutSeconds: 600 }, onProgress, slots: 1 }, async (pool) => {
      const [a, b] = (await Promise.all([pool.invoke(task(2)), pool.invoke(task(3))])).map(summaryOf);
      assert.equal(most, 1);
      assert.deepEqual([a.outcome, b.outcome], ['trained', 'trained']);

      const resultPath = join(dataDir, 'bucket', seedResultKey('pool', 1, 'energy', 2));
      const written = (await stat(resultPath)).mtimeMs;
      assert.deepEqual(summaryOf(await pool.invoke(task(2))), a);
      assert.equal((await stat(resultPath)).mtimeMs, written);
      assert.equal(pool.started.length, 1, 'one warm worker served all three');
      assert.equal(pool.started[0].served, 3);
    });
  });

  it('ends the worker that hosted a sandbox memory fault; the retry returns the stored result, and the next candidate trains on a fresh worker', () => withPool({ caps: { memoryMb: 1769, timeoutSeconds: 600 }, slots: 1 }, async (pool) => {
    // As Lambda: the faulting invocation never answers (Runtime.ExitError), its result is stored.
    await assert.rejects(pool.invoke(task(0, 'hog')), (err: Error) => err.name === 'Runtime.ExitError');
    const retried = summaryOf(await pool.invoke(task(0, 'hog')));
    assert.equal(retried.outcome, 'memory');
    const other = summaryOf(await pool.invoke(task(4)));
    assert.equal(other.outcome, 'trained', other.reason);
    assert.equal(pool.started.length, 2);
    assert.deepEqual(pool.started.map((w) => [w.dead, w.served]), [[true, 1], [false, 2]]);
  }));
});
