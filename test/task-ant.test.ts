/**
 * The Ant-v5 task folder (tasks/ant/): its registration with gym.make's defaults (105
 * observations, the contact forces among them), seeded resets with Gymnasium's noise, the two
 * baselines and the success test against the golden episodes of Gymnasium's own Ant-v5
 * (shared/golden/mujoco/), a chunked seed-run's resume, the bank's policies and the card.
 * Conformance is test/conformance-sub-step.test.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { recordingText } from '../tasks/conformance.ts';
import type { EpisodeRecord, Task } from '../tasks/contract.ts';
import { prepareTask } from '../tasks/registry.ts';
import { mujocoEpisode, type MujocoEpisode } from '../tasks/mujoco-common/recording.ts';
import { AntEnv } from '../tasks/ant/environment.ts';
import { SUCCESS_METRES } from '../tasks/ant/task.ts';
import { playEpisode, policyEpisodes } from '../tasks/bank.ts';
import { readStoredBank, storedMade } from '../tasks/bank-file.ts';
import { episodeOf, recordedMetres, withMetres } from './support/mujoco-golden.ts';

type RewardFn = (obs: number[], action: number[], nextObs: number[], terminated: boolean) => [number, Record<string, number>];
const rewardOf = (code: string): RewardFn => new Function(`${code}\nreturn computeReward;`)() as RewardFn;

let task: Task;
let golden: MujocoEpisode[];

describe('Task: Ant-v5', () => {
  before(async () => {
    task = await prepareTask('Ant-v5');
    const json = JSON.parse(recordingText(readFileSync(new URL('../../shared/golden/mujoco/Ant-v5.json.gz', import.meta.url)))) as { episodes: unknown[] };
    golden = json.episodes.map((e) => mujocoEpisode(e as MujocoEpisode));
  });

  it('is registered with gym.make\'s defaults: 105 observations (78 contact forces), 8 torques in [-1, 1], 1,000 steps, threshold 6,000', () => {
    assert.equal(task.obsSize, 105);
    assert.equal(task.actionSize, 8);
    assert.deepEqual([task.maxEpisodeSteps, task.rewardThreshold], [1000, 6000]);
    assert.equal(task.observation.filter((o) => o.name.startsWith('contact ')).length, 78);
    assert.doesNotMatch(task.environmentSource, /reward_forward|reward_contact|CONTACT_COST_WEIGHT \*/, 'the model does not read the reward');
    assert.match(task.environmentSource, /gear 150/);
  });

  it('resets to Gymnasium\'s start: uniform noise of ±0.1 on qpos, reproducibly per seed, no contact force yet', () => {
    const [a, b, c] = [new AntEnv(3, 7), new AntEnv(3, 7), new AntEnv(3, 8)];
    try {
      assert.deepEqual([...a.obs], [...b.obs]);
      assert.notDeepEqual([...a.obs], [...c.obs]);
      for (let i = 0; i < 3; i++) {
        const obs = a.obs.subarray(105 * i, 105 * (i + 1));
        assert.ok(Math.abs(obs[0] - 0.75) <= 0.1 + 1e-7, 'the torso starts 0.75 m up');
        assert.ok(obs.subarray(27).every((f) => f === 0), 'contact forces are 0 at a reset');
      }
    } finally {
      [a, b, c].forEach((env) => env.dispose());
    }
  });

  it('the environment\'s reward file is Gymnasium\'s reward: survive, control and contact terms to float32, forward from the velocity at the step\'s two ends', () => {
    const reward = rewardOf(task.baselines.environment.code);
    let worstStep = 0;
    for (const e of golden) {
      let [ours, theirs] = [0, 0];
      e.steps.forEach((s, t) => {
        const obs = t === 0 ? e.initial_obs : e.steps[t - 1].obs;
        const [r, terms] = reward(obs, s.action, s.obs.map(Math.fround), s.terminated);
        assert.equal(terms.survive, s.info?.reward_survive);
        assert.ok(Math.abs(terms.ctrl - (s.info?.reward_ctrl ?? Number.NaN)) < 1e-6);
        assert.ok(Math.abs(terms.contact - (s.info?.reward_contact ?? Number.NaN)) < 1e-6, 'the contact forces in the observation are all of them');
        worstStep = Math.max(worstStep, Math.abs(r - s.reward));
        [ours, theirs] = [ours + r, theirs + s.reward];
      });
      assert.ok(Math.abs(ours - theirs) <= 0.01 * Math.abs(theirs) + 1, `seed ${e.seed}: ${ours} against ${theirs}`);
    }
    assert.ok(worstStep < 1, `largest difference in one step ${worstStep}`);
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

  it(`measures metres forward as the torso's recorded x at the end less at the start; succeeds only on all 1,000 steps and ${SUCCESS_METRES} m: no golden episode does`, () => {
    for (const e of golden) {
      const episode = episodeOf(e, task);
      assert.equal(task.progress.measure(episode), recordedMetres(e), `seed ${e.seed}`);
      assert.equal(task.success.test(episode), false, `seed ${e.seed}`);
    }
    const standing = episodeOf(golden.find((e) => e.episode_length === 1000 && e.steps.length === 1000)!, task);
    assert.equal(task.success.test(withMetres(standing, SUCCESS_METRES)), true);
    assert.equal(task.success.test(withMetres(standing, SUCCESS_METRES - 0.01)), false);
    assert.equal(task.success.test({ ...withMetres(standing, 2 * SUCCESS_METRES), terminated: true }), false, 'a fall fails however far');
  });

  it('a policy that vibrates in place stays up all 1,000 steps, fails the success test and scores no progress, whatever its velocity reads', () => {
    // Every actuator flips between -1 and +1 each step: the legs shake at the control rate, the torso stays put.
    const shake = (t: number): number[] => Array(8).fill(t % 2 === 0 ? 1 : -1);
    for (const seed of [0, 1]) {
      const episode = playEpisode(task, 'shake', 'failure', (_obs, t) => shake(t), seed);
      assert.equal(episode.length, 1000, `seed ${seed}: it stays healthy to the time limit`);
      const asTested = { ...episode, obsSize: task.obsSize, recordSize: task.recordSize };
      assert.ok(Math.abs(task.progress.measure(asTested)) < 2, `seed ${seed}: ${task.progress.measure(asTested)} m`);
      assert.equal(task.success.test(asTested), false);
      // The same episode with its x velocity reading 2 m/s at every step's end, as a shake in step with
      // the controls could read (the old test integrated it: 100 m): the recorded x still says it stayed.
      const observations = Float32Array.from(episode.observations);
      for (let t = 0; t <= episode.length; t++) observations[task.obsSize * t + 13] = 2;
      assert.equal(task.success.test({ ...asTested, observations }), false);
      assert.equal(task.progress.measure({ ...asTested, observations }), task.progress.measure(asTested));
    }
  });

  it('a copy restored from a snapshot steps on exactly as the one it was taken from (the torso\'s last position included)', () => {
    const [a, b] = [new AntEnv(2, 3), new AntEnv(2, 99)];
    try {
      const act = (t: number) => Array.from({ length: 16 }, (_, k) => Math.sin(0.3 * t + k));
      for (let t = 0; t < 40; t++) a.step(act(t));
      b.restore(a.snapshot());
      for (let t = 40; t < 80; t++) {
        a.step(act(t));
        b.step(act(t));
        assert.deepEqual([...b.reward], [...a.reward], `step ${t}`);
        assert.deepEqual([...b.finalObs], [...a.finalObs]);
      }
    } finally {
      a.dispose();
      b.dispose();
    }
  });

  it('the bank\'s policies fail as they say: standing still goes nowhere to the time limit, random actions jump or flip', () => {
    const episodes = policyEpisodes(task);
    const by = (name: string) => episodes.filter((e) => e.policy === name);
    assert.ok(by('nothing').length > 0 && by('nothing').every((e) => e.truncated && e.length === 1000));
    assert.ok(by('random').length > 0 && by('random').every((e) => e.terminated));
    assert.ok(episodes.every((e) => e.kind === 'failure'));
  });

  it('the stored bank\'s successes come from two rewards at least, one of them trained on two seeds at least, so the screen does not lean on one gait', () => {
    const bank = readStoredBank(task);
    assert.ok(bank);
    const made = storedMade(task) as Record<string, { seeds?: number[] } | undefined>;
    const rewards = new Set(bank.episodes.filter((e) => e.kind === 'success').map((e) => e.policy));
    assert.ok(rewards.size >= 2, `successes of ${[...rewards].join(', ')}`);
    const seeds = [...rewards].map((p) => made[p]?.seeds?.length ?? 1);
    assert.ok(Math.max(...seeds) >= 2, `training seeds per reward: ${seeds.join(', ')}`);
  });

  it('draws the greedy episode from MuJoCo\'s geometry seen from above: the torso and twelve leg capsules, animated, the frame following its walk', () => {
    const e = golden.find((g) => g.steps.length === 1000)!;
    const record: EpisodeRecord = {
      observations: [e.initial_obs, ...e.steps.map((s) => s.obs)], actions: e.steps.map((s) => s.action), rewards: e.steps.map((s) => s.reward),
      success: false, terminated: false, truncated: true,
    };
    const svg = task.render.animation(record, '#2563eb');
    for (const geom of ['torso_geom', 'aux_1_geom', 'left_ankle_geom', 'fourth_ankle_geom']) assert.match(svg, new RegExp(`<title>${geom}</title><animate attributeName="x1"`));
    assert.match(svg, /animateTransform attributeName="transform" type="translate"/);
    assert.match(task.render.story(record), /stays up to the time limit, 1000 steps/);
    assert.equal(task.render.plots(record, '#2563eb').length, 2);
  });
});
