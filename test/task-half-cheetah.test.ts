/**
 * The HalfCheetah-v5 task folder (tasks/half-cheetah/): its registration with gym.make's defaults,
 * seeded resets with Gymnasium's noise (uniform on qpos, Gaussian on qvel), the two baselines and
 * the success test against the golden episodes of Gymnasium's own HalfCheetah-v5
 * (shared/golden/mujoco/), the bank's policies and the card. Conformance is test/conformance-mujoco-planar.test.ts.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Task } from '../tasks/contract.ts';
import { prepareTask } from '../tasks/registry.ts';
import type { MujocoEpisode } from '../tasks/mujoco-common/recording.ts';
import { HalfCheetahEnv } from '../tasks/half-cheetah/environment.ts';
import { SUCCESS_METRES } from '../tasks/half-cheetah/task.ts';
import { policyEpisodes } from '../tasks/bank.ts';
import { episodeOf, finiteOnEveryStep, goldenEpisodes, recordedMetres, recordOf, rewardFileGap, rewardFileTerms, rewardOf, withMetres } from './support/mujoco-golden.ts';

let task: Task;
let golden: MujocoEpisode[];

describe('Task: HalfCheetah-v5', () => {
  before(async () => {
    task = await prepareTask('HalfCheetah-v5');
    golden = goldenEpisodes('HalfCheetah-v5');
  });

  it('is registered with gym.make\'s defaults: 17 observations, 6 torques in [-1, 1], 1,000 steps, threshold 4,800', () => {
    assert.equal(task.obsSize, 17);
    assert.deepEqual(task.action.kind === 'box' && [task.action.low, task.action.high], [[-1, -1, -1, -1, -1, -1], [1, 1, 1, 1, 1, 1]]);
    assert.equal(task.maxEpisodeSteps, 1000);
    assert.equal(task.rewardThreshold, 4800);
    assert.equal(task.termination, 'never');
    assert.doesNotMatch(task.environmentSource, /reward_forward|reward_ctrl/, 'the model does not read the reward');
    assert.match(task.environmentSource, /120, 90, 60, 120, 60, 30/);
  });

  it('resets qpos with uniform noise of ±0.1 and qvel with Gaussian noise of 0.1, reproducibly per seed', () => {
    const [a, b] = [new HalfCheetahEnv(64, 11), new HalfCheetahEnv(64, 11)];
    try {
      assert.deepEqual([...a.obs], [...b.obs]);
      const positions = [...a.obs].filter((_, i) => i % 17 < 8);
      const velocities = [...a.obs].filter((_, i) => i % 17 >= 8);
      assert.ok(positions.every((q) => Math.abs(q) <= 0.1 + 1e-7));
      // A standard normal passes 1 about 32% of the time: 576 velocities, far more than none past 0.1.
      const beyond = velocities.filter((v) => Math.abs(v) > 0.1).length;
      assert.ok(beyond > 100 && beyond < 280, `${beyond} of ${velocities.length} velocities beyond 0.1`);
    } finally {
      [a, b].forEach((env) => env.dispose());
    }
  });

  it('saves and restores its copies and generator: a run cut at a chunk goes on bit for bit, through its own resets', () => {
    const actions = (t: number) => Array.from({ length: 2 * 6 }, (_, k) => Math.sin(0.1 * t + k));
    const [whole, first, second] = [new HalfCheetahEnv(2, 5), new HalfCheetahEnv(2, 5), new HalfCheetahEnv(2, 99)];
    try {
      for (let t = 0; t < 600; t++) [whole, first].forEach((env) => env.step(actions(t)));
      second.restore(first.snapshot());
      // Past the 1,000-step time limit: each copy resets from the restored generator (uniform qpos, Gaussian qvel).
      for (let t = 600; t < 1100; t++) [whole, second].forEach((env) => env.step(actions(t)));
      assert.deepEqual([...second.obs], [...whole.obs]);
      assert.deepEqual([...second.elapsed], [100, 100]);
    } finally {
      [whole, first, second].forEach((env) => env.dispose());
    }
  });

  it('the environment\'s reward file is Gymnasium\'s reward, its forward term from the velocity at the step\'s two ends', () => {
    const reward = rewardOf(task.baselines.environment.code);
    assert.ok(rewardFileTerms(reward, golden).ctrl < 1e-7);
    // Measured on these episodes (random torques, and none): 0.74 in a step, 7.2 over a 1,000-step episode (the success line is 2,000).
    const gap = rewardFileGap(reward, golden);
    assert.ok(gap.step < 1 && gap.episode < 10, JSON.stringify(gap));
  });

  it('the person\'s shaping runs on every golden transition', () => {
    assert.ok(finiteOnEveryStep(rewardOf(task.baselines.human.code), golden));
  });

  it(`succeeds on ${SUCCESS_METRES} m forward of the recorded x, whatever the return: no golden episode does`, () => {
    for (const e of golden) {
      const episode = episodeOf(e, task);
      assert.equal(task.success.test(episode), false, `seed ${e.seed}`);
      assert.equal(task.progress.measure(episode), recordedMetres(e), `seed ${e.seed}: progress is the torso's x at the end less at the start`);
    }
    const episode = episodeOf(golden[0], task);
    assert.equal(task.success.test(withMetres(episode, SUCCESS_METRES)), true);
    assert.equal(task.success.test(withMetres(episode, SUCCESS_METRES - 1)), false);
    assert.equal(task.success.test({ ...episode, return: 1e6 }), false, 'no return makes a success');
  });

  it('the bank\'s policies fail as they say: running backwards, lying still, random; one 1,000-step episode each', () => {
    const episodes = policyEpisodes(task);
    const one = (name: string) => {
      const mine = episodes.filter((e) => e.policy === name);
      assert.equal(mine.length, 1, name);
      return mine[0];
    };
    assert.ok(one('backwards').return < -200, `backwards ${one('backwards').return}`);
    assert.ok(Math.abs(one('nothing').return) < 20 && one('random').return < 0);
    assert.ok(episodes.every((e) => e.kind === 'failure' && e.length === 1000));
  });

  it('draws the episode from MuJoCo\'s geometry: the torso, head and six leg capsules, animated, following its progress', () => {
    const e = golden[0];
    const record = recordOf(e);
    const svg = task.render.animation(record, '#2563eb');
    for (const geom of ['torso', 'head', 'bthigh', 'bshin', 'bfoot', 'fthigh', 'fshin', 'ffoot']) assert.match(svg, new RegExp(`<title>${geom}</title><animate attributeName="x1"`));
    assert.match(task.render.story(record), /runs to the time limit, 1000 steps/);
    assert.equal(task.render.plots(record, '#2563eb').length, 2);
    const moved = Number((task.render.story(record).match(/, (-?[\d.]+) metres forward/) ?? [])[1]);
    assert.equal(moved.toFixed(2), (e.steps[e.steps.length - 1].qpos[0] - e.initial_qpos[0]).toFixed(2));
  });
});
