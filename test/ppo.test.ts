import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ppoConfigFor } from '../core/ppo-config.ts';
import { gae, train, type RewardModel } from '../functions/train-seed/ppo.ts';
import { initBackend } from '../functions/train-seed/backend.ts';
import { runSeed } from '../functions/train-seed/seed-run.ts';
import type { Task, VecEnv } from '../tasks/contract.ts';
import { getTask } from '../tasks/registry.ts';

describe('Function: gae', () => {
  it('matches a hand computation with a done in the middle and a bootstrap at the end', () => {
    // Prepare: one env, three steps; the episode ends at step 1, so step 2 starts a new one.
    const rewards = [1, 2, 3];
    const values = Float32Array.from([0.5, 0.25, 1]);
    const dones = Uint8Array.from([0, 1, 0]);
    const nextValues = Float32Array.from([2]);
    const [gamma, lam] = [0.9, 0.8];
    const advantages = new Float32Array(3);
    const returns = new Float32Array(3);

    // Act
    gae({ rewards, values, dones, nextValues, numSteps: 3, numEnvs: 1, gamma, gaeLambda: lam }, advantages, returns);

    // Assess
    const d2 = 3 + gamma * 2 - 1;
    const d1 = 2 - 0.25;
    const d0 = 1 + gamma * 0.25 - 0.5;
    const expected = [d0 + gamma * lam * d1, d1, d2];
    expected.forEach((a, i) => assert.ok(Math.abs(advantages[i] - a) < 1e-6, `advantage ${i}`));
    expected.forEach((a, i) => assert.ok(Math.abs(returns[i] - (a + values[i])) < 1e-6, `return ${i}`));
  });

  it('keeps environments apart in a (steps, envs) layout', () => {
    const advantages = new Float32Array(4);
    const returns = new Float32Array(4);
    // Two steps, two envs: env 0 earns 1 per step, env 1 earns nothing.
    gae({ rewards: [1, 0, 1, 0], values: new Float32Array(4), dones: new Uint8Array(4), nextValues: new Float32Array(2), numSteps: 2, numEnvs: 2, gamma: 1, gaeLambda: 1 }, advantages, returns);
    assert.deepEqual(Array.from(advantages), [2, 0, 1, 0]);
  });
});

describe('Function: train', () => {
  for (const id of ['MountainCar-v0', 'Pendulum-v1']) {
    it(`gives the same parameters for the same seed, and others for another (${id})`, async () => {
      // Prepare: three updates of the person's shaping through the real sandbox.
      const task = getTask(id);
      const run = (seed: number) => runSeed({ task, candidateId: 'human', source: task.baselines.human.code, seed, budget: { steps: 3 * 16 * (task.ppo?.numSteps ?? 128), evalEpisodes: 1 } });

      // Act
      const [a, b, c] = [await run(3), await run(3), await run(4)];

      // Assess
      assert.equal(a.result.outcome, 'trained', a.result.reason);
      assert.deepEqual(a.policy!.theta, b.policy!.theta);
      assert.notDeepEqual(a.policy!.theta, c.policy!.theta);
    });
  }

  it('frees the training copies when a checkpoint\'s environment cannot be restored, not leaving them to the finalizer', async () => {
    // Prepare: InvertedPendulum's copies, each dispose() counted; a checkpoint of no update, then
    // the same with its physics cut short, as a checkpoint of another shape would be.
    const real = getTask('InvertedPendulum-v5');
    const made: VecEnv[] = [];
    const disposed: VecEnv[] = [];
    const task: Task = {
      ...real,
      makeEnv: (n, seed) => {
        const envs = real.makeEnv(n, seed);
        const free = envs.dispose?.bind(envs);
        envs.dispose = () => {
          disposed.push(envs);
          free?.();
        };
        made.push(envs);
        return envs;
      },
    };
    const config = ppoConfigFor(real, 1, 2048);
    const noReward: RewardModel = { evaluate: () => assert.fail('no update runs') };
    const { checkpoint } = await train(config, task, noReward, { stopAfterUpdate: 0 });
    assert.ok(checkpoint.env?.physics instanceof Float64Array);
    const cut = { ...checkpoint, env: { ...checkpoint.env, physics: checkpoint.env.physics.subarray(1) } };

    // Act
    await assert.rejects(train(config, task, noReward, { resume: cut }), /a snapshot of another environment/);

    // Assess: both trainings' copies freed, each once.
    assert.equal(made.length, 2);
    assert.deepEqual(made.map((envs) => disposed.filter((d) => d === envs).length), [1, 1]);
  });

  it('counts the final observation of every episode that ends in the observation statistic only where normObsTerminal asks (the MuJoCo tasks do), as CleanRL\'s wrapper does', async () => {
    // Prepare: InvertedPendulum's random policy drops the pole within a few dozen steps, so episodes end in the rollout.
    const task = getTask('InvertedPendulum-v5');
    await Promise.all([task.prepare?.(), initBackend()]);
    const zero: RewardModel = { evaluate: (batch) => ({ rewards: new Float64Array(batch.count), terms: new Map() }) };
    const run = async (normObsTerminal: boolean) => {
      const config = { ...ppoConfigFor(task, 3, 2048), normObsTerminal };
      const { checkpoint } = await train(config, task, zero, { stopAfterUpdate: 1 });
      return { count: checkpoint.obsNormalizer?.[0] ?? Number.NaN, ended: checkpoint.updates[0].episodesEnded, copies: config.numEnvs, steps: config.numSteps };
    };

    // Act
    const [without, counted] = [await run(false), await run(true)];

    // Assess: the reset observations and every step's (CleanRL's one copy, 2,048 steps), and with the flag each ending's final one too.
    assert.ok(without.ended > 16, `${without.ended} episodes ended`);
    assert.ok(Math.abs(without.count - (1e-4 + without.copies * (1 + without.steps))) < 1e-6, `${without.count}`);
    assert.ok(Math.abs(counted.count - (without.count + counted.ended)) < 1e-6, `${counted.count} against ${without.count} + ${counted.ended}`);
  });
});
