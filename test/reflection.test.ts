/**
 * The Eureka-style reflection (DESIGN §6): the text a proposer reads from generation 2 on, and the
 * term diagnostics both proposers share.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  formatValue, reflectionText, termDiagnostics, type GenerationBest, type ScoreboardEntry,
} from '../functions/shared/reflection.ts';
import type { TermStats } from '../functions/shared/types.ts';
import { getTask } from '../tasks/registry.ts';
import { BEST } from './support/contexts.ts';

const MOUNTAIN_CAR = getTask('MountainCar-v0');

const stats = (series: number[]): TermStats => ({ early: series[0], late: series[series.length - 1], series });
const flat = (x: number): TermStats => stats(Array<number>(10).fill(x));
const ramp = (a: number, b: number): TermStats => stats(Array.from({ length: 10 }, (_, i) => a + ((b - a) * i) / 9));

const SCOREBOARD: ScoreboardEntry[] = [
  { name: 'g1-energy-shaping-2', idea: 'Energy shaping.', success: 0.57, outcome: 'trained', reason: '' },
  { name: 'hostile_exfiltrate', idea: 'Reads process.env.', success: 0, outcome: 'error', reason: 'ReferenceError: process is not defined' },
  { name: 'hostile_never_returns', idea: 'Loops forever.', success: 0, outcome: 'timeout', reason: 'computeReward did not return within 50 ms' },
];

const HISTORY: GenerationBest[] = [
  { generation: 1, name: 'g1-energy-shaping-2', success: 0.57, bestSoFar: 0.57 },
  { generation: 2, name: 'g2-velocity-1', success: 0.3, bestSoFar: 0.57 },
];

describe('Function: termDiagnostics', () => {
  it('finds constant, zero, dominating and tiny terms', () => {
    const d = termDiagnostics({ step: flat(-1), velocity: flat(0), shaping: ramp(0.5, 30), goal: ramp(0.01, 0.2) });
    assert.deepEqual(d.constant, ['step', 'velocity']);
    assert.deepEqual(d.zero, ['velocity']);
    assert.deepEqual(d.dominating, ['shaping']);
    assert.deepEqual(d.tiny, ['goal']);
  });

  it('ignores zero terms when judging dominance, and needs two non-zero terms', () => {
    assert.deepEqual(termDiagnostics({ shaping: ramp(1, 5), goal: flat(0) }).dominating, []);
    assert.deepEqual(termDiagnostics({ step: flat(-1) }).dominating, []);
  });

  it('finds nothing wrong with balanced, moving terms', () => {
    const d = termDiagnostics({ step: ramp(-1, -0.8), shaping: ramp(0.1, 0.5), goal: ramp(0, 0.1) });
    assert.deepEqual(d, { constant: [], zero: [], dominating: [], tiny: [] });
  });

  it('falls back on the early and late means when there is no series', () => {
    const d = termDiagnostics({ a: { early: 2, late: 2, series: [] }, b: { early: 0, late: 1, series: [] } });
    assert.deepEqual(d.constant, ['a']);
  });
});

describe('Function: reflectionText', () => {
  const text = reflectionText(MOUNTAIN_CAR, BEST, SCOREBOARD, HISTORY);

  it('shows the best reward function with its code and idea', () => {
    assert.ok(text.includes(BEST.candidate.code.trimEnd()));
    assert.ok(text.includes('g1-energy-shaping-2 (generation 1)'));
    assert.ok(text.includes(`Idea: ${BEST.candidate.idea}`));
  });

  it('gives the task metric per seed, with the reason of a failed seed', () => {
    assert.ok(text.includes('seed 1: 0.95, seed 2: 0.80, seed 3: 0.00 (timeout: total sandbox budget of 60 s exceeded)'));
    assert.ok(text.includes('Task metric (share of greedy evaluation episodes that reach the flag) per seed'));
    assert.ok(text.includes('Mean success: 0.57; mean steps of the successful episodes: 121.5; ' +
      'mean return on the environment\'s own reward: -151.40; mean highest position: 0.432 (the flag is at 0.5).'));
  });

  it('speaks another task\'s words: its success clause and its diagnostic', () => {
    const pendulum = getTask('Pendulum-v1');
    const other = reflectionText(pendulum, { ...BEST, meanSuccessSteps: null, diagnostic: 0.5 }, SCOREBOARD, HISTORY);
    assert.ok(other.includes(`share of greedy evaluation episodes that ${pendulum.success.clause}) per seed`));
    assert.ok(other.includes(`${pendulum.diagnostic.label}: ${pendulum.diagnostic.format(0.5)}`));
    assert.ok(other.includes('mean steps of the successful episodes: n/a (no episode succeeded)'));
    assert.doesNotMatch(other, /flag|highest position/);
  });

  it('lists each term\'s series in Eureka\'s format with early and late means', () => {
    assert.ok(text.includes("step: ['-1.00', '-1.00', '-1.00', '-1.00', '-1.00', '-1.00', '-1.00', '-1.00', '-1.00', '-1.00'], Max: -1.00, Mean: -1.00, Min: -1.00"));
    assert.match(text, /shaping: \['0\.12', '3\.44', .*'30\.00'\], Max: 30\.00, Mean: 15\.06, Min: 0\.12 \(early mean 0\.12, late mean 30\.00\)/);
    assert.match(text, /goal: \['0\.00', '0\.00047', /);
    assert.ok(text.includes("training success: ['0.00', '0.00', '0.05', '0.10', '0.20', '0.40', '0.60', '0.70', '0.80', '0.85']"));
  });

  it('gives Eureka\'s advice and what the diagnostics found', () => {
    assert.ok(text.includes('If the success rates are always near zero, then you must rewrite the entire reward function'));
    assert.ok(text.includes('near identical throughout'));
    assert.ok(text.includes('re-scale'));
    assert.ok(text.includes('- step is nearly constant'));
    assert.ok(text.includes('- shaping dominates the total'));
  });

  it('shows the last scoreboard with outcomes and error reasons, and the best by generation', () => {
    assert.ok(text.includes('- hostile_exfiltrate | 0.00 | error: ReferenceError: process is not defined | Reads process.env.'));
    assert.ok(text.includes('- hostile_never_returns | 0.00 | timeout: computeReward did not return within 50 ms'));
    assert.ok(text.includes('- g1-energy-shaping-2 | 0.57 | trained | Energy shaping.'));
    assert.ok(text.includes('- generation 1: 0.57 (g1-energy-shaping-2); best so far 0.57'));
    assert.ok(text.includes('- generation 2: 0.30 (g2-velocity-1); best so far 0.57'));
    assert.ok(text.indexOf('## Last generation') < text.indexOf('## Best task metric by generation'));
  });

  it('still reads well when nothing has trained yet', () => {
    const empty = reflectionText(MOUNTAIN_CAR, null, SCOREBOARD, []);
    assert.ok(empty.includes('No candidate has trained successfully yet.'));
    assert.ok(empty.includes('hostile_exfiltrate'));
  });

  it('formats values like Eureka, keeping small ones visible', () => {
    assert.equal(formatValue(0.123), '0.12');
    assert.equal(formatValue(0), '0.00');
    assert.equal(formatValue(-0.00123), '-0.0012');
    assert.equal(formatValue(Number.NaN), 'NaN');
  });
});
