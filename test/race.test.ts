/**
 * Racing (functions/reflect/race.ts): the rungs' schedule, Promote's decision at each rung, and the
 * order a generation ranks its candidates in once raced; the learning-speed measures it ranks on
 * last (functions/train-seed/term-stats.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PromoteEvent } from '../functions/shared/search/contracts.ts';
import type { SeedSummary } from '../functions/shared/search/types.ts';
import { parseSearchInput } from '../functions/shared/input/search-input.ts';
import { compareRecords } from '../functions/shared/results/aggregate.ts';
import { promoteRung } from '../functions/reflect/race.ts';
import { raceSchedule } from '../functions/shared/search/race-schedule.ts';
import type { UpdateStats } from '../functions/train-seed/ppo.ts';
import { stepsToHalfSuccess, trainSuccessArea, trainSuccessSeries } from '../functions/train-seed/term-stats.ts';
import { getTask } from '../tasks/registry.ts';

const MOUNTAIN_CAR = getTask('MountainCar-v0');
const config = (racing: unknown, steps = 150_000) => parseSearchInput({ steps, seeds: 2, racing }, { proposer: 'offline' });

function summary(candidateId: string, seed: number, success: number, extra: Partial<SeedSummary> = {}): SeedSummary {
  return { candidateId, seed, outcome: 'trained', reason: '', success, meanSuccessSteps: success > 0 ? 150 : null, meanReturn: -150, progress: null, stepsTrained: 16_384, trainSuccessArea: 0.2, ...extra };
}

const event = (rung: number, results: SeedSummary[], finished: SeedSummary[] = []): PromoteEvent =>
  ({ kind: 'promote', searchId: 's', generation: 1, rung, results, finished });

describe('Function: raceSchedule', () => {
  it('puts rungs at budget / eta^k in whole rollouts, the last at the budget', () => {
    assert.deepEqual(raceSchedule(config({ eta: 3, rungs: 3 }), MOUNTAIN_CAR), [16_384, 49_152, 150_000]);
    assert.deepEqual(raceSchedule(config({ eta: 2, rungs: 4 }), MOUNTAIN_CAR), [18_432, 36_864, 75_776, 150_000]);
    assert.deepEqual(raceSchedule(config(false), MOUNTAIN_CAR), [150_000]);
  });

  it('races fewer rungs when the budget is too small to tell them apart', () => {
    assert.deepEqual(raceSchedule(config({ eta: 3, rungs: 5 }, 6144), MOUNTAIN_CAR), [2048, 6144]);
  });
});

describe('Function: promoteRung', () => {
  const three = config({ eta: 3, rungs: 3 });

  it('hands the top 1/eta (rounded up) on to the next rung and stops those clearly behind, with their rung scores', () => {
    const results = ['a', 'b', 'c', 'd', 'e', 'f'].flatMap((id, k) => [summary(id, 0, k < 2 ? 0.9 - k / 10 : 0.1), summary(id, 1, k < 2 ? 0.8 - k / 10 : 0.1)]);
    const { state, record } = promoteRung(three, MOUNTAIN_CAR, event(1, results));
    assert.deepEqual([...new Set(state.tasks.map((t) => t.candidateId))], ['a', 'b']);
    assert.ok(state.tasks.every((t) => t.targetSteps === 49_152 && t.budget.steps === 150_000));
    assert.equal(state.rung, 2);
    assert.equal(state.more, true);
    assert.deepEqual(state.finished.map((s) => [s.candidateId, s.outcome]), ['c', 'c', 'd', 'd', 'e', 'e', 'f', 'f'].map((id) => [id, 'stopped']));
    assert.equal(state.finished[0].success, 0.1, 'a stopped seed-run keeps its rung score');
    assert.match(state.finished[0].reason, /^stopped by the race at rung 1 of 3 \(16,384 of 150,000 steps, 11% of the budget\), ranked 3 of 6 there/);
    assert.deepEqual(record.rung.standings.map((s) => [s.candidateId, s.promoted]), [['a', true], ['b', true], ['c', false], ['d', false], ['e', false], ['f', false]]);
  });

  it('cuts nobody whose difference from the last one going on is inside the noise of its evaluation episodes', () => {
    // The last one going on, b, passed 30 of 40 episodes; c 26 and d 22 are inside chance of that, e 18 is not.
    const results = ['a', 'b', 'c', 'd', 'e', 'f'].flatMap((id, k) => [summary(id, 0, 0.9 - k / 10), summary(id, 1, 0.8 - k / 10)]);
    const { state } = promoteRung(three, MOUNTAIN_CAR, event(1, results));
    assert.deepEqual([...new Set(state.tasks.map((t) => t.candidateId))], ['a', 'b', 'c', 'd']);
    assert.deepEqual([...new Set(state.finished.map((s) => s.candidateId))], ['e', 'f']);
  });

  it('sends the last one left straight on to the budget, and at the last rung finishes everything', () => {
    const { state } = promoteRung(three, MOUNTAIN_CAR, event(2, [summary('a', 0, 0.9), summary('a', 1, 1), summary('b', 0, 0.1), summary('b', 1, 0)]));
    assert.deepEqual(state.tasks.map((t) => [t.candidateId, t.targetSteps]), [['a', 150_000], ['a', 150_000]]);
    assert.equal(state.rung, 3);
    const done = promoteRung(three, MOUNTAIN_CAR, event(3, [summary('a', 0, 1, { stepsTrained: 149_504 }), summary('a', 1, 1, { stepsTrained: 149_504 })], state.finished));
    assert.equal(done.state.more, false);
    assert.deepEqual(done.state.finished.map((s) => [s.candidateId, s.outcome]), [['b', 'stopped'], ['b', 'stopped'], ['a', 'trained'], ['a', 'trained']]);
  });

  it('hands a finalist\'s place to the next in line when every seed of it faults at the budget: that one trains on to the budget from its checkpoint', () => {
    const rung2 = promoteRung(three, MOUNTAIN_CAR, event(2, [summary('a', 0, 0.9), summary('a', 1, 1), summary('b', 0, 0.2, { stepsTrained: 49_152 }), summary('b', 1, 0.1, { stepsTrained: 49_152 })],
      [summary('c', 0, 0, { outcome: 'stopped', stepsTrained: 16_384 }), summary('c', 1, 0, { outcome: 'stopped', stepsTrained: 16_384 })]));
    const fault = { outcome: 'error' as const, reason: 'reward threw at step 140,000', success: 0, stepsTrained: 140_288 };
    const atBudget = promoteRung(three, MOUNTAIN_CAR, event(3, [summary('a', 0, 0, fault), summary('a', 1, 0, fault)], rung2.state.finished));
    assert.equal(atBudget.state.more, true, 'the race goes on: no candidate of the generation is trained to the budget yet');
    assert.deepEqual(atBudget.state.tasks.map((t) => [t.candidateId, t.seed, t.targetSteps]), [['b', 0, 150_000], ['b', 1, 150_000]], 'b got furthest (rung 2), c only to rung 1');
    assert.ok(!atBudget.state.finished.some((s) => s.candidateId === 'b'), 'b is in the rung or finished, never both');
    const done = promoteRung(three, MOUNTAIN_CAR, event(3, [summary('b', 0, 0.6), summary('b', 1, 0.5)], atBudget.state.finished));
    assert.equal(done.state.more, false);
    assert.deepEqual(done.state.finished.filter((s) => s.outcome === 'trained').map((s) => s.candidateId), ['b', 'b']);
  });

  it('keeps counting a seed that faulted at an earlier rung as 0 at every later rung', () => {
    // a: one seed threw at rung 1, its other seed passed everything; b: 0.9 on both seeds.
    const threw = summary('a', 0, 0, { outcome: 'error', reason: 'reward threw at step 9,000' });
    const others = ['c', 'd', 'e', 'f'].flatMap((id) => [summary(id, 0, 0), summary(id, 1, 0)]);
    const rung1 = promoteRung(three, MOUNTAIN_CAR, event(1, [threw, summary('a', 1, 1), summary('b', 0, 0.9), summary('b', 1, 0.9), ...others]));
    assert.deepEqual([...new Set(rung1.state.tasks.map((t) => t.candidateId))].sort(), ['a', 'b']);
    const rung2 = promoteRung(three, MOUNTAIN_CAR, event(2, [summary('a', 1, 1), summary('b', 0, 0.9), summary('b', 1, 0.9)], rung1.state.finished));
    assert.deepEqual(rung2.record.rung.standings.map((s) => [s.candidateId, s.success]), [['b', 0.9], ['a', 0.5]]);
    assert.deepEqual([...new Set(rung2.state.tasks.map((t) => t.candidateId))], ['b'], 'a is 0.5 over its two seeds, not 1 over the one left');
  });

  it('finishes a faulted seed-run as it is, counts it 0 in its candidate\'s score, and ranks ties by how early they learned', () => {
    const results = [
      summary('faulty', 0, 0, { outcome: 'error', reason: 'reward threw at step 4096' }), summary('faulty', 1, 1),
      summary('slow', 0, 0.5, { trainSuccessArea: 0.1 }), summary('slow', 1, 0.5, { trainSuccessArea: 0.1 }),
      summary('quick', 0, 0.5, { trainSuccessArea: 0.4 }), summary('quick', 1, 0.5, { trainSuccessArea: 0.4 }),
    ];
    const { state, record } = promoteRung(config({ eta: 3, rungs: 3 }), MOUNTAIN_CAR, event(1, results));
    // faulty scores (0 + 1) / 2 = 0.5 too; quick learned earliest; none is ahead of another by evidence.
    assert.deepEqual(record.rung.standings.map((s) => s.candidateId), ['quick', 'faulty', 'slow']);
    assert.deepEqual(state.tasks.map((t) => t.candidateId), ['faulty', 'slow', 'slow', 'quick', 'quick']);
    assert.deepEqual(state.finished.find((s) => s.candidateId === 'faulty' && s.seed === 0)?.outcome, 'error');
  });

  it('stops nobody where there is nothing to tell the candidates apart: ties at 0 are never cut by the order they came in', () => {
    const nothing = { meanSuccessSteps: null, trainSuccessArea: 0, meanReturn: -200 };
    const results = ['a', 'b', 'c', 'd'].flatMap((id) => [summary(id, 0, 0, nothing), summary(id, 1, 0, { ...nothing, trainSuccessArea: null })]);
    const { state, record } = promoteRung(three, MOUNTAIN_CAR, event(1, results));
    assert.deepEqual([...new Set(state.tasks.map((t) => t.candidateId))], ['a', 'b', 'c', 'd']);
    assert.ok(state.tasks.every((t) => t.targetSteps === 49_152));
    assert.deepEqual(state.finished, []);
    assert.ok(record.rung.standings.every((s) => s.promoted));
    // One candidate with a training success: the rest are still tied at 0 among themselves, and none is cut by id.
    const some = promoteRung(three, MOUNTAIN_CAR, event(1, [...results.slice(2), summary('a', 0, 0, { ...nothing, trainSuccessArea: 0.01 }), summary('a', 1, 0, nothing)]));
    assert.deepEqual([...new Set(some.state.tasks.map((t) => t.candidateId))].sort(), ['a', 'b', 'c', 'd']);
  });

  it('cuts on the task\'s progress before any success, where the seeds agree on it, never on a reward\'s return', () => {
    // The one that crashes pays itself the most on the environment's reward: the race does not read it.
    const at = (progress: number) => ({ meanSuccessSteps: null, trainSuccessArea: null, progress, meanReturn: progress < -3 ? 900 : -100 });
    const results = [
      summary('lands', 0, 0, at(-0.20)), summary('lands', 1, 0, at(-0.35)), summary('lands', 2, 0, at(-0.28)),
      summary('hovers', 0, 0, at(-0.60)), summary('hovers', 1, 0, at(-0.10)), summary('hovers', 2, 0, at(-1.10)),
      summary('crashes', 0, 0, at(-4.10)), summary('crashes', 1, 0, at(-3.80)), summary('crashes', 2, 0, at(-4.55)),
    ];
    const { state } = promoteRung(parseSearchInput({ steps: 150_000, seeds: 3, racing: { eta: 3, rungs: 3 } }, { proposer: 'offline' }), getTask('LunarLander-v3'), event(1, results));
    // hovers' seeds spread too widely to tell it from lands; crashes is behind on every seed.
    assert.deepEqual([...new Set(state.tasks.map((t) => t.candidateId))], ['lands', 'hovers']);
    assert.deepEqual([...new Set(state.finished.map((s) => s.candidateId))], ['crashes']);
  });

  it('without racing hands every seed-run on as finished at the budget', () => {
    const { state } = promoteRung(config(false), MOUNTAIN_CAR, event(1, [summary('a', 0, 0.2), summary('b', 0, 0.9)]));
    assert.deepEqual([state.more, state.tasks.length, state.finished.map((s) => s.outcome)], [false, 0, ['trained', 'trained']]);
  });
});

describe('Function: compareRecords', () => {
  const record = (candidateId: string, success: number, outcome: 'trained' | 'stopped', rung?: number) => ({
    candidateId, generation: 1, success, meanSuccessSteps: 120, meanReturn: -120, seeds: [{ outcome }],
    stopped: rung === undefined ? null : { rung, rungs: 3, steps: 16_384, share: 0.11 },
  });
  it('ranks those trained to the budget first, then the stopped by the rung they reached, whatever their scores', () => {
    const order = [record('early', 0.95, 'stopped', 1), record('full', 0.4, 'trained'), record('later', 0.6, 'stopped', 2)]
      .sort((a, b) => compareRecords(a, b, 'fewer-steps')).map((r) => r.candidateId);
    assert.deepEqual(order, ['full', 'later', 'early']);
  });
});

describe('Function: how early a reward learned', () => {
  const update = (step: number, ended: number, succeeded: number): UpdateStats => ({
    step, meanReward: 0, trainSuccess: ended > 0 ? succeeded / ended : null, episodeLength: ended > 0 ? 100 : null, terms: {}, episodesEnded: ended, episodesSucceeded: succeeded,
  });

  it('measures only the episodes that ended: a rollout where none did borrows its neighbours\', never a 0', () => {
    const updates = [update(1, 4, 0), update(2, 0, 0), update(3, 4, 4), update(4, 0, 0)];
    assert.equal(trainSuccessArea(updates), (0 + 0.5 + 1 + 1) / 4);
    assert.equal(stepsToHalfSuccess(updates), 3);
    const series = trainSuccessSeries(Array.from({ length: 20 }, (_, k) => (k % 2 === 0 ? update(k, 2, 2) : update(k, 0, 0))));
    assert.equal(series.length, 10);
    assert.ok(series.every((x) => x === 1), `no made-up 0 where nothing ended: ${series.join(', ')}`);
  });

  it('says nothing when no training episode ended at all', () => {
    const updates = [update(1, 0, 0), update(2, 0, 0)];
    assert.equal(trainSuccessArea(updates), null);
    assert.equal(stepsToHalfSuccess(updates), null);
    assert.deepEqual(trainSuccessSeries(updates), []);
  });
});
