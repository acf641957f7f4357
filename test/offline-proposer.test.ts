/**
 * The offline proposer (DESIGN §6): reproducible, diverse in generation 1, emits runnable and
 * readable code built from the task's own features, and mutates the best so far the way its
 * reflection says. Its grammar is the task's: every task gets terms of its own features.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { baselinesOf } from '../functions/shared/search/baselines.ts';
import { HOSTILE_CANDIDATES } from '../functions/propose/hostile.ts';
import { proposeOffline, type OfflineBest, type OfflineInput } from '../functions/propose/offline.ts';
import { grammarFor, parseProgram, renderProgram, sampleProgram, type Family, type Program } from '../functions/propose/offline-grammar.ts';
import type { Candidate, TermStats } from '../functions/shared/search/types.ts';
import { Random } from '../core/random.ts';
import { RecordingSchema, recordingText } from '../tasks/conformance.ts';
import type { Task } from '../tasks/contract.ts';
import { getTask, TASKS } from '../tasks/registry.ts';
import { loadBank } from '../tasks/bank-file.ts';
import { ppoConfigFor } from '../core/ppo-config.ts';

type Reward = (obs: number[], action: number | number[], nextObs: number[], terminated: boolean, state?: number[], nextState?: number[]) => unknown;

/** Tests are trusted: plain Function is fine here (the search runs candidates in QuickJS). */
function load(code: string): Reward {
  return new Function(`${code}; return computeReward;`)() as Reward;
}

interface Transition { obs: number[]; action: number | number[]; nextObs: number[]; terminated: boolean; state: number[]; nextState: number[] }

/**
 * Real transitions of a task: its golden Gymnasium episodes (random and solving ones, every ending;
 * the MuJoCo tasks' from shared/); a behaviour, which Gymnasium never recorded, plays its bank's
 * episodes in its own environment (its ways to fail, and successes where it has them), recorded
 * state included.
 */
function transitionsOf(task: Task): Transition[] {
  const fixture = new URL(`./fixtures/golden/${task.id}.json`, import.meta.url);
  const shared = new URL(`../../shared/golden/mujoco/${task.id}.json.gz`, import.meta.url);
  if (!existsSync(fixture) && !existsSync(shared)) return bankTransitions(task);
  const recording = RecordingSchema.parse(JSON.parse(recordingText(readFileSync(existsSync(fixture) ? fixture : shared))));
  return recording.episodes.flatMap((e) => e.steps.map((step, t) => ({
    obs: t === 0 ? e.initial_obs : e.steps[t - 1].obs,
    action: task.action.kind === 'discrete' ? step.action : (step.action as number[]).map((a, k) =>
      Math.min(Math.max(a, (task.action as { low: readonly number[] }).low[k]), (task.action as { high: readonly number[] }).high[k])),
    nextObs: step.obs,
    terminated: step.terminated,
    state: [], nextState: [],
  })));
}

function bankTransitions(task: Task): Transition[] {
  const d = task.obsSize, r = task.recordSize, a = task.actionSize;
  return loadBank(task).episodes.flatMap((e) => Array.from({ length: e.length }, (_, t) => ({
    obs: Array.from(e.observations.subarray(t * d, (t + 1) * d)),
    action: task.action.kind === 'discrete' ? e.actions[t] : Array.from(e.actions.subarray(t * a, (t + 1) * a)),
    nextObs: Array.from(e.observations.subarray((t + 1) * d, (t + 2) * d)),
    terminated: e.terminated && t === e.length - 1,
    state: Array.from(e.recorded.subarray(t * r, (t + 1) * r)),
    nextState: Array.from(e.recorded.subarray((t + 1) * r, (t + 2) * r)),
  })));
}

const MOUNTAIN_CAR = getTask('MountainCar-v0');
const G = grammarFor(MOUNTAIN_CAR);
const TRANSITIONS = transitionsOf(MOUNTAIN_CAR);
const propose = (input: Omit<OfflineInput, 'task'>, task: Task = MOUNTAIN_CAR): Candidate[] => proposeOffline({ task, ...input });

function assertRuns(c: Candidate, transitions: Transition[] = TRANSITIONS): void {
  const reward = load(c.code);
  for (const t of transitions) {
    const result = reward(t.obs, t.action, t.nextObs, t.terminated, t.state, t.nextState);
    assert.ok(Array.isArray(result) && result.length === 2, `${c.name} returns a pair`);
    const [total, terms] = result as [unknown, unknown];
    assert.equal(typeof total, 'number');
    assert.ok(Number.isFinite(total), `${c.name} total is finite`);
    assert.ok(typeof terms === 'object' && terms !== null, `${c.name} returns a term record`);
    const values = Object.values(terms as Record<string, unknown>);
    assert.ok(values.length > 0 && values.every((x) => typeof x === 'number' && Number.isFinite(x)));
  }
}

const stats = (series: number[]): TermStats => ({ early: series[0], late: series[series.length - 1], series });
const flat = (x: number): TermStats => stats(Array<number>(10).fill(x));
const ramp = (a: number, b: number): TermStats => stats(Array.from({ length: 10 }, (_, i) => a + ((b - a) * i) / 9));

function bestOf(program: Program, success: number, terms: Record<string, TermStats>): OfflineBest {
  const idea = 'a parent';
  return { candidate: { name: 'g1-parent-1', idea, code: renderProgram(G, program, idea) }, success, terms };
}

const programs = (cs: Candidate[], g = G): Program[] => cs.map((c) => {
  const p = parseProgram(g, c.code);
  assert.ok(p !== null, `${c.name} carries its program`);
  return p;
});
const coefOf = (p: Program, f: Family): number | undefined => p.terms.find((t) => t.family === f)?.coef;
const mutations = (cs: Candidate[]): Candidate[] => cs.filter((c) => c.idea.startsWith('Mutation'));

describe('Function: proposeOffline, generation 1', () => {
  it('is reproducible: the same input gives identical candidates', () => {
    const input = { generation: 1, k: 6, randomSeed: 42 };
    assert.deepEqual(propose(input), propose({ ...input }));
    assert.notDeepEqual(propose(input), propose({ ...input, randomSeed: 43 }));
  });

  it('samples diverse programs: K=6 covers at least 3 dense term families', () => {
    for (let seed = 0; seed < 25; seed++) {
      const families = new Set(programs(propose({ generation: 1, k: 6, randomSeed: seed })).map((p) => p.terms[0].family));
      assert.ok(families.size >= 3, `seed ${seed}: ${[...families].join(', ')}`);
    }
  });

  it('writes K candidates with unique names like g1-energy-shaping-3', () => {
    const cs = propose({ generation: 1, k: 16, randomSeed: 5 });
    assert.equal(cs.length, 16);
    assert.equal(new Set(cs.map((c) => c.name)).size, 16);
    for (const c of cs) assert.match(c.name, /^g1-[a-z-]+-\d+$/);
    assert.deepEqual(propose({ generation: 1, k: 0, randomSeed: 5 }), []);
  });

  it('emits small, readable code: an idea line, named constants, the features, one named term per line', () => {
    for (const c of propose({ generation: 1, k: 16, randomSeed: 9 })) {
      assert.ok(Buffer.byteLength(c.code) < 4096, `${c.name} is ${c.code.length} bytes`);
      assert.ok(c.code.startsWith(`// idea: ${c.idea}\n// program: `));
      const program = parseProgram(G, c.code);
      assert.ok(program !== null);
      for (const t of program.terms) {
        const spec = G.specs[t.family];
        assert.ok(c.code.includes(`const ${spec.constant} = ${t.coef};`));
        assert.ok(c.code.includes(`  const ${spec.term} = `));
        const feature = t.family.split(':')[1];
        if (feature !== undefined) assert.ok(c.code.includes(`  const ${feature} = (s) => `), `${c.name} defines ${feature}`);
      }
      assert.match(c.code, /return \[total, \{ [a-zA-Z, ]+ \}\];/);
    }
  });
});

describe('Function: emitted code', () => {
  it('parses and returns a finite [number, object] on real transitions, terminal ones included', () => {
    assert.ok(TRANSITIONS.some((t) => t.terminated), 'the golden episodes reach the flag');
    const cs = [...propose({ generation: 1, k: 16, randomSeed: 1 }), ...propose({ generation: 1, k: 16, randomSeed: 2 }), ...baselinesOf(MOUNTAIN_CAR)];
    for (const c of cs) assertRuns(c);
  });

  it('covers every family, and the total is the sum of the named terms', () => {
    const all: Program = { terms: G.families.map((family) => ({ family, coef: G.specs[family].range[0] })) };
    const reward = load(renderProgram(G, all, 'every term'));
    for (const t of TRANSITIONS) {
      const [total, terms] = reward(t.obs, t.action, t.nextObs, t.terminated) as [number, Record<string, number>];
      assert.deepEqual(Object.keys(terms), G.families.map((f) => G.specs[f].term));
      const sum = Object.values(terms).reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(total - sum) < 1e-9);
      assert.equal(terms.goal, t.terminated ? G.specs.goal.range[0] : 0);
    }
  });

  it('round-trips the program through the header', () => {
    const rng = new Random(11);
    for (const primary of G.signal) {
      const p = sampleProgram(G, primary, rng);
      assert.deepEqual(parseProgram(G, renderProgram(G, p, 'x')), p);
    }
    assert.equal(parseProgram(G, 'function computeReward() { return [0, {}]; }'), null);
    assert.equal(parseProgram(G, '// program: {"terms":[{"family":"rm -rf","coef":1}]}'), null);
    assert.equal(parseProgram(G, '// program: {not json'), null);
  });

  it('keeps the hostile candidates parseable (they are never run here)', () => {
    for (const c of HOSTILE_CANDIDATES) {
      assert.doesNotThrow(() => new Function(`${c.code}; return computeReward;`), c.name);
      assert.ok(c.code.startsWith('// idea: '));
    }
  });
});

describe('Function: the grammar of every task', () => {
  for (const task of TASKS) {
    it(`${task.id}: terms of its own features and ending, code that runs on its golden transitions`, async () => {
      await task.prepare?.();
      const g = grammarFor(task);
      for (const f of task.features) assert.ok(g.families.includes(`shape:${f.name}`) && g.families.includes(`bonus:${f.name}`), f.name);
      assert.equal(g.families.includes('goal'), task.termination === 'success', 'a goal bonus only where ending is success');
      assert.equal(g.families.includes('fall'), task.termination === 'failure', 'a fall penalty only where ending is failure');
      const transitions = transitionsOf(task);
      const cs = propose({ generation: 1, k: 8, randomSeed: 3 }, task);
      assert.equal(cs.length, 8);
      for (const c of cs) assertRuns(c, transitions);
      const all: Program = { terms: g.families.map((family) => ({ family, coef: g.specs[family].range[0] })) };
      assertRuns({ name: 'all', idea: 'all', code: renderProgram(g, all, 'every term') }, transitions);
    });
  }
});

describe('Function: the grammar\'s shaping is potential-based with the trainer\'s discount', () => {
  for (const task of TASKS) {
    const gamma = ppoConfigFor(task, 0, 1).gamma;
    it(`${task.id}: every shaping term is c * (${gamma} * phi(nextObs) - phi(obs)), gamma as PPO trains it`, async () => {
      await task.prepare?.();
      const g = grammarFor(task);
      const transitions = transitionsOf(task).slice(0, 400);
      for (const f of task.features) {
        // The bonus on the same feature (coefficient 1) reads the potential phi itself.
        const c = 100;
        const reward = load(renderProgram(g, { terms: [{ family: `shape:${f.name}`, coef: c }, { family: `bonus:${f.name}`, coef: 1 }] }, 'shaping'));
        const phi = (o: number[], r: number[]) => (reward(o, transitions[0].action, o, false, r, r) as [number, Record<string, number>])[1][`${f.name}Bonus`];
        for (const t of transitions) {
          const shaping = (reward(t.obs, t.action, t.nextObs, t.terminated, t.state, t.nextState) as [number, Record<string, number>])[1][`${f.name}Shaping`];
          const expected = c * (gamma * phi(t.nextObs, t.nextState) - phi(t.obs, t.state));
          assert.ok(Math.abs(shaping - expected) <= 1e-9 * Math.max(1, Math.abs(expected)), `${f.name}: ${shaping} vs ${expected}`);
        }
      }
    });
  }
});

describe('Function: proposeOffline, later generations', () => {
  const parent: Program = { terms: [{ family: 'shape:energy', coef: 100 }, { family: 'bonus:speed', coef: 1 }, { family: 'goal', coef: 10 }] };

  it('is reproducible and mutates the best so far, recovered from its code alone', () => {
    const best = bestOf(parent, 0.6, { energyShaping: ramp(0.1, 0.6), speedBonus: ramp(0.1, 0.4), goal: ramp(0, 0.05) });
    const input = { generation: 2, k: 6, randomSeed: 42, best };
    const cs = propose(input);
    assert.deepEqual(cs, propose(structuredClone(input)));
    assert.equal(cs.length, 6);
    assert.equal(mutations(cs).length, 6);
    assert.equal(new Set(cs.map((c) => c.name)).size, 6);
    const keys = programs(cs).map((p) => JSON.stringify(p));
    assert.equal(new Set([...keys, JSON.stringify(parent)]).size, 7, 'every child differs from its parent and siblings');
    for (const c of cs) {
      assert.match(c.name, /^g2-/);
      assert.ok(c.idea.includes('g1-parent-1'));
      assertRuns(c);
    }
  });

  it('scales a dominating term down in every mutation', () => {
    const best = bestOf(parent, 0.6, { energyShaping: ramp(1, 30), speedBonus: ramp(0.1, 0.5), goal: ramp(0.1, 0.3) });
    const cs = propose({ generation: 2, k: 6, randomSeed: 1, best });
    assert.ok(cs[0].idea.includes('scaled energyShaping by'));
    for (const p of programs(mutations(cs))) {
      const coef = coefOf(p, 'shape:energy');
      assert.ok(coef === undefined || coef < 100, `energy coefficient ${coef}`);
    }
  });

  it('scales a tiny term up', () => {
    const best = bestOf(parent, 0.6, { energyShaping: ramp(0.5, 2), speedBonus: ramp(0.001, 0.005), goal: ramp(0.1, 0.3) });
    const [guided] = programs(propose({ generation: 2, k: 1, randomSeed: 1, best }));
    assert.ok((coefOf(guided, 'bonus:speed') ?? 0) > 1);
  });

  it('drops a constant term (but keeps the step cost, constant by design)', () => {
    const program: Program = { terms: [{ family: 'shape:energy', coef: 100 }, { family: 'bonus:speed', coef: 1 }, { family: 'step', coef: 0.5 }] };
    const best = bestOf(program, 0.6, { energyShaping: ramp(-0.2, 0.3), speedBonus: flat(0.3), step: flat(-0.5) });
    const cs = propose({ generation: 3, k: 6, randomSeed: 2, best });
    assert.ok(cs[0].idea.includes('dropped speedBonus'));
    assert.equal(coefOf(programs(cs)[0], 'step'), 0.5);
    for (const p of programs(mutations(cs))) assert.equal(coefOf(p, 'bonus:speed'), undefined);
  });

  it('replaces a constant shaping term with another potential, never the one it dropped', () => {
    const program: Program = { terms: [{ family: 'shape:energy', coef: 50 }, { family: 'goal', coef: 10 }] };
    const best = bestOf(program, 0.1, { energyShaping: flat(0.2), goal: ramp(0, 0.01) });
    const cs = propose({ generation: 2, k: 6, randomSeed: 8, best });
    assert.ok(cs[0].idea.includes('dropped energyShaping'), cs[0].idea);
    for (const p of programs(mutations(cs))) {
      assert.equal(coefOf(p, 'shape:energy'), undefined);
      assert.ok(p.terms.some((t) => G.shaping.includes(t.family)), JSON.stringify(p));
    }
  });

  it('adds a goal bonus when success is low, and not when it is high', () => {
    const program: Program = { terms: [{ family: 'shape:height', coef: 5 }, { family: 'step', coef: 1 }] };
    const terms = { heightShaping: ramp(-0.1, 0.2), step: ramp(-1, -1.2) };
    for (const p of programs(propose({ generation: 2, k: 6, randomSeed: 3, best: bestOf(program, 0.2, terms) }))) {
      assert.ok(coefOf(p, 'goal') !== undefined);
    }
    const [high] = propose({ generation: 2, k: 1, randomSeed: 3, best: bestOf(program, 0.95, terms) });
    assert.ok(!high.idea.includes('success is low'), high.idea);
  });

  it('mixes in fresh samples when the best success is near zero, untried families first', () => {
    const best = bestOf(parent, 0, { energyShaping: ramp(0.1, 0.2), speedBonus: ramp(0.2, 0.3), goal: flat(0) });
    const tried = ['energy-shaping', 'speed-bonus', 'height-shaping', 'position-shaping', 'energy-bonus'];
    const scoreboard = tried.map((slug, i) => ({ name: `g1-${slug}-${i + 1}`, idea: '', success: 0, outcome: 'trained' as const, reason: '' }));
    const cs = propose({ generation: 2, k: 6, randomSeed: 4, best, scoreboard });
    const rewrites = cs.filter((c) => c.idea.startsWith('Rewrite'));
    assert.equal(rewrites.length, 3);
    assert.equal(mutations(cs).length, 3);
    const used = new Set(programs(rewrites).flatMap((p) => p.terms.map((t) => t.family)));
    for (const untried of ['bonus:height', 'bonus:position', 'shape:speed']) assert.ok(used.has(untried), `${untried} in ${[...used].join(', ')}`);
  });

  it('evolves a best that is not in the grammar from its own code, and rewrites only when it is near zero', () => {
    const human = baselinesOf(MOUNTAIN_CAR)[1];
    const best: OfflineBest = { candidate: human, success: 0.3, terms: {} };
    const cs = propose({ generation: 2, k: 4, randomSeed: 4, best });
    assert.equal(cs.filter((c) => c.idea.startsWith(`Evolved from ${human.name} (success 0.30)`)).length, 4);
    for (const c of cs) assertRuns(c);
    const low = propose({ generation: 2, k: 4, randomSeed: 4, best: { ...best, success: 0 } });
    assert.equal(low.filter((c) => c.idea.startsWith('Rewrite')).length, 2);
  });

  it('takes the program from the stored candidate when present', () => {
    const stored: Program = { terms: [{ family: 'shape:position', coef: 20 }, { family: 'goal', coef: 50 }] };
    const best: OfflineBest = {
      candidate: { name: 'g1-position-shaping-2', idea: 'x', code: 'function computeReward() {}', program: stored },
      success: 0.7, terms: { positionShaping: ramp(0, 0.1), goal: ramp(0.1, 0.4) },
    };
    const cs = propose({ generation: 2, k: 3, randomSeed: 4, best });
    assert.equal(mutations(cs).length, 3);
  });
});
