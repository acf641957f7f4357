/**
 * The LunarLander-v3 and LunarLanderContinuous-v3 task folders (tasks/lunar-lander/,
 * tasks/lunar-lander-continuous/): Gymnasium 1.4.0's lunar_lander.py on box2d-f32 (a float32 port
 * of pybox2d's Box2D), against episodes recorded from the real Gymnasium on pybox2d 2.3.10
 * (test/fixtures/golden/, with every random draw the environment made), replayed bit for bit,
 * and against Gymnasium's own heuristic lander and a random policy
 * over 50 seeds (LunarLander-policies.json). Also: the registration, the two baselines as reward
 * files, the features, the success test, the diagnostic, the card's renderer and the auto-reset.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { compareEpisode, type RecordedStep } from '../tasks/conformance.ts';
import type { Episode, EpisodeRecord, Task, VecEnv } from '../tasks/contract.ts';
import { getTask } from '../tasks/registry.ts';
import { Random } from '../core/random.ts';
import { heuristicContinuous, heuristicDiscrete } from '../tasks/lunar-lander-common/heuristic.ts';
import { LunarLanderEnv, MAX_EPISODE_STEPS, landerValues, type LanderEpisodeInfo } from '../tasks/lunar-lander-common/physics.ts';
import { LunarRecordingSchema, landerRecordValues, withLanderStates, type LunarEpisode } from '../tasks/lunar-lander-common/replay.ts';
import { LunarLanderContinuousEnv } from '../tasks/lunar-lander-continuous/environment.ts';
import { cosf, sinf } from '../physics/box2d-f32/sincosf.ts';

type Action = number | number[];
type RewardFn = (obs: number[], action: Action, nextObs: number[], terminated: boolean) => [number, Record<string, number>];

const VARIANTS = [
  { id: 'LunarLander-v3', folder: 'lunar-lander', continuous: false },
  { id: 'LunarLanderContinuous-v3', folder: 'lunar-lander-continuous', continuous: true },
] as const;

const golden = (id: string): LunarEpisode[] =>
  LunarRecordingSchema.parse(JSON.parse(readFileSync(new URL(`./fixtures/golden/${id}.json`, import.meta.url), 'utf8'))).episodes;

const PolicyStats = z.object({ mean_return: z.number(), std_return: z.number(), share_at_least_200: z.number(), mean_length: z.number() });
const POLICIES = z.object({ summary: z.record(z.string(), z.object({ heuristic: PolicyStats, random: PolicyStats })) })
  .parse(JSON.parse(readFileSync(new URL('./fixtures/golden/LunarLander-policies.json', import.meta.url), 'utf8'))).summary;

function rewardOf(code: string): RewardFn {
  return new Function(`${code}\nreturn computeReward;`)() as RewardFn;
}

function transitions(e: LunarEpisode): Array<{ obs: number[]; action: Action; next: number[]; terminated: boolean; reward: number }> {
  return e.steps.map((step, t) => ({
    obs: t === 0 ? e.initial_obs : e.steps[t - 1].obs,
    action: step.action,
    next: step.obs,
    terminated: step.terminated,
    reward: step.reward,
  }));
}

function episodeOf(e: LunarEpisode): Episode {
  const last = e.steps[e.steps.length - 1];
  return {
    observations: Float32Array.from([e.initial_obs, ...e.steps.map((s) => s.obs)].flat()),
    obsSize: 8,
    recorded: new Float64Array(0), recordSize: 0,
    length: e.steps.length,
    return: e.steps.reduce((sum, s) => sum + s.reward, 0),
    terminated: last.terminated,
    truncated: last.truncated,
  };
}

function recordOf(e: LunarEpisode, info?: LanderEpisodeInfo): EpisodeRecord {
  const last = e.steps[e.steps.length - 1];
  return {
    observations: [e.initial_obs, ...e.steps.map((s) => s.obs)],
    actions: e.steps.map((s) => s.action),
    rewards: e.steps.map((s) => s.reward),
    success: e.steps.reduce((sum, s) => sum + s.reward, 0) >= 200,
    terminated: last.terminated,
    truncated: last.truncated,
    info,
  };
}

function assertCleanSvg(svg: string, chart: string): void {
  assert.ok(svg.startsWith('<svg'), `${chart}: an SVG`);
  assert.ok(svg.includes(`data-chart="${chart}"`), `${chart}: its data-chart attribute`);
  assert.ok(!svg.includes('<script'), `${chart}: no script`);
  assert.ok(!svg.includes('NaN'), `${chart}: no NaN`);
  assert.ok(!/href=/.test(svg), `${chart}: no external resources`);
}

interface Stats { mean: number; std: number; shareAtLeast200: number; meanLength: number }

/** One episode on each of n copies (the first each copy runs: no bias towards short episodes). */
function firstEpisodes(env: VecEnv, policy: (obs: Float32Array, out: Float64Array) => void, actionSize: number): Stats {
  const n = env.n;
  const returns = new Float64Array(n);
  const lengths = new Int32Array(n);
  const done = new Uint8Array(n);
  const actions = new Float64Array(n * actionSize);
  let running = n;
  while (running > 0) {
    for (let i = 0; i < n; i++) policy(env.obs.subarray(i * 8, (i + 1) * 8), actions.subarray(i * actionSize, (i + 1) * actionSize));
    env.step(actions);
    for (let i = 0; i < n; i++) {
      if (done[i] === 1) continue;
      returns[i] += env.reward[i];
      lengths[i] += 1;
      if (env.terminated[i] === 1 || env.truncated[i] === 1) {
        done[i] = 1;
        running -= 1;
      }
    }
  }
  const mean = returns.reduce((a, b) => a + b, 0) / n;
  const std = Math.sqrt(returns.reduce((a, b) => a + (b - mean) ** 2, 0) / n);
  return { mean, std, shareAtLeast200: returns.filter((r) => r >= 200).length / n, meanLength: lengths.reduce((a, b) => a + b, 0) / n };
}

for (const variant of VARIANTS) {
  const task: Task = getTask(variant.id);
  const episodes = golden(variant.id);
  const gym = POLICIES[variant.id];

  describe(`Task: ${variant.id}`, () => {
    it('is listed by the registry from its folder, with Gymnasium\'s spaces, time limit and threshold', () => {
      assert.equal(task.folder, variant.folder);
      assert.equal(task.obsSize, 8);
      assert.equal(task.actionSize, variant.continuous ? 2 : 1);
      assert.equal(task.maxEpisodeSteps, 1000);
      assert.equal(task.rewardThreshold, 200);
      assert.deepEqual(task.observation.map((d) => d.high), [2.5, 2.5, 10, 10, 2 * Math.PI, 10, 1, 1]);
      assert.deepEqual(task.observation.map((d) => d.low), [-2.5, -2.5, -10, -10, -2 * Math.PI, -10, 0, 0]);
      assert.deepEqual(task.action, variant.continuous
        ? { kind: 'box', names: ['main engine', 'lateral engine'], low: [-1, -1], high: [1, 1] }
        : { kind: 'discrete', names: ['do nothing', 'fire left engine', 'fire main engine', 'fire right engine'], neutral: 0 });
      assert.equal(task.termination, 'mixed');
      assert.equal(task.tieBreak, 'none');
      assert.deepEqual(task.budget, { steps: 800_000, evalEpisodes: 20, smokeSteps: 100_000, stepsPerSecond: 20_000, raceSurvival: 0.8 });
    });

    it('gives the model a description of the dynamics, without any reward line', () => {
      const source = task.environmentSource;
      for (const part of ['## Observation space', '## Action space', '## Episode end', 'Main engine', 'Orientation engines', '(x - 10) / 10']) {
        assert.ok(source.includes(part), `the model reads "${part}"`);
      }
      assert.ok(source.includes(variant.continuous ? 'Box(-1, 1, (2,))' : 'Discrete(4)'));
      assert.ok(!source.includes('reward:begin') && !/\breward\s*=/.test(source), 'no reward in what the model reads');
      // The shared physics keeps Gymnasium's reward between the markers.
      const physics = readFileSync(new URL('../tasks/lunar-lander-common/physics.ts', import.meta.url), 'utf8');
      assert.equal(physics.match(/\/\/ reward:begin/g)?.length, physics.match(/\/\/ reward:end/g)?.length);
      assert.ok(physics.includes('prevShaping'));
    });

    it('replays every golden episode bit for bit, fed the recorded draws: free flight and contacts, state, observation, reward and flags', (t) => {
      const endings = new Set<number>();
      let contactSteps = 0;
      for (const e of episodes) {
        const replay = task.replay?.(e);
        assert.ok(replay, 'the task replays recorded episodes');
        assert.deepEqual(replay.initialObs, e.initial_obs, `seed ${e.seed}: the first observation`);
        assert.equal(replay.steps.length, e.steps.length, `seed ${e.seed}: the episode's length`);
        for (const [k, step] of e.steps.entries()) {
          const ours: RecordedStep = replay.steps[k];
          const at = `seed ${e.seed} (${e.policy}) step ${k + 1}`;
          assert.deepEqual(ours.state, landerRecordValues(step.lander), `${at}: the lander's state`);
          assert.deepEqual(ours.obs, step.obs, `${at}: the observation`);
          assert.equal(ours.reward, step.reward, `${at}: the reward`);
          assert.equal(ours.terminated, step.terminated, `${at}: terminated`);
          assert.equal(ours.truncated, step.truncated, `${at}: truncated`);
          if (step.lander.legs.includes(true)) contactSteps += 1;
        }
        endings.add(e.steps[e.steps.length - 1].reward);
        const deviation = compareEpisode(withLanderStates(e), replay);
        t.diagnostic(`seed ${e.seed} (${e.policy}): ${replay.steps.length} steps, whole episode: state ${deviation.state}, obs ${deviation.obs}, reward ${deviation.reward}`);
      }
      t.diagnostic(`${contactSteps} steps with a leg on the ground`);
      assert.ok(contactSteps > 100, 'the landings are covered, not only the flights');
      assert.deepEqual([...endings].sort((a, b) => a - b), [-100, 100], 'crashes and landings are both covered');
    });

    it('ports Gymnasium\'s heuristic: it picks the recorded action on every golden heuristic step', () => {
      let steps = 0;
      for (const e of episodes.filter((ep) => ep.policy === 'heuristic')) {
        for (const step of transitions(e)) {
          if (variant.continuous) {
            // Gymnasium computes it in numpy float32 arithmetic: within 1e-6.
            const [a, b] = heuristicContinuous(step.obs);
            const [ra, rb] = step.action as number[];
            assert.ok(Math.abs(a - ra) < 1e-6 && Math.abs(b - rb) < 1e-6, `seed ${e.seed}: ${[a, b]} against ${[ra, rb]}`);
          } else {
            assert.equal(heuristicDiscrete(step.obs), step.action, `seed ${e.seed}`);
          }
          steps += 1;
        }
      }
      assert.ok(steps > 500);
    });

    it('lands as Gymnasium\'s heuristic does over 50 seeds, and a random policy fails as Gymnasium\'s does', (t) => {
      // Tolerance: 3 standard errors of the difference of two 50-episode means (ours and
      // Gymnasium's), sqrt(std_gym^2 / 50 + std_ours^2 / 50): the two runs draw different terrains
      // and pushes (numpy's generator is not reproduced), so only the distributions can agree.
      const n = 50;
      const heuristic = firstEpisodes(task.makeEnv(n, 1000), variant.continuous
        ? (s, out) => { out.set(heuristicContinuous(s)); }
        : (s, out) => { out[0] = heuristicDiscrete(s); }, task.actionSize);
      const rng = new Random(7);
      const random = firstEpisodes(task.makeEnv(n, 2000), variant.continuous
        ? (_s, out) => { out[0] = rng.uniform(-1, 1); out[1] = rng.uniform(-1, 1); }
        : (_s, out) => { out[0] = rng.int(4); }, task.actionSize);
      for (const [name, ours, theirs] of [['heuristic', heuristic, gym.heuristic], ['random', random, gym.random]] as const) {
        const tolerance = 3 * Math.sqrt((theirs.std_return ** 2 + ours.std ** 2) / n);
        t.diagnostic(`${name}: mean ${ours.mean.toFixed(1)} (std ${ours.std.toFixed(1)}, ${Math.round(ours.shareAtLeast200 * 100)}% >= 200, ` +
          `length ${ours.meanLength.toFixed(1)}); Gymnasium ${theirs.mean_return.toFixed(1)} (std ${theirs.std_return.toFixed(1)}, ` +
          `${Math.round(theirs.share_at_least_200 * 100)}%, length ${theirs.mean_length.toFixed(1)}); tolerance ±${tolerance.toFixed(1)}`);
        assert.ok(Math.abs(ours.mean - theirs.mean_return) <= tolerance,
          `${name}: mean return ${ours.mean} against Gymnasium's ${theirs.mean_return} (±${tolerance})`);
        // The share at 200 or more: 3 binomial standard errors of the difference, at the pooled share.
        const p = (ours.shareAtLeast200 + theirs.share_at_least_200) / 2;
        const shareTolerance = Math.max(3 * Math.sqrt((2 * p * (1 - p)) / n), 1 / n);
        assert.ok(Math.abs(ours.shareAtLeast200 - theirs.share_at_least_200) <= shareTolerance,
          `${name}: ${ours.shareAtLeast200} of episodes at 200 or more against ${theirs.share_at_least_200} (±${shareTolerance})`);
      }
    });

    it('writes the environment\'s own reward as a file that reproduces it on every golden step', () => {
      const reward = rewardOf(task.baselines.environment.code);
      let worst = 0;
      for (const e of episodes) {
        for (const [k, step] of transitions(e).entries()) {
          const [total, terms] = reward(step.obs, step.action, step.next, step.terminated);
          // Gymnasium shapes the float64 state, the file the float32 observation.
          worst = Math.max(worst, Math.abs(total - step.reward));
          if (step.terminated) assert.equal(total, step.reward, `seed ${e.seed} step ${k + 1}: the ending`);
          assert.ok(Math.abs(Object.values(terms).reduce((s, v) => s + v, 0) - total) < 1e-9, 'the terms add up');
        }
      }
      assert.ok(worst < 1e-4, `largest difference ${worst}`);
      assert.ok(task.baselines.environment.code.startsWith('// idea: '));
    });

    it('writes Gymnasium\'s shaping terms as a person\'s reward file with named terms', () => {
      const reward = rewardOf(task.baselines.human.code);
      for (const e of episodes) {
        for (const step of transitions(e)) {
          const [total, terms] = reward(step.obs, step.action, step.next, step.terminated);
          assert.ok(Number.isFinite(total));
          for (const [name, value] of Object.entries(terms)) assert.ok(Number.isFinite(value), `term ${name}`);
          if (step.terminated) {
            assert.deepEqual(terms, { landing: step.reward }, `seed ${e.seed}: the ending is the landing term`);
          } else {
            assert.deepEqual(Object.keys(terms), ['distance', 'speed', 'tilt', 'legContact', 'mainEngine', 'sideEngine']);
            assert.ok(Math.abs(total - step.reward) < 1e-4, 'the same shaping as Gymnasium\'s');
          }
        }
      }
      assert.ok(task.baselines.human.code.startsWith('// idea: '));
    });

    it('has features that are 0..1 on every golden observation, and highest when resting on the pad', () => {
      const observations = episodes.flatMap((e) => [e.initial_obs, ...e.steps.map((s) => s.obs)]);
      const resting = [0, 0, 0, 0, 0, 0, 1, 1];
      const falling = episodes[0].initial_obs;
      for (const feature of task.features) {
        const f = new Function('s', `return ${feature.expression};`) as (s: number[]) => number;
        for (const o of observations) {
          const v = f(o);
          assert.ok(Number.isFinite(v) && v >= 0 && v <= 1, `${feature.name}: ${v}`);
        }
        assert.equal(f(resting), 1, `${feature.name}: 1 at rest on the pad`);
        assert.ok(f(falling) < 1, `${feature.name}: below 1 at the start`);
      }
      assert.deepEqual(task.features.map((f) => f.name), ['nearPad', 'slow', 'level', 'legsDown']);
    });

    it('says the golden landings (return >= 200) succeed and the crashes do not; progress is minus the final distance and speed', () => {
      for (const e of episodes) {
        const episode = episodeOf(e);
        assert.equal(task.success.test(episode), e.policy === 'heuristic', `seed ${e.seed} (${e.policy}, return ${episode.return})`);
        const last = e.steps[e.steps.length - 1].obs;
        assert.ok(Math.abs(task.progress.measure(episode) + Math.hypot(last[0], last[1]) + Math.hypot(last[2], last[3])) < 1e-6);
        if (e.policy === 'heuristic') assert.ok(task.progress.measure(episode) > -0.2, 'the heuristic comes to rest near the pad');
      }
      const landed = episodeOf(episodes.find((e) => e.policy === 'heuristic') ?? episodes[0]);
      assert.equal(task.success.test({ ...landed, return: 200 }), true, 'a return of exactly 200');
      assert.equal(task.success.test({ ...landed, return: 199.99 }), false);
      assert.match(task.progress.format(-0.1234), /^0\.12 from rest on the pad's centre/);
      const best = Math.max(...episodes.filter((e) => e.policy !== 'heuristic').map((e) => task.progress.measure(episodeOf(e))));
      const worstLanding = Math.min(...episodes.filter((e) => e.policy === 'heuristic').map((e) => task.progress.measure(episodeOf(e))));
      assert.ok(worstLanding > best, `every landing made more progress (${worstLanding}) than any crash (${best})`);
    });

    it('renders an episode over its terrain as an animated SVG, plots altitude and speed, and tells its ending', () => {
      const info = task.makeEnv(1, 3).episodeInfo?.(0);
      const landing = recordOf(episodes.find((e) => e.policy === 'heuristic') ?? episodes[0], JSON.parse(JSON.stringify(info)) as LanderEpisodeInfo);
      const crash = recordOf(episodes.find((e) => e.policy === 'random') ?? episodes[0]);
      const animation = task.render.animation(landing, '#2563eb');
      assertCleanSvg(animation, 'lunar-lander-animation');
      assert.ok(animation.includes('<animateMotion') && animation.includes('type="rotate"'), 'SMIL moves and turns the lander');
      assert.ok(animation.includes('#e8a317'), 'the pad\'s flags');
      assert.ok(!animation.includes('terrain not recorded'), 'the recorded terrain is drawn');
      assert.ok(task.render.animation(crash, '#2563eb').includes('terrain not recorded'), 'without info, a flat moon and a note');
      const plots = task.render.plots(landing, '#2563eb');
      assert.deepEqual(plots.map((p) => /data-chart="([^"]+)"/.exec(p)?.[1]), ['lunar-lander-altitude', 'lunar-lander-speed']);
      for (const p of plots) assertCleanSvg(p, /data-chart="([^"]+)"/.exec(p)?.[1] ?? '');
      assert.match(task.render.story(landing), /^The lander touches down at step \d+ and comes to rest on the pad at step \d+, 0\.\d\d from its centre, firing the main engine on \d+% of the steps\.$/);
      assert.match(task.render.story(crash), /crashes at step \d+|leaves the screen at step \d+/);
      const empty: EpisodeRecord = { observations: [], actions: [], rewards: [], success: false, terminated: false, truncated: false };
      assertCleanSvg(task.render.animation(empty, '#2563eb'), 'lunar-lander-animation');
      for (const p of task.render.plots(empty, '#2563eb')) assert.ok(p.includes('no data') && !p.includes('NaN'));
      assert.equal(task.render.story(empty), 'No evaluation episode was recorded.');
    });

    it('gives each copy\'s terrain and pad as JSON, the pad flat between x = 8 and 12 m', () => {
      const env = task.makeEnv(2, 4);
      const a = env.episodeInfo?.(0) as LanderEpisodeInfo;
      const b = env.episodeInfo?.(1) as LanderEpisodeInfo;
      assert.deepEqual(JSON.parse(JSON.stringify(a)), a, 'plain JSON');
      assert.equal(a.terrain.length, 11);
      assert.deepEqual(a.helipad, { x1: 8, x2: 12, y: 40 / 3 / 4 });
      for (const k of [4, 5, 6]) assert.ok(Math.abs(a.terrain[k][1] - 0.99 * a.helipad.y) < 1e-12, `chunk ${k} is the pad`);
      assert.notDeepEqual(a.terrain, b.terrain, 'copies have their own terrain');
    });

    it('starts the same from the same seed and differently from another; auto-resets with a new terrain after an ending', () => {
      const a = task.makeEnv(4, 11);
      const b = task.makeEnv(4, 11);
      const c = task.makeEnv(4, 12);
      assert.deepEqual(Array.from(a.obs), Array.from(b.obs));
      assert.notDeepEqual(Array.from(a.obs), Array.from(c.obs));
      // Fall with the engines off until the lander crashes (or comes to rest on its legs).
      const env = task.makeEnv(1, 5);
      const terrain = JSON.stringify(env.episodeInfo?.(0));
      const noop = variant.continuous ? [-1, 0] : [0];
      let steps = 0;
      do {
        env.step(noop);
        steps += 1;
        if (env.terminated[0] === 0) assert.deepEqual(Array.from(env.obs), Array.from(env.finalObs), 'obs is finalObs while the episode runs');
      } while (env.terminated[0] === 0 && steps < MAX_EPISODE_STEPS);
      assert.equal(env.terminated[0], 1, 'a free fall ends the episode');
      assert.ok(Math.abs(env.reward[0]) === 100, 'with Gymnasium\'s ending reward');
      assert.ok(env.finalObs[1] < 0.3, 'finalObs is down at the ground');
      assert.ok(env.obs[1] > 1.3 && env.obs[6] === 0 && env.obs[7] === 0, 'obs is a fresh start at the top');
      assert.equal(env.elapsed[0], 0);
      assert.notEqual(JSON.stringify(env.episodeInfo?.(0)), terrain, 'the new episode has a new terrain');
    });
  });
}

describe('LunarLander: actions and speed', () => {
  it('computes sinf and cosf as glibc does (Box2D rotates with them; Math.sin rounded to float32 differs in about 1.4% of inputs)', () => {
    const glibc = z.object({ x: z.array(z.number()), sin: z.array(z.number()), cos: z.array(z.number()) })
      .parse(JSON.parse(readFileSync(new URL('./fixtures/lunar-lander-sincosf.json', import.meta.url), 'utf8')));
    let mismatches = 0;
    let rounded = 0;
    glibc.x.forEach((x, k) => {
      if (sinf(x) !== glibc.sin[k] || cosf(x) !== glibc.cos[k]) mismatches += 1;
      if (Math.fround(Math.sin(x)) !== glibc.sin[k] || Math.fround(Math.cos(x)) !== glibc.cos[k]) rounded += 1;
    });
    // glibc's FMA build moves a result in about one input in 10^8: none of these 500.
    assert.equal(mismatches, 0);
    assert.ok(rounded >= 300, `the fixture holds inputs where rounding Math.sin differs (${rounded})`);
  });

  it('clips the continuous action in place; the main engine fires only above 0, the side engines only beyond ±0.5', () => {
    const env = new LunarLanderContinuousEnv(1, 3);
    const state = env.states[0];
    env.step([2, -3]);
    assert.deepEqual(Array.from(env.applied), [1, -1], 'clipped to [-1, 1]');
    assert.deepEqual([state.lastMain, state.lastSide], [1, 1]);
    for (const [action, main, side] of [[[0, 0.5], 0, 0], [[0.2, 0.6], 0.6, 0.6], [[-0.5, -0.75], 0, 0.75], [[1e-9, 0.5000001], 0.5 + 5e-10, 0.5000001]] as const) {
      env.step(action);
      assert.ok(Math.abs(state.lastMain - main) < 1e-12 && Math.abs(state.lastSide - side) < 1e-12, `${action}: main ${state.lastMain}, side ${state.lastSide}`);
    }
  });

  it('turns the lander counter-clockwise with the left engine (action 1) and clockwise with the right one (action 3)', () => {
    for (const [action, sign] of [[1, 1], [3, -1]] as const) {
      const env = getTask('LunarLander-v3').gymnasiumEnv(1, 9) as LunarLanderEnv;
      const before = landerValues(env.states[0])[5];
      env.step([action]);
      const after = landerValues(env.states[0])[5];
      assert.ok(Math.sign(after - before) === sign, `action ${action}: angular velocity ${before} -> ${after}`);
    }
    assert.throws(() => getTask('LunarLander-v3').makeEnv(1, 0).step([4]), /not one of 0, 1, 2, 3/);
  });

});
