/**
 * Ranking (functions/shared/results/aggregate.ts): a candidate's score is its mean success over seeds (a
 * failed seed counts 0), then the task's progress, then its tie-break; never a reward's return. The order is total and deterministic, so the
 * same candidates always rank the same, and elitism keeps the best so far on a tie.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aggregateCandidate, compareCandidates, compareScores, meanOrNull } from '../functions/shared/results/aggregate.ts';
import { better } from '../functions/reflect/reflect.ts';
import type { BestPointer, ProposedCandidate } from '../functions/shared/store/records.ts';
import type { SeedResult, SeedSummary } from '../functions/shared/search/types.ts';

const CANDIDATE: ProposedCandidate = { candidateId: '01-x', name: 'x', idea: 'an idea', codeHash: 'abc', origin: 'proposer' };

function summary(seed: number, success: number, extra: Partial<SeedSummary> = {}): SeedSummary {
  return { candidateId: '01-x', seed, outcome: 'trained', reason: '', success, meanSuccessSteps: success > 0 ? 120 + seed : null, meanReturn: -150 + 10 * seed, progress: 0.4 + seed / 100, stepsTrained: 4096, trainSuccessArea: null, ...extra };
}

function result(seed: number, progress: number): SeedResult {
  return {
    task: 'MountainCar-v0', candidateId: '01-x', seed, outcome: 'trained', reason: '', success: 1, meanSuccessSteps: 120, meanReturn: -120,
    progress, terms: { shaping: { early: seed, late: 2 * seed, series: [seed, 2 * seed] } }, trainSuccessSeries: [0, seed],
    curve: [], episode: null, steps: 4096, stepsTrained: 4096, thetaSha256: null, chunks: 1, trainSuccessArea: null, stepsToHalfSuccess: null, wallSeconds: 1, sandboxSeconds: 0.1, backend: 'wasm',
  };
}

type Ranked = Parameters<typeof compareCandidates>[0];
const ranked = (candidateId: string, success: number, meanSuccessSteps: number | null, progress: number | null, generation = 1, meanReturn: number | null = null): Ranked =>
  ({ candidateId, generation, success, meanSuccessSteps, progress, meanReturn });

describe('Function: aggregateCandidate', () => {
  it('averages success over every seed, a failed seed counting 0, and names the first failure', () => {
    const seeds = [summary(2, 1), summary(0, 0.9), summary(1, 0.7, { outcome: 'timeout', reason: 'reward did not return within 1000 ms' })];
    const record = aggregateCandidate(CANDIDATE, 3, seeds, [result(0, 0.52), result(2, 0.55)]);
    assert.equal(record.generation, 3);
    assert.ok(Math.abs(record.success - (0.9 + 0 + 1) / 3) < 1e-12);
    assert.equal(record.outcome, 'timeout');
    assert.equal(record.reason, 'seed 1: reward did not return within 1000 ms');
    assert.deepEqual(record.seeds.map((s) => s.seed), [0, 1, 2], 'seeds in order');
    assert.equal(record.meanReturn, (-150 + -130) / 2, 'the return of the trained seeds only');
    assert.ok(Math.abs((record.progress ?? 0) - (0.40 + 0.42) / 2) < 1e-12, 'the progress of the seeds that trained, from their summaries');
    assert.deepEqual(record.seeds.map((s) => s.progress), [0, 1, 2].map((seed) => 0.4 + seed / 100), 'each seed\'s progress kept');
    assert.deepEqual(record.terms.shaping, { early: 1, late: 2, series: [1, 2] });
  });

  it('has nothing to average when no seed trained', () => {
    const record = aggregateCandidate(CANDIDATE, 1, [summary(0, 0, { outcome: 'error', reason: 'boom', meanReturn: null, progress: null })], []);
    assert.deepEqual([record.success, record.meanSuccessSteps, record.meanReturn, record.progress], [0, null, null, null]);
    assert.deepEqual(record.terms, {});
  });

  it('averages terms named like Object built-ins as any other, over the seeds that have them', () => {
    // As Reflect reads them: result.json parsed, so every terms object has Object's prototype.
    const withTerms = (seed: number, terms: string) => ({ ...result(seed, 0.5), terms: JSON.parse(terms) as SeedResult['terms'] });
    const a = withTerms(0, '{"__proto__": {"early": 1, "late": 2, "series": [1, 2]}, "toString": {"early": 3, "late": 4, "series": [3, 4]}}');
    const b = withTerms(1, '{"constructor": {"early": 5, "late": 6, "series": [5, 6]}}');
    const record = aggregateCandidate(CANDIDATE, 1, [summary(0, 1), summary(1, 1)], [a, b]);
    assert.deepEqual(Object.keys(record.terms).sort(), ['__proto__', 'constructor', 'toString']);
    assert.deepEqual(Object.getOwnPropertyDescriptor(record.terms, '__proto__')?.value, { early: 1, late: 2, series: [1, 2] });
    assert.deepEqual(record.terms.toString, { early: 3, late: 4, series: [3, 4] });
    assert.deepEqual(record.terms.constructor, { early: 5, late: 6, series: [5, 6] });
  });

  it('averages only what was measured', () => {
    assert.equal(meanOrNull([null, 2, 4]), 3);
    assert.equal(meanOrNull([null, null]), null);
  });
});

describe('Function: compareScores and compareCandidates', () => {
  it('puts higher success first, then higher progress, then fewer steps where the task\'s tie-break asks', () => {
    assert.ok(compareScores(ranked('a', 0.9, 150, 0.1), ranked('b', 0.8, 100, 0.9), 'fewer-steps') < 0, 'success before progress');
    assert.ok(compareScores(ranked('a', 0.8, 150, 0.6), ranked('b', 0.8, 100, 0.5), 'fewer-steps') < 0, 'progress before steps');
    assert.ok(compareScores(ranked('a', 0.8, 150, 0.5), ranked('b', 0.8, 100, 0.5), 'fewer-steps') > 0, 'then fewer steps');
    assert.equal(compareScores(ranked('a', 0.8, 150, 0.5), ranked('b', 0.8, 100, 0.5), 'none'), 0, 'no steps without the tie-break');
  });

  it('never ranks by a reward\'s return: a higher return with less progress ranks below', () => {
    // A robot that stands collects the healthy bonus of every step: a high return, no progress.
    const standing = ranked('standing', 0, null, 0.2, 1, 1000);
    const walking = ranked('walking', 0, null, 3.5, 1, 300);
    assert.ok(compareScores(walking, standing, 'none') < 0);
    assert.equal(compareScores(ranked('a', 0, null, 1, 1, 900), ranked('b', 0, null, 1, 1, 100), 'none'), 0);
  });

  it('is never NaN: nothing measured ranks last, and two unmeasured candidates tie', () => {
    for (const tieBreak of ['fewer-steps', 'none'] as const) {
      const none = ranked('a', 0, null, null);
      assert.equal(compareScores(none, ranked('b', 0, null, null), tieBreak), 0);
      assert.ok(compareScores(none, ranked('b', 0, 199, -0.5), tieBreak) > 0);
      assert.ok(!Number.isNaN(compareCandidates(none, ranked('b', 0, null, null), tieBreak)));
    }
  });

  it('is a total, deterministic order: every permutation sorts the same way', () => {
    const all = [
      ranked('c', 0.5, 130, 0.4), ranked('a', 0.5, 130, 0.4), ranked('b', 0.5, 130, 0.4, 2), ranked('d', 0, null, null),
      ranked('e', 0, null, null), ranked('f', 1, 110, 0.5), ranked('g', 0.5, 120, 0.4),
    ];
    const expected = ['f', 'g', 'a', 'c', 'b', 'd', 'e'];
    const shuffle = (xs: Ranked[], seed: number): Ranked[] => xs.map((x, i) => ({ x, k: Math.sin(seed * 97 + i * 13) })).sort((p, q) => p.k - q.k).map((p) => p.x);
    for (let seed = 0; seed < 20; seed++) {
      assert.deepEqual(shuffle(all, seed).sort((p, q) => compareCandidates(p, q, 'fewer-steps')).map((c) => c.candidateId), expected, `permutation ${seed}`);
    }
  });
});

describe('Function: better (elitism)', () => {
  const pointer = (generation: number, success: number, steps: number | null): BestPointer =>
    ({ generation, candidateId: `g${generation}`, name: `g${generation}`, success, meanSuccessSteps: steps, meanReturn: steps === null ? null : -steps });

  it('takes a strictly better generation, keeps the best so far otherwise', () => {
    const incumbent = pointer(1, 0.8, 130);
    assert.equal(better(pointer(2, 0.9, 150), incumbent, 'fewer-steps')?.generation, 2);
    assert.equal(better(pointer(2, 0.6, 100), incumbent, 'fewer-steps'), incumbent, 'a worse generation never replaces it');
    assert.equal(better(pointer(2, 0.8, 130), incumbent, 'fewer-steps'), incumbent, 'a tie keeps it');
    assert.equal(better(pointer(2, 0.8, 120), incumbent, 'fewer-steps')?.generation, 2, 'fewer steps at equal success wins');
    assert.equal(better(null, incumbent, 'fewer-steps'), incumbent);
    assert.equal(better(pointer(1, 0, null), null, 'fewer-steps')?.generation, 1);
  });
});
