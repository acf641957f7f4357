/**
 * The reward sandbox (DESIGN §4). A good reward is computed exactly as on the host; every hostile
 * candidate ends with the right outcome and a one-line reason in bounded time, and afterwards the
 * process is healthy: a good reward still evaluates correctly in a new sandbox.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { sampleTransitions, sliceBatch } from '../functions/train-seed/check-reward.ts';
import { DEFAULT_SANDBOX_LIMITS, layoutOf, openRewardSandbox as openSandbox, RewardFault } from '../functions/train-seed/sandbox.ts';
import { getTask } from '../tasks/registry.ts';
import { mountainCarTransitions } from './support/transitions.ts';
import type { FaultOutcome, RewardBatch, RewardSandbox, SandboxLimits, TransitionBatch } from '../functions/train-seed/sandbox.ts';

const example = (name: string): string => readFileSync(new URL(`../examples/${name}`, import.meta.url), 'utf8');
const ENERGY = example('energy.js');
const MOUNTAIN_CAR = getTask('MountainCar-v0');
const SAMPLE = mountainCarTransitions(2048, 7);

/** A sandbox for MountainCar's transitions (the continuous layout has cases of its own below). */
const openRewardSandbox = (source: string, limits?: Partial<SandboxLimits>): Promise<RewardSandbox> =>
  openSandbox(source, layoutOf(MOUNTAIN_CAR), limits);
/** Most timeout cases use a smaller call cap to keep the suite quick; never-returns uses the default. */
const QUICK: Partial<SandboxLimits> = { callOperations: 1_000_000 };

/** energy.js in plain JS, same operations in the same order. */
function energyOnHost(batch: TransitionBatch): { rewards: number[]; shaping: number[]; goal: number[] } {
  const energy = (p: number, v: number): number => 0.5 * v * v * 400 + Math.sin(3 * p) * 0.0025 / 3 * 400;
  const out = { rewards: [] as number[], shaping: [] as number[], goal: [] as number[] };
  for (let i = 0; i < batch.count; i++) {
    const shaping = 0.99 * energy(batch.nextObs[2 * i], batch.nextObs[2 * i + 1]) - energy(batch.obs[2 * i], batch.obs[2 * i + 1]);
    const goal = batch.terminated[i] ? 10 : 0;
    out.rewards.push(-1 + shaping * 100 + goal);
    out.shaping.push(shaping * 100);
    out.goal.push(goal);
  }
  return out;
}

/** QuickJS's libm and V8's may round Math.sin differently in the last bit: allow that, no more. */
function assertClose(actual: ArrayLike<number>, expected: number[], what: string): void {
  assert.equal(actual.length, expected.length, what);
  for (let i = 0; i < expected.length; i++) {
    assert.ok(Math.abs(actual[i] - expected[i]) <= 1e-12, `${what}[${i}]: ${actual[i]} vs ${expected[i]}`);
  }
}

function assertEnergy(got: RewardBatch, batch: TransitionBatch): void {
  const want = energyOnHost(batch);
  assert.deepEqual([...got.terms.keys()], ['step', 'shaping', 'goal']);
  assertClose(got.rewards, want.rewards, 'rewards');
  assertClose(got.terms.get('shaping') ?? [], want.shaping, 'shaping');
  assert.deepEqual([...(got.terms.get('goal') ?? [])], want.goal);
  assert.deepEqual([...(got.terms.get('step') ?? [])], new Array<number>(batch.count).fill(-1));
}

async function assertHealthy(): Promise<void> {
  const sandbox = await openRewardSandbox(ENERGY);
  try {
    assertEnergy(sandbox.evaluate(SAMPLE), SAMPLE);
  } finally {
    sandbox.dispose();
  }
}

interface Expected {
  outcome: FaultOutcome;
  reason: RegExp;
  limits?: Partial<SandboxLimits>;
  batch?: TransitionBatch;
  /** evaluate() calls to make before giving up on seeing the fault. */
  calls?: number;
}

/** Opens and evaluates until the first fault; checks it, and the process after. */
async function expectFault(source: string, expected: Expected): Promise<RewardFault> {
  const batch = expected.batch ?? SAMPLE;
  let sandbox: RewardSandbox | undefined;
  let fault: unknown;
  try {
    sandbox = await openRewardSandbox(source, expected.limits);
    for (let call = 0; call < (expected.calls ?? 1); call++) sandbox.evaluate(batch, call * batch.count);
  } catch (error) {
    fault = error;
  }
  assert.ok(fault instanceof RewardFault, `expected a RewardFault, got ${String(fault)}`);
  assert.equal(fault.outcome, expected.outcome, fault.message);
  assert.match(fault.message, expected.reason);
  assert.doesNotMatch(fault.message, /\n/);
  if (sandbox) {
    const dead = sandbox;
    assert.throws(() => dead.evaluate(batch), (error) => error === fault, 'a dead sandbox repeats its fault');
    dead.dispose();
  }
  await assertHealthy();
  return fault;
}

async function evaluateOnce(source: string, batch: TransitionBatch = SAMPLE): Promise<RewardBatch> {
  const sandbox = await openRewardSandbox(source);
  try {
    return sandbox.evaluate(batch);
  } finally {
    sandbox.dispose();
  }
}

describe('Function: reward sandbox', () => {
  describe('a good reward', () => {
    it('computes energy.js as plain JS on the host does, term arrays lined up', async () => {
      // Prepare
      const batch = mountainCarTransitions(4096, 11);
      // Act
      const got = await evaluateOnce(ENERGY, batch);
      // Assess
      assert.ok(batch.terminated.some((t) => t === 1), 'the sample has terminal transitions');
      assertEnergy(got, batch);
    });

    it('keeps terms in first-seen order and counts a missing term as 0', async () => {
      const source = `function computeReward(obs, action, nextObs, terminated) {
        const terms = terminated ? { goal: 10, step: -1 } : { step: -1 };
        if (action === 0) terms.left = -0.5;
        return { reward: -1, terms };
      }`;
      const got = await evaluateOnce(source);
      const order = [...got.terms.keys()];
      const firstTerminal = SAMPLE.terminated.indexOf(1);
      const firstLeft = SAMPLE.actions.indexOf(0);
      assert.deepEqual(order.slice(0, 1), ['step']);
      assert.deepEqual(new Set(order), new Set(['step', 'goal', 'left']));
      assert.equal(order.indexOf('goal') < order.indexOf('left'), firstTerminal < firstLeft);
      for (let i = 0; i < SAMPLE.count; i++) {
        assert.equal(got.terms.get('goal')?.[i], SAMPLE.terminated[i] ? 10 : 0);
        assert.equal(got.terms.get('left')?.[i], SAMPLE.actions[i] === 0 ? -0.5 : 0);
      }
    });

    it('finds computeReward declared with const, as an arrow function', async () => {
      const got = await evaluateOnce('const computeReward = (obs, action, nextObs) => [nextObs[0], { position: nextObs[0] }];');
      for (let i = 0; i < SAMPLE.count; i++) assert.equal(got.rewards[i], SAMPLE.nextObs[2 * i]);
    });

    it('grades term names like __proto__ and constructor as plain names', async () => {
      const got = await evaluateOnce(example('hostile/proto-term-names.js'));
      assert.deepEqual([...got.terms.keys()], ['__proto__', 'constructor', 'toString', 'hasOwnProperty']);
      assert.deepEqual([...got.terms.values()].map((values) => values[0]), [1.5, 2, -3, 0.25]);
      assert.ok(got.rewards.every((r) => r === -1));
    });

    it('evaluates an empty batch', async () => {
      const got = await evaluateOnce(ENERGY, sliceBatch(MOUNTAIN_CAR, SAMPLE, 0, 0));
      assert.equal(got.rewards.length, 0);
    });

    it('counts its time in usedMs, and dispose() twice is harmless', async () => {
      const started = performance.now();
      const sandbox = await openRewardSandbox(ENERGY);
      const afterLoad = sandbox.usedMs;
      sandbox.evaluate(SAMPLE);
      assert.ok(afterLoad > 0 && sandbox.usedMs > afterLoad);
      assert.ok(sandbox.usedMs <= performance.now() - started);
      sandbox.dispose();
      sandbox.dispose();
      assert.throws(() => sandbox.evaluate(SAMPLE), /disposed/);
    });

  });

  describe("the tutorial's hostile candidates", () => {
    it('never-returns.js ends with a timeout at the deadline', async () => {
      await expectFault(example('hostile/never-returns.js'), { outcome: 'timeout', reason: /^reward did not return within 2 million operations at step 0$/ });
    });

    it('exfiltrate.js ends with an error: there is no process, require or fetch', async () => {
      await expectFault(example('hostile/exfiltrate.js'), { outcome: 'error', reason: /^reward threw at step 0: ReferenceError: 'process' is not defined/ });
    });
  });

  describe('hostile: time', () => {
    it('a top-level infinite loop times out while loading', async () => {
      await expectFault(example('hostile/top-level-loop.js'), { outcome: 'timeout', reason: /^reward's top-level code did not finish within 2 million operations$/ });
    });

    for (const [file, reason] of [
      ['catastrophic-regex.js', /^reward did not return within 1 million operations at step 0$/],
      ['looping-getter.js', /^reward did not return within 1 million operations at step 0$/],
      ['proxy-return.js', /^reward did not return within 1 million operations at step 0$/],
    ] as const) {
      it(`${file} times out`, async () => {
        await expectFault(example(`hostile/${file}`), { outcome: 'timeout', reason, limits: QUICK });
      });
    }

    it('a loop in the message getter of a thrown object times out', async () => {
      const source = 'function computeReward() { throw { get message() { for (;;) {} } }; }';
      await expectFault(source, { outcome: 'timeout', reason: /^reward did not return within 1 million operations at step 0$/, limits: QUICK });
    });

    it('a getter on computeReward itself that loops times out while loading', async () => {
      const source = 'Object.defineProperty(globalThis, "computeReward", { get() { for (;;) {} } });';
      await expectFault(source, { outcome: 'timeout', reason: /^reading computeReward did not finish/, limits: QUICK });
    });

    it('a slow reward runs out of its seed-run\'s budget of operations across many calls', async () => {
      const fault = await expectFault(example('hostile/slow.js'), {
        outcome: 'timeout',
        reason: /^reward used up its seed-run's budget of 20 million operations at step \d+$/,
        limits: { totalOperations: 20_000_000 },
        batch: sliceBatch(MOUNTAIN_CAR, SAMPLE, 0, 16),
        calls: 1000,
      });
      assert.doesNotMatch(fault.message, /at step 0$/, 'the budget lasted more than one call');
    });

    it('the step in a timeout counts from stepOffset to the transition that hung', async () => {
      const source = 'let n = 0; function computeReward() { if (++n === 5) for (;;) {} return [0, {}]; }';
      const sandbox = await openRewardSandbox(source, QUICK);
      assert.throws(() => sandbox.evaluate(SAMPLE, 1000), { outcome: 'timeout', message: /at step 1004$/ });
      sandbox.dispose();
    });
  });

  describe('hostile: memory and stack', () => {
    // QuickJS's own limit does not count these; the capped WebAssembly memory stops them.
    for (const file of ['memory-arrays.js', 'memory-strings.js', 'memory-caught.js']) {
      it(`${file} ends with a memory fault`, async () => {
        await expectFault(example(`hostile/${file}`), { outcome: 'memory', reason: /^reward exceeded its 64 MiB memory limit at step 0$/ });
      });
    }

    it('an allocation loop in the top-level code ends with a memory fault while loading', async () => {
      const source = 'const hoard = []; for (;;) hoard.push(new Float64Array(1 << 16));';
      await expectFault(source, { outcome: 'memory', reason: /memory limit while loading$/ });
    });

    it('a smaller memory cap holds too', async () => {
      await expectFault(example('hostile/memory-arrays.js'), { outcome: 'memory', reason: /32 MiB memory limit/, limits: { memoryBytes: 32 * 2 ** 20 } });
    });

    it('deep recursion is an error, not a crash', async () => {
      await expectFault(example('hostile/deep-recursion.js'), { outcome: 'error', reason: /^reward overflowed its 128 KiB stack \(recursion too deep\) at step 0$/ });
    });
  });

  describe('hostile: thrown values and returned values', () => {
    const cases: Array<[string, string, RegExp]> = [
      ['throws a string', example('hostile/throw-non-error.js'), /^reward threw at step 0: reward is not ready yet \(a string, not an Error\)$/],
      ['throws an object whose message getter throws', example('hostile/throw-getter-message.js'), /^reward threw at step 0: an object whose message could not be read$/],
      ['throws a plain object', 'function computeReward() { throw { code: 7 }; }', /^reward threw at step 0: an object that is not an Error$/],
      ['returns NaN, naming the term that made it', example('hostile/non-finite.js'), /^reward returned a non-finite value for term "height" at step \d+$/],
      ['returns an infinite term', example('hostile/non-finite-term.js'), /^reward returned a non-finite value for term "stillness" at step 0$/],
      ['returns undefined', 'function computeReward() {}', /malformed value at step 0: expected \[total, terms\] or \{reward, terms\}, got undefined$/],
      ['returns a string', 'function computeReward() { return "1"; }', /malformed value at step 0: .*, got string$/],
      ['returns [1]', 'function computeReward() { return [1]; }', /malformed value at step 0: .* with an object of terms, got undefined$/],
      ["returns {reward: 'x'}", 'function computeReward() { return { reward: "x", terms: {} }; }', /malformed value at step 0: .* with a number total, got string$/],
      ['returns null', 'function computeReward() { return null; }', /got null$/],
      ['returns terms as an array', 'function computeReward() { return [1, [1, 2]]; }', /with an object of terms, got array$/],
      ['returns a boolean term', 'function computeReward(o, a, n, t) { return [1, { goal: t }]; }', /term "goal" is boolean, not a number$/],
      ['returns a promise (import())', 'function computeReward() { return import("node:fs"); }', /with a number total, got undefined \(what an index past the end of an array, or a missing property, reads\)$/],
      ['uses too many terms', example('hostile/too-many-terms.js'), /^reward used more than 16 terms \(at step 0\)$/],
      ['uses a term name that is too long', example('hostile/long-term-name.js'), /^term name longer than 48 characters: "shaping_on_the/],
      ['uses an empty term name', 'function computeReward() { return [1, { "": 1 }]; }', /^term name is empty$/],
      ['uses a control character in a term name', 'function computeReward() { return [1, { "a\\nb": 1 }]; }', /^term name "a\\nb" contains control characters$/],
    ];
    for (const [what, source, reason] of cases) {
      it(`a reward that ${what} ends with an error`, async () => {
        await expectFault(source, { outcome: 'error', reason });
      });
    }
  });

  describe('hostile: loading', () => {
    const cases: Array<[string, string, RegExp]> = [
      ['has a syntax error', 'function computeReward(obs {', /^reward has a syntax error at line 1: /],
      ['uses a static import', 'import fs from "fs";\nfunction computeReward() { return [0, {}]; }', /^reward has a syntax error at line 1/],
      ['defines no computeReward', 'function reward() { return [0, {}]; }', /^computeReward is not defined$/],
      ['defines computeReward as a number', 'var computeReward = 5;', /^computeReward is a number, not a function$/],
      ['throws at the top level', 'throw new TypeError("nope");', /^reward's top-level code threw: TypeError: nope \(at line 1\)$/],
    ];
    for (const [what, source, reason] of cases) {
      it(`a reward that ${what} is rejected while loading`, async () => {
        await expectFault(source, { outcome: 'error', reason });
      });
    }

    it('a source over the size cap is rejected before it is compiled', async () => {
      const huge = `${ENERGY}\n// ${'x'.repeat(DEFAULT_SANDBOX_LIMITS.maxSourceBytes)}`;
      await expectFault(huge, { outcome: 'error', reason: /^reward source is \d+ bytes, over the 64 KiB limit$/ });
    });
  });

  describe('hostile: escape and tampering', () => {
    it('finds nothing to escape through: require, process, fetch, import() and friends', async () => {
      const got = await evaluateOnce(example('hostile/escape-attempts.js'));
      const reachable = [...got.terms].filter(([, values]) => values.some((v) => v !== 0)).map(([name]) => name);
      assert.equal(got.terms.size, 12);
      assert.deepEqual(reachable, []);
    });

    it('never runs a promise job, so nothing a candidate schedules (an import(), a then) ever executes', async () => {
      const sandbox = await openRewardSandbox(`let ran = 0;
        let imported = 'never settled';
        import('node:fs').then((fs) => { imported = typeof fs.readFileSync; }, () => { imported = 'rejected'; });
        function computeReward() {
          Promise.resolve().then(() => { ran += 1; });
          return [ran + (imported === 'never settled' ? 0 : 1000), { ran }];
        }`);
      for (let call = 0; call < 3; call++) {
        const got = sandbox.evaluate(SAMPLE, call * SAMPLE.count);
        assert.ok(got.rewards.every((r) => r === 0), `call ${call}: a job ran or the import settled`);
      }
      sandbox.dispose();
    });

    it('has no clock: Date is gone before the candidate runs (a reward is a function of its transition)', async () => {
      const got = await evaluateOnce('function computeReward() { const clock = typeof Date === "undefined" ? 0 : 1; return [clock, { clock }]; }');
      assert.ok(got.rewards.every((r) => r === 0));
    });

    it('a reward that replaces JSON, Object.keys, prototypes... is graded on exactly what it computed', async () => {
      const got = await evaluateOnce(example('hostile/tamper-globals.js'));
      assert.deepEqual([...got.terms.keys()], ['progress', 'push', 'goal']);
      for (let i = 0; i < SAMPLE.count; i++) {
        const progress = (SAMPLE.nextObs[2 * i] - SAMPLE.obs[2 * i]) * 10;
        const push = SAMPLE.actions[i] === 1 ? 0 : -0.001;
        const goal = SAMPLE.terminated[i] ? 5 : 0;
        assert.equal(got.rewards[i], progress + push + goal);
        assert.equal(got.terms.get('progress')?.[i], progress);
        assert.equal(got.terms.get('push')?.[i], push);
        assert.equal(got.terms.get('goal')?.[i], goal);
      }
      await assertHealthy();
    });

    it('tampering inside computeReward, between calls, changes nothing either', async () => {
      const source = `function computeReward(obs) {
        Object.keys = () => ['forged'];
        Number.isFinite = () => true;
        Object.defineProperty(Array.prototype, '1', { get: () => 1e9, set() {}, configurable: true });
        return [obs[0], { position: obs[0] }];
      }`;
      const sandbox = await openRewardSandbox(source);
      for (let call = 0; call < 3; call++) {
        const got = sandbox.evaluate(SAMPLE, call * SAMPLE.count);
        assert.deepEqual([...got.terms.keys()], ['position']);
        for (let i = 0; i < SAMPLE.count; i++) assert.equal(got.rewards[i], SAMPLE.obs[2 * i]);
      }
      sandbox.dispose();
    });
  });

  describe('a continuous task: the action is an array of the applied values', () => {
    const PENDULUM = getTask('Pendulum-v1');
    const batch = sampleTransitions(PENDULUM, 1024, 5);
    const open = (source: string): Promise<RewardSandbox> => openSandbox(source, layoutOf(PENDULUM));

    async function evaluate(source: string): Promise<RewardBatch> {
      const sandbox = await open(source);
      try {
        return sandbox.evaluate(batch);
      } finally {
        sandbox.dispose();
      }
    }

    it('passes obs, the action array and nextObs in the task\'s layout', async () => {
      const got = await evaluate(`function computeReward(obs, action, nextObs, terminated) {
        const shape = (Array.isArray(action) ? 1 : 0) + action.length * 10 + obs.length * 100 + nextObs.length * 1000;
        return [obs[2] + 2 * action[0] - nextObs[1], { shape }];
      }`);
      for (let i = 0; i < batch.count; i++) {
        assert.equal(got.rewards[i], batch.obs[3 * i + 2] + 2 * batch.actions[i] - batch.nextObs[3 * i + 1], `transition ${i}`);
        assert.equal(got.terms.get('shape')?.[i], 1 + 10 + 300 + 3000);
      }
      assert.ok(batch.actions.every((a) => a >= -2 && a <= 2), 'the batch holds clipped actions');
    });

    it('gives every call fresh arrays: a reward that mutates or abuses them changes only its own copy', async () => {
      const before = { obs: Float32Array.from(batch.obs), actions: Float64Array.from(batch.actions), nextObs: Float32Array.from(batch.nextObs) };
      const got = await evaluate(`function computeReward(obs, action, nextObs) {
        const seen = action[0] + obs[0] * 0 + action.length + obs.length + nextObs.length;
        action[0] = 1e9; action.push(7); obs.length = 0; nextObs[0] = NaN; nextObs.fill(3);
        Object.defineProperty(Array.prototype, '0', { get: () => 42, set() {}, configurable: true });
        return [seen, { seen }];
      }`);
      for (let i = 0; i < batch.count; i++) assert.equal(got.rewards[i], batch.actions[i] + 1 + 3 + 3, `transition ${i}`);
      assert.deepEqual(batch.obs, before.obs, 'the host\'s observations are untouched');
      assert.deepEqual(batch.actions, before.actions, 'the host\'s actions are untouched');
      assert.deepEqual(batch.nextObs, before.nextObs, 'the host\'s next observations are untouched');
    });

    it('keeps every cap: reading past the action array gives NaN, which ends the candidate with a reason', async () => {
      const sandbox = await open('function computeReward(obs, action) { return [action[0] + action[5], { x: 1 }]; }');
      assert.throws(() => sandbox.evaluate(batch), (error) => error instanceof RewardFault && error.outcome === 'error' &&
        error.message === 'reward returned a non-finite value at step 0');
      sandbox.dispose();
    });
  });
});
