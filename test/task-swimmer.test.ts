/**
 * The Swimmer-v5 task folder (tasks/swimmer/): its registration with gym.make's defaults, seeded
 * resets with Gymnasium's noise, the two baselines and the success test against the golden
 * episodes of Gymnasium's own Swimmer-v5 (shared/golden/mujoco/), the bank's policies (a
 * hand-written swimmer among them) and the card, drawn from above. Conformance is test/conformance-mujoco-planar.test.ts.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Task } from '../tasks/contract.ts';
import { prepareTask } from '../tasks/registry.ts';
import type { MujocoEpisode } from '../tasks/mujoco-common/recording.ts';
import { SwimmerEnv } from '../tasks/swimmer/environment.ts';
import { SUCCESS_METRES } from '../tasks/swimmer/task.ts';
import { passes, policyEpisodes } from '../tasks/bank.ts';
import { episodeOf, finiteOnEveryStep, goldenEpisodes, recordedMetres, recordOf, rewardFileGap, rewardFileTerms, rewardOf, withMetres } from './support/mujoco-golden.ts';

let task: Task;
let golden: MujocoEpisode[];

describe('Task: Swimmer-v5', () => {
  before(async () => {
    task = await prepareTask('Swimmer-v5');
    golden = goldenEpisodes('Swimmer-v5');
  });

  it('is registered with gym.make\'s defaults: 8 observations, 2 torques in [-1, 1], 1,000 steps, threshold 360', () => {
    assert.equal(task.obsSize, 8);
    assert.deepEqual(task.action, { kind: 'box', names: ['first hinge torque', 'second hinge torque'], low: [-1, -1], high: [1, 1] });
    assert.equal(task.maxEpisodeSteps, 1000);
    assert.equal(task.rewardThreshold, 360);
    assert.equal(task.termination, 'never');
    assert.doesNotMatch(task.environmentSource, /reward_forward|reward_ctrl/, 'the model does not read the reward');
    assert.match(task.environmentSource, /gear 150/);
  });

  it('resets every qpos and qvel entry with uniform noise of ±0.1, reproducibly per seed', () => {
    const [a, b, c] = [new SwimmerEnv(16, 11), new SwimmerEnv(16, 11), new SwimmerEnv(16, 12)];
    try {
      assert.deepEqual([...a.obs], [...b.obs]);
      assert.notDeepEqual([...a.obs], [...c.obs]);
      assert.ok([...a.obs].every((v) => Math.abs(v) <= 0.1 + 1e-7));
    } finally {
      [a, b, c].forEach((env) => env.dispose());
    }
  });

  it('the environment\'s reward file is Gymnasium\'s reward, its forward term from the velocity at the step\'s two ends', () => {
    const reward = rewardOf(task.baselines.environment.code);
    assert.ok(rewardFileTerms(reward, golden).ctrl < 1e-9);
    // Measured on these episodes (random torques, and none): 0.27 in a step, 1.1 over a 1,000-step episode (the success line is 100).
    const gap = rewardFileGap(reward, golden);
    assert.ok(gap.step < 0.5 && gap.episode < 1.5, JSON.stringify(gap));
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
    assert.equal(task.success.test(withMetres(episode, SUCCESS_METRES - 0.01)), false);
    assert.equal(task.success.test({ ...episode, return: 1e6 }), false, 'no return makes a success');
  });

  it('the bank\'s policies do as they say: the travelling wave swims far enough, the reversed wave swims backwards', () => {
    const episodes = policyEpisodes(task);
    const by = (name: string) => episodes.filter((e) => e.policy === name);
    assert.equal(by('wave').length, 1);
    assert.ok(by('wave').every((e) => e.kind === 'success' && passes(task, e)));
    assert.ok(by('backwards').length === 1 && by('backwards').every((e) => e.return < -50));
    assert.deepEqual([by('random').length, by('nothing').length], [1, 1]);
  });

  it('draws the episode from above (it swims in the x-y plane): three capsules, animated, the camera following it', () => {
    const e = golden[0];
    const record = recordOf(e);
    const svg = task.render.animation(record, '#2563eb');
    assert.equal(svg.match(/<animate attributeName="x1"/g)?.length, 3);
    assert.match(svg, /seen from above/);
    assert.match(task.render.story(record), /swims to the time limit, 1000 steps/);
    assert.equal(task.render.plots(record, '#2563eb').length, 2);
    const moved = Number((task.render.story(record).match(/, (-?[\d.]+) metres forward/) ?? [])[1]);
    assert.equal(moved.toFixed(2), (e.steps[e.steps.length - 1].qpos[0] - e.initial_qpos[0]).toFixed(2));
  });
});
