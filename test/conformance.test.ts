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

    // planck (float64) is not Box2D (float32): it ends some held-out landings a few steps off (the
    // body falls asleep later); the engine (issue 18, item 2) is tasks/lunar-lander's to choose.
    it(`${id}: every held-out episode passes at the default, ending on the same step and the same way`,
      { todo: 'planck ends some held-out landings on another step than Box2D (issue 18: the engine)' }, () => {
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
