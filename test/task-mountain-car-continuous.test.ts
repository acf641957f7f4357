/**
 * The MountainCarContinuous-v0 task folder (tasks/mountain-car-continuous/): its registration,
 * seeded resets, the force's clipping, the two baselines and the features against episodes
 * recorded from the real Gymnasium 1.4.0 (test/fixtures/golden/MountainCarContinuous-v0.json),
 * the success test, the diagnostic and the card's renderer. Conformance of the dynamics is
 * test/conformance.test.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { RecordingSchema, type RecordedEpisode } from '../tasks/conformance.ts';
import type { Episode, EpisodeRecord } from '../tasks/contract.ts';
import { getTask } from '../tasks/registry.ts';
import {
  GOAL_POSITION, MAX_ACTION, MAX_EPISODE_STEPS, MIN_ACTION, MIN_POSITION, MountainCarContinuousEnv,
} from '../tasks/mountain-car-continuous/environment.ts';
import spec from '../tasks/mountain-car-continuous/task.ts';

type RewardFn = (obs: number[], action: number[], nextObs: number[], terminated: boolean) => [number, Record<string, number>];

const task = getTask('MountainCarContinuous-v0');
const golden = RecordingSchema.parse(JSON.parse(readFileSync(new URL('./fixtures/golden/MountainCarContinuous-v0.json', import.meta.url), 'utf8')));

function rewardOf(code: string): RewardFn {
  return new Function(`${code}\nreturn computeReward;`)() as RewardFn;
}

/** The action as Gymnasium received it (float32). */
function sent(action: number | number[]): number {
  return Math.fround(typeof action === 'number' ? action : action[0]);
}

/** The force as Gymnasium applied it: clipped to [-1, 1]. */
function clipped(action: number | number[]): number[] {
  return [Math.min(Math.max(sent(action), MIN_ACTION), MAX_ACTION)];
}

function transitions(e: RecordedEpisode): Array<{ obs: number[]; sent: number; action: number[]; next: number[]; terminated: boolean; reward: number }> {
  return e.steps.map((step, t) => ({
    obs: t === 0 ? e.initial_obs : e.steps[t - 1].obs,
    sent: sent(step.action),
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

describe('Task: MountainCarContinuous-v0', () => {
  it('is listed by the registry from its folder, with Gymnasium\'s spaces, time limit and threshold', () => {
    // Prepare, Act: the registry loaded the folder.
    // Assess
    assert.equal(task.folder, 'mountain-car-continuous');
    assert.equal(task.obsSize, 2);
    assert.equal(task.actionSize, 1);
    assert.equal(task.maxEpisodeSteps, golden.max_episode_steps);
    assert.equal(task.rewardThreshold, 90);
    assert.deepEqual(task.action, { kind: 'box', names: ['force'], low: [-1], high: [1] });
    assert.deepEqual(task.observation.map((d) => [d.low, d.high]), [[-1.2, 0.6], [-0.07, 0.07]]);
    assert.equal(task.termination, 'success');
    assert.equal(task.tieBreak, 'none');
    assert.equal(spec.id, task.id);
  });

  it('gives the model the environment\'s physics without the reward lines', () => {
    assert.ok(task.environmentSource.includes('POWER'), 'the physics is there');
    assert.ok(task.environmentSource.includes('## Episode end'), 'the manual is there');
    assert.ok(!task.environmentSource.includes('reward:begin'), 'the reward block is pruned');
    assert.ok(!task.environmentSource.includes('let reward'), 'the reward line is pruned');
  });

  it('starts the same from the same seed and differently from another seed', () => {
    // Prepare, Act
    const a = task.makeEnv(8, 11);
    const b = task.makeEnv(8, 11);
    const c = task.makeEnv(8, 12);
    // Assess
    assert.deepEqual(Array.from(a.obs), Array.from(b.obs));
    assert.notDeepEqual(Array.from(a.obs), Array.from(c.obs));
    assert.notDeepEqual(a.obs[0], a.obs[2], 'copies start apart');
  });

  it('draws the start position in [-0.6, -0.4] with velocity 0, as a float64 state', () => {
    // Prepare, Act
    const env = new MountainCarContinuousEnv(64, 3);
    // Assess
    const positions = env.states.map((s) => s[0]);
    for (const s of env.states) {
      assert.ok(s[0] >= -0.6 && s[0] <= -0.4, `start position ${s[0]}`);
      assert.equal(s[1], 0);
    }
    assert.ok(Math.max(...positions) - Math.min(...positions) > 0.15, 'start positions spread over the interval');
    assert.ok(positions.some((p) => Math.fround(p) !== p), 'the reset state is float64, as Gymnasium\'s');
    assert.equal(env.obs[0], Math.fround(positions[0]));
  });

  it('clips forces beyond ±1, shows the clipped force in applied, moves as with it and charges the force as sent', () => {
    // Prepare
    const wild = new MountainCarContinuousEnv(3, 5);
    const tame = new MountainCarContinuousEnv(3, 5);
    // Act
    wild.step([1.5, -4, 0.3]);
    tame.step([1, -1, 0.3]);
    // Assess
    assert.deepEqual(Array.from(wild.applied), [1, -1, Math.fround(0.3)]);
    assert.deepEqual(wild.states.map((s) => Array.from(s)), tame.states.map((s) => Array.from(s)));
    // Gymnasium's reward squares action[0] before any clipping.
    assert.equal(wild.reward[0], -(1.5 * 1.5) * 0.1);
    assert.equal(wild.reward[1], -(4 * 4) * 0.1);
    assert.equal(tame.reward[0], -0.1);
  });

  it('keeps the state in float32 after a step, as Gymnasium stores it', () => {
    // Prepare
    const env = new MountainCarContinuousEnv(4, 8);
    // Act
    for (let t = 0; t < 20; t++) env.step([0.7, -0.2, 1, -1]);
    // Assess
    for (const s of env.states) for (const v of s) assert.equal(Math.fround(v), v);
  });

  it('terminates at the goal with the +100 bonus and truncates at 999 steps otherwise', () => {
    // Prepare
    const atGoal = new MountainCarContinuousEnv(1, 2);
    atGoal.states[0].set([Math.fround(0.449), Math.fround(0.04)]);
    atGoal.restartFromState(0);
    const idle = new MountainCarContinuousEnv(1, 2);
    // Act
    atGoal.step([0.5]);
    for (let t = 1; t < MAX_EPISODE_STEPS; t++) idle.step([0]);
    const beforeLimit = idle.truncated[0];
    idle.step([0]);
    // Assess
    assert.equal(atGoal.terminated[0], 1);
    assert.ok(atGoal.finalObs[0] >= Math.fround(GOAL_POSITION));
    assert.equal(atGoal.reward[0], 100 - 0.5 * 0.5 * 0.1);
    assert.equal(atGoal.elapsed[0], 0, 'a new episode started');
    assert.equal(beforeLimit, 0);
    assert.equal(idle.truncated[0], 1);
    assert.equal(idle.terminated[0], 0);
  });

  it('stops the car at the left wall', () => {
    // Prepare
    const env = new MountainCarContinuousEnv(1, 4);
    env.states[0].set([Math.fround(-1.19), Math.fround(-0.05)]);
    env.restartFromState(0);
    // Act
    env.step([-1]);
    // Assess
    assert.deepEqual(Array.from(env.finalObs), [Math.fround(MIN_POSITION), 0]);
  });

  it('writes the environment\'s own reward as a baseline that reproduces it exactly on every golden step within the bounds', () => {
    // Prepare
    const reward = rewardOf(task.baselines.environment.code);
    let inBounds = 0;
    let outside = 0;
    // Act, Assess
    for (const e of golden.episodes) {
      for (const [t, step] of transitions(e).entries()) {
        const [total, terms] = reward(step.obs, step.action, step.next, step.terminated);
        const at = `seed ${e.seed} step ${t + 1}`;
        assert.equal(Object.values(terms).reduce((s, v) => s + v, 0), total, 'the terms add up');
        if (step.sent === step.action[0]) {
          assert.equal(total, step.reward, at);
          inBounds += 1;
        } else {
          // Gymnasium charges the action as sent (up to ±1.5 here), the baseline sees the clipped force.
          const unseen = -(step.sent * step.sent - 1) * 0.1;
          assert.ok(Math.abs(total + unseen - step.reward) < 1e-12, `${at}: ${total} + ${unseen} against ${step.reward}`);
          outside += 1;
        }
      }
    }
    assert.ok(inBounds > 2000 && outside > 500, `${inBounds} steps within the bounds, ${outside} outside`);
    assert.ok(task.baselines.environment.code.startsWith('// idea: '));
  });

  it('writes a human shaping that returns finite values with named terms on every golden transition', () => {
    // Prepare
    const reward = rewardOf(task.baselines.human.code);
    let goals = 0;
    // Act
    for (const e of golden.episodes) {
      for (const step of transitions(e)) {
        const [total, terms] = reward(step.obs, step.action, step.next, step.terminated);
        assert.ok(Number.isFinite(total));
        assert.deepEqual(Object.keys(terms), ['actionCost', 'shaping', 'goal']);
        for (const [name, value] of Object.entries(terms)) assert.ok(Number.isFinite(value), `term ${name}`);
        if (step.terminated) {
          assert.equal(terms.goal, 100);
          goals += 1;
        }
      }
    }
    // Assess
    assert.equal(goals, 3, 'the three heuristic episodes reach the goal');
    assert.ok(task.baselines.human.code.startsWith('// idea: '));
  });

  it('has features that are finite, mostly in [-0.5, 1.5], about 0 far from the goal and 1 at it', () => {
    // Prepare
    const observations = golden.episodes.flatMap((e) => [e.initial_obs, ...e.steps.map((s) => s.obs)]);
    assert.deepEqual(task.features.map((f) => f.name), ['energy', 'height', 'position', 'speed']);
    const [energy, height, position, speed] = task.features.map((ft) => new Function('s', `return ${ft.expression};`) as (s: number[]) => number);
    for (const [k, f] of [energy, height, position, speed].entries()) {
      // Act
      const values = observations.map((o) => f(o));
      // Assess
      assert.ok(values.every(Number.isFinite), `${task.features[k].name}: finite`);
      const inside = values.filter((v) => v >= -0.5 && v <= 1.5).length;
      assert.ok(inside / values.length >= 0.95, `${task.features[k].name}: ${inside} of ${values.length} in [-0.5, 1.5]`);
    }
    const bottom = [-Math.PI / 6, 0];
    const goal = [GOAL_POSITION, 0];
    assert.ok(Math.abs(energy(bottom)) < 1e-12 && Math.abs(energy(goal) - 1) < 1e-12, 'energy: 0 at rest at the bottom, 1 at rest at the goal');
    assert.ok(Math.abs(height(bottom)) < 1e-12 && height(goal) > 0.98, 'height: 0 at the bottom, about 1 at the goal');
    assert.ok(Math.abs(position([MIN_POSITION, 0])) < 1e-12 && Math.abs(position(goal) - 1) < 1e-12, 'position: 0 at the left wall, 1 at the goal');
    assert.ok(speed(bottom) === 0 && Math.abs(speed([0, -0.07]) - 1) < 1e-12, 'speed: 0 at rest, 1 at full speed');
  });

  it('fails the heuristic golden episodes (return about 89.4, below 90) and passes a return of 90 or more', () => {
    for (const e of golden.episodes) {
      // Act
      const ep = episodeOf(e);
      // Assess: the bang-bang heuristic reaches the goal but spends too much on force.
      assert.equal(task.success.test(ep), false, `seed ${e.seed} (${e.policy}, return ${ep.return})`);
      if (e.policy === 'heuristic') assert.ok(ep.terminated && ep.return > 89 && ep.return < 90, `seed ${e.seed}: ${ep.return}`);
    }
    const reached = episodeOf(episode('heuristic'));
    assert.equal(task.success.test({ ...reached, return: 95 }), true, 'a return of 95');
    assert.equal(task.success.test({ ...reached, return: 90 }), true, 'exactly the threshold');
    assert.match(task.success.describe, /at least 90/);
  });

  it('measures the highest position as its diagnostic and states the goal with it', () => {
    // Prepare
    const highest = golden.episodes.map((e) => task.progress.measure(episodeOf(e)));
    // Assess
    assert.equal(task.progress.label, 'mean highest position');
    for (const [k, e] of golden.episodes.entries()) {
      assert.equal(highest[k], Math.max(...[e.initial_obs, ...e.steps.map((s) => s.obs)].map((o) => o[0])));
      assert.equal(highest[k] >= GOAL_POSITION, e.policy === 'heuristic', `seed ${e.seed}: ${highest[k]}`);
    }
    assert.equal(task.progress.format(0.4321), '0.432 (the goal is at 0.45)');
  });

  it('renders an episode as an animated SVG with plots of the position and the force, and a sentence', () => {
    // Prepare
    const reached = recordOf(episode('heuristic'), false);
    const wandering = recordOf(episode('random'), false);
    // Act
    const animation = task.render.animation(reached, '#2563eb');
    const plots = task.render.plots(reached, '#2563eb');
    // Assess
    assertCleanSvg(animation, 'mountain-car-continuous-animation');
    assert.ok(animation.includes('<animateMotion') && animation.includes('<animateTransform'), 'SMIL drives and tilts the car');
    assert.ok(animation.includes('flag, x = 0.45'), 'the flag is at 0.45');
    assert.ok(animation.includes('attributeName="fill"'), 'the flag turns green on arrival');
    assert.deepEqual(plots.map((p) => /data-chart="([^"]+)"/.exec(p)?.[1]), ['mountain-car-continuous-position', 'mountain-car-continuous-force']);
    for (const p of plots) assertCleanSvg(p, /data-chart="([^"]+)"/.exec(p)?.[1] ?? '');
    assert.match(task.render.story(reached), /^Starts at x = -0\.\d{3}, turns \d+ times? to build up speed, and reaches the goal at step \d+ with a return of 89\.\d\.$/);
    assert.match(task.render.story(wandering), /does not reach the goal \(highest x = -?0\.\d{3}, return -\d+\.\d\)\.$/);
  });

  it('renders an empty episode without failing', () => {
    // Prepare
    const empty: EpisodeRecord = { observations: [], actions: [], rewards: [], success: false, terminated: false, truncated: false };
    // Act, Assess
    assertCleanSvg(task.render.animation(empty, '#2563eb'), 'mountain-car-continuous-animation');
    for (const p of task.render.plots(empty, '#2563eb')) assert.ok(p.includes('no data') && !p.includes('NaN'));
    assert.equal(task.render.story(empty), 'No evaluation episode was recorded.');
  });
});
