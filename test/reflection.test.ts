/**
 * The Eureka-style reflection (DESIGN §6): the text a proposer reads from generation 2 on, and the
 * term diagnostics both proposers share.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  formatValue, reflectionText, termDiagnostics, type GenerationBest, type ScoreboardEntry,
} from '../functions/shared/words/reflection.ts';
import type { TermStats } from '../functions/shared/search/types.ts';
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
  const text = reflectionText(MOUNTAIN_CAR, { best: BEST, scoreboard: SCOREBOARD, bestByGeneration: HISTORY });

  it('shows the best reward function with its code and idea', () => {
    assert.ok(text.includes(BEST.candidate.code.trimEnd()));
    assert.ok(text.includes('g1-energy-shaping-2 (generation 1)'));
    assert.ok(text.includes(`Idea: ${BEST.candidate.idea}`));
  });

  it('gives the task metric and progress per seed, with the reason of a failed seed', () => {
    assert.ok(text.includes('seed 1: 0.95, seed 2: 0.8, seed 3: 0 (timeout: total sandbox budget of 60 s exceeded)'));
    assert.ok(text.includes('Task metric (share of greedy evaluation episodes that reach the flag) per seed'));
    assert.ok(text.includes('Progress (the highest position the car reached along the track (the flag is at 0.5); mean over the greedy episodes) per seed: seed 1: 0.5, seed 2: 0.364.'));
    assert.ok(text.includes('Mean success: 0.57; progress, mean highest position: 0.432 (the flag is at 0.5); mean steps of the successful episodes: 122; ' +
      'mean return on the environment\'s own reward (not what it is ranked by): -151.'));
  });

  it('speaks another task\'s words: its success clause and its progress', () => {
    const pendulum = getTask('Pendulum-v1');
    const other = reflectionText(pendulum, { best: { ...BEST, meanSuccessSteps: null, progress: 0.5 }, scoreboard: SCOREBOARD, bestByGeneration: HISTORY });
    assert.ok(other.includes(`share of greedy evaluation episodes that ${pendulum.success.clause}) per seed`));
    assert.ok(other.includes(`progress, ${pendulum.progress.label}: ${pendulum.progress.format(0.5)}`));
    assert.ok(other.includes('mean steps of the successful episodes: n/a (no episode succeeded)'));
    assert.doesNotMatch(other, /flag|highest position/);
  });

  it('lists each term\'s series in Eureka\'s format with early and late means', () => {
    assert.ok(text.includes("step: ['-1', '-1', '-1', '-1', '-1', '-1', '-1', '-1', '-1', '-1'], Max: -1, Mean: -1, Min: -1"));
    assert.match(text, /shaping: \['0\.12', '3\.44', .*'30'\], Max: 30, Mean: 15\.1, Min: 0\.12 \(mean per step early 0\.12, late 30\)/);
    assert.match(text, /goal: \['0', '0\.000467', /);
    assert.ok(text.includes("training success: ['0', '0', '0.05', '0.1', '0.2', '0.4', '0.6', '0.7', '0.8', '0.85']"));
  });

  it('gives its advice, in Eureka\'s order, and what the flags found', () => {
    assert.ok(text.includes('If the success stays near zero throughout, rewrite the reward function as a whole'));
    assert.ok(text.includes('Sizes are mean absolute values per step'));
    assert.ok(text.includes('rescale it'));
    assert.ok(text.includes('- step is constant: a steady cost, or a term RL cannot change; check which before dropping it.'));
    assert.ok(text.includes('- shaping dominates'));
  });

  it('shows the last scoreboard with outcomes and error reasons, and the best by generation', () => {
    assert.ok(text.includes('- hostile_exfiltrate | 0 | error: ReferenceError: process is not defined | Reads process.env.'));
    assert.ok(text.includes('- hostile_never_returns | 0 | timeout: computeReward did not return within 50 ms'));
    assert.ok(text.includes('- g1-energy-shaping-2 | 0.57 | trained | Energy shaping.'));
    assert.ok(text.includes('- generation 1: 0.57 (g1-energy-shaping-2); best so far 0.57'));
    assert.ok(text.includes('- generation 2: 0.3 (g2-velocity-1); best so far 0.57'));
    assert.ok(text.indexOf('## Last generation') < text.indexOf('## Best task metric by generation'));
  });

  it('gives each candidate\'s progress, what the race cut by where none had succeeded, "-" where no seed trained', () => {
    const raced: ScoreboardEntry[] = [
      { name: 'kept', idea: 'Kept.', success: 0.45, progress: 0.49, outcome: 'trained', reason: '' },
      { name: 'cut', idea: 'Cut.', success: 0, progress: 0.31, outcome: 'stopped', reason: 'stopped by the race at rung 1 of 3' },
      { name: 'broken', idea: 'Throws.', success: 0, progress: null, outcome: 'error', reason: 'TypeError' },
    ];
    const shown = reflectionText(MOUNTAIN_CAR, { best: BEST, scoreboard: raced, bestByGeneration: HISTORY });
    assert.ok(shown.includes('## Last generation\'s candidates (name | success | progress | outcome | idea)'));
    assert.ok(shown.includes(`(Progress: ${MOUNTAIN_CAR.progress.describe}; mean over the seeds that trained`));
    assert.ok(shown.includes('- cut | 0 | 0.31 | stopped: stopped by the race at rung 1 of 3 | Cut.'));
    assert.ok(shown.includes('- broken | 0 | - | error: TypeError | Throws.'));
    // Records from before progress was kept: the columns as they were.
    assert.ok(text.includes('## Last generation\'s candidates (name | success | outcome | idea)'));
  });

  it('still reads well when nothing has trained yet', () => {
    const empty = reflectionText(MOUNTAIN_CAR, { best: null, scoreboard: SCOREBOARD, bestByGeneration: [] });
    assert.ok(empty.includes('No candidate has trained successfully yet.'));
    assert.ok(empty.includes('hostile_exfiltrate'));
  });

  it('writes three significant digits, so that 0.012 and 0.018 stay apart', () => {
    assert.equal(formatValue(0.012), '0.012');
    assert.equal(formatValue(0.018), '0.018');
    assert.equal(formatValue(0.123456), '0.123');
    assert.equal(formatValue(-151.4), '-151');
    assert.equal(formatValue(12_345), '12300');
    assert.equal(formatValue(0), '0');
    assert.equal(formatValue(-0.00123), '-0.00123');
    assert.equal(formatValue(Number.NaN), 'NaN');
  });
});

describe('Function: termDiagnostics on sizes (mean |value| per step)', () => {
  const withAbs = (mean: number, abs: number): TermStats => ({ ...flat(mean), abs: { early: abs, late: abs, series: Array<number>(10).fill(abs) } });

  it('does not call a potential difference tiny because its mean telescopes to about 0', () => {
    const potential: TermStats = { ...ramp(0.002, -0.001), abs: { early: 0.8, late: 0.5, series: Array.from({ length: 10 }, (_, i) => 0.8 - (0.3 * i) / 9) } };
    const d = termDiagnostics({ potential, step: flat(-1) });
    assert.deepEqual(d.tiny, [], 'its size, 0.5 a step, is half the step cost\'s');
    assert.deepEqual(d.dominating, []);
  });

  it('judges dominance and tininess by size, not by a mean that cancels', () => {
    const d = termDiagnostics({ swing: withAbs(0.01, 40), cost: withAbs(-1, 1), bonus: withAbs(0.001, 0.001) });
    assert.deepEqual(d.dominating, ['swing'], 'swing is 40 a step in size, 40x the cost');
    assert.deepEqual(d.tiny, ['bonus']);
  });

  it('calls a term zero only when its size is zero, and falls back on |mean| for a result without sizes', () => {
    assert.deepEqual(termDiagnostics({ off: withAbs(0, 0), on: withAbs(0, 0.3) }).zero, ['off']);
    assert.deepEqual(termDiagnostics({ step: flat(-1), tiny: flat(0.001) }).tiny, ['tiny']);
  });

  it('shows the size beside the mean in the reflection', () => {
    const best = { ...BEST, terms: { potential: { ...ramp(0.002, -0.001), abs: { early: 0.8, late: 0.5, series: Array<number>(10).fill(0.6) } } } };
    const text = reflectionText(MOUNTAIN_CAR, { best, scoreboard: [], bestByGeneration: [] });
    assert.match(text, /potential: \[.*\], Max: .* \(mean per step early 0\.002, late -0\.001; mean \|value\| per step early 0\.8, late 0\.5\)/);
  });
});

describe('Function: reflectionText, the latest generation and the line to beat', () => {
  const latest = { ...BEST, candidate: { name: 'g2-speed-bonus', idea: 'Pays for speed.', code: 'function computeReward(o, a, n, t) {\n  const speed = Math.abs(n[1]);\n  return [speed, { speed }];\n}\n' },
    generation: 2, success: 0.3, terms: { speed: ramp(0.01, 0.03) } };
  const baselines = [
    { name: 'environment_reward', success: 0, seeds: [{ seed: 1, success: 0 }, { seed: 2, success: 0 }], meanSuccessSteps: null, meanReturn: -200 },
    { name: 'human_shaping', success: 0.8, seeds: [{ seed: 1, success: 0.85 }, { seed: 2, success: 0.75 }], meanSuccessSteps: 131.26, meanReturn: -131.26 },
  ];
  const text = reflectionText(MOUNTAIN_CAR, { best: BEST, latest, scoreboard: SCOREBOARD, bestByGeneration: HISTORY, baselines });

  it('shows the latest generation\'s best, its code and its statistics, when it fell short of the best so far', () => {
    const at = text.indexOf('## The latest generation\'s best, below the best so far: g2-speed-bonus (generation 2)');
    assert.ok(at > text.indexOf('## Best reward function so far: g1-energy-shaping-2'), 'after the best so far');
    const section = text.slice(at);
    assert.ok(section.includes(latest.candidate.code.trimEnd()));
    assert.ok(section.includes('Mean success: 0.3;'));
    assert.match(section, /speed: \['0\.01', /);
    assert.doesNotMatch(reflectionText(MOUNTAIN_CAR, { best: BEST, latest: null, scoreboard: [], bestByGeneration: [] }), /latest generation's best/);
  });

  it('gives the baselines\' scores on the search\'s seeds as the line to beat, and says when the fresh ones come', () => {
    const section = text.slice(text.indexOf('## The line to beat'));
    assert.ok(section.includes('- environment_reward (the environment\'s own reward): task metric 0 (seed 1: 0, seed 2: 0); mean return on the environment\'s own reward -200.'));
    assert.ok(section.includes('- human_shaping (a person\'s shaping): task metric 0.8 (seed 1: 0.85, seed 2: 0.75); mean steps of the successful episodes 131; mean return on the environment\'s own reward -131.'));
    assert.match(section, /scores on the search's own seeds, the only ones known while the search runs\. After the last generation the winner and both baselines are trained again on fresh seeds/);
    assert.ok(text.indexOf('## The line to beat') < text.indexOf('How to read this feedback'));
  });
});

describe('Function: reflectionText, how the episodes ended', () => {
  const ending = (success: number, terminated: number, truncated: number, meanLength: number, meanReturn: number) =>
    ({ episodes: 20, success, terminated, truncated, meanLength, meanReturn });
  const seed = (s: number, success: number) => ({
    seed: s,
    training: Array.from({ length: 10 }, (_, k) => ending(success * k / 9, 0, 1 - success * k / 9, 200 - 50 * success * k / 9, -200 + 50 * success * k / 9)),
    evaluation: ending(success, 0, 1 - success, 150, -150),
  });

  it('gives the training episodes\' length, endings and environment return at 10 checkpoints, and the evaluation endings per seed', () => {
    const text = reflectionText(MOUNTAIN_CAR, { best: { ...BEST, episodes: [seed(1, 0.9), seed(2, 0.8)] }, scoreboard: [], bestByGeneration: [] });
    assert.match(text, /Training episodes, at the same 10 checkpoints .*, the mean over 2 seeds: their mean length; the share that reach the flag \(succeeded\)/);
    assert.ok(text.includes("episode length: ['200', '195', "));
    assert.ok(text.includes("cut at the time limit: ['100%', '91%', "));
    assert.ok(text.includes("return on the environment's reward: ['-200', '-195', "));
    assert.ok(text.includes('- seed 1: 20 episodes: 90% succeeded, 0% terminated otherwise, 10% cut at the time limit; mean length 150; mean return on the environment\'s reward -150'));
    assert.ok(text.includes('- seed 2: 20 episodes: 80% succeeded'));
    assert.doesNotMatch(text, /training success: \[/, 'the endings\' success series takes its place');
  });

  it('goes seed by seed when the seeds disagree: a 0.9 / 0 / 0.85 run is not a 0.58 run', () => {
    const text = reflectionText(MOUNTAIN_CAR, { best: { ...BEST, episodes: [seed(1, 0.9), seed(2, 0), seed(3, 0.85)] }, scoreboard: [], bestByGeneration: [] });
    assert.match(text, /each seed on its own: the seeds disagree/);
    assert.ok(text.includes("seed 2:\n  episode length: ['200', '200', '200', '200', '200', '200', '200', '200', '200', '200']"));
    assert.ok(text.includes("seed 1:\n  episode length: ['200', '195', "));
    assert.ok(text.includes('- seed 2: 20 episodes: 0% succeeded, 0% terminated otherwise, 100% cut at the time limit'));
  });
});
