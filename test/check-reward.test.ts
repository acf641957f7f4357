/**
 * `eureka check-reward`: a reward run in the sandbox over sample transitions of the real dynamics;
 * a fault is a verdict, not a throw, and every check ends within a few seconds.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { checkReward, sampleTransitions } from '../functions/train-seed/check-reward.ts';
import { dynamics, isTerminal, MOUNTAIN_CAR } from '../functions/train-seed/mountain-car.ts';

const example = (name: string): string => readFileSync(new URL(`../examples/${name}`, import.meta.url), 'utf8');
const WITHIN_MS = 5000;

async function timedCheck(source: string): Promise<Awaited<ReturnType<typeof checkReward>>> {
  const started = performance.now();
  const result = await checkReward(source);
  const elapsed = performance.now() - started;
  assert.ok(elapsed < WITHIN_MS, `check took ${elapsed.toFixed(0)} ms`);
  return result;
}

describe('Function: checkReward', () => {
  it('accepts energy.js and reports the mean of each term per transition', async () => {
    // Prepare
    const samples = sampleTransitions(4096, 0);
    const terminalShare = samples.terminated.reduce((n, t) => n + t, 0) / samples.count;
    // Act
    const result = await timedCheck(example('energy.js'));
    // Assess
    assert.equal(result.verdict, 'ok');
    assert.equal(result.reason, 'ok on 4096 sample transitions');
    assert.deepEqual(Object.keys(result.terms), ['step', 'shaping', 'goal']);
    assert.equal(result.terms.step, -1);
    assert.ok(Math.abs(result.terms.goal - 10 * terminalShare) < 1e-12);
    assert.ok(terminalShare > 0.02, 'the sample includes transitions that reach the flag');
    assert.ok(Number.isFinite(result.terms.shaping));
  });

  it('accepts the environment reward', async () => {
    const result = await timedCheck(example('environment.js'));
    assert.deepEqual(result, { verdict: 'ok', reason: 'ok on 4096 sample transitions', terms: { step: -1 } });
  });

  it('gives a timeout verdict for never-returns.js', async () => {
    const result = await timedCheck(example('hostile/never-returns.js'));
    assert.deepEqual(result, { verdict: 'timeout', reason: 'reward did not return within 1000 ms at step 0', terms: {} });
  });

  it('gives a memory verdict for memory-arrays.js', async () => {
    const result = await timedCheck(example('hostile/memory-arrays.js'));
    assert.equal(result.verdict, 'memory');
  });

  it('gives an error verdict naming the syntax error', async () => {
    const result = await timedCheck('function computeReward(obs, action {\n  return [0, {}];\n}');
    assert.equal(result.verdict, 'error');
    assert.match(result.reason, /^reward has a syntax error at line 1: /);
  });

  it('keeps a term named __proto__ as a plain key', async () => {
    const result = await timedCheck(example('hostile/proto-term-names.js'));
    assert.ok(Object.hasOwn(result.terms, '__proto__'));
    assert.equal(Object.getPrototypeOf(result.terms), Object.prototype);
    assert.equal(JSON.parse(JSON.stringify(result.terms)).__proto__, 1.5);
  });

  it('samples real transitions: the flag, the left wall and the valley, reproducibly', () => {
    const batch = sampleTransitions(4096, 3);
    assert.deepEqual(sampleTransitions(4096, 3), batch);
    let wall = 0;
    for (let i = 0; i < batch.count; i++) {
      const [p] = dynamics(batch.obs[2 * i], batch.obs[2 * i + 1], batch.actions[i]);
      assert.ok(Math.abs(Math.fround(p) - batch.nextObs[2 * i]) < 1e-6);
      assert.equal(batch.terminated[i], isTerminal(batch.nextObs[2 * i], batch.nextObs[2 * i + 1]) ? 1 : 0);
      if (batch.nextObs[2 * i] === Math.fround(MOUNTAIN_CAR.minPosition)) wall++;
    }
    assert.ok(wall > 0, 'some transitions hit the left wall');
    assert.equal(new Set(batch.actions).size, 3);
  });
});
