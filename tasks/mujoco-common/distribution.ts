/**
 * The physics by distribution, where MuJoCo 3.x solves contacts otherwise than the 2.2.2 the
 * recordings ran on (Hopper's foot): our environment plays the recorded policies (the recorder's
 * own, ported: mujoco_golden.py) on fresh seeds, and each policy's episode lengths, returns and
 * endings (terminated or not) must pass a rank test against the recorded ones (rank-test.ts): every
 * test at `falseAlarm` over the number of tests, so that the whole check raises a false alarm at
 * most that often. A recording capped at its first steps (`recorded_steps`) is compared on returns
 * over those steps. The episodes cannot be the same ones (our generator is not numpy's), so only
 * the distributions can agree.
 *
 * It judges nothing it cannot: a policy recorded fewer than MIN_RECORDED times is "too few to
 * judge", a recorded policy with no port is "not compared", and either fails the check by name.
 */
import { Random } from '../../core/random.ts';
import type { ConformanceCheck } from '../contract.ts';
import type { MujocoEnv } from './mujoco-env.ts';
import { policyName, type MujocoEpisode } from './recording.ts';
import { rankSumPValue } from './rank-test.ts';

/** A recorded policy, ported: the action for copy 0 of the environment (its full state is at hand). */
export type RecordedPolicy = (env: MujocoEnv, rng: Random) => number[];

export interface DistributionSpec {
  /** By the recording's policy name (the text before its first colon: "uniform_random", "pd_posture"). */
  policies: Record<string, RecordedPolicy>;
  /** Our episodes per policy. */
  episodes: number;
  /**
   * How often the whole check may fail a conforming port: each of its rank tests (three a policy)
   * at this over their number. Measured by resampling the recordings against themselves
   * (bench/distribution-false-alarm.ts).
   */
  falseAlarm: number;
}

/**
 * The fewest recorded episodes of a policy the check judges. The rank tests hold their false-alarm
 * rate at any size, but below this they find too little to be evidence either way: one test at the
 * check's level (0.01 over 6 tests) tells 40 normal values from 10 shifted by two standard
 * deviations in 97% of draws, from 5 in 64%, from the golden files' 3 in 33%
 * (bench/distribution-false-alarm.ts).
 */
export const MIN_RECORDED = 10;

/** Seeds of our episodes: far from training, evaluation and bank seeds. */
const DISTRIBUTION_SEED = 9_000_000;

export interface Sample { length: number[]; return: number[]; terminated: number[] }

/** The uniform random policy of the recordings: each action entry uniform in its box, as float32. */
export function uniformRandom(low: readonly number[], high: readonly number[]): RecordedPolicy {
  return (_env, rng) => low.map((lo, k) => Math.fround(rng.uniform(lo, high[k])));
}

/** `episodes` episodes of one policy, one after another on one copy (it resets itself between them). */
function play(env: MujocoEnv, policy: RecordedPolicy, episodes: number, cap: number): Sample {
  const sample: Sample = { length: [], return: [], terminated: [] };
  const rng = new Random(DISTRIBUTION_SEED + 1);
  let [length, total] = [0, 0];
  while (sample.length.length < episodes) {
    env.step(policy(env, rng));
    length += 1;
    if (length <= cap) total += env.reward[0];
    if (env.terminated[0] === 1 || env.truncated[0] === 1) {
      sample.length.push(length);
      sample.return.push(total);
      sample.terminated.push(env.terminated[0]);
      [length, total] = [0, 0];
    }
  }
  return sample;
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

const QUANTITIES = ['length', 'return', 'terminated'] as const;

export function compareDistributions(make: (seed: number) => MujocoEnv, spec: DistributionSpec, episodes: MujocoEpisode[]): ConformanceCheck {
  const byPolicy = new Map<string, MujocoEpisode[]>();
  for (const e of episodes) {
    const name = policyName(e);
    byPolicy.set(name, [...(byPolicy.get(name) ?? []), e]);
  }
  // Bonferroni: the whole check's false-alarm rate at most spec.falseAlarm.
  const level = spec.falseAlarm / (QUANTITIES.length * byPolicy.size);
  const lines: string[] = [];
  let ok = byPolicy.size > 0;
  let seedOffset = 0;
  for (const [name, recorded] of byPolicy) {
    const policy = spec.policies[name];
    if (policy === undefined) {
      ok = false;
      lines.push(`${name}: NOT COMPARED: no port of this policy (${recorded.length} recorded episodes)`);
      continue;
    }
    if (recorded.length < MIN_RECORDED) {
      ok = false;
      lines.push(`${name}: TOO FEW TO JUDGE: ${recorded.length} recorded episodes, at least ${MIN_RECORDED} needed`);
      continue;
    }
    // Episodes recorded only in part are compared on returns over the recorded steps.
    const cap = Math.min(...recorded.map((e) => (Number(e.recorded_steps ?? e.steps.length) < Number(e.episode_length ?? e.steps.length) ? e.steps.length : Infinity)));
    const theirs = recordedSample(recorded, cap);
    const env = make(DISTRIBUTION_SEED + seedOffset++);
    let ours: Sample;
    try {
      ours = play(env, policy, spec.episodes, cap);
    } finally {
      env.dispose();
    }
    const p = Object.fromEntries(QUANTITIES.map((q) => [q, rankSumPValue(ours[q], theirs[q])])) as Record<keyof Sample, number>;
    const least = Math.min(p.length, p.return, p.terminated);
    ok &&= least >= level;
    const describe = (s: Sample) => `length ${mean(s.length).toFixed(1)}, return ${mean(s.return).toFixed(1)}${Number.isFinite(cap) ? ` (first ${cap} steps)` : ''}, ` +
      `terminated ${(100 * mean(s.terminated)).toFixed(0)}%`;
    lines.push(`${name}: ours (${ours.length.length}) ${describe(ours)}; recorded (${recorded.length}) ${describe(theirs)}; ` +
      `smallest p ${least.toFixed(4)}${least < level ? ' (BELOW)' : ''} (length ${p.length.toFixed(4)}, return ${p.return.toFixed(4)}, terminated ${p.terminated.toFixed(4)})`);
  }
  return {
    check: 'distribution', ok,
    detail: `rank tests (Wilcoxon rank sum, permutation p-values) of lengths, returns and endings, each at p >= ${formatLevel(level)} ` +
      `(a false alarm at most ${spec.falseAlarm} over the check), per policy (at least ${MIN_RECORDED} recorded episodes each):\n  ${lines.join('\n  ')}`,
  };
}

/** The recorded episodes as a sample: lengths, returns over the first `cap` steps, endings. */
export function recordedSample(recorded: MujocoEpisode[], cap: number): Sample {
  return {
    length: recorded.map((e) => Number(e.episode_length ?? e.steps.length)),
    return: recorded.map((e) => e.steps.slice(0, Number.isFinite(cap) ? cap : undefined).reduce((a, s) => a + s.reward, 0)),
    terminated: recorded.map((e) => (e.ending === 'terminated' || e.steps[e.steps.length - 1].terminated ? 1 : 0)),
  };
}

const formatLevel = (level: number): string => Number(level.toPrecision(2)).toString();
