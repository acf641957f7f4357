/**
 * A seed-run trained in chunks (one TrainSeed invocation each, a checkpoint in the bucket between
 * them) ends exactly as one trained in one piece on the classic-control tasks and every MuJoCo
 * task: the same parameters (thetaSha256), curve, grade and training episodes. Where the environment cannot save itself (planck's LunarLander)
 * fresh copies start at a chunk, reproducibly. A rung's result stays, and the next rung goes on
 * from its checkpoint.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FsBlobStore } from '../functions/shared/store/blob-fs.ts';
import { checkpointKey, rewardKey, rungResultKey, seedResultKey } from '../functions/shared/store/keys.ts';
import type { ChunkAnswer, SeedResult, SeedTask } from '../functions/shared/search/types.ts';
import { ppoConfigFor } from '../core/ppo-config.ts';
import { trainSeedChunk } from '../functions/train-seed/seed-task.ts';
import { runSeed, runSeedChunk } from '../functions/train-seed/seed-run.ts';
import { decodeTyped, encodeTyped, MalformedContainer } from '../functions/train-seed/typed-container.ts';
import { getTask, InvalidTask } from '../tasks/registry.ts';
import { TASK_CODE_FAILED } from '../functions/shared/store/records.ts';

const CLASSIC = ['MountainCar-v0', 'CartPole-v1', 'Acrobot-v1', 'Pendulum-v1', 'MountainCarContinuous-v0'];
const UPDATES = 4;
/**
 * Every MuJoCo task: its copies save their whole physics state (warm start included) and what the
 * task keeps beside it (Ant's torso position), the observation normalizer its statistic. Two
 * updates of 2,048 steps are the least that cross a chunk boundary, and each task's second chunk
 * sees an episode end (the 1,000-step limit at the latest), so a reset from the restored generator.
 */
const MUJOCO = ['Hopper-v5', 'Walker2d-v5', 'HalfCheetah-v5', 'Swimmer-v5', 'Ant-v5', 'InvertedPendulum-v5', 'InvertedDoublePendulum-v5', 'Reacher-v5'];
const MUJOCO_UPDATES = 2;

/**
 * A seed-run's result without what depends on the clock or on how it was cut: the chunks, and the
 * sandbox's operations, counted in whole ticks of 10,000 by each invocation's own QuickJS (the
 * part of a tick a chunk ends in is not carried over).
 */
function measured(result: SeedResult): Omit<SeedResult, 'wallSeconds' | 'sandboxSeconds' | 'sandboxOperations' | 'chunks'> {
  const { wallSeconds: _wall, sandboxSeconds: _sandbox, sandboxOperations: _operations, chunks: _chunks, ...rest } = result;
  return rest;
}

describe('Function: a seed-run in chunks', () => {
  let dir = '';
  let blobs: FsBlobStore;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'eureka-chunks-'));
    blobs = new FsBlobStore(dir);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  /** Invokes TrainSeed's chunk until the seed-run reached its target; the invocations it took. */
  async function trainToTarget(item: SeedTask): Promise<{ answer: Extract<ChunkAnswer, { done: true }>; invocations: number }> {
    for (let invocations = 1; ; invocations++) {
      const { answer } = await trainSeedChunk(blobs, item);
      if (answer.done) return { answer, invocations };
      assert.ok(invocations < 100, 'the chunks reach the target');
    }
  }

  const cases = [...CLASSIC.map((id) => ({ id, updates: UPDATES, evalEpisodes: 3 })), ...MUJOCO.map((id) => ({ id, updates: MUJOCO_UPDATES, evalEpisodes: 1 }))];
  for (const { id, updates, evalEpisodes } of cases) {
    it(`${id}: one update per chunk ends bit for bit as one piece (thetaSha256, curve, grade)`, async () => {
      const task = getTask(id);
      const { numEnvs, numSteps } = ppoConfigFor(task, 0, 0);
      const budget = { steps: updates * numEnvs * numSteps, evalEpisodes };
      const source = task.baselines.human.code;
      await blobs.put(rewardKey('chunks', 1, id), source);
      const ended: number[] = [];
      const whole = await runSeed({ task, candidateId: id, source, seed: 5, budget, onUpdate: (stats) => ended.push(stats.episodesEnded) });
      assert.ok(ended[updates - 1] > 0, 'an episode ends in the last chunk, after a chunk boundary');
      const item: SeedTask = { searchId: 'chunks', task: id, generation: 1, candidateId: id, seed: 5, budget, targetSteps: budget.steps, chunkSteps: numEnvs * numSteps };
      const { invocations } = await trainToTarget(item);
      assert.equal(invocations, updates);
      const chunked = JSON.parse((await blobs.getText(seedResultKey('chunks', 1, id, 5)))!) as SeedResult;
      assert.match(chunked.thetaSha256 ?? '', /^[0-9a-f]{64}$/);
      assert.equal(chunked.thetaSha256, whole.result.thetaSha256);
      assert.deepEqual(chunked.curve, whole.result.curve);
      assert.deepEqual([chunked.success, chunked.meanReturn, chunked.stepsTrained, chunked.chunks], [whole.result.success, whole.result.meanReturn, budget.steps, updates]);
      assert.equal(whole.result.chunks, 1);
      // The rest of the result too (the training episodes' returns on the environment's own reward
      // among it), but for what the clock measures and how it was cut.
      assert.deepEqual(measured(chunked), measured(JSON.parse(JSON.stringify(whole.result)) as SeedResult));
    });
  }

  it('terms named like Object built-ins (__proto__, constructor, toString) are kept, chunked as unchunked', async () => {
    const task = getTask('MountainCar-v0');
    const budget = { steps: 8 * 2048, evalEpisodes: 2 };
    // toString only once the car gets up the hill: absent from the first updates' terms.
    const source = `function computeReward(obs, action, nextObs) {
      const terms = { ['__proto__']: nextObs[1] * 10, constructor: -1 };
      if (nextObs[0] > -0.25) terms.toString = 1;
      return [terms.constructor + nextObs[1] * 10 + (nextObs[0] > -0.25 ? 1 : 0), terms];
    }`;
    const seen: string[][] = [];
    const whole = await runSeed({ task, candidateId: 'builtins', source, seed: 5, budget, onUpdate: (stats) => seen.push(Object.keys(stats.terms)) });
    assert.ok(seen.some((names) => !names.includes('toString')) && seen.some((names) => names.includes('toString')), 'toString is missing from some updates');
    assert.deepEqual(Object.keys(whole.result.terms).sort(), ['__proto__', 'constructor', 'toString']);
    for (const stats of Object.values(whole.result.terms)) assert.ok([stats.early, stats.late, ...stats.series].every(Number.isFinite));
    await blobs.put(rewardKey('builtins', 1, 'c'), source);
    const item: SeedTask = { searchId: 'builtins', task: task.id, generation: 1, candidateId: 'c', seed: 5, budget, targetSteps: budget.steps, chunkSteps: 2 * 2048 };
    assert.equal((await trainToTarget(item)).invocations, 4);
    const chunked = JSON.parse((await blobs.getText(seedResultKey('builtins', 1, 'c', 5)))!) as SeedResult;
    assert.deepEqual(chunked.terms, JSON.parse(JSON.stringify(whole.result.terms)));
    assert.equal(chunked.thetaSha256, whole.result.thetaSha256);
  });

  it('a seed-run the task\'s own code stops answers the task\'s fault as its result, and stores nothing', async () => {
    const task = getTask('MountainCar-v0');
    const measure = task.progress.measure;
    // As the registry's wrapper says a folder's progress that throws on an episode no check saw.
    task.progress.measure = () => { throw new InvalidTask('task folder /my/folder: its progress threw: peak not found'); };
    try {
      await blobs.put(rewardKey('faulty', 1, 'c'), task.baselines.human.code);
      const item: SeedTask = { searchId: 'faulty', task: task.id, generation: 1, candidateId: 'c', seed: 0, budget: { steps: 2048, evalEpisodes: 1 }, targetSteps: 2048, chunkSteps: 2048 };
      const { answer, ran } = await trainSeedChunk(blobs, item);
      assert.ok(answer.done && ran);
      assert.deepEqual([answer.summary.outcome, answer.summary.reason, answer.summary.stepsTrained],
        ['error', `${TASK_CODE_FAILED}: task folder /my/folder: its progress threw: peak not found`, 2048]);
      assert.equal(await blobs.exists(seedResultKey('faulty', 1, 'c', 0)), false, 'nothing stored: it says nothing of the reward');
    } finally {
      task.progress.measure = measure;
    }
  });

  it('a rung is graded and stored short of the budget; the next rung goes on from its checkpoint to the same end', async () => {
    const id = 'MountainCar-v0';
    const task = getTask(id);
    const budget = { steps: 3 * 2048, evalEpisodes: 3 };
    const item: SeedTask = { searchId: 'rungs', task: id, generation: 1, candidateId: 'c', seed: 2, budget, targetSteps: 2048, chunkSteps: 100_000 };
    await blobs.put(rewardKey('rungs', 1, 'c'), task.baselines.human.code);
    const rung = await trainToTarget(item);
    assert.equal(rung.answer.summary.stepsTrained, 2048);
    assert.ok(await blobs.exists(rungResultKey('rungs', 1, 'c', 2, 2048)));
    assert.ok(await blobs.exists(checkpointKey('rungs', 1, 'c', 2)));
    assert.equal(await blobs.exists(seedResultKey('rungs', 1, 'c', 2)), false, 'no result.json short of the budget');
    // Asked again for the rung (a retry, a redrive): the stored result, nothing trained.
    assert.equal((await trainSeedChunk(blobs, item)).ran, false);
    const full = await trainToTarget({ ...item, targetSteps: budget.steps });
    const whole = await runSeed({ task, candidateId: 'c', source: task.baselines.human.code, seed: 2, budget });
    const stored = JSON.parse((await blobs.getText(seedResultKey('rungs', 1, 'c', 2)))!) as SeedResult;
    assert.equal(full.answer.summary.stepsTrained, budget.steps);
    assert.equal(stored.thetaSha256, whole.result.thetaSha256);
    // Asked for the rung again once the seed-run reached the budget (a resumed search replays its
    // race): the rung's own result, so Promote ranks the rung as it did the first time.
    const replay = await trainSeedChunk(blobs, item);
    assert.equal(replay.ran, false);
    assert.deepEqual(replay.answer, rung.answer);
  });

  describe('a checkpoint this trainer cannot go on from is not resumed: the seed-run starts over, and says why', () => {
    const id = 'MountainCar-v0';
    const budget = { steps: 3 * 2048, evalEpisodes: 2 };
    const itemOf = (searchId: string): SeedTask => ({ searchId, task: id, generation: 1, candidateId: 'c', seed: 4, budget, targetSteps: budget.steps, chunkSteps: 2048 });

    /** Puts `bytes` where the seed-run's first chunk would have left its checkpoint, then trains on. */
    async function trainFrom(searchId: string, bytes: Uint8Array): Promise<{ result: SeedResult; restarted: string | undefined; fresh: SeedResult }> {
      const task = getTask(id);
      await blobs.put(rewardKey(searchId, 1, 'c'), task.baselines.human.code);
      await blobs.put(checkpointKey(searchId, 1, 'c', 4), bytes);
      const first = await trainSeedChunk(blobs, itemOf(searchId));
      await trainToTarget(itemOf(searchId));
      const result = JSON.parse((await blobs.getText(seedResultKey(searchId, 1, 'c', 4)))!) as SeedResult;
      const fresh = (await runSeed({ task, candidateId: 'c', source: task.baselines.human.code, seed: 4, budget })).result;
      return { result, restarted: (first as { restarted?: string }).restarted, fresh };
    }

    it("another trainer's checkpoint (a redeploy inside the redrive window): trained from scratch, as a fresh seed-run", async () => {
      // The other trainer: the same task with another learning rate, one chunk in.
      const task = getTask(id);
      const other = { ...task, ppo: { ...task.ppo, learningRate: 1e-3 } };
      const chunk = await runSeedChunk({ task: other, candidateId: 'c', source: task.baselines.human.code, seed: 4, budget, chunkSteps: 2048 });
      assert.equal(chunk.done, false);
      const { result, restarted, fresh } = await trainFrom('other-trainer', encodeTyped(chunk.checkpoint));
      assert.equal(result.outcome, 'trained');
      assert.equal(result.thetaSha256, fresh.thetaSha256, 'the same parameters as a seed-run that never saw the checkpoint');
      assert.deepEqual(result.curve, fresh.curve);
      assert.match(restarted ?? '', /^the checkpoint was written by another trainer/);
    });

    it('a corrupt checkpoint, or bytes that are no checkpoint: trained from scratch, and a redrive returns the stored result', async () => {
      const task = getTask(id);
      const chunk = await runSeedChunk({ task, candidateId: 'c', source: task.baselines.human.code, seed: 4, budget, chunkSteps: 2048 });
      assert.equal(chunk.done, false);
      const whole = encodeTyped(chunk.checkpoint);
      const flipped = Uint8Array.from(whole);
      flipped[flipped.length - 100] ^= 1;
      const cases: Array<[string, Uint8Array, RegExp]> = [
        ['truncated', whole.subarray(0, whole.length - 64), /^the checkpoint is corrupt/],
        ['a flipped bit', flipped, /^the checkpoint is corrupt/],
        ['not a container', new TextEncoder().encode('{"update": 1}'), /^the checkpoint is corrupt/],
        ['a container of something else', encodeTyped({ update: 1 }), /^the checkpoint is not one this trainer reads/],
      ];
      for (const [what, bytes, reason] of cases) {
        const searchId = `corrupt-${cases.findIndex(([w]) => w === what)}`;
        const { result, restarted, fresh } = await trainFrom(searchId, bytes);
        assert.equal(result.outcome, 'trained', `${what}: ${result.reason}`);
        assert.equal(result.thetaSha256, fresh.thetaSha256, what);
        assert.match(restarted ?? '', reason, what);
        assert.equal((await trainSeedChunk(blobs, itemOf(searchId))).ran, false, `${what}: a redrive returns the stored result`);
      }
    });
  });

  it('LunarLander-v3, whose world is not saved: fresh copies at a chunk, the same parameters from one chunked run to the next', async () => {
    const task = getTask('LunarLander-v3');
    const { numEnvs, numSteps } = ppoConfigFor(task, 0, 0);
    const budget = { steps: 2 * numEnvs * numSteps, evalEpisodes: 1 };
    const hashes: Array<string | null> = [];
    for (const searchId of ['lander-a', 'lander-b']) {
      await blobs.put(rewardKey(searchId, 1, 'c'), task.baselines.human.code);
      const item: SeedTask = { searchId, task: task.id, generation: 1, candidateId: 'c', seed: 0, budget, targetSteps: budget.steps, chunkSteps: numEnvs * numSteps };
      assert.equal((await trainToTarget(item)).invocations, 2);
      hashes.push((JSON.parse((await blobs.getText(seedResultKey(searchId, 1, 'c', 0)))!) as SeedResult).thetaSha256);
    }
    assert.match(hashes[0] ?? '', /^[0-9a-f]{64}$/);
    assert.equal(hashes[0], hashes[1]);
  });
});

describe('Function: the typed container of a checkpoint', () => {
  it('brings every typed array back to the last bit, also out of a pooled Node Buffer', () => {
    const value = {
      update: 7, name: 'x', nested: [{ a: Float32Array.of(1.5, Math.fround(0.1), -0) }],
      f64: Float64Array.of(Math.PI, Number.MIN_VALUE, -1e308), i32: Int32Array.of(-1, 2 ** 31 - 1), u32: Uint32Array.of(2 ** 32 - 1, 0), bytes: Uint8Array.of(1, 2, 3),
    };
    const encoded = encodeTyped(value);
    // Buffer.from(...) of a small array lands in Node's shared pool, at an offset: views must not see past it.
    const pooled = Buffer.concat([Buffer.from('junk'), Buffer.from(encoded)]).subarray(4);
    for (const bytes of [encoded, pooled]) {
      const back = decodeTyped<typeof value>(bytes);
      assert.deepEqual(back, value);
      assert.ok(Object.is(back.nested[0].a[2], -0));
      assert.equal(back.f64.length, 3);
    }
  });

  it('refuses bytes that are not a container', () => {
    assert.throws(() => decodeTyped(new TextEncoder().encode('{"update": 1}')), { name: 'MalformedContainer' });
  });

  it('refuses a container that changed by one bit, and names another version of the format', () => {
    const encoded = encodeTyped({ theta: Float32Array.of(1, 2, 3) });
    for (let at = 0; at < encoded.length; at += 7) {
      const flipped = Uint8Array.from(encoded);
      flipped[at] ^= 0x10;
      assert.throws(() => decodeTyped(flipped), (error: Error) => error instanceof MalformedContainer, `a flipped bit at byte ${at}`);
    }
    const older = Uint8Array.from(encoded);
    older['EUREKA-TYPED-'.length] = '1'.charCodeAt(0);
    assert.throws(() => decodeTyped(older), { name: 'OtherContainerFormat', message: 'EUREKA-TYPED-1' });
  });
});
