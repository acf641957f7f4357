/**
 * The InvertedDoublePendulum-v5 task folder (tasks/inverted-double-pendulum/): its registration
 * with gym.make's defaults, seeded resets with Gymnasium's noise, the two baselines and the
 * success test against the golden episodes of Gymnasium's own InvertedDoublePendulum-v5
 * (shared/golden/mujoco/), the bank's policies and the card. Conformance is test/conformance-sub-step.test.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { recordingText } from '../tasks/conformance.ts';
import type { EpisodeRecord, Task } from '../tasks/contract.ts';
import { prepareTask } from '../tasks/registry.ts';
import { mujocoEpisode, type MujocoEpisode } from '../tasks/mujoco-common/recording.ts';
import { InvertedDoublePendulumEnv } from '../tasks/inverted-double-pendulum/environment.ts';
import { policyEpisodes } from '../tasks/bank.ts';

type RewardFn = (obs: number[], action: number[], nextObs: number[], terminated: boolean) => [number, Record<string, number>];
const rewardOf = (code: string): RewardFn => new Function(`${code}\nreturn computeReward;`)() as RewardFn;

let task: Task;
let golden: MujocoEpisode[];

describe('Task: InvertedDoublePendulum-v5', () => {
  before(async () => {
    task = await prepareTask('InvertedDoublePendulum-v5');
    const json = JSON.parse(recordingText(readFileSync(new URL('../../shared/golden/mujoco/InvertedDoublePendulum-v5.json.gz', import.meta.url)))) as { episodes: unknown[] };
    golden = json.episodes.map((e) => mujocoEpisode(e as MujocoEpisode));
  });

  it('is registered with gym.make\'s defaults: 9 observations, a force in [-1, 1], 1,000 steps, threshold 9,100', () => {
    assert.equal(task.obsSize, 9);
    assert.deepEqual(task.action, { kind: 'box', names: ['force on the cart'], low: [-1], high: [1] });
    assert.deepEqual([task.maxEpisodeSteps, task.rewardThreshold], [1000, 9100]);
    assert.doesNotMatch(task.environmentSource, /distance_penalty|velocity_penalty/, 'the model does not read the reward');
    assert.match(task.environmentSource, /gear 500/);
  });

  it('resets upright with uniform noise of ±0.1 on the angles and normal noise on the velocities, reproducibly per seed', () => {
    const [a, b] = [new InvertedDoublePendulumEnv(20, 5), new InvertedDoublePendulumEnv(20, 5)];
    try {
      assert.deepEqual([...a.obs], [...b.obs]);
      const at = (k: number) => Array.from({ length: 20 }, (_, i) => a.obs[9 * i + k]);
      assert.ok(at(1).every((s) => Math.abs(s) <= Math.sin(0.1) + 1e-7) && at(0).every((x) => Math.abs(x) <= 0.1 + 1e-7));
      // Normal noise of standard deviation 0.1: some velocities beyond 0.1, none beyond 0.5.
      assert.ok(at(5).some((v) => Math.abs(v) > 0.1) && at(5).every((v) => Math.abs(v) < 0.5));
    } finally {
      a.dispose();
      b.dispose();
    }
  });

  it('the environment\'s reward file is Gymnasium\'s reward to 1e-3 a step (the tip rebuilt from the observation, not MuJoCo\'s last sub-step)', () => {
    const reward = rewardOf(task.baselines.environment.code);
    let worst = 0;
    for (const e of golden) {
      e.steps.forEach((s, t) => {
        const [r, terms] = reward(t === 0 ? e.initial_obs : e.steps[t - 1].obs, s.action, s.obs, s.terminated);
        assert.equal(terms.survive, s.info?.reward_survive);
        worst = Math.max(worst, Math.abs(r - s.reward));
      });
    }
    assert.ok(worst < 1e-3, `largest difference ${worst}`);
  });

  it('succeeds only when both poles are balanced all 1,000 steps: the balancer\'s golden episodes, not the random ones', () => {
    for (const e of golden) {
      const last = e.steps[e.steps.length - 1];
      const episode = {
        observations: Float32Array.from([e.initial_obs, ...e.steps.map((s) => s.obs)].flat()), obsSize: 9, recorded: new Float64Array(0), recordSize: 0, length: e.steps.length,
        return: e.steps.reduce((sum, s) => sum + s.reward, 0), terminated: last.terminated, truncated: last.truncated,
      };
      assert.equal(task.success.test(episode), e.episode_length === 1000 && !last.terminated, `seed ${e.seed}`);
    }
  });

  it('the bank: the recorder\'s balancer succeeds, pushing one way and random actions fail', () => {
    const episodes = policyEpisodes(task);
    assert.ok(episodes.some((e) => e.policy === 'balance' && e.kind === 'success'));
    assert.ok(episodes.filter((e) => e.policy === 'push').every((e) => e.terminated));
  });

  it('draws the cart and both poles from MuJoCo\'s geometry, animated, with the tip\'s height', () => {
    const e = golden[1];
    const record: EpisodeRecord = {
      observations: [e.initial_obs, ...e.steps.map((s) => s.obs)], actions: e.steps.map((s) => s.action), rewards: e.steps.map((s) => s.reward),
      success: true, terminated: false, truncated: true,
    };
    const svg = task.render.animation(record, '#2563eb');
    for (const geom of ['rail', 'cart', 'cpole', 'cpole2']) assert.match(svg, new RegExp(`<title>${geom}</title>`));
    assert.match(task.render.story(record), /stays up to the time limit/);
    assert.match(task.render.plots(record, '#2563eb')[0], /tip height/);
  });
});
