/**
 * Issue 42, items 1 and 6: the distribution check judges only what it can. A recorded policy the
 * port does not know, or one recorded too few times, fails the check by name (it used to pass:
 * a "not compared" line counted as a comparison); the comparison is a rank test, whose p-values
 * hold for small, heavy-tailed and tied samples (bench/distribution-false-alarm.ts measures its
 * false alarms on the recordings resampled against themselves).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { Random } from '../core/random.ts';
import { recordingText } from '../tasks/conformance.ts';
import { prepareTask } from '../tasks/registry.ts';
import { compareDistributions, MIN_RECORDED, uniformRandom, type DistributionSpec } from '../tasks/mujoco-common/distribution.ts';
import { midRanks, PERMUTATIONS, rankSumPValue } from '../tasks/mujoco-common/rank-test.ts';
import { mujocoEpisode, type MujocoEpisode } from '../tasks/mujoco-common/recording.ts';
import { HopperEnv } from '../tasks/hopper/environment.ts';

const GOLDEN = new URL('../../shared/golden/mujoco/Hopper-v5.json.gz', import.meta.url).pathname;
const HELD_OUT = new URL('./fixtures/recordings/mujoco/Hopper-v5.held-out.json.gz', import.meta.url).pathname;
const episodesOf = (file: string): MujocoEpisode[] =>
  (JSON.parse(recordingText(readFileSync(file))) as { episodes: unknown[] }).episodes.map((e) => mujocoEpisode(e as MujocoEpisode));
const make = (seed: number) => new HopperEnv(1, seed);
/** Hopper's random policy only: its posture controller is left without a port on purpose. */
const RANDOM_ONLY: DistributionSpec = { policies: { uniform_random: uniformRandom([-1, -1, -1], [1, 1, 1]) }, episodes: 40, falseAlarm: 0.01 };

describe('The distribution check', () => {
  before(async () => {
    await prepareTask('Hopper-v5');
  });

  it('fails, by name, a recording whose only policy the port does not know: it compared nothing', () => {
    const episodes = episodesOf(HELD_OUT).filter((e) => e.policy?.startsWith('pd_posture'));
    const check = compareDistributions(make, RANDOM_ONLY, episodes);
    assert.equal(check.ok, false);
    assert.match(check.detail, /pd_posture: NOT COMPARED: no port of this policy \(15 recorded episodes\)/);
  });

  it('fails, by name, a recording that leaves one recorded policy out, though the other conforms', () => {
    const check = compareDistributions(make, RANDOM_ONLY, episodesOf(HELD_OUT));
    assert.equal(check.ok, false);
    assert.match(check.detail, /uniform_random: ours \(40\) .*; smallest p [\d.]+ \(length/);
    assert.doesNotMatch(check.detail, /BELOW/);
    assert.match(check.detail, /pd_posture: NOT COMPARED/);
  });

  it(`judges no policy recorded fewer than ${MIN_RECORDED} times: the golden file's three a policy are too few`, () => {
    const spec: DistributionSpec = { ...RANDOM_ONLY, policies: { ...RANDOM_ONLY.policies, pd_posture: () => [0, 0, 0] } };
    const check = compareDistributions(make, spec, episodesOf(GOLDEN));
    assert.equal(check.ok, false);
    assert.match(check.detail, /uniform_random: TOO FEW TO JUDGE: 3 recorded episodes, at least 10 needed/);
    assert.match(check.detail, /pd_posture: TOO FEW TO JUDGE: 3 recorded episodes/);
  });
});

describe('The rank test', () => {
  const rng = new Random(3);
  const heavy = (n: number, scale: number): number[] => Array.from({ length: n }, () => scale / (1 - rng.next()) ** 1.5);

  it('gives tied values their mean rank', () => {
    assert.deepEqual([...midRanks([5, 1, 5, 1000, 5])], [3, 1, 3, 5, 3]);
  });

  it('finds nothing between samples that are all one value, or the same values', () => {
    assert.equal(rankSumPValue([1000, 1000, 1000], [1000, 1000]), 1);
    const a = heavy(20, 1);
    assert.ok(rankSumPValue(a, [...a]) > 0.9);
  });

  it('tells two heavy-tailed samples apart by their order, not by a tail: a scale of 10 at 10 against 40', () => {
    const level = 0.01 / 6;
    assert.ok(rankSumPValue(heavy(40, 1), heavy(10, 10)) < level);
    // One huge value in a sample otherwise the same moves its rank, not the verdict.
    const same = heavy(40, 1);
    const other = [...heavy(9, 1), 1e9];
    assert.ok(rankSumPValue(same, other) > level);
  });

  it(`never gives a p-value below its resolution, 1/${PERMUTATIONS + 1}`, () => {
    assert.equal(rankSumPValue([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [100, 101, 102, 103, 104, 105, 106, 107, 108, 109]), 1 / (PERMUTATIONS + 1));
  });
});
