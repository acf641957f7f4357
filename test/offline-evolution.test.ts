/**
 * The offline proposer starts from what people wrote (issue 22, item 6): generation 1 mutates the
 * baselines and --human-init rewards beside the grammar's samples, later generations mutate and
 * recombine the best so far by an evolution strategy over the constants of their own code. The
 * constants are read from the code's tokens, and every reward it emits passes the sandbox check.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { constantSites, returnedTermNames, skeleton } from '../functions/propose/code-constants.ts';
import { readDerived, renderDerived } from '../functions/propose/derived-reward.ts';
import { tokenize } from '../functions/propose/js-tokens.ts';
import { proposeOffline, type OfflineBest } from '../functions/propose/offline.ts';
import { grammarFor } from '../functions/propose/offline-grammar.ts';
import { baselinesOf, ENVIRONMENT_REWARD_ID, HUMAN_SHAPING_ID } from '../functions/shared/search/baselines.ts';
import type { Candidate } from '../functions/shared/search/types.ts';
import { checkReward } from '../functions/train-seed/check-reward.ts';
import { getTask, TASKS } from '../tasks/registry.ts';

const MOUNTAIN_CAR = getTask('MountainCar-v0');
const LANDER = getTask('LunarLander-v3');

/** A reward as a model might write it: numbers hide in strings, a regex, a template, comments and names. */
const MODEL_REWARD = `// idea: a model's reward with every kind of token around its numbers
const LABEL = "weights 3 and 4.5"; // a comment with 7.25 in it
const PATTERN = /x2{3}/g;
/* 9.5 in a block comment */
function clip(x, lo, hi) { return Math.min(Math.max(x, lo), hi); }
function computeReward(obs, action, nextObs, terminated) {
  const v2 = nextObs[1];
  let sum = 0;
  for (let i = 0; i < 2; i++) sum += Math.abs(nextObs[i]);
  const tag = \`step \${1 + 2}\`;
  const push = action === 2 ? 0.5 : 0;
  const speed = 12.5 * Math.pow(v2, 2) + 1e-3 * Math.sqrt(1 - Math.min(1, v2 * v2));
  const height = clip(0.45 * Math.sin(3 * nextObs[0]), -1, 1);
  const goal = terminated ? 100 : 0;
  return [speed + height + goal - push + 0 * sum + tag.length * 0, { speed, height, goal, push }];
}
`;

const valuesOf = (code: string): number[] => constantSites(code).map((s) => s.value);

describe('Function: the constants of a reward\'s code', () => {
  it('reads numbers from tokens: never in strings, regexes, templates, comments or names', () => {
    const numbers = tokenize(MODEL_REWARD).filter((t) => t.kind === 'number').map((t) => t.text);
    assert.ok(!numbers.includes('7.25') && !numbers.includes('9.5') && !numbers.includes('4.5'), numbers.join(' '));
    assert.ok(tokenize(MODEL_REWARD).some((t) => t.kind === 'regex' && t.text === '/x2{3}/g'));
    assert.ok(tokenize(MODEL_REWARD).some((t) => t.kind === 'template'));
  });

  it('scales weights, not indices, equality tests, exponents, loop bounds, partial calls or 0', () => {
    // 12.5 (a weight), 0.5 (the push's size), 0.45 and 3 (sin's amplitude and frequency), the clip's 1
    // (-1 is unary minus on 1), 100; not s[1], 2 in ===, Math.pow's 2, the loop's 0 and 2, sqrt's 1e-3 argument...
    assert.deepEqual(valuesOf(MODEL_REWARD), [0.5, 12.5, 1e-3, 0.45, 3, 1, 1, 100]);
  });

  it('keeps the trainer\'s discount: GAMMA is not a constant to scale', () => {
    const human = baselinesOf(MOUNTAIN_CAR)[1].code;
    assert.deepEqual(valuesOf(human), [100, 10, 0.5, 400, 3, 0.0025, 3, 400, 1]);
    assert.ok(!valuesOf(human).includes(0.99));
  });

  it('names the terms each return statement records', () => {
    assert.deepEqual(returnedTermNames(MODEL_REWARD), ['speed', 'height', 'goal', 'push']);
    const [environment] = baselinesOf(LANDER);
    assert.deepEqual(returnedTermNames(environment.code), ['ending', 'shaping', 'mainEngine', 'sideEngine']);
    assert.deepEqual(returnedTermNames('function computeReward() { return {reward: 1, terms: {a: 1, "b": 2}}; }'), ['a', 'b']);
  });
});

const stats = (series: number[]) => ({ early: series[0], late: series.at(-1) ?? 0, series });
const asParent = (c: Candidate, success: number): OfflineBest => ({ candidate: c, success, terms: { shaping: stats([0.1, 0.2]) } });

describe('Function: proposeOffline starts from what people wrote', () => {
  const people = [...baselinesOf(LANDER)].reverse();
  const gen1 = proposeOffline({ task: LANDER, generation: 1, k: 6, randomSeed: 7, people });

  it('generation 1: the grammar\'s samples stay, and half the candidates evolve from the people\'s rewards', () => {
    assert.equal(gen1.length, 6);
    const grammar = gen1.filter((c) => c.code.includes('// program: '));
    const evolved = gen1.filter((c) => c.idea.startsWith('Evolved from'));
    assert.equal(grammar.length, 3);
    assert.deepEqual(evolved.map((c) => c.idea.split(',')[0]), [`Evolved from ${HUMAN_SHAPING_ID}`, `Evolved from ${ENVIRONMENT_REWARD_ID}`, `Evolved from ${HUMAN_SHAPING_ID}`]);
    assert.deepEqual(gen1, proposeOffline({ task: LANDER, generation: 1, k: 6, randomSeed: 7, people: structuredClone(people) }), 'seeded and reproducible');
    assert.notDeepEqual(gen1, proposeOffline({ task: LANDER, generation: 1, k: 6, randomSeed: 8, people }));
  });

  it('perturbs each constant log-normally (the same code around them), then drops a term or adds a grammar term', () => {
    const [first, , third] = gen1.filter((c) => c.idea.startsWith('Evolved from'));
    const human = people[0].code;
    assert.equal(skeleton(readDerived(grammarFor(LANDER), first.name, first.code).base), skeleton(human), 'constants only: the same shape');
    const ratios = valuesOf(readDerived(grammarFor(LANDER), first.name, first.code).base).map((x, i) => x / valuesOf(human)[i]);
    assert.ok(ratios.every((r) => r > 0 && r !== 1), `every constant moved, keeping its sign: ${ratios.join(', ')}`);
    assert.ok(new Set(ratios.map((r) => r.toFixed(3))).size > 1, 'each by its own factor');
    assert.match(third.idea, /dropped \w+|added \w+/);
    assert.match(third.code, /^function computeReward\(obs, action, nextObs, terminated, state, nextState\) \{\n {2}const out = parentReward/m);
  });

  it('mutates a --human-init reward too, and a model\'s', () => {
    const mine = { name: 'my-reward', idea: '', code: MODEL_REWARD };
    const cs = proposeOffline({ task: MOUNTAIN_CAR, generation: 1, k: 4, randomSeed: 1, people: [mine, ...baselinesOf(MOUNTAIN_CAR)] });
    assert.ok(cs.some((c) => c.idea.startsWith('Evolved from my-reward')));
  });

  it('later generations mutate the best so far and recombine it with the others of its shape', () => {
    const evolved = gen1.filter((c) => c.idea.startsWith('Evolved from'));
    const parents = [asParent(baselinesOf(LANDER)[0], 0.7), asParent(people[0], 0.5), asParent(evolved[0], 0.8)];
    const cs = proposeOffline({ task: LANDER, generation: 2, k: 6, randomSeed: 7, best: parents[2], parents });
    assert.equal(cs.length, 6);
    assert.equal(cs.filter((c) => c.idea.startsWith(`Evolved from ${evolved[0].name} (success 0.80)`)).length, 3, 'the best so far, half the children');
    assert.equal(cs.filter((c) => c.idea.startsWith('Evolved from environment_reward (success 0.70)')).length, 2, 'a baseline is a parent too');
    const recombined = cs.filter((c) => c.idea.startsWith('Recombination of'));
    assert.ok(recombined.length >= 1, cs.map((c) => c.idea).join('\n'));
    assert.match(recombined[0].idea, /constants from it/);
    const step = readDerived(grammarFor(LANDER), cs[0].name, cs[0].code).spec.sigmas;
    assert.ok(step.some((s) => s !== 0.2), 'the step sizes adapt');
    assert.equal(new Set(cs.map((c) => c.code)).size, 6);
  });
});

describe('Function: every reward the offline proposer emits passes the sandbox check', () => {
  for (const task of TASKS) {
    it(`${task.id}: generations 1 and 2 from the baselines, a person's and a model's reward`, async () => {
      const people = [...baselinesOf(task).reverse(), ...(task.id === 'MountainCar-v0' ? [{ name: 'model', idea: '', code: MODEL_REWARD }] : [])];
      const gen1 = proposeOffline({ task, generation: 1, k: 8, randomSeed: 3, people });
      const parents = gen1.map((c, i) => asParent(c, 0.1 * (i + 1))).reverse();
      const gen2 = proposeOffline({ task, generation: 2, k: 8, randomSeed: 3, best: parents[0], parents });
      // Generation 1 is screened on the task's bank as a search screens it; generation 2's code is
      // generation 1's with constants moved and terms dropped or added, so its sandbox check suffices.
      for (const [i, c] of [...gen1, ...gen2].entries()) {
        const check = await checkReward(task, c.code, { samples: 512, batchSize: 512, screen: i < gen1.length });
        assert.equal(check.verdict, 'ok', `${c.name}: ${check.reason}\n${c.code}`);
      }
    });
  }
});

describe('Function: renderDerived keeps the parent\'s terms, whatever their names (issue 32, defect 8)', () => {
  it('passes a term named __proto__ through the wrapper that drops another', async () => {
    const task = getTask('MountainCar-v0');
    const parent = `function computeReward(obs, action, nextObs, terminated) {
  const progress = nextObs[0] - obs[0];
  const step = -1;
  return [progress + step, { ['__proto__']: progress, step }];
}`;
    assert.deepEqual(Object.keys((await checkReward(task, parent)).terms).sort(), ['__proto__', 'step'], 'the parent reports it');
    const g = grammarFor(task);
    const derived = readDerived(g, 'parent', parent);
    const code = renderDerived(g, { ...derived, spec: { ...derived.spec, drop: ['step'] } }, 'the parent without its step cost');
    const checked = await checkReward(task, code);
    assert.equal(checked.verdict, 'ok', checked.reason);
    assert.deepEqual(Object.keys(checked.terms), ['__proto__']);
  });
});
