/**
 * The Walker2d-v5 task folder (tasks/walker2d/): its registration with gym.make's defaults, seeded
 * resets with Gymnasium's noise, the two baselines and the success test against the golden
 * episodes of Gymnasium's own Walker2d-v5 (shared/golden/mujoco/), the bank's policies and the card.
 * Conformance (logic exactly, physics per step and by distribution) is test/conformance-mujoco-planar.test.ts.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Task } from '../tasks/contract.ts';
import { prepareTask } from '../tasks/registry.ts';
import type { MujocoEpisode } from '../tasks/mujoco-common/recording.ts';
import { Walker2dEnv } from '../tasks/walker2d/environment.ts';
import { SUCCESS_METRES } from '../tasks/walker2d/task.ts';
import { policyEpisodes } from '../tasks/bank.ts';
import { episodeOf, goldenEpisodes, recordedMetres, recordOf, rewardFileGap, rewardFileTerms, rewardOf, withMetres } from './support/mujoco-golden.ts';

let task: Task;
let golden: MujocoEpisode[];

describe('Task: Walker2d-v5', () => {
  before(async () => {
    task = await prepareTask('Walker2d-v5');
    golden = goldenEpisodes('Walker2d-v5');
  });

  it('is registered with gym.make\'s defaults: 17 observations, 6 torques in [-1, 1], 1,000 steps, no threshold', () => {
    assert.equal(task.obsSize, 17);
    assert.deepEqual(task.action.kind === 'box' && [task.action.low, task.action.high], [[-1, -1, -1, -1, -1, -1], [1, 1, 1, 1, 1, 1]]);
    assert.equal(task.maxEpisodeSteps, 1000);
    assert.equal(task.rewardThreshold, undefined);
    assert.doesNotMatch(task.environmentSource, /reward_forward|reward_ctrl/, 'the model does not read the reward');
    assert.match(task.environmentSource, /gear 100/);
  });

  it('resets each copy to Gymnasium\'s start plus uniform noise of ±0.005, reproducibly per seed', () => {
    const [a, b, c] = [new Walker2dEnv(4, 11), new Walker2dEnv(4, 11), new Walker2dEnv(4, 12)];
    try {
      assert.deepEqual([...a.obs], [...b.obs]);
      assert.notDeepEqual([...a.obs], [...c.obs]);
      const start = [1.25, ...new Array<number>(16).fill(0)];
      for (let i = 0; i < a.obs.length; i++) assert.ok(Math.abs(a.obs[i] - start[i % 17]) <= 0.005 + 1e-7, `entry ${i % 17}`);
    } finally {
      [a, b, c].forEach((env) => env.dispose());
    }
  });

  it('the environment\'s reward file is Gymnasium\'s reward, its forward term from the velocity at the step\'s two ends', () => {
    const reward = rewardOf(task.baselines.environment.code);
    const terms = rewardFileTerms(reward, golden);
    assert.ok(terms.ctrl < 1e-9 && terms.surviveDiffers === 0, JSON.stringify(terms));
    // Measured on these episodes: 0.064 in a step, 0.62 (1.4%) over an episode.
    const gap = rewardFileGap(reward, golden);
    assert.ok(gap.step < 0.1 && gap.episode < 1, JSON.stringify(gap));
  });

  it('the person\'s shaping runs on every golden transition and pays a fall less than a step alive', () => {
    const reward = rewardOf(task.baselines.human.code);
    for (const e of golden) {
      const last = e.steps[e.steps.length - 1];
      const obs = e.steps.length > 1 ? e.steps[e.steps.length - 2].obs : e.initial_obs;
      const [fall] = reward(obs, last.action, last.obs, true);
      const [alive] = reward(obs, last.action, last.obs, false);
      assert.ok(Number.isFinite(fall) && fall < alive);
    }
  });

  it(`succeeds only on all 1,000 steps healthy and ${SUCCESS_METRES} m forward of the recorded x: no golden episode does`, () => {
    for (const e of golden) {
      const episode = episodeOf(e, task);
      assert.equal(task.success.test(episode), false, `seed ${e.seed}`);
      assert.equal(task.progress.measure(episode), recordedMetres(e), `seed ${e.seed}: progress is the torso's x at the end less at the start`);
    }
    const standing = episodeOf(golden.find((e) => e.episode_length === 1000)!, task);
    assert.equal(standing.truncated, true);
    assert.equal(task.success.test(withMetres(standing, SUCCESS_METRES)), true);
    assert.equal(task.success.test(withMetres(standing, SUCCESS_METRES - 0.01)), false);
    assert.equal(task.success.test({ ...withMetres(standing, SUCCESS_METRES + 5), terminated: true }), false, 'a fall fails however far');
    assert.equal(task.success.test({ ...standing, return: 1e6 }), false, 'no return makes a success');
    assert.ok(Math.abs(task.progress.measure(standing)) < 0.1, 'the posture controller went nowhere');
  });

  it('the bank\'s policies fail as they say: collapsing, standing still to the time limit, flailing, random', () => {
    const episodes = policyEpisodes(task);
    const by = (name: string) => episodes.filter((e) => e.policy === name);
    assert.ok(by('stand').length === 1 && by('stand').every((e) => e.truncated && e.length === 1000));
    assert.ok(by('nothing').length > 0 && by('nothing').every((e) => e.terminated));
    assert.ok(by('flail').length > 0 && by('random').length > 0);
    assert.ok(episodes.every((e) => e.kind === 'failure'));
  });

  it('draws the episode from MuJoCo\'s geometry: seven capsules, both legs, animated, following its progress', () => {
    const e = golden.find((g) => g.episode_length === 1000)!;
    const record = recordOf(e);
    const svg = task.render.animation(record, '#2563eb');
    for (const geom of ['torso_geom', 'thigh_geom', 'leg_geom', 'foot_geom', 'thigh_left_geom', 'leg_left_geom', 'foot_left_geom']) {
      assert.match(svg, new RegExp(`<title>${geom}</title><animate attributeName="x1"`));
    }
    assert.match(svg, /seen from the side/);
    assert.match(task.render.story(record), /stays up to the time limit, 1000 steps/);
    assert.equal(task.render.plots(record, '#2563eb').length, 2);
    // x rebuilt from the rewards is the recorded x, to float32 rounding of the control cost.
    const moved = Number((task.render.story(record).match(/, (-?[\d.]+) metres forward/) ?? [])[1]);
    assert.equal(moved.toFixed(2), (e.steps[e.steps.length - 1].qpos[0] - e.initial_qpos[0]).toFixed(2));
  });
});
