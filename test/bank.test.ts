/**
 * The screen's bank of episodes (tasks/bank.ts, bank-file.ts): every task ships one, small; its
 * successes pass the task's own test and its failures fail it; every episode is the task's
 * environment's own (replayed from its seed, the same observations to the last bit, and checked
 * against its digest when read); a task that declares nothing gets random actions and doing
 * nothing; a broken or stale file is refused by name.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { bankPolicies, passes } from '../tasks/bank.ts';
import { bankFile, InvalidBank, loadBank, readStoredBank, storedMade, writeBank } from '../tasks/bank-file.ts';
import type { Task } from '../tasks/contract.ts';
import { TASKS } from '../tasks/registry.ts';
import { addedPolicies } from '../local/bank-add.ts';
import { OWN_GAIT, TRAINED_POLICIES, trainedBaseline } from '../local/bank-make.ts';

/** "A few hundred KiB per task at most" (issue 24). */
const MAX_BANK_BYTES = 384 * 1024;

/**
 * The task's bank as the screen loads it, once a process for both of its tests (loadBank keeps it):
 * reading the stored one replays every episode and checks it against its digest (Go1's and Ant's
 * take seconds).
 */
async function storedBank(task: Task): Promise<ReturnType<typeof loadBank>> {
  await task.prepare?.();
  return loadBank(task);
}

describe('The bank of each task', () => {
  for (const task of TASKS) {
    it(`${task.id}: stored, small, every kind present, each episode of its kind`, async () => {
      assert.ok(statSync(bankFile(task)).size <= MAX_BANK_BYTES, `${bankFile(task)} is ${statSync(bankFile(task)).size} bytes`);
      const bank = await storedBank(task);
      assert.ok(bank.stored, 'a stored bank');
      // Successes come from the trained policy of the baseline the task names (the person's shaping
      // unless it says), or, where that does not succeed at the task's budget, from a success policy
      // the task writes, or from a search winner's policy added with --add-policy (a behaviour whose
      // first try reached it on no seed the bank trained).
      const ownSuccesses = bankPolicies(task).some((p) => p.kind === 'success');
      const trained = TRAINED_POLICIES[trainedBaseline(task)].policy.name;
      const added = new Set(addedPolicies(storedMade(task)));
      const successes = bank.episodes.some((e) => e.kind === 'success');
      if (task.bank?.noSuccessesYet !== undefined) {
        assert.equal(successes, false, `${task.id}'s bank declares no successes yet: drop noSuccessesYet`);
      } else {
        const sourced = bank.episodes.some((e) => e.kind === 'success' && (e.policy === trained || added.has(e.policy)));
        assert.ok(ownSuccesses || sourced, `the successes of ${trained}, or of a policy added with --add-policy`);
        assert.ok(successes, 'successes');
      }
      for (const policy of bankPolicies(task)) {
        assert.ok(bank.episodes.some((e) => e.policy === policy.name), `episodes of ${policy.name}`);
      }
      // A bank made before the task named another baseline is stale: remake it. A policy added with
      // --add-policy (its folder in the bank's made) is the bank's own.
      const declared = new Set([...bankPolicies(task).map((p) => p.name), ...added]);
      // A behaviour's robot's own gait (its own reward's trained policy) is one of its ways to fail.
      if (task.bank?.trainedFailures !== undefined) {
        declared.add(OWN_GAIT);
        assert.ok(bank.episodes.some((e) => e.policy === OWN_GAIT && e.kind === 'failure'), 'episodes of the robot\'s own gait');
      }
      for (const episode of bank.episodes.filter((e) => !declared.has(e.policy))) assert.equal(episode.policy, trained, 'remake the bank');
      for (const episode of bank.episodes) {
        assert.equal(passes(task, episode), episode.kind === 'success', `${episode.policy} seed ${episode.seed}`);
      }
    });

    it(`${task.id}: every episode replays in the environment from its seed, to the last bit`, async () => {
      // Reading the bank replayed every episode and held it to the digest taken when the bank was
      // made; stepped here, apart from the bank's own replay, the first episode of each policy shows
      // the same observations and the same ending.
      const bank = await storedBank(task);
      assert.ok(bank.stored, 'a stored bank');
      // A Map keeps the last value set under a key: built from the end, it keeps each policy's first.
      const firstOfEach = [...new Map(bank.episodes.map((e) => [e.policy, e] as const).reverse()).values()];
      for (const episode of firstOfEach) assert.equal(replayDiffers(task, episode), null, `${episode.policy} seed ${episode.seed}`);
    });
  }
});

describe('A task without a stored bank or policies of its own', () => {
  it('gets random actions and doing nothing, played now, without trained successes', () => {
    // MountainCar as a user's task would be: no bank.json.gz in its folder, no bank declaration.
    const mountainCar = TASKS.find((t) => t.id === 'MountainCar-v0') as Task;
    const task: Task = { ...mountainCar, directory: mkdtempSync(join(tmpdir(), 'own-task-')), bank: undefined };
    const bank = loadBank(task);
    assert.equal(bank.stored, false);
    assert.equal(bank.successWords, 'succeeding');
    assert.deepEqual([...new Set(bank.episodes.map((e) => e.policy))], ['random', 'nothing']);
    assert.ok(bank.episodes.every((e) => e.kind === 'failure' && !passes(task, e) && e.truncated));
    assert.equal(loadBank(task), bank, 'made once per process');
    assert.equal(loadBank(mountainCar).stored, true, 'the task\'s own folder still has its stored bank');
  });
});

describe('Function: readStoredBank', () => {
  it('refuses another task\'s bank and an episode of the wrong shape, naming the file', () => {
    const [mountainCar, cartPole] = ['MountainCar-v0', 'CartPole-v1'].map((id) => TASKS.find((t) => t.id === id) as Task);
    const dir = mkdtempSync(join(tmpdir(), 'bank-'));
    const body = { format: 'eureka-serverless/bank@1', task: 'CartPole-v1', made: {}, successWords: 'x', policies: [{ name: 'random', kind: 'failure', words: 'y' }],
      episodes: [{ policy: 'random', kind: 'failure', seed: 0, terminated: true, truncated: false, return: 1, observations: [0, 0, 0], actions: [1] }] };
    writeFileSync(join(dir, 'bank.json.gz'), gzipSync(JSON.stringify(body)));
    assert.throws(() => readStoredBank({ ...mountainCar, directory: dir }), (e: Error) => e instanceof InvalidBank && /bank\.json\.gz is the bank of CartPole-v1, not of MountainCar-v0/.test(e.message));
    assert.throws(() => readStoredBank({ ...cartPole, directory: dir }), (e: Error) => e instanceof InvalidBank && /episode 0 does not have 4 observation values a step/.test(e.message));
  });
});

describe('A stored bank@2 episode', () => {
  it('is played again from its seed and refused by name where the environment shows otherwise than its digest', () => {
    const cartPole = TASKS.find((t) => t.id === 'CartPole-v1') as Task;
    const dir = mkdtempSync(join(tmpdir(), 'bank-'));
    const stored = readStoredBank(cartPole);
    assert.ok(stored);
    const file = join(dir, 'bank.json.gz');
    writeBank(file, { ...stored, episodes: stored.episodes.slice(0, 2) }, { by: 'this test' });
    const own = { ...cartPole, directory: dir };
    assert.deepEqual(readStoredBank(own)?.episodes.map((e) => [...e.observations]), stored.episodes.slice(0, 2).map((e) => [...e.observations]));
    // One action changed after the bank was made: the episode no longer shows what its digest says.
    const body = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as { episodes: Array<{ actions: number[] }> };
    body.episodes[1].actions[0] = 1 - body.episodes[1].actions[0];
    writeFileSync(file, gzipSync(JSON.stringify(body)));
    assert.throws(() => readStoredBank(own), (e: Error) => e instanceof InvalidBank && /episode 1 \(.*seed \d+\) plays otherwise .*make the bank again/.test(e.message));
  });

  it('of a bank@1 file is refused for a task that records state those files lack', () => {
    const hopper = TASKS.find((t) => t.id === 'Hopper-v5') as Task;
    const dir = mkdtempSync(join(tmpdir(), 'bank-'));
    const body = { format: 'eureka-serverless/bank@1', task: 'Hopper-v5', made: {}, successWords: 'x', policies: [{ name: 'random', kind: 'failure', words: 'y' }],
      episodes: [{ policy: 'random', kind: 'failure', seed: 0, terminated: true, truncated: false, return: 1, observations: Array(22).fill(0), actions: [0, 0, 0] }] };
    writeFileSync(join(dir, 'bank.json.gz'), gzipSync(JSON.stringify(body)));
    assert.throws(() => readStoredBank({ ...hopper, directory: dir }), (e: Error) => e instanceof InvalidBank && /made before banks kept the recorded state/.test(e.message));
  });
});

/** The first step at which the environment, given the episode's actions from its seed, sees otherwise. */
function replayDiffers(task: Task, episode: ReturnType<typeof loadBank>['episodes'][number]): string | null {
  const env = task.makeEnv(1, episode.seed);
  try {
    return firstDifference(task, env, episode);
  } finally {
    env.dispose?.();
  }
}

function firstDifference(task: Task, env: ReturnType<Task['makeEnv']>, episode: ReturnType<typeof loadBank>['episodes'][number]): string | null {
  const d = task.obsSize;
  const k = task.actionSize;
  if (!env.obs.subarray(0, d).every((v, j) => Object.is(v, episode.observations[j]) || v === episode.observations[j])) return 'the reset';
  for (let t = 0; t < episode.length; t++) {
    env.step(episode.actions.subarray(t * k, (t + 1) * k));
    const seen = episode.observations.subarray((t + 1) * d, (t + 2) * d);
    if (!env.finalObs.subarray(0, d).every((v, j) => v === seen[j])) return `step ${t}`;
    const last = t === episode.length - 1;
    const ended = env.terminated[0] === 1 || env.truncated[0] === 1;
    if (ended !== last || (last && (env.terminated[0] === 1) !== episode.terminated)) return `the ending at step ${t}`;
  }
  return null;
}
