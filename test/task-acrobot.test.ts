/**
 * The Acrobot-v1 task folder (tasks/acrobot/): its registration, seeded float32 resets, the two
 * baselines and the features against episodes recorded from the real Gymnasium 1.4.0
 * (test/fixtures/golden/Acrobot-v1.json), the success test, the diagnostic, the card's renderer
 * and the vector environment's auto-reset. Conformance of the dynamics is test/conformance.test.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { RecordingSchema, type RecordedEpisode } from '../tasks/conformance.ts';
import type { Episode, EpisodeRecord } from '../tasks/contract.ts';
import { getTask } from '../tasks/registry.ts';
import { VectorEnv } from '../tasks/vector-env.ts';
import { AcrobotEnv, MAX_EPISODE_STEPS, RESET_HIGH, RESET_LOW, TARGET_HEIGHT } from '../tasks/acrobot/environment.ts';
import { tipHeight } from '../tasks/acrobot/render.ts';
import spec from '../tasks/acrobot/task.ts';

type RewardFn = (obs: number[], action: number, nextObs: number[], terminated: boolean) => [number, Record<string, number>];

const task = getTask('Acrobot-v1');
const golden = RecordingSchema.parse(JSON.parse(readFileSync(new URL('./fixtures/golden/Acrobot-v1.json', import.meta.url), 'utf8')));

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

/** The observation of internal state [theta1, theta2, dtheta1, dtheta2]. */
const observe = (th1: number, th2: number, w1 = 0, w2 = 0): number[] =>
  [Math.cos(th1), Math.sin(th1), Math.cos(th2), Math.sin(th2), w1, w2];

describe('Task: Acrobot-v1', () => {
  it('is listed by the registry from its folder, with Gymnasium\'s spaces, time limit and threshold', () => {
    // Prepare, Act: the registry loaded the folder.
    // Assess
    assert.equal(task.folder, 'acrobot');
    assert.equal(task.obsSize, 6);
    assert.equal(task.actionSize, 1);
    assert.equal(task.maxEpisodeSteps, golden.max_episode_steps);
    assert.equal(task.rewardThreshold, -100);
    assert.deepEqual(task.action, { kind: 'discrete', names: ['torque -1', 'torque 0', 'torque +1'], neutral: 1 });
    assert.deepEqual(task.observation.slice(4).map((d) => d.high), [4 * Math.PI, 9 * Math.PI]);
    assert.equal(spec.id, task.id);
  });

  it('gives the model the environment\'s physics without the reward lines', () => {
    assert.ok(task.environmentSource.includes('LINK_LENGTH_1'), 'the physics is there');
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
    assert.notDeepEqual(Array.from(a.obs.subarray(0, 6)), Array.from(a.obs.subarray(6, 12)), 'copies start apart');
  });

  it('draws every start state uniformly within Gymnasium\'s [-0.1, 0.1), as float32 values', () => {
    // Prepare, Act: 64 copies, 256 start values.
    const env = new AcrobotEnv(64, 3);
    const values = env.states.flatMap((s) => Array.from(s));
    // Assess
    for (const v of values) {
      assert.ok(v >= Math.fround(RESET_LOW) && v <= Math.fround(RESET_HIGH), `start value ${v}`);
      assert.equal(Math.fround(v), v, `start value ${v} is a float32`);
    }
    const spread = Math.max(...values) - Math.min(...values);
    assert.ok(spread > 0.19, `start values spread over ${spread} only`);
  });

  it('writes the environment\'s own reward as a baseline that reproduces it on every golden step', () => {
    // Prepare
    const reward = rewardOf(task.baselines.environment.code);
    let steps = 0;
    let goals = 0;
    // Act, Assess
    for (const e of golden.episodes) {
      for (const [t, step] of transitions(e).entries()) {
        const [total, terms] = reward(step.obs, step.action, step.next, step.terminated);
        assert.equal(total, step.reward, `seed ${e.seed} step ${t + 1}`);
        assert.equal(Object.values(terms).reduce((s, v) => s + v, 0), total, 'the terms add up');
        steps += 1;
        if (step.terminated) goals += 1;
      }
    }
    assert.ok(steps > 1500 && goals === 3, `${steps} steps, ${goals} reaching the target`);
    assert.ok(task.baselines.environment.code.startsWith('// idea: '));
  });

  it('writes a human shaping that returns finite values with named terms on every golden transition', () => {
    // Prepare
    const reward = rewardOf(task.baselines.human.code);
    // Act
    for (const e of golden.episodes) {
      const totals = transitions(e).map((step) => {
        const [total, terms] = reward(step.obs, step.action, step.next, step.terminated);
        assert.ok(Number.isFinite(total));
        assert.ok(Object.keys(terms).length >= 2, 'named terms');
        for (const [name, value] of Object.entries(terms)) assert.ok(Number.isFinite(value), `term ${name}`);
        return total;
      });
      // Assess: reaching the target pays more than any step on the way to it.
      if (e.policy === 'heuristic') assert.equal(totals.at(-1), Math.max(...totals), `seed ${e.seed}: the goal step pays most`);
    }
    assert.ok(task.baselines.human.code.startsWith('// idea: '));
  });

  it('has features that are finite, mostly in [-0.5, 1.5], 0 hanging at rest and higher when swung up', () => {
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
      assert.ok(Math.abs(f(observe(0, 0))) < 1e-9, `${feature.name}: 0 hanging at rest`);
      assert.ok(f(observe(Math.PI, 0)) > 0.99, `${feature.name}: at least 1 held straight up`);
    }
    // The two that measure the goal are 1 exactly at the target: link 1 level, link 2 straight up, at rest.
    const at = (name: string): number =>
      (new Function('s', `return ${task.features.find((f) => f.name === name)?.expression};`) as (s: number[]) => number)(observe(Math.PI / 2, Math.PI / 2));
    assert.ok(Math.abs(at('tipHeight') - 1) < 1e-9);
    assert.ok(Math.abs(at('energy') - 1) < 1e-9);
  });

  it('says the heuristic golden episodes (target within 101 steps) succeed and the random ones do not', () => {
    for (const e of golden.episodes) {
      // Act
      const verdict = task.success.test(episodeOf(e));
      // Assess
      assert.equal(verdict, e.policy === 'heuristic', `seed ${e.seed} (${e.policy}, ${e.steps.length} steps)`);
    }
    const reached = episodeOf(episode('heuristic'));
    assert.equal(task.success.test({ ...reached, return: -100, length: 101 }), true, 'the target on step 101');
    assert.equal(task.success.test({ ...reached, return: -101, length: 102 }), false, 'the target on step 102');
  });

  it('measures the highest tip height as its progress: above the target when reached, below it otherwise', () => {
    for (const e of golden.episodes) {
      // Act
      const highest = task.progress.measure(episodeOf(e));
      // Assess
      const heights = [e.initial_obs, ...e.steps.map((s) => s.obs)].map((o) => tipHeight(o));
      assert.ok(Math.abs(highest - Math.max(...heights)) < 1e-6, `seed ${e.seed}: ${highest}`);
      if (e.policy === 'heuristic') assert.ok(highest > TARGET_HEIGHT, `seed ${e.seed}: ${highest}`);
      else assert.ok(highest < TARGET_HEIGHT && highest >= -2, `seed ${e.seed}: ${highest}`);
    }
    assert.equal(task.progress.label, 'mean highest tip height');
    assert.match(task.progress.format(0.4321), /^0\.43 \(the target is at 1\.0/);
  });

  it('renders an episode as an animated SVG with the target line, plots of the tip height, and a sentence', () => {
    // Prepare
    const reached = recordOf(episode('heuristic'), true);
    const missed = recordOf(episode('random'), false);
    // Act
    const animation = task.render.animation(reached, '#2563eb');
    const plots = task.render.plots(reached, '#2563eb');
    // Assess
    assertCleanSvg(animation, 'acrobot-animation');
    assert.ok(animation.includes('<animateTransform') && animation.includes('target height 1.0'), 'SMIL turns the links under the target');
    assert.ok(animation.includes('attributeName="stroke"'), 'the target line lights up when reached');
    assert.ok(!task.render.animation(missed, '#2563eb').includes('attributeName="stroke"'), 'and not when missed');
    assert.deepEqual(plots.map((p) => /data-chart="([^"]+)"/.exec(p)?.[1]), ['acrobot-tip-height', 'acrobot-velocities']);
    for (const p of plots) assertCleanSvg(p, /data-chart="([^"]+)"/.exec(p)?.[1] ?? '');
    assert.match(task.render.story(reached), new RegExp(`above the target line at step ${reached.rewards.length} \\(`));
    assert.match(task.render.story(missed), new RegExp(`does not reach the target line in ${MAX_EPISODE_STEPS} steps.*as high as -?\\d\\.\\d\\d\\.$`));
  });

  it('renders an empty episode without failing', () => {
    // Prepare
    const empty: EpisodeRecord = { observations: [], actions: [], rewards: [], success: false, terminated: false, truncated: false };
    // Act, Assess
    assertCleanSvg(task.render.animation(empty, '#2563eb'), 'acrobot-animation');
    for (const p of task.render.plots(empty, '#2563eb')) assert.ok(p.includes('no data') && !p.includes('NaN'));
    assert.equal(task.render.story(empty), 'No evaluation episode was recorded.');
  });

  it('auto-resets after reaching the target: finalObs holds the swing-up, obs a fresh start, elapsed 0', () => {
    // Prepare: replay a recorded swing-up from its recorded start.
    const e = episode('heuristic');
    const env = task.makeEnv(1, 5);
    assert.ok(env instanceof VectorEnv);
    (env.states[0] as Float64Array).set(e.initial_state ?? []);
    env.restartFromState(0);
    // Act
    for (const step of e.steps.slice(0, -1)) {
      env.step([step.action as number]);
      assert.equal(env.terminated[0], 0);
      assert.equal(env.reward[0], -1);
      assert.deepEqual(Array.from(env.obs), Array.from(env.finalObs), 'obs is finalObs while the episode runs');
    }
    env.step([e.steps.at(-1)?.action as number]);
    // Assess
    assert.equal(env.terminated[0], 1);
    assert.equal(env.truncated[0], 0);
    assert.equal(env.reward[0], 0, 'the step that reaches the target pays 0');
    assert.deepEqual(Array.from(env.finalObs), e.steps.at(-1)?.obs);
    assert.ok(tipHeight(env.finalObs) > TARGET_HEIGHT, 'finalObs is above the target');
    assert.ok(tipHeight(env.obs) < -1.9, 'obs hangs down again');
    assert.ok([env.obs[4], env.obs[5]].every((w) => Math.abs(w) <= Math.fround(RESET_HIGH)), 'at a fresh start\'s speed');
    assert.equal(env.elapsed[0], 0);
  });
});
