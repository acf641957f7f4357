/**
 * The CartPole-v1 task folder (tasks/cart-pole/): its registration, seeded resets, the two
 * baselines and the features against episodes recorded from the real Gymnasium 1.4.0
 * (test/fixtures/golden/CartPole-v1.json), the success test, the diagnostic, the card's renderer
 * and the vector environment's auto-reset. Conformance of the dynamics is test/conformance.test.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { RecordingSchema, type RecordedEpisode } from '../tasks/conformance.ts';
import type { Episode, EpisodeRecord } from '../tasks/contract.ts';
import { getTask } from '../tasks/registry.ts';
import { VectorEnv } from '../tasks/vector-env.ts';
import { CartPoleEnv, MAX_EPISODE_STEPS, RESET_HIGH, RESET_LOW, X_THRESHOLD } from '../tasks/cart-pole/environment.ts';
import spec from '../tasks/cart-pole/task.ts';

type RewardFn = (obs: number[], action: number, nextObs: number[], terminated: boolean) => [number, Record<string, number>];

const task = getTask('CartPole-v1');
const golden = RecordingSchema.parse(JSON.parse(readFileSync(new URL('./fixtures/golden/CartPole-v1.json', import.meta.url), 'utf8')));

/** A baseline's code as the sandbox would run it (it is trusted: the task's own file). */
function rewardOf(code: string): RewardFn {
  return new Function(`${code}\nreturn computeReward;`)() as RewardFn;
}

/** Every (obs, action, nextObs, terminated, reward) of a recorded episode. */
function transitions(e: RecordedEpisode): Array<{ obs: number[]; action: number; next: number[]; terminated: boolean; reward: number }> {
  return e.steps.map((step, t) => ({
    obs: t === 0 ? e.initial_obs : e.steps[t - 1].obs,
    action: step.action as number,
    next: step.obs,
    terminated: step.terminated,
    reward: step.reward,
  }));
}

function episodeOf(e: RecordedEpisode): Episode {
  const last = e.steps[e.steps.length - 1];
  return {
    observations: Float32Array.from([e.initial_obs, ...e.steps.map((s) => s.obs)].flat()),
    obsSize: e.initial_obs.length,
    recorded: new Float64Array(0), recordSize: 0,
    length: e.steps.length,
    return: e.steps.reduce((sum, s) => sum + s.reward, 0),
    terminated: last.terminated,
    truncated: last.truncated,
  };
}

function recordOf(e: RecordedEpisode, success: boolean): EpisodeRecord {
  return {
    observations: [e.initial_obs, ...e.steps.map((s) => s.obs)],
    actions: e.steps.map((s) => s.action as number),
    rewards: e.steps.map((s) => s.reward),
    success,
    terminated: e.steps[e.steps.length - 1].terminated,
    truncated: e.steps[e.steps.length - 1].truncated,
  };
}

function episode(policy: string): RecordedEpisode {
  const found = golden.episodes.find((e) => e.policy === policy);
  assert.ok(found, `the golden file has a ${policy} episode`);
  return found;
}

function assertCleanSvg(svg: string, chart: string): void {
  assert.ok(svg.startsWith('<svg'), `${chart}: an SVG`);
  assert.ok(svg.includes(`data-chart="${chart}"`), `${chart}: its data-chart attribute`);
  assert.ok(!svg.includes('<script'), `${chart}: no script`);
  assert.ok(!svg.includes('NaN'), `${chart}: no NaN`);
  assert.ok(!/href=/.test(svg), `${chart}: no external resources`);
}

describe('Task: CartPole-v1', () => {
  it('is listed by the registry from its folder, with Gymnasium\'s spaces, time limit and threshold', () => {
    // Prepare, Act: the registry loaded the folder.
    // Assess
    assert.equal(task.folder, 'cart-pole');
    assert.equal(task.obsSize, 4);
    assert.equal(task.actionSize, 1);
    assert.equal(task.maxEpisodeSteps, golden.max_episode_steps);
    assert.equal(task.rewardThreshold, 475);
    assert.deepEqual(task.action, { kind: 'discrete', names: ['push left', 'push right'] });
    assert.equal(spec.id, task.id);
  });

  it('gives the model the environment\'s physics without the reward lines', () => {
    assert.ok(task.environmentSource.includes('FORCE_MAG'), 'the physics is there');
    assert.ok(task.environmentSource.includes('## Episode end'), 'the manual is there');
    assert.ok(!task.environmentSource.includes('reward:begin'), 'the reward block is pruned');
    assert.ok(!task.environmentSource.includes('const reward'), 'the reward line is pruned');
  });

  it('starts the same from the same seed and differently from another seed', () => {
    // Prepare, Act
    const a = task.makeEnv(8, 11);
    const b = task.makeEnv(8, 11);
    const c = task.makeEnv(8, 12);
    // Assess
    assert.deepEqual(Array.from(a.obs), Array.from(b.obs));
    assert.notDeepEqual(Array.from(a.obs), Array.from(c.obs));
    assert.notDeepEqual(Array.from(a.obs.subarray(0, 4)), Array.from(a.obs.subarray(4, 8)), 'copies start apart');
  });

  it('draws every start state uniformly within Gymnasium\'s (-0.05, 0.05), resets after failures included', () => {
    // Prepare
    const env = new CartPoleEnv(16, 3);
    const starts: number[][] = env.states.map((s) => Array.from(s));
    // Act: a constant push fails within a few dozen steps, so every copy resets several times.
    for (let t = 0; t < 300; t++) {
      env.step(new Array<number>(16).fill(t % 50 < 25 ? 1 : 0));
      for (let i = 0; i < env.n; i++) if (env.elapsed[i] === 0) starts.push(Array.from(env.states[i]));
    }
    // Assess
    assert.ok(starts.length > 16 * 3, `only ${starts.length} starts`);
    for (const s of starts) for (const v of s) assert.ok(v >= RESET_LOW && v < RESET_HIGH, `start value ${v}`);
    const spread = Math.max(...starts.flat()) - Math.min(...starts.flat());
    assert.ok(spread > 0.09, `start values spread over ${spread} only`);
  });

  it('writes the environment\'s own reward as a baseline that reproduces it on every golden step', () => {
    // Prepare
    const reward = rewardOf(task.baselines.environment.code);
    let steps = 0;
    // Act, Assess
    for (const e of golden.episodes) {
      for (const [t, step] of transitions(e).entries()) {
        const [total, terms] = reward(step.obs, step.action, step.next, step.terminated);
        assert.equal(total, step.reward, `seed ${e.seed} step ${t + 1}`);
        assert.equal(Object.values(terms).reduce((s, v) => s + v, 0), total, 'the terms add up');
        steps += 1;
      }
    }
    assert.ok(steps > 1500);
    assert.ok(task.baselines.environment.code.startsWith('// idea: '));
  });

  it('writes a human shaping that returns finite values with named terms on every golden transition', () => {
    // Prepare
    const reward = rewardOf(task.baselines.human.code);
    const totals: number[] = [];
    // Act
    for (const e of golden.episodes) {
      for (const step of transitions(e)) {
        const [total, terms] = reward(step.obs, step.action, step.next, step.terminated);
        assert.ok(Number.isFinite(total));
        assert.ok(Object.keys(terms).length >= 2, 'named terms');
        for (const [name, value] of Object.entries(terms)) assert.ok(Number.isFinite(value), `term ${name}`);
        totals.push(total);
      }
    }
    // Assess: falling costs more than balancing earns in one step.
    assert.ok(task.baselines.human.code.startsWith('// idea: '));
    assert.ok(Math.min(...totals) < 0 && Math.max(...totals) > 0.5, `totals in [${Math.min(...totals)}, ${Math.max(...totals)}]`);
  });

  it('has features that are finite, mostly in [-0.5, 1.5], 1 when centred and still and 0 at the limits', () => {
    // Prepare
    const observations = golden.episodes.flatMap((e) => [e.initial_obs, ...e.steps.map((s) => s.obs)]);
    assert.ok(task.features.length >= 2 && task.features.length <= 4);
    for (const feature of task.features) {
      const f = new Function('s', `return ${feature.expression};`) as (s: number[]) => number;
      // Act
      const values = observations.map((o) => f(o));
      // Assess
      assert.ok(values.every(Number.isFinite), `${feature.name}: finite`);
      const inside = values.filter((v) => v >= -0.5 && v <= 1.5).length;
      assert.ok(inside / values.length >= 0.95, `${feature.name}: ${inside} of ${values.length} in [-0.5, 1.5]`);
      assert.ok(Math.abs(f([0, 0, 0, 0]) - 1) < 1e-3, `${feature.name}: 1 upright and still at the centre`);
      assert.ok(Math.abs(f([X_THRESHOLD, 3, 0.2095, 3.5])) < 1e-3, `${feature.name}: 0 at the limits`);
    }
  });

  it('says the heuristic golden episodes (500 steps) succeed and the random ones (falls) do not', () => {
    for (const e of golden.episodes) {
      // Act
      const verdict = task.success.test(episodeOf(e));
      // Assess
      assert.equal(verdict, e.policy === 'heuristic', `seed ${e.seed} (${e.policy}, ${e.steps.length} steps)`);
    }
    assert.equal(task.success.test({ ...episodeOf(episode('heuristic')), return: 474, length: 474 }), false, 'one step short');
  });

  it('measures the episode length as its diagnostic and states the threshold with it', () => {
    // Prepare
    const lengths = golden.episodes.map((e) => task.progress.measure(episodeOf(e)));
    // Assess
    assert.deepEqual(lengths, golden.episodes.map((e) => e.steps.length));
    assert.equal(task.progress.label, 'mean episode length');
    assert.match(task.progress.format(312.5), /^312\.5 steps .*475/);
  });

  it('renders an episode as an animated SVG with plots of the angle and the position, and a sentence', () => {
    // Prepare
    const balanced = recordOf(episode('heuristic'), true);
    const fall = recordOf(episode('random'), false);
    // Act
    const animation = task.render.animation(balanced, '#2563eb');
    const plots = task.render.plots(balanced, '#2563eb');
    // Assess
    assertCleanSvg(animation, 'cart-pole-animation');
    assert.ok(animation.includes('<animateMotion') && animation.includes('<animateTransform'), 'SMIL moves the cart and turns the pole');
    assert.deepEqual(plots.map((p) => /data-chart="([^"]+)"/.exec(p)?.[1]), ['cart-pole-angle', 'cart-pole-position']);
    for (const p of plots) assertCleanSvg(p, /data-chart="([^"]+)"/.exec(p)?.[1] ?? '');
    assert.match(task.render.story(balanced), new RegExp(`^Keeps the pole up for ${MAX_EPISODE_STEPS} steps.*centre\\.$`));
    assert.match(task.render.story(fall), /^The pole falls past 12° at step \d+/);
  });

  it('renders an empty episode without failing', () => {
    // Prepare
    const empty: EpisodeRecord = { observations: [], actions: [], rewards: [], success: false, terminated: false, truncated: false };
    // Act, Assess
    assertCleanSvg(task.render.animation(empty, '#2563eb'), 'cart-pole-animation');
    for (const p of task.render.plots(empty, '#2563eb')) assert.ok(p.includes('no data') && !p.includes('NaN'));
    assert.equal(task.render.story(empty), 'No evaluation episode was recorded.');
  });

  it('auto-resets after the pole falls: finalObs holds the fall, obs a fresh start, elapsed 0', () => {
    // Prepare: replay a recorded fall from its recorded start.
    const e = episode('random');
    const env = task.makeEnv(1, 5);
    assert.ok(env instanceof VectorEnv);
    (env.states[0] as Float64Array).set(e.initial_state ?? []);
    env.restartFromState(0);
    // Act
    for (const step of e.steps.slice(0, -1)) {
      env.step([step.action as number]);
      assert.equal(env.terminated[0], 0);
      assert.deepEqual(Array.from(env.obs), Array.from(env.finalObs), 'obs is finalObs while the episode runs');
    }
    env.step([e.steps.at(-1)?.action as number]);
    // Assess
    assert.equal(env.terminated[0], 1);
    assert.equal(env.truncated[0], 0);
    assert.equal(env.reward[0], 1, 'the falling step pays +1 too');
    assert.deepEqual(Array.from(env.finalObs), e.steps.at(-1)?.obs);
    const fell = Math.abs(env.finalObs[2]) > 0.2095 || Math.abs(env.finalObs[0]) > X_THRESHOLD;
    assert.ok(fell, 'finalObs is past a limit');
    assert.ok(Array.from(env.obs).every((v) => Math.abs(v) <= Math.fround(RESET_HIGH)), 'obs is a fresh start');
    assert.equal(env.elapsed[0], 0);
  });

  it('truncates at 500 steps even while the pole stays up, then starts again', () => {
    // Prepare
    const e = episode('heuristic');
    const env = new CartPoleEnv(1, 9);
    env.states[0].set(e.initial_state ?? []);
    env.restartFromState(0);
    // Act
    for (const step of e.steps) env.step([step.action as number]);
    // Assess
    assert.equal(e.steps.length, MAX_EPISODE_STEPS);
    assert.equal(env.truncated[0], 1);
    assert.equal(env.terminated[0], 0);
    assert.equal(env.elapsed[0], 0);
  });
});
