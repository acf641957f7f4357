/**
 * MountainCar-v0's own contracts beyond the recorded Gymnasium episodes (test/conformance.test.ts):
 * the left wall, the speed clip, the flag on the last step, the episode boundary, seeded resets,
 * the vectorization, and the task's baselines, features and success test on real episodes.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { RecordingSchema } from '../tasks/conformance.ts';
import { getTask } from '../tasks/registry.ts';
import { MAX_EPISODE_STEPS, MIN_POSITION, MountainCarEnv } from '../tasks/mountain-car/environment.ts';

const TASK = getTask('MountainCar-v0');
const GOLDEN = RecordingSchema.parse(JSON.parse(readFileSync(new URL('./fixtures/golden/MountainCar-v0.json', import.meta.url), 'utf8')));

/** One copy started at (position, velocity). */
function at(position: number, velocity: number): MountainCarEnv {
  const env = new MountainCarEnv(1, 0);
  env.states[0].set([position, velocity]);
  env.restartFromState(0);
  return env;
}

describe('Task: MountainCar-v0', () => {
  it('stops at the left wall: position -1.2 with the velocity zeroed, not negative', () => {
    const env = at(-1.19, -0.05);
    env.step([0]);
    assert.deepEqual(Array.from(env.states[0]), [MIN_POSITION, 0]);
  });

  it('clips the speed at exactly ±0.07', () => {
    const env = at(-0.5, 0.0695);
    env.autoReset = false;
    env.step([2]);
    assert.equal(env.states[0][1], 0.07);
  });

  it('keeps the final observation in finalObs and starts the next episode in obs when the flag is reached', () => {
    const env = at(0.49, 0.03);
    env.step([2]);
    assert.equal(env.terminated[0], 1);
    assert.ok(env.finalObs[0] >= 0.5, 'the final observation is at the flag');
    assert.ok(env.obs[0] >= -0.6 && env.obs[0] < -0.4 && env.obs[1] === 0, 'obs is a fresh start');
    assert.equal(env.elapsed[0], 0);
  });

  it('reaches the flag exactly on step 200: terminated and truncated together, as Gymnasium\'s TimeLimit', () => {
    const env = at(0.49, 0.03);
    env.elapsed[0] = MAX_EPISODE_STEPS - 1;
    env.step([2]);
    assert.deepEqual([env.terminated[0], env.truncated[0]], [1, 1]);
  });

  it('truncates after 200 steps and restarts the limit with each episode', () => {
    const env = new MountainCarEnv(1, 3);
    for (let t = 1; t <= 2 * MAX_EPISODE_STEPS; t++) {
      env.step([1]);
      assert.equal(env.truncated[0], t % MAX_EPISODE_STEPS === 0 ? 1 : 0, `step ${t}`);
    }
  });

  it('starts uniformly in [-0.6, -0.4) with velocity 0, reproducibly per seed', () => {
    const starts = (seed: number) => { const env = new MountainCarEnv(500, seed); return Array.from(env.obs.filter((_, k) => k % 2 === 0)); };
    const xs = starts(1);
    assert.ok(xs.every((x) => x >= -0.6 && x < -0.4));
    assert.ok(Math.min(...xs) < -0.59 && Math.max(...xs) > -0.41, 'the whole range');
    assert.deepEqual(starts(1), xs);
    assert.notDeepEqual(starts(2), xs);
  });

  it('steps each copy of a vector exactly as it would alone', () => {
    const vector = new MountainCarEnv(6, 0);
    GOLDEN.episodes.forEach((e, i) => { vector.states[i].set(e.initial_state ?? []); vector.restartFromState(i); });
    vector.autoReset = false;
    const alone = GOLDEN.episodes.map((e) => at(e.initial_state?.[0] ?? 0, e.initial_state?.[1] ?? 0));
    for (let t = 0; t < 100; t++) {
      const actions = GOLDEN.episodes.map((e) => Number(e.steps[Math.min(t, e.steps.length - 1)].action));
      vector.step(actions);
      alone.forEach((env, i) => {
        env.autoReset = false;
        env.step([actions[i]]);
        assert.deepEqual(Array.from(vector.states[i]), Array.from(env.states[0]), `copy ${i}, step ${t}`);
      });
    }
  });

  it('writes the environment\'s own reward as its baseline, the person\'s shaping, and features on real episodes', () => {
    const load = (code: string) => new Function(`${code}\nreturn computeReward;`)() as (o: number[], a: number, n: number[], d: boolean) => [number, Record<string, number>];
    const env = load(TASK.baselines.environment.code);
    const human = load(TASK.baselines.human.code);
    for (const e of GOLDEN.episodes) {
      e.steps.forEach((step, t) => {
        const obs = t === 0 ? e.initial_obs : e.steps[t - 1].obs;
        assert.equal(env(obs, Number(step.action), step.obs, step.terminated)[0], step.reward);
        const [total, terms] = human(obs, Number(step.action), step.obs, step.terminated);
        assert.ok(Number.isFinite(total) && Object.keys(terms).length === 3);
        for (const f of TASK.features) {
          const value = (new Function('s', `return ${f.expression};`) as (s: number[]) => number)(step.obs);
          assert.ok(value >= -0.01 && value <= 2.5, `${f.name} = ${value}`);
        }
      });
    }
  });

  it('calls an episode a success when it reaches the flag: the solving episodes, not the random ones', () => {
    for (const e of GOLDEN.episodes) {
      const last = e.steps[e.steps.length - 1];
      const observations = Float32Array.from([e.initial_obs, ...e.steps.map((s) => s.obs)].flat());
      const episode = { observations, obsSize: 2, recorded: new Float64Array(0), recordSize: 0, length: e.steps.length, return: -e.steps.length, terminated: last.terminated, truncated: last.truncated };
      assert.equal(TASK.success.test(episode), e.policy === 'heuristic', `seed ${e.seed} (${e.policy})`);
      assert.ok(TASK.progress.measure(episode) >= e.initial_obs[0], 'the highest position is at least the start');
    }
  });
});
