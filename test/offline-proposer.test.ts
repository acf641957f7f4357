/**
 * The offline proposer (DESIGN §6): reproducible, diverse in generation 1, emits runnable and
 * readable code, and mutates the best so far the way its reflection says.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BASELINES } from '../functions/propose/baselines.ts';
import { HOSTILE_CANDIDATES } from '../functions/propose/hostile.ts';
import { proposeOffline, type OfflineBest } from '../functions/propose/offline.ts';
import {
  FAMILIES, FAMILY_SPECS, parseProgram, renderProgram, sampleProgram, type Family, type Program,
} from '../functions/propose/offline-grammar.ts';
import type { Candidate } from '../functions/propose/reflection.ts';
import { Random } from '../functions/shared/random.ts';
import type { TermStats } from '../functions/shared/types.ts';
import { dynamics, isTerminal } from '../functions/train-seed/mountain-car.ts';

type Reward = (obs: number[], action: number, nextObs: number[], terminated: boolean) => unknown;

/** Tests are trusted: plain Function is fine here (the search runs candidates in QuickJS). */
function load(code: string): Reward {
  return new Function(`${code}; return computeReward;`)() as Reward;
}

interface Transition { obs: number[]; action: number; nextObs: number[]; terminated: boolean }

/** Real transitions: a random policy, the left wall, and a swing-up that ends at the flag. */
function sampleTransitions(): Transition[] {
  const out: Transition[] = [];
  const rng = new Random(3);
  const run = (p0: number, v0: number, policy: (p: number, v: number) => number): void => {
    let [p, v] = [p0, v0];
    for (let t = 0; t < 200; t++) {
      const action = policy(p, v);
      const [np, nv] = dynamics(p, v, action);
      const terminated = isTerminal(np, nv);
      out.push({ obs: [Math.fround(p), Math.fround(v)], action, nextObs: [Math.fround(np), Math.fround(nv)], terminated });
      if (terminated) return;
      [p, v] = [np, nv];
    }
  };
  run(-0.5, 0, () => rng.int(3));
  run(-1.1, -0.05, () => 0);
  run(-0.55, 0, (_p, v) => (v < 0 ? 0 : 2));
  assert.ok(out.some((t) => t.terminated), 'the swing-up reaches the flag');
  return out;
}
const TRANSITIONS = sampleTransitions();

function assertRuns(c: Candidate): void {
  const reward = load(c.code);
  for (const t of TRANSITIONS) {
    const result = reward(t.obs, t.action, t.nextObs, t.terminated);
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
  return { candidate: { name: 'g1-parent-1', idea, code: renderProgram(program, idea) }, success, meanStepsToFlag: 140, terms };
}

const programs = (cs: Candidate[]): Program[] => cs.map((c) => {
  const p = parseProgram(c.code);
  assert.ok(p !== null, `${c.name} carries its program`);
  return p;
});
const coefOf = (p: Program, f: Family): number | undefined => p.terms.find((t) => t.family === f)?.coef;
const mutations = (cs: Candidate[]): Candidate[] => cs.filter((c) => c.idea.startsWith('Mutation'));

describe('Function: proposeOffline, generation 1', () => {
  it('is reproducible: the same input gives identical candidates', () => {
    const input = { generation: 1, k: 6, randomSeed: 42 };
    assert.deepEqual(proposeOffline(input), proposeOffline({ ...input }));
    assert.notDeepEqual(proposeOffline(input), proposeOffline({ ...input, randomSeed: 43 }));
  });

  it('samples diverse programs: K=6 covers at least 3 dense term families', () => {
    for (let seed = 0; seed < 25; seed++) {
      const families = new Set(programs(proposeOffline({ generation: 1, k: 6, randomSeed: seed })).map((p) => p.terms[0].family));
      assert.ok(families.size >= 3, `seed ${seed}: ${[...families].join(', ')}`);
    }
  });

  it('writes K candidates with unique names like g1-energy-shaping-3', () => {
    const cs = proposeOffline({ generation: 1, k: 16, randomSeed: 5 });
    assert.equal(cs.length, 16);
    assert.equal(new Set(cs.map((c) => c.name)).size, 16);
    for (const c of cs) assert.match(c.name, /^g1-[a-z-]+-\d+$/);
    assert.deepEqual(proposeOffline({ generation: 1, k: 0, randomSeed: 5 }), []);
  });

  it('emits small, readable code: an idea line, named constants, one named term per line', () => {
    for (const c of proposeOffline({ generation: 1, k: 16, randomSeed: 9 })) {
      assert.ok(Buffer.byteLength(c.code) < 4096, `${c.name} is ${c.code.length} bytes`);
      assert.ok(c.code.startsWith(`// idea: ${c.idea}\n// program: `));
      const program = parseProgram(c.code);
      assert.ok(program !== null);
      for (const t of program.terms) {
        const spec = FAMILY_SPECS[t.family];
        assert.ok(c.code.includes(`const ${spec.constant} = ${t.coef};`));
        assert.ok(c.code.includes(`  const ${spec.term} = `));
      }
      assert.match(c.code, /return \[total, \{ [a-zA-Z, ]+ \}\];/);
    }
  });
});

describe('Function: emitted code', () => {
  it('parses and returns a finite [number, object] on real transitions, terminal ones included', () => {
    const cs = [
      ...proposeOffline({ generation: 1, k: 16, randomSeed: 1 }),
      ...proposeOffline({ generation: 1, k: 16, randomSeed: 2 }),
      ...BASELINES,
    ];
    for (const c of cs) assertRuns(c);
  });

  it('covers every family, and the total is the sum of the named terms', () => {
    const all: Program = { terms: FAMILIES.map((family) => ({ family, coef: FAMILY_SPECS[family].range[0] })) };
    const reward = load(renderProgram(all, 'every term'));
    for (const t of TRANSITIONS) {
      const [total, terms] = reward(t.obs, t.action, t.nextObs, t.terminated) as [number, Record<string, number>];
      assert.deepEqual(Object.keys(terms), FAMILIES.map((f) => FAMILY_SPECS[f].term));
      const sum = Object.values(terms).reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(total - sum) < 1e-9);
      assert.equal(terms.goal, t.terminated ? FAMILY_SPECS.goal.range[0] : 0);
    }
  });

  it('round-trips the program through the header', () => {
    const rng = new Random(11);
    for (const primary of ['energy', 'height', 'position', 'velocity', 'progress'] as const) {
      const p = sampleProgram(primary, rng);
      assert.deepEqual(parseProgram(renderProgram(p, 'x')), p);
    }
    assert.equal(parseProgram('function computeReward() { return [0, {}]; }'), null);
    assert.equal(parseProgram('// program: {"terms":[{"family":"rm -rf","coef":1}]}'), null);
    assert.equal(parseProgram('// program: {not json'), null);
  });

  it('keeps the hostile candidates parseable (they are never run here)', () => {
    for (const c of HOSTILE_CANDIDATES) {
      assert.equal(typeof new Function(`${c.code}; return computeReward;`), 'function');
      assert.ok(c.code.startsWith('// idea: '));
    }
  });
});

describe('Function: proposeOffline, later generations', () => {
  const parent: Program = { terms: [{ family: 'energy', coef: 100 }, { family: 'velocity', coef: 1 }, { family: 'goal', coef: 10 }] };

  it('is reproducible and mutates the best so far, recovered from its code alone', () => {
    const best = bestOf(parent, 0.6, { energyShaping: ramp(0.1, 0.6), velocity: ramp(0.1, 0.4), goal: ramp(0, 0.05) });
    const input = { generation: 2, k: 6, randomSeed: 42, best };
    const cs = proposeOffline(input);
    assert.deepEqual(cs, proposeOffline(structuredClone(input)));
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
    const best = bestOf(parent, 0.6, { energyShaping: ramp(1, 30), velocity: ramp(0.1, 0.5), goal: ramp(0.1, 0.3) });
    const cs = proposeOffline({ generation: 2, k: 6, randomSeed: 1, best });
    assert.ok(cs[0].idea.includes('scaled energyShaping by'));
    for (const p of programs(mutations(cs))) {
      const coef = coefOf(p, 'energy');
      assert.ok(coef === undefined || coef < 100, `energy coefficient ${coef}`);
    }
  });

  it('scales a tiny term up', () => {
    const best = bestOf(parent, 0.6, { energyShaping: ramp(0.5, 2), velocity: ramp(0.001, 0.005), goal: ramp(0.1, 0.3) });
    const [guided] = programs(proposeOffline({ generation: 2, k: 1, randomSeed: 1, best }));
    assert.ok((coefOf(guided, 'velocity') ?? 0) > 1);
  });

  it('drops a constant term (but keeps the step cost, constant by design)', () => {
    const program: Program = { terms: [{ family: 'energy', coef: 100 }, { family: 'velocity', coef: 1 }, { family: 'step', coef: 0.5 }] };
    const best = bestOf(program, 0.6, { energyShaping: ramp(-0.2, 0.3), velocity: flat(0.3), step: flat(-0.5) });
    const cs = proposeOffline({ generation: 3, k: 6, randomSeed: 2, best });
    assert.ok(cs[0].idea.includes('dropped velocity'));
    assert.equal(coefOf(programs(cs)[0], 'step'), 0.5);
    for (const p of programs(mutations(cs))) assert.equal(coefOf(p, 'velocity'), undefined);
  });

  it('replaces a constant shaping term with another potential, never the one it dropped', () => {
    const program: Program = { terms: [{ family: 'energy', coef: 50 }, { family: 'goal', coef: 10 }] };
    const best = bestOf(program, 0.1, { energyShaping: flat(0.2), goal: ramp(0, 0.01) });
    const cs = proposeOffline({ generation: 2, k: 6, randomSeed: 8, best });
    assert.ok(cs[0].idea.includes('dropped energyShaping'), cs[0].idea);
    for (const p of programs(mutations(cs))) {
      assert.equal(coefOf(p, 'energy'), undefined);
      assert.ok(p.terms.some((t) => t.family === 'height' || t.family === 'position'));
    }
  });

  it('adds a goal bonus when success is low, and not when it is high', () => {
    const program: Program = { terms: [{ family: 'height', coef: 5 }, { family: 'step', coef: 1 }] };
    const terms = { heightShaping: ramp(-0.1, 0.2), step: ramp(-1, -1.2) };
    for (const p of programs(proposeOffline({ generation: 2, k: 6, randomSeed: 3, best: bestOf(program, 0.2, terms) }))) {
      assert.ok(coefOf(p, 'goal') !== undefined);
    }
    const [high] = proposeOffline({ generation: 2, k: 1, randomSeed: 3, best: bestOf(program, 0.95, terms) });
    assert.ok(!high.idea.includes('success is low'), high.idea);
  });

  it('mixes in fresh samples when the best success is near zero, untried families first', () => {
    const best = bestOf(parent, 0, { energyShaping: ramp(0.1, 0.2), velocity: ramp(0.2, 0.3), goal: flat(0) });
    const scoreboard = ['energy-shaping', 'velocity', 'progress'].map((slug, i) => ({
      name: `g1-${slug}-${i + 1}`, idea: '', success: 0, outcome: 'trained' as const, reason: '',
    }));
    const cs = proposeOffline({ generation: 2, k: 6, randomSeed: 4, best, scoreboard });
    const rewrites = cs.filter((c) => c.idea.startsWith('Rewrite'));
    assert.equal(rewrites.length, 3);
    assert.equal(mutations(cs).length, 3);
    const used = new Set(programs(rewrites).flatMap((p) => p.terms.map((t) => t.family)));
    assert.ok(used.has('height') && used.has('position'), [...used].join(', '));
  });

  it('rewrites from scratch when the best is not in the grammar', () => {
    const human = BASELINES[1];
    const best: OfflineBest = { candidate: human, success: 0.3, meanStepsToFlag: null, terms: {} };
    const cs = proposeOffline({ generation: 2, k: 4, randomSeed: 4, best });
    assert.equal(cs.filter((c) => c.idea.startsWith('Rewrite')).length, 4);
  });

  it('takes the program from the stored candidate when present', () => {
    const stored: Program = { terms: [{ family: 'position', coef: 20 }, { family: 'goal', coef: 50 }] };
    const best: OfflineBest = {
      candidate: { name: 'g1-position-shaping-2', idea: 'x', code: 'function computeReward() {}', program: stored },
      success: 0.7, meanStepsToFlag: 120, terms: { positionShaping: ramp(0, 0.1), goal: ramp(0.1, 0.4) },
    };
    const cs = proposeOffline({ generation: 2, k: 3, randomSeed: 4, best });
    assert.equal(mutations(cs).length, 3);
  });
});
