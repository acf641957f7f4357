/**
 * The Pendulum-v1 task folder (tasks/pendulum/): its registration, seeded resets, the torque's
 * clipping, the two baselines and the features against episodes recorded from the real Gymnasium
 * 1.4.0 (test/fixtures/golden/Pendulum-v1.json), the success test, the diagnostic and the card's
 * renderer. Conformance of the dynamics is test/conformance.test.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { RecordingSchema, type RecordedEpisode } from '../tasks/conformance.ts';
import type { Episode, EpisodeRecord } from '../tasks/contract.ts';
import { getTask } from '../tasks/registry.ts';
import { HOLD_STEPS, MAX_EPISODE_STEPS, MAX_TORQUE, PendulumEnv, UPRIGHT_ANGLE, angleNormalize } from '../tasks/pendulum/environment.ts';
import spec from '../tasks/pendulum/task.ts';

type RewardFn = (obs: number[], action: number[], nextObs: number[], terminated: boolean) => [number, Record<string, number>];

/**
 * The environment's baseline reads the angle and velocity from the float32 observation, the
 * environment from its float64 state: measured at most 3.7e-7 apart over the golden episodes.
 */
const ENVIRONMENT_REWARD_TOLERANCE = 1e-6;

const task = getTask('Pendulum-v1');
const golden = RecordingSchema.parse(JSON.parse(readFileSync(new URL('./fixtures/golden/Pendulum-v1.json', import.meta.url), 'utf8')));

function rewardOf(code: string): RewardFn {
  return new Function(`${code}\nreturn computeReward;`)() as RewardFn;
}

/** The torque as Gymnasium applied it: the recorded action in float32, clipped to ±2. */
function clipped(action: number | number[]): number[] {
  const a = typeof action === 'number' ? action : action[0];
  return [Math.min(Math.max(Math.fround(a), -MAX_TORQUE), MAX_TORQUE)];
}

function transitions(e: RecordedEpisode): Array<{ obs: number[]; action: number[]; next: number[]; terminated: boolean; reward: number }> {
  return e.steps.map((step, t) => ({
    obs: t === 0 ? e.initial_obs : e.steps[t - 1].obs,
    action: clipped(step.action),
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
    actions: e.steps.map((s) => clipped(s.action)),
    rewards: e.steps.map((s) => s.reward),
    success,
    terminated: e.steps[e.steps.length - 1].terminated,
    truncated: e.steps[e.steps.length - 1].truncated,
  };
}

/** A made-up 200-step episode at the given angles after each step (the first observation hangs down). */
function episodeAt(angles: number[]): Episode {
  const observations = Float32Array.from([[-1, 0, 0], ...angles.map((a) => [Math.cos(a), Math.sin(a), 0])].flat());
  return { observations, obsSize: 3, recorded: new Float64Array(0), recordSize: 0, length: angles.length, return: 0, terminated: false, truncated: true };
}

/** 100 steps hanging down, then 100 upright. */
function halfUpright(): number[] {
  return [...new Array<number>(100).fill(Math.PI), ...new Array<number>(100).fill(0)];
}

function seed(n: number): RecordedEpisode {
  const found = golden.episodes.find((e) => e.seed === n);
  assert.ok(found, `the golden file has seed ${n}`);
  return found;
}

function assertCleanSvg(svg: string, chart: string): void {
  assert.ok(svg.startsWith('<svg'), `${chart}: an SVG`);
  assert.ok(svg.includes(`data-chart="${chart}"`), `${chart}: its data-chart attribute`);
  assert.ok(!svg.includes('<script'), `${chart}: no script`);
  assert.ok(!svg.includes('NaN'), `${chart}: no NaN`);
  assert.ok(!/href=/.test(svg), `${chart}: no external resources`);
}

describe('Task: Pendulum-v1', () => {
  it('is listed by the registry from its folder, with Gymnasium\'s spaces and time limit and no threshold', () => {
    // Prepare, Act: the registry loaded the folder.
    // Assess
    assert.equal(task.folder, 'pendulum');
    assert.equal(task.obsSize, 3);
    assert.equal(task.actionSize, 1);
    assert.equal(task.maxEpisodeSteps, golden.max_episode_steps);
    assert.equal(task.rewardThreshold, undefined);
    assert.deepEqual(task.action, { kind: 'box', names: ['torque'], low: [-2], high: [2] });
    assert.deepEqual(task.observation.map((d) => [d.low, d.high]), [[-1, 1], [-1, 1], [-8, 8]]);
    assert.equal(task.termination, 'never');
    assert.equal(task.tieBreak, 'none');
    assert.equal(spec.id, task.id);
  });

  it('gives the model the environment\'s physics without the reward lines', () => {
    assert.ok(task.environmentSource.includes('newthdot'), 'the physics is there');
    assert.ok(task.environmentSource.includes('## Episode end'), 'the manual is there');
    assert.ok(!task.environmentSource.includes('reward:begin'), 'the reward block is pruned');
    assert.ok(!task.environmentSource.includes('const costs'), 'the reward line is pruned');
  });

  it('starts the same from the same seed and differently from another seed', () => {
    // Prepare, Act
    const a = task.makeEnv(8, 11);
    const b = task.makeEnv(8, 11);
    const c = task.makeEnv(8, 12);
    // Assess
    assert.deepEqual(Array.from(a.obs), Array.from(b.obs));
    assert.notDeepEqual(Array.from(a.obs), Array.from(c.obs));
    assert.notDeepEqual(Array.from(a.obs.subarray(0, 3)), Array.from(a.obs.subarray(3, 6)), 'copies start apart');
  });

  it('draws start angles in [-pi, pi] and start velocities in [-1, 1], after the time limit\'s resets too', () => {
    // Prepare
    const env = new PendulumEnv(32, 3);
    const starts: number[][] = env.states.map((s) => Array.from(s));
    // Act: the episode never terminates, so every copy resets at 200 and 400 steps.
    for (let t = 0; t < 2 * MAX_EPISODE_STEPS; t++) {
      env.step(new Array<number>(32).fill(1));
      for (let i = 0; i < env.n; i++) if (env.elapsed[i] === 0) starts.push(Array.from(env.states[i]));
    }
    // Assess
    assert.equal(starts.length, 32 * 3);
    for (const [th, thdot] of starts) {
      assert.ok(th >= -Math.PI && th <= Math.PI, `start angle ${th}`);
      assert.ok(thdot >= -1 && thdot <= 1, `start velocity ${thdot}`);
    }
    const angles = starts.map(([th]) => th);
    assert.ok(Math.max(...angles) - Math.min(...angles) > 5, 'start angles spread around the circle');
    assert.deepEqual(Array.from(env.obs.subarray(0, 3)), [Math.fround(Math.cos(env.states[0][0])), Math.fround(Math.sin(env.states[0][0])), Math.fround(env.states[0][1])]);
  });

  it('clips torques beyond ±2, shows the clipped torque in applied and moves as with the clipped torque', () => {
    // Prepare
    const wild = new PendulumEnv(3, 5);
    const tame = new PendulumEnv(3, 5);
    // Act
    wild.step([5, -7.5, 1.2345]);
    tame.step([2, -2, 1.2345]);
    // Assess
    assert.deepEqual(Array.from(wild.applied), [2, -2, Math.fround(1.2345)]);
    assert.deepEqual(wild.states.map((s) => Array.from(s)), tame.states.map((s) => Array.from(s)));
    assert.deepEqual(Array.from(wild.reward), Array.from(tame.reward), 'the cost charges the clipped torque');
  });

  it('never terminates and truncates at 200 steps', () => {
    // Prepare
    const env = new PendulumEnv(1, 9);
    // Act
    for (let t = 1; t < MAX_EPISODE_STEPS; t++) {
      env.step([0]);
      assert.equal(env.terminated[0] + env.truncated[0], 0, `step ${t}`);
    }
    env.step([0]);
    // Assess
    assert.equal(env.terminated[0], 0);
    assert.equal(env.truncated[0], 1);
    assert.equal(env.elapsed[0], 0, 'a new episode started');
  });

  it('normalizes angles into [-pi, pi) with Python\'s floor modulo', () => {
    assert.equal(angleNormalize(0), 0);
    assert.ok(Math.abs(angleNormalize(2 * Math.PI + 0.5) - 0.5) < 1e-12);
    assert.ok(Math.abs(angleNormalize(-2 * Math.PI - 0.5) + 0.5) < 1e-12);
    assert.ok(Math.abs(angleNormalize(-Math.PI - 0.1) - (Math.PI - 0.1)) < 1e-12);
  });

  it(`writes the environment's own reward as a baseline that reproduces it on every golden step within ${ENVIRONMENT_REWARD_TOLERANCE}`, () => {
    // Prepare
    const reward = rewardOf(task.baselines.environment.code);
    let steps = 0;
    let worst = 0;
    // Act, Assess
    for (const e of golden.episodes) {
      for (const [t, step] of transitions(e).entries()) {
        const [total, terms] = reward(step.obs, step.action, step.next, step.terminated);
        const deviation = Math.abs(total - step.reward);
        assert.ok(deviation <= ENVIRONMENT_REWARD_TOLERANCE, `seed ${e.seed} step ${t + 1}: ${total} against ${step.reward}`);
        assert.ok(Math.abs(Object.values(terms).reduce((s, v) => s + v, 0) - total) < 1e-12, 'the terms add up');
        worst = Math.max(worst, deviation);
        steps += 1;
      }
    }
    assert.equal(steps, 6 * MAX_EPISODE_STEPS);
    assert.ok(worst > 0, 'the float32 observation does differ from the state (else tighten the tolerance)');
    assert.ok(task.baselines.environment.code.startsWith('// idea: '));
  });

  it('writes a human shaping that returns finite values with named terms on every golden transition', () => {
    // Prepare
    const reward = rewardOf(task.baselines.human.code);
    const upright: number[] = [];
    const hanging: number[] = [];
    // Act
    for (const e of golden.episodes) {
      for (const step of transitions(e)) {
        const [total, terms] = reward(step.obs, step.action, step.next, step.terminated);
        assert.ok(Number.isFinite(total));
        assert.deepEqual(Object.keys(terms), ['cost', 'upright', 'shaping']);
        for (const [name, value] of Object.entries(terms)) assert.ok(Number.isFinite(value), `term ${name}`);
        (step.next[0] > Math.cos(UPRIGHT_ANGLE) ? upright : hanging).push(total);
      }
    }
    // Assess: balancing upright pays more than hanging down.
    assert.ok(task.baselines.human.code.startsWith('// idea: '));
    const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
    assert.ok(mean(upright) > 0 && mean(hanging) < 0, `upright ${mean(upright)}, elsewhere ${mean(hanging)}`);
  });

  it('has features that are finite, mostly in [-0.5, 1.5], 1 upright and still and 0 hanging or spinning', () => {
    // Prepare
    const observations = golden.episodes.flatMap((e) => [e.initial_obs, ...e.steps.map((s) => s.obs)]);
    assert.ok(task.features.length >= 2 && task.features.length <= 4);
    assert.deepEqual(task.features.map((f) => f.name), ['upright', 'still', 'energy']);
    for (const feature of task.features) {
      const f = new Function('s', `return ${feature.expression};`) as (s: number[]) => number;
      // Act
      const values = observations.map((o) => f(o));
      // Assess
      assert.ok(values.every(Number.isFinite), `${feature.name}: finite`);
      const inside = values.filter((v) => v >= -0.5 && v <= 1.5).length;
      assert.ok(inside / values.length >= 0.95, `${feature.name}: ${inside} of ${values.length} in [-0.5, 1.5]`);
      assert.ok(Math.abs(f([1, 0, 0]) - 1) < 1e-9, `${feature.name}: 1 upright and still`);
    }
    const [upright, still, energy] = task.features.map((ft) => new Function('s', `return ${ft.expression};`) as (s: number[]) => number);
    assert.equal(upright([-1, 0, 0]), 0);
    assert.equal(still([-1, 0, 8]), 0);
    assert.equal(energy([-1, 0, 0]), 0);
    assert.ok(Math.abs(energy([-1, 0, Math.sqrt(60)]) - 1) < 1e-9, 'the swing that reaches the top at rest has the upright energy');
  });

  it('says the heuristic golden episodes hold the pendulum upright and the random ones do not', () => {
    for (const e of golden.episodes) {
      // Act
      const verdict = task.success.test(episodeOf(e));
      // Assess: seeds 1, 3 and 5 swing up and hold it (returns -0.4, -234, -115).
      assert.equal(verdict, e.policy === 'heuristic', `seed ${e.seed} (${e.policy})`);
    }
    assert.ok(Math.abs(episodeOf(seed(1)).return + 0.398) < 1e-3, 'seed 1 returns about -0.4');
  });

  it('judges exactly the last 100 steps against 0.2 rad', () => {
    // Prepare
    const tail = (first: number, rest: number): number[] => [
      ...new Array<number>(MAX_EPISODE_STEPS - HOLD_STEPS).fill(first),
      ...new Array<number>(HOLD_STEPS).fill(rest),
    ];
    const late = tail(Math.PI, 0.19);
    const slip = tail(0, 0.1);
    slip[MAX_EPISODE_STEPS - HOLD_STEPS] = 0.21; // the first of the last 100
    const dropped = tail(0, 0.1);
    dropped[MAX_EPISODE_STEPS - 1] = -0.25; // the very last
    // Act, Assess
    assert.equal(task.success.test(episodeAt(late)), true, 'down for 100 steps, then within 0.19 rad');
    assert.equal(task.success.test(episodeAt(slip)), false, 'out by 0.21 rad on step 101');
    assert.equal(task.success.test(episodeAt(dropped)), false, 'out on the last step');
    assert.equal(task.success.test(episodeAt(new Array<number>(HOLD_STEPS - 1).fill(0))), false, 'too short to hold it 100 steps');
    assert.match(task.success.describe, /within 0\.2 rad of upright \(angle = atan2\(sin, cos\) from the observation\) for each of the last 100 steps of the 200-step episode/);
  });

  it('measures the share of steps upright as its diagnostic', () => {
    // Prepare
    const shares = golden.episodes.map((e) => task.progress.measure(episodeOf(e)));
    // Assess
    assert.equal(task.progress.label, 'mean share of steps upright');
    assert.equal(shares[1], 1, 'seed 1 is upright throughout');
    for (const [k, e] of golden.episodes.entries()) assert.ok(e.policy === 'heuristic' ? shares[k] >= 0.5 : shares[k] < 0.1, `seed ${e.seed}: ${shares[k]}`);
    assert.equal(task.progress.measure(episodeAt(halfUpright())), 0.5);
    assert.match(task.progress.format(0.625), /^62\.5% of steps within 0\.2 rad of upright/);
  });

  it('renders an episode as an animated SVG with plots of the angle and the torque, and a sentence', () => {
    // Prepare
    const held = recordOf(seed(3), true);
    const flailing = recordOf(seed(0), false);
    // Act
    const animation = task.render.animation(held, '#2563eb');
    const plots = task.render.plots(held, '#2563eb');
    // Assess
    assertCleanSvg(animation, 'pendulum-animation');
    assert.ok(animation.includes('<animateTransform') && animation.includes('type="rotate"'), 'SMIL swings the rod');
    assert.ok(animation.includes('upright ±0.2 rad'), 'the target is marked');
    assert.deepEqual(plots.map((p) => /data-chart="([^"]+)"/.exec(p)?.[1]), ['pendulum-angle', 'pendulum-torque']);
    for (const p of plots) assertCleanSvg(p, /data-chart="([^"]+)"/.exec(p)?.[1] ?? '');
    assert.match(task.render.story(held), /^Starts \d\.\d\d rad from upright, is within 0\.2 rad of upright from step \d+ and stays there to the end \(\d+ steps/);
    assert.match(task.render.story(flailing), /^Starts \d\.\d\d rad from upright and is within 0\.2 rad of upright on \d+ of 200 steps, but ends/);
  });

  it('renders an empty episode without failing', () => {
    // Prepare
    const empty: EpisodeRecord = { observations: [], actions: [], rewards: [], success: false, terminated: false, truncated: false };
    // Act, Assess
    assertCleanSvg(task.render.animation(empty, '#2563eb'), 'pendulum-animation');
    for (const p of task.render.plots(empty, '#2563eb')) assert.ok(p.includes('no data') && !p.includes('NaN'));
    assert.equal(task.render.story(empty), 'No evaluation episode was recorded.');
  });
});
