/**
 * The Hopper-v5 task folder (tasks/hopper/): its registration with gym.make's defaults, seeded
 * resets with Gymnasium's noise, the two baselines and the success test against the golden
 * episodes of Gymnasium's own Hopper-v5 (shared/golden/mujoco/), the bank's policies and the card.
 * Conformance (logic exactly, physics by distribution) is test/conformance-mujoco.test.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { recordingText } from '../tasks/conformance.ts';
import type { EpisodeRecord, Task } from '../tasks/contract.ts';
import { prepareTask } from '../tasks/registry.ts';
import { mujocoEpisode, type MujocoEpisode } from '../tasks/mujoco-common/recording.ts';
import { HopperEnv } from '../tasks/hopper/environment.ts';
import { SUCCESS_METRES } from '../tasks/hopper/task.ts';
import { policyEpisodes } from '../tasks/bank.ts';
import { episodeOf, recordedMetres, withMetres } from './support/mujoco-golden.ts';

type RewardFn = (obs: number[], action: number[], nextObs: number[], terminated: boolean) => [number, Record<string, number>];
const rewardOf = (code: string): RewardFn => new Function(`${code}\nreturn computeReward;`)() as RewardFn;

const GOLDEN = new URL('../../shared/golden/mujoco/Hopper-v5.json.gz', import.meta.url);
let task: Task;
let golden: MujocoEpisode[];

describe('Task: Hopper-v5', () => {
  before(async () => {
    task = await prepareTask('Hopper-v5');
    const json = JSON.parse(recordingText(readFileSync(GOLDEN))) as { episodes: unknown[] };
    golden = json.episodes.map((e) => mujocoEpisode(e as MujocoEpisode));
  });

  it('is registered with gym.make\'s defaults: 11 observations, 3 torques in [-1, 1], 1,000 steps, threshold 3,800', () => {
    assert.equal(task.obsSize, 11);
    assert.deepEqual(task.action, { kind: 'box', names: ['thigh torque', 'leg torque', 'foot torque'], low: [-1, -1, -1], high: [1, 1, 1] });
    assert.equal(task.maxEpisodeSteps, 1000);
    assert.equal(task.rewardThreshold, 3800);
    assert.doesNotMatch(task.environmentSource, /reward_forward|reward_ctrl/, 'the model does not read the reward');
    assert.match(task.environmentSource, /gear 200/);
  });

  it('resets each copy to Gymnasium\'s start plus uniform noise of ±0.005, reproducibly per seed', () => {
    const [a, b, c] = [new HopperEnv(4, 11), new HopperEnv(4, 11), new HopperEnv(4, 12)];
    try {
      assert.deepEqual([...a.obs], [...b.obs]);
      assert.notDeepEqual([...a.obs], [...c.obs]);
      const start = [1.25, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
      for (let i = 0; i < a.obs.length; i++) assert.ok(Math.abs(a.obs[i] - start[i % 11]) <= 0.005 + 1e-7, `entry ${i % 11}`);
    } finally {
      [a, b, c].forEach((env) => env.dispose());
    }
  });

  it('the environment\'s reward file is Gymnasium\'s reward, its forward term from the velocity at the step\'s two ends', () => {
    const reward = rewardOf(task.baselines.environment.code);
    let worstStep = 0;
    for (const e of golden) {
      let [ours, theirs] = [0, 0];
      e.steps.forEach((s, t) => {
        const obs = t === 0 ? e.initial_obs : e.steps[t - 1].obs;
        const [r, terms] = reward(obs, s.action, s.obs, s.terminated);
        assert.equal(terms.survive, s.info?.reward_survive);
        assert.ok(Math.abs(terms.ctrl - (s.info?.reward_ctrl ?? Number.NaN)) < 1e-9);
        worstStep = Math.max(worstStep, Math.abs(r - s.reward));
        [ours, theirs] = [ours + r, theirs + s.reward];
      });
      // The velocity's mean stands in for the displacement: over an episode the two agree to 1%.
      assert.ok(Math.abs(ours - theirs) <= 0.01 * Math.abs(theirs) + 1, `seed ${e.seed}: ${ours} against ${theirs}`);
    }
    assert.ok(worstStep < 0.5, `largest difference in one step ${worstStep}`);
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
    assert.ok(Math.abs(task.progress.measure(standing)) < 0.1, 'the standing controller went nowhere');
  });

  it('the bank\'s policies fail as they say: toppling, standing still to the time limit, flailing, random', () => {
    const episodes = policyEpisodes(task);
    const by = (name: string) => episodes.filter((e) => e.policy === name);
    assert.ok(by('stand').length > 0 && by('stand').every((e) => e.truncated && e.length === 1000));
    assert.ok(by('nothing').every((e) => e.terminated));
    assert.ok(by('flail').length > 0 && by('random').length > 0);
    assert.ok(episodes.every((e) => e.kind === 'failure'));
  });

  it('draws the greedy episode from MuJoCo\'s geometry: the hopper\'s four capsules, animated, following its progress', () => {
    const e = golden.find((g) => g.episode_length === 1000)!;
    const record: EpisodeRecord = {
      observations: [e.initial_obs, ...e.steps.map((s) => s.obs)], actions: e.steps.map((s) => s.action), rewards: e.steps.map((s) => s.reward),
      success: false, terminated: false, truncated: true,
    };
    const svg = task.render.animation(record, '#2563eb');
    for (const geom of ['torso_geom', 'thigh_geom', 'leg_geom', 'foot_geom']) assert.match(svg, new RegExp(`<title>${geom}</title><animate attributeName="x1"`));
    assert.match(svg, /animateTransform attributeName="transform" type="translate"/);
    assert.match(task.render.story(record), /stays up to the time limit, 1000 steps/);
    assert.equal(task.render.plots(record, '#2563eb').length, 2);
    // x rebuilt from the rewards is the recorded x, to float32 rounding of the control cost.
    const qposOfLast = (task.render.story(record).match(/, (-?[\d.]+) metres forward/) ?? [])[1];
    assert.equal(Number(qposOfLast).toFixed(2), (e.steps[e.steps.length - 1].qpos[0] - e.initial_qpos[0]).toFixed(2));
  });
});
