/**
 * The InvertedPendulum-v5 task folder (tasks/inverted-pendulum/): its registration with gym.make's
 * defaults, seeded resets with Gymnasium's noise, the two baselines and the success test against
 * the golden episodes of Gymnasium's own InvertedPendulum-v5 (shared/golden/mujoco/), the bank's
 * policies and the card. Conformance (logic exactly, physics per step) is test/conformance-mujoco.test.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { recordingText } from '../tasks/conformance.ts';
import type { EpisodeRecord, Task } from '../tasks/contract.ts';
import { prepareTask } from '../tasks/registry.ts';
import { mujocoEpisode, type MujocoEpisode } from '../tasks/mujoco-common/recording.ts';
import { InvertedPendulumEnv } from '../tasks/inverted-pendulum/environment.ts';
import { policyEpisodes } from '../tasks/bank.ts';

type RewardFn = (obs: number[], action: number[], nextObs: number[], terminated: boolean) => [number, Record<string, number>];
const rewardOf = (code: string): RewardFn => new Function(`${code}\nreturn computeReward;`)() as RewardFn;

let task: Task;
let golden: MujocoEpisode[];

describe('Task: InvertedPendulum-v5', () => {
  before(async () => {
    task = await prepareTask('InvertedPendulum-v5');
    const json = JSON.parse(recordingText(readFileSync(new URL('../../shared/golden/mujoco/InvertedPendulum-v5.json.gz', import.meta.url)))) as { episodes: unknown[] };
    golden = json.episodes.map((e) => mujocoEpisode(e as MujocoEpisode));
  });

  it('is registered with gym.make\'s defaults: 4 observations, a force in [-3, 3], 1,000 steps, threshold 950', () => {
    assert.equal(task.obsSize, 4);
    assert.deepEqual(task.action, { kind: 'box', names: ['force on the cart'], low: [-3], high: [3] });
    assert.equal(task.maxEpisodeSteps, 1000);
    assert.equal(task.rewardThreshold, 950);
    assert.doesNotMatch(task.environmentSource, /reward_survive/);
  });

  it('resets each copy to upright plus uniform noise of ±0.01, reproducibly per seed', () => {
    const [a, b] = [new InvertedPendulumEnv(3, 5), new InvertedPendulumEnv(3, 5)];
    try {
      assert.deepEqual([...a.obs], [...b.obs]);
      assert.ok([...a.obs].every((x) => Math.abs(x) <= 0.01 + 1e-9));
    } finally {
      a.dispose();
      b.dispose();
    }
  });

  it('the environment\'s reward file is Gymnasium\'s reward, exactly, on every golden step', () => {
    const reward = rewardOf(task.baselines.environment.code);
    for (const e of golden) {
      e.steps.forEach((s, t) => assert.equal(reward(t === 0 ? e.initial_obs : e.steps[t - 1].obs, s.action, s.obs, s.terminated)[0], s.reward));
    }
  });

  it('succeeds only when the pole is balanced all 1,000 steps: the balancer\'s golden episodes, not the random ones', () => {
    for (const e of golden) {
      const last = e.steps[e.steps.length - 1];
      const episode = {
        observations: Float32Array.from([e.initial_obs, ...e.steps.map((s) => s.obs)].flat()), obsSize: 4, recorded: new Float64Array(0), recordSize: 0, length: e.steps.length,
        return: e.steps.reduce((sum, s) => sum + s.reward, 0), terminated: last.terminated, truncated: last.truncated,
      };
      assert.equal(task.success.test(episode), e.episode_length === 1000 && !last.terminated, `seed ${e.seed}`);
    }
  });

  it('the bank: the hand-written balancer succeeds, pushing one way and random actions fail', () => {
    const episodes = policyEpisodes(task);
    assert.ok(episodes.some((e) => e.policy === 'balance' && e.kind === 'success'));
    assert.ok(episodes.filter((e) => e.policy === 'push').every((e) => e.terminated));
  });

  it('draws the cart and pole from MuJoCo\'s geometry, animated', () => {
    const e = golden[1];
    const record: EpisodeRecord = {
      observations: [e.initial_obs, ...e.steps.map((s) => s.obs)], actions: e.steps.map((s) => s.action), rewards: e.steps.map((s) => s.reward),
      success: true, terminated: false, truncated: true,
    };
    const svg = task.render.animation(record, '#2563eb');
    for (const geom of ['rail', 'cart', 'cpole']) assert.match(svg, new RegExp(`<title>${geom}</title>`));
    assert.match(task.render.story(record), /stays up to the time limit/);
  });
});
