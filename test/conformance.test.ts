/**
 * Every task against episodes recorded by running the real Gymnasium 1.4.0 (numpy 2.4.6, Box2D
 * 2.3.10) with tasks/record-gymnasium.py, each step's internal state, float32 observation, reward,
 * terminated and truncated. Even seeds take random actions, odd ones a heuristic that solves the
 * task, so that every kind of ending occurs.
 *
 * The split is fixed. Tuning: the six golden episodes (seeds 0-5, test/fixtures/golden/) and
 * seeds 100-129 (test/fixtures/recordings/<task>.tuning.json.gz). Held out: seeds 130-159
 * (<task>.held-out.json.gz). A classic-control task's default tolerance is the RULE below applied
 * to the tuning episodes (asserted: the declared default is that choice); the held-out episodes
 * are never looked at to choose, only checked against the default as `eureka conformance` does.
 * Each file is `python3 tasks/record-gymnasium.py TASK FILE --first-seed 100|130 --episodes 30
 * --policy heuristic`, then `gzip -9n FILE`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { ConformanceTolerance, FieldTolerance, Task } from '../tasks/contract.ts';
import {
  DEFAULT_TOLERANCE, RecordingSchema, compareEpisode, recordingText, replayArrayState, replayEpisode, withinTolerance, worstDeviation,
  type Deviation, type Recording,
} from '../tasks/conformance.ts';
import { getTask } from '../tasks/registry.ts';
import { eureka } from './support/eureka-cli.ts';

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, k) => from + k);
const SPLIT = { tuning: [...range(0, 5), ...range(100, 129)], heldOut: range(130, 159) };

const CLASSIC = ['MountainCar-v0', 'MountainCarContinuous-v0', 'CartPole-v1', 'Acrobot-v1', 'Pendulum-v1'];
const LANDERS = ['LunarLander-v3', 'LunarLanderContinuous-v3'];

/** The kinds of ending the recordings hold (Pendulum never terminates; no recorded lander hovered to the time limit). */
const ENDINGS: Record<string, string[]> = {
  'MountainCar-v0': ['terminated', 'truncated'], 'MountainCarContinuous-v0': ['terminated', 'truncated'],
  'CartPole-v1': ['terminated', 'truncated'], 'Acrobot-v1': ['terminated', 'truncated'], 'Pendulum-v1': ['truncated'],
  'LunarLander-v3': ['terminated'], 'LunarLanderContinuous-v3': ['terminated'],
};

const FIXTURES = new URL('./fixtures/', import.meta.url);
const heldOutFile = (id: string): string => new URL(`recordings/${id}.held-out.json.gz`, FIXTURES).pathname;
const load = (path: string): Recording => RecordingSchema.parse(JSON.parse(recordingText(readFileSync(path))));

function recordings(id: string, set: 'tuning' | 'heldOut'): Recording['episodes'] {
  const files = set === 'tuning'
    ? [new URL(`golden/${id}.json`, FIXTURES).pathname, new URL(`recordings/${id}.tuning.json.gz`, FIXTURES).pathname]
    : [heldOutFile(id)];
  const episodes = files.flatMap((file) => {
    const recording = load(file);
    assert.equal(recording.task, id);
    assert.equal(recording.max_episode_steps, getTask(id).maxEpisodeSteps, `${file}: the time limit`);
    return recording.episodes;
  });
  assert.deepEqual(episodes.map((e) => e.seed), SPLIT[set], `the ${set} seeds of ${id}`);
  return episodes;
}

/**
 * The largest float32 term of a field, where Gymnasium computes part of it in float32 and the part
 * may round otherwise than ours. Pendulum's reward has 0.001 * u**2 with u the float32 torque
 * (|u| <= 2): numpy's float32 u**2 is powf, which rounds an exact tie between two float32 (a torque
 * of 12 or 13 significant bits) either way where Math.fround(u * u) rounds it to even; one such
 * step in 6,000 random ones (held-out seed 130, step 143) is off by 2.9e-11 = 2^-35.
 */
const FLOAT32_TERMS: Record<string, Partial<FieldTolerance>> = { 'Pendulum-v1': { reward: 0.001 * 2 ** 2 } };

/**
 * The RULE. (1) Replay from the start where the free runs of the tuning episodes stay within what
 * rounding alone accumulates over an episode (one float64 ulp of the largest state value per step,
 * times the time limit); where they do not, the dynamics amplify last-bit differences (libm's
 * sin/cos against V8's, chaos or an unstable equilibrium) and each step is replayed from the
 * recorded state. (2) Each field's tolerance: 10 times the tuning maximum, but at least one ulp of
 * the field's largest value (float64 for state and reward; float32 for observations, since a state
 * off in its last bit may round to the neighbouring float32) or of a float32 term in it
 * (FLOAT32_TERMS), rounded up to a power of ten.
 */
function rule(task: Task, episodes: Recording['episodes']): ConformanceTolerance {
  const largest = (pick: (s: Recording['episodes'][number]['steps'][number]) => number[]): number =>
    Math.max(...episodes.flatMap((e) => e.steps.flatMap((s) => pick(s).map(Math.abs))));
  const scale: FieldTolerance = { state: largest((s) => s.state ?? []), obs: largest((s) => s.obs), reward: largest((s) => [s.reward]) };
  const f32 = FLOAT32_TERMS[task.id] ?? {};
  const ulp = {
    state: Math.max(scale.state * 2 ** -52, (f32.state ?? 0) * 2 ** -23),
    obs: scale.obs * 2 ** -23,
    reward: Math.max(scale.reward * 2 ** -52, (f32.reward ?? 0) * 2 ** -23),
  };
  const free = worstDeviation(episodes.map((e) => compareEpisode(e, replayArrayState(task, e))));
  const eachStep = free.state > task.maxEpisodeSteps * ulp.state;
  const worst = eachStep ? worstDeviation(episodes.map((e) => compareEpisode(e, replayArrayState(task, e, true)))) : free;
  const bound = (x: number, floor: number): number => Number(`1e${Math.ceil(Math.log10(Math.max(10 * x, floor)))}`);
  return {
    state: bound(worst.state, ulp.state), obs: bound(worst.obs, ulp.obs), reward: bound(worst.reward, ulp.reward),
    ...(eachStep ? { replayFrom: 'each-step' as const } : {}),
  };
}

const show = (d: Deviation): string => `state ${d.state.toExponential(2)}, obs ${d.obs.toExponential(2)}, reward ${d.reward.toExponential(2)}` +
  (d.afterContact ? `; after contact: state ${d.afterContact.state.toExponential(2)}, obs ${d.afterContact.obs.toExponential(2)}, reward ${d.afterContact.reward.toExponential(2)}` : '');

describe('Conformance: each classic-control default is the rule\'s choice on the tuning episodes', () => {
  for (const id of CLASSIC) {
    it(`${id} declares what the rule picks from its 36 tuning episodes`, (t) => {
      const task = getTask(id);
      const chosen = rule(task, recordings(id, 'tuning'));
      t.diagnostic(`${id}: ${JSON.stringify(chosen)}`);
      assert.deepEqual(task.conformanceTolerance ?? DEFAULT_TOLERANCE, chosen);
    });
  }
});

describe('Conformance: every classic-control task replays its recorded episodes within its default, ending each the same way', () => {
  for (const id of CLASSIC) {
    for (const set of ['tuning', 'heldOut'] as const) {
      it(`${id}: every ${set === 'heldOut' ? 'held-out' : 'tuning'} episode within the default, on the same step and the same way as recorded`, (t) => {
        const task = getTask(id);
        const tolerance = task.conformanceTolerance ?? DEFAULT_TOLERANCE;
        const episodes = recordings(id, set);
        const all = episodes.map((episode) => {
          const deviation = compareEpisode(episode, replayEpisode(task, episode));
          const at = `${id} seed ${episode.seed} (${episode.policy})`;
          assert.equal(deviation.steps, episode.steps.length, `${at}: steps compared`);
          assert.equal(deviation.flagMismatches, 0, `${at}: terminated/truncated differ first at step ${deviation.firstFlagMismatch}`);
          assert.equal(deviation.endingMismatches, 0, `${at}: ends ${JSON.stringify(deviation.firstEndingMismatch)}`);
          assert.ok(withinTolerance(deviation, tolerance), `${at}: ${show(deviation)} against ${JSON.stringify(tolerance)}`);
          return deviation;
        });
        const endings = new Set(episodes.map((e) => (e.steps[e.steps.length - 1].terminated ? 'terminated' : 'truncated')));
        assert.deepEqual([...endings].sort(), ENDINGS[id], 'the kinds of ending the recordings cover');
        t.diagnostic(`${id} ${set}: ${all.length} episodes, worst ${show(worstDeviation(all))}`);
        if (tolerance.replayFrom === 'each-step') {
          const free = worstDeviation(episodes.map((e) => compareEpisode(e, replayArrayState(task, e))));
          t.diagnostic(`${id} ${set}, free run from the start (not judged): worst ${show(free)}`);
        }
      });
    }
  }
});

describe('Conformance: the LunarLanders against Box2D 2.3.10', () => {
  for (const id of LANDERS) {
    it(`${id}: every recorded free flight (before the first contact) within the declared tolerance`, (t) => {
      const task = getTask(id);
      const tolerance = task.conformanceTolerance ?? DEFAULT_TOLERANCE;
      for (const set of ['tuning', 'heldOut'] as const) {
        const episodes = recordings(id, set);
        const all = episodes.map((episode) => {
          const replay = replayEpisode(task, episode);
          assert.ok(replay.firstContact !== undefined, `seed ${episode.seed}: the replay marks the first contact`);
          const deviation = compareEpisode(episode, replay);
          const free = `seed ${episode.seed} (${episode.policy}), the ${replay.firstContact - 1} steps before the first contact`;
          assert.ok(deviation.state <= tolerance.state && deviation.obs <= tolerance.obs && deviation.reward <= tolerance.reward,
            `${free}: ${show(deviation)} against ${JSON.stringify(tolerance)}`);
          return deviation;
        });
        const endings = new Set(episodes.map((e) => (e.steps[e.steps.length - 1].terminated ? 'terminated' : 'truncated')));
        assert.deepEqual([...endings].sort(), ENDINGS[id], 'the kinds of ending the recordings cover');
        const worst = worstDeviation(all);
        t.diagnostic(`${id} ${set}: ${all.length} episodes, worst ${show(worst)}; ${worst.endingMismatches} endings differ, first ${JSON.stringify(worst.firstEndingMismatch)}`);
      }
    });

    // box2d-f32 is Box2D 2.3's float32 arithmetic in pybox2d's order: landings included, every step.
    it(`${id}: every held-out episode passes at the default, ending on the same step and the same way`, () => {
        const task = getTask(id);
        const tolerance = task.conformanceTolerance ?? DEFAULT_TOLERANCE;
        for (const episode of recordings(id, 'heldOut')) {
          const deviation = compareEpisode(episode, replayEpisode(task, episode));
          assert.ok(withinTolerance(deviation, tolerance), `seed ${episode.seed} (${episode.policy}): ${show(deviation)}, ` +
            `endings ${JSON.stringify(deviation.firstEndingMismatch)} against ${JSON.stringify(tolerance)}`);
        }
      });
  }
});

describe('Conformance: how a replay is judged', () => {
  const step = (state: number[], end: Partial<{ terminated: boolean; truncated: boolean }> = {}) =>
    ({ action: 0, state, obs: state, reward: -1, terminated: false, truncated: false, ...end });
  const recorded = { initial_obs: [0], steps: [step([1]), step([2]), step([3], { terminated: true })] };

  it('holds the steps from the first contact on to afterContact, and the free flight before it to the rest', () => {
    const replay = { initialObs: [0], steps: [step([1]), step([2.001]), step([3.5], { terminated: true })], firstContact: 3 };
    const d = compareEpisode(recorded, replay);
    assert.ok(Math.abs(d.state - 1e-3) < 1e-12 && d.afterContact?.state === 0.5, JSON.stringify(d));
    const free = { state: 2e-3, obs: 2e-3, reward: 0 };
    assert.equal(withinTolerance(d, free), false, 'without afterContact the free-flight tolerance holds the whole episode');
    assert.equal(withinTolerance(d, { ...free, afterContact: { state: 1, obs: 1, reward: 0 } }), true);
    assert.equal(withinTolerance(d, { ...free, state: 1e-4, afterContact: { state: 1, obs: 1, reward: 0 } }), false, 'the free flight stays strict');
    assert.equal(compareEpisode(recorded, { ...replay, firstContact: undefined }).afterContact, null);
  });

  it('fails an episode that ends on another step or another way, whatever the tolerance', () => {
    const loose = { state: Infinity, obs: Infinity, reward: Infinity, afterContact: { state: Infinity, obs: Infinity, reward: Infinity } };
    const cases: Array<[string, ReturnType<typeof step>[], string]> = [
      ['ends a step early', [step([1]), step([2], { terminated: true })], '{"step":2,"kind":"terminated"}'],
      ['still running at the recorded end', [step([1]), step([2]), step([3])], '{"step":3,"kind":"running"}'],
      ['truncated instead of terminated', [step([1]), step([2]), step([3], { truncated: true })], '{"step":3,"kind":"truncated"}'],
    ];
    for (const [what, steps, ours] of cases) {
      const d = compareEpisode(recorded, { initialObs: [0], steps, firstContact: 1 });
      assert.equal(d.endingMismatches, 1, what);
      assert.equal(JSON.stringify(d.firstEndingMismatch), `{"recorded":{"step":3,"kind":"terminated"},"ours":${ours}}`, what);
      assert.equal(withinTolerance(d, loose), false, what);
    }
    const same = compareEpisode(recorded, { initialObs: [0], steps: recorded.steps });
    assert.equal(same.endingMismatches + same.flagMismatches, 0);
    assert.equal(worstDeviation([same, compareEpisode(recorded, { initialObs: [0], steps: cases[0][1] })]).endingMismatches, 1);
  });

  it('replays each step from the recorded state with replayFrom each-step: a disturbed state costs two steps, not the rest', () => {
    const task = getTask('CartPole-v1');
    const episode = recordings('CartPole-v1', 'heldOut').find((e) => e.steps.length === 500);
    assert.ok(episode, 'a held-out episode held to the time limit');
    const k = 100;
    const disturbed = { ...episode, steps: episode.steps.map((s, t) => (t === k ? { ...s, state: s.state?.map((v, j) => (j === 2 ? v + 1e-3 : v)) } : s)) };
    const from = (eachStep: boolean) => replayArrayState(task, disturbed, eachStep).steps.map((s, t) => Math.abs((s.state?.[2] ?? 0) - (disturbed.steps[t].state?.[2] ?? 0)));
    const eachStep = from(true);
    assert.ok(eachStep[k] > 9e-4 && eachStep[k + 1] > 9e-4, `steps ${k + 1} and ${k + 2} deviate: ${eachStep[k]}, ${eachStep[k + 1]}`);
    assert.ok(Math.max(...eachStep.slice(k + 2)) < 1e-13, 'the later steps start from the recorded states again');
    const free = from(false);
    assert.ok(free[k] > 9e-4 && free[k + 1] < 1e-13, 'a free run never reads the recorded states: only the disturbed step differs');
    const own = { ...getTask('LunarLander-v3'), conformanceTolerance: { ...DEFAULT_TOLERANCE, replayFrom: 'each-step' as const } };
    assert.throws(() => replayEpisode(own, recordings('LunarLander-v3', 'heldOut')[0]), /each-step' needs the array-state replayer/);
  });

  it('eureka conformance reads the gzipped held-out recordings and says how it judged them', async () => {
    const acrobot = await eureka(['conformance', '--task', 'Acrobot-v1', heldOutFile('Acrobot-v1')]);
    assert.equal(acrobot.code, 0, acrobot.stdout + acrobot.stderr);
    assert.match(acrobot.stdout, /30 episodes, \d+ steps; .*endings differ in 0 episodes\n/);
    assert.match(acrobot.stdout, /Acrobot-v1: within tolerance \(state 1e-13, observation 0\.00001, reward 1e-15; each step from the recorded state\)/);
    const lander = await eureka(['conformance', '--task', 'LunarLander-v3', new URL('golden/LunarLander-v3.json', FIXTURES).pathname]);
    assert.match(lander.stdout, /\(before the first contact\); after it: state \d\.\d\de[-+]\d+/);
    const own = await eureka(['conformance', '--task', 'PointGoal-v0', new URL('../../examples/tasks/point-goal/recorded.json', FIXTURES).pathname, '--json'],
      { EUREKA_TASK_PATH: new URL('../../examples/tasks', FIXTURES).pathname });
    assert.equal(own.code, 0, own.stderr);
    assert.deepEqual(JSON.parse(own.stdout).tolerance, DEFAULT_TOLERANCE, 'a task that declares none is held to the default');
  });
});
