/**
 * `eureka check-reward`: a reward run in the sandbox over sample transitions of the task's own
 * environment under random actions; a fault is a verdict, not a throw.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { checkReward, sampleTransitions } from '../functions/train-seed/check-reward.ts';
import { getTask, TASKS } from '../tasks/registry.ts';
import { VectorEnv } from '../tasks/vector-env.ts';

const example = (name: string): string => readFileSync(new URL(`../examples/${name}`, import.meta.url), 'utf8');
const MOUNTAIN_CAR = getTask('MountainCar-v0');

describe('Function: checkReward', () => {
  it('accepts energy.js and reports the mean of each term per transition', async () => {
    const result = await checkReward(MOUNTAIN_CAR, example('energy.js'));
    assert.equal(result.verdict, 'ok');
    assert.equal(result.reason, 'ok on 4096 sample transitions of MountainCar-v0');
    assert.deepEqual(Object.keys(result.terms), ['step', 'shaping', 'goal']);
    assert.equal(result.terms.step, -1);
    // Random pushes from the valley never reach the flag in 256 steps.
    assert.equal(result.terms.goal, 0);
    assert.ok(Number.isFinite(result.terms.shaping) && result.terms.shaping !== 0);
  });

  it('accepts every task\'s own two baselines on that task\'s transitions', async () => {
    // 1,024 transitions (64 steps of 16 copies) and no screen: every term runs on every task, and the
    // screens of the baselines are test/screen.test.ts's; 4,096 of Ant's and Go1's took a minute.
    for (const task of TASKS) {
      for (const baseline of [task.baselines.environment, task.baselines.human]) {
        const result = await checkReward(task, baseline.code, { samples: 1024, screen: false });
        assert.equal(result.verdict, 'ok', `${task.id}: ${result.reason}`);
        assert.ok(Object.keys(result.terms).length > 0, `${task.id}: named terms`);
      }
    }
  });

  it('reports the mean of a term that fires on termination (CartPole falls under random pushes)', async () => {
    const task = getTask('CartPole-v1');
    const samples = sampleTransitions(task, 4096, 0);
    const share = samples.terminated.reduce((n, t) => n + t, 0) / samples.count;
    const result = await checkReward(task, 'function computeReward(obs, action, nextObs, terminated) { const fell = terminated ? -1 : 0; return [fell, { fell }]; }');
    assert.ok(share > 0.02, `random pushes topple the pole (${share})`);
    assert.ok(Math.abs(result.terms.fell + share) < 1e-12);
  });

  it('says what a reward pays as the untrained policy acts, on a step that goes on and on one that ends the episode', async () => {
    const task = getTask('CartPole-v1');
    const steps = sampleTransitions(task, 1024, 0, 'first-policy');
    const endings = steps.terminated.reduce((n, t) => n + t, 0);
    assert.ok(endings > 0, 'random pushes topple the pole');
    const result = await checkReward(task, 'function computeReward(obs, action, nextObs, terminated) { const r = terminated ? -10 : -1; return [r, { r }]; }', { samples: 1024, screen: false });
    assert.deepEqual(result.firstSteps, { goingOn: -1, ending: -10, endings, steps: 1024 });
    const never = await checkReward(MOUNTAIN_CAR, example('energy.js'), { samples: 1024, screen: false });
    assert.equal(never.firstSteps?.ending, null, 'random pushes never reach the flag');
    assert.equal(never.firstSteps?.endings, 0);
  });

  it('gives a timeout verdict for never-returns.js', async () => {
    const result = await checkReward(MOUNTAIN_CAR, example('hostile/never-returns.js'));
    assert.deepEqual(result, { verdict: 'timeout', reason: 'reward did not return within 2 million operations at step 0', terms: {}, screen: null, firstSteps: null });
  });

  it('gives a memory verdict for memory-arrays.js', async () => {
    const result = await checkReward(MOUNTAIN_CAR, example('hostile/memory-arrays.js'));
    assert.equal(result.verdict, 'memory');
  });

  it('gives an error verdict naming the syntax error', async () => {
    const result = await checkReward(MOUNTAIN_CAR, 'function computeReward(obs, action {\n  return [0, {}];\n}');
    assert.equal(result.verdict, 'error');
    assert.match(result.reason, /^reward has a syntax error at line 1: /);
  });

  it('keeps a term named __proto__ as a plain key', async () => {
    const result = await checkReward(MOUNTAIN_CAR, example('hostile/proto-term-names.js'));
    assert.ok(Object.hasOwn(result.terms, '__proto__'));
    assert.equal(Object.getPrototypeOf(result.terms), Object.prototype);
    assert.equal(JSON.parse(JSON.stringify(result.terms)).__proto__, 1.5);
  });
});

describe('Function: sampleTransitions', () => {
  it('steps the task\'s own environment: each nextObs is the dynamics applied to obs and the action', () => {
    const batch = sampleTransitions(MOUNTAIN_CAR, 4096, 3);
    assert.deepEqual(sampleTransitions(MOUNTAIN_CAR, 4096, 3), batch, 'reproducible');
    const env = MOUNTAIN_CAR.gymnasiumEnv(1, 0) as VectorEnv<Float64Array>;
    env.autoReset = false;
    for (let i = 0; i < batch.count; i++) {
      env.states[0].set([batch.obs[2 * i], batch.obs[2 * i + 1]]);
      env.restartFromState(0);
      env.step([batch.actions[i]]);
      // obs is float32 while the environment's state was float64: the step agrees to float32 rounding.
      assert.ok(Math.abs(env.finalObs[0] - batch.nextObs[2 * i]) < 1e-6, `transition ${i}`);
      assert.equal(batch.terminated[i], env.terminated[0]);
    }
    assert.deepEqual(new Set(batch.actions), new Set([0, 1, 2]));
  });

  it('draws the first policies\' actions as the untrained policy does: a mean near 0, a standard deviation of 1, clipped', () => {
    const task = getTask('Pendulum-v1');
    const spread = (actions: Float64Array) => {
      const mean = actions.reduce((a, b) => a + b, 0) / actions.length;
      return { mean, sd: Math.sqrt(actions.reduce((a, b) => a + (b - mean) ** 2, 0) / actions.length) };
    };
    const first = spread(sampleTransitions(task, 4096, 1, 'first-policy').actions);
    assert.ok(Math.abs(first.mean) < 0.05, `mean ${first.mean}`);
    // N(0, 1) clipped to Pendulum's ±2 has a standard deviation of 0.96; the check's draw, uniform to ±3 clipped, 1.49.
    assert.ok(first.sd > 0.92 && first.sd < 1.0, `sd ${first.sd}`);
    assert.ok(spread(sampleTransitions(task, 4096, 1).actions).sd > 1.4, 'the check\'s own draw reaches past the bounds');
  });

  it('hands a box task\'s reward the clipped action, reaching its bounds', () => {
    const task = getTask('Pendulum-v1');
    const batch = sampleTransitions(task, 2048, 1);
    assert.ok(batch.actions.every((a) => a >= -2 && a <= 2));
    assert.ok(batch.actions.some((a) => a === 2) && batch.actions.some((a) => a === -2), 'some random actions were clipped');
  });
});
