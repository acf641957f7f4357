/**
 * The Reacher-v5 task folder (tasks/reacher/): its registration with gym.make's defaults, seeded
 * resets with Gymnasium's target in the disc, the two baselines and the success test against the
 * golden episodes of Gymnasium's own Reacher-v5 (shared/golden/mujoco/), the bank's policies and
 * the card seen from above. Conformance is test/conformance-sub-step.test.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { recordingText } from '../tasks/conformance.ts';
import type { Episode, EpisodeRecord, Task } from '../tasks/contract.ts';
import { prepareTask } from '../tasks/registry.ts';
import { mujocoEpisode, type MujocoEpisode } from '../tasks/mujoco-common/recording.ts';
import { ReacherEnv } from '../tasks/reacher/environment.ts';
import { finalDistance, SUCCESS_DISTANCE } from '../tasks/reacher/task.ts';
import { policyEpisodes } from '../tasks/bank.ts';

type RewardFn = (obs: number[], action: number[], nextObs: number[], terminated: boolean) => [number, Record<string, number>];
const rewardOf = (code: string): RewardFn => new Function(`${code}\nreturn computeReward;`)() as RewardFn;

let task: Task;
let golden: MujocoEpisode[];

function episodeOf(e: MujocoEpisode): Episode {
  const last = e.steps[e.steps.length - 1];
  return {
    observations: Float32Array.from([e.initial_obs, ...e.steps.map((s) => s.obs)].flat()), obsSize: 10, recorded: new Float64Array(0), recordSize: 0, length: e.steps.length,
    return: e.steps.reduce((sum, s) => sum + s.reward, 0), terminated: last.terminated, truncated: last.truncated,
  };
}

describe('Task: Reacher-v5', () => {
  before(async () => {
    task = await prepareTask('Reacher-v5');
    const json = JSON.parse(recordingText(readFileSync(new URL('../../shared/golden/mujoco/Reacher-v5.json.gz', import.meta.url)))) as { episodes: unknown[] };
    golden = json.episodes.map((e) => mujocoEpisode(e as MujocoEpisode));
  });

  it('is registered with gym.make\'s defaults: 10 observations, 2 torques in [-1, 1], 50 steps, threshold -3.75', () => {
    assert.equal(task.obsSize, 10);
    assert.deepEqual(task.action, { kind: 'box', names: ['torque at the base', 'torque between the links'], low: [-1, -1], high: [1, 1] });
    assert.deepEqual([task.maxEpisodeSteps, task.rewardThreshold], [50, -3.75]);
    assert.doesNotMatch(task.environmentSource, /reward_dist|reward_ctrl/, 'the model does not read the reward');
    assert.match(task.environmentSource, /gear 200/);
  });

  it('resets the arm near straight and the target anywhere in the disc of 0.2 m, reproducibly per seed', () => {
    // Eight copies, ten episodes each (one MjData is about 14 MB of MuJoCo's memory, capped at 2 GB).
    const [a, b] = [new ReacherEnv(8, 9), new ReacherEnv(8, 9)];
    try {
      assert.deepEqual([...a.obs], [...b.obs]);
      const starts: number[][] = [];
      for (let episode = 0; episode < 10; episode++) {
        for (let i = 0; i < 8; i++) starts.push([...a.obs.subarray(10 * i, 10 * i + 10)]);
        for (let t = 0; t < 50; t++) a.step(new Float64Array(16));
      }
      const targets = starts.map((o) => Math.hypot(o[4], o[5]));
      assert.ok(targets.every((d) => d < 0.2) && targets.some((d) => d > 0.15) && targets.some((d) => d < 0.07));
      assert.ok(starts.every((o) => o[0] >= Math.cos(0.1) - 1e-7), 'the first link within 0.1 rad of +x');
    } finally {
      a.dispose();
      b.dispose();
    }
  });

  it('the environment\'s reward file is Gymnasium\'s reward, to float32 rounding, on every golden step', () => {
    const reward = rewardOf(task.baselines.environment.code);
    for (const e of golden) {
      e.steps.forEach((s, t) => {
        const [r] = reward(t === 0 ? e.initial_obs : e.steps[t - 1].obs, s.action, s.obs.map(Math.fround), s.terminated);
        assert.ok(Math.abs(r - s.reward) < 1e-6, `seed ${e.seed} step ${t}: ${r} against ${s.reward}`);
      });
    }
  });

  it(`succeeds when the fingertip ends within ${SUCCESS_DISTANCE} m of the target: no golden episode does`, () => {
    for (const e of golden) {
      const episode = episodeOf(e);
      assert.ok(Math.abs(finalDistance(episode) - Math.hypot(e.steps[49].obs[8], e.steps[49].obs[9])) < 1e-7);
      assert.equal(task.success.test(episode), false, `seed ${e.seed}`);
    }
    const near = episodeOf(golden[0]);
    near.observations.set([0.6 * SUCCESS_DISTANCE, -0.7 * SUCCESS_DISTANCE], 50 * 10 + 8);
    assert.equal(task.success.test(near), true);
  });

  it('the bank: the hand-written reacher succeeds, spinning and doing nothing fail', () => {
    const episodes = policyEpisodes(task);
    assert.ok(episodes.filter((e) => e.policy === 'reach').length > 0 && episodes.filter((e) => e.policy === 'reach').every((e) => e.kind === 'success'));
    assert.ok(episodes.filter((e) => e.policy === 'spin').length > 0);
  });

  it('draws the arm and the target from MuJoCo\'s geometry seen from above, animated', () => {
    const e = golden[0];
    const record: EpisodeRecord = {
      observations: [e.initial_obs, ...e.steps.map((s) => s.obs)], actions: e.steps.map((s) => s.action), rewards: e.steps.map((s) => s.reward),
      success: false, terminated: false, truncated: true,
    };
    const svg = task.render.animation(record, '#2563eb');
    for (const geom of ['link0', 'link1', 'fingertip', 'target', 'sideS']) assert.match(svg, new RegExp(`<title>${geom}</title>`));
    assert.match(task.render.story(record), /ends \d+\.\d cm from it/);
  });
});
