/**
 * The physics by distribution, where MuJoCo 3.x solves contacts otherwise than the 2.2.2 the
 * recordings ran on (Hopper's foot): our environment plays the recorded policies (the recorder's
 * own, ported: mujoco_golden.py) on fresh seeds, and each policy's episode lengths, returns and share
 * of terminated endings must agree with the recorded ones within `standardErrors` standard errors of
 * the difference of the means. A recording capped at its first steps (`recorded_steps`) is compared
 * on returns over those steps. The episodes cannot be the same ones (our generator is not numpy's),
 * so only the distributions can agree.
 */
import { Random } from '../../core/random.ts';
import type { ConformanceCheck } from '../contract.ts';
import type { MujocoEnv } from './mujoco-env.ts';
import { policyName, type MujocoEpisode } from './recording.ts';

/** A recorded policy, ported: the action for copy 0 of the environment (its full state is at hand). */
export type RecordedPolicy = (env: MujocoEnv, rng: Random) => number[];

export interface DistributionSpec {
  /** By the recording's policy name (the text before its first colon: "uniform_random", "pd_posture"). */
  policies: Record<string, RecordedPolicy>;
  /** Our episodes per policy. */
  episodes: number;
  /** How far apart the means may be, in standard errors of their difference (chosen on recordings: the task says which). */
  standardErrors: number;
}

/** Seeds of our episodes: far from training, evaluation and bank seeds. */
const DISTRIBUTION_SEED = 9_000_000;

interface Sample { length: number[]; return: number[]; terminated: number[] }

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
const variance = (xs: number[]): number => {
  const m = mean(xs);
  return xs.reduce((a, x) => a + (x - m) ** 2, 0) / Math.max(1, xs.length - 1);
};

/** How many standard errors of their difference apart two samples' means are (0 for two equal constants). */
export function zScore(a: number[], b: number[]): number {
  const difference = Math.abs(mean(a) - mean(b));
  const se = Math.sqrt(variance(a) / a.length + variance(b) / b.length);
  return se > 0 ? difference / se : difference === 0 ? 0 : Infinity;
}

export function compareDistributions(make: (seed: number) => MujocoEnv, spec: DistributionSpec, episodes: MujocoEpisode[]): ConformanceCheck {
  const byPolicy = new Map<string, MujocoEpisode[]>();
  for (const e of episodes) {
    const name = policyName(e);
    byPolicy.set(name, [...(byPolicy.get(name) ?? []), e]);
  }
  const lines: string[] = [];
  let ok = true;
  let seedOffset = 0;
  for (const [name, recorded] of byPolicy) {
    const policy = spec.policies[name];
    if (policy === undefined) {
      lines.push(`${name}: no port of this policy, not compared`);
      continue;
    }
    // Episodes recorded only in part are compared on returns over the recorded steps.
    const cap = Math.min(...recorded.map((e) => (Number(e.recorded_steps ?? e.steps.length) < Number(e.episode_length ?? e.steps.length) ? e.steps.length : Infinity)));
    const theirs: Sample = {
      length: recorded.map((e) => Number(e.episode_length ?? e.steps.length)),
      return: recorded.map((e) => e.steps.slice(0, Number.isFinite(cap) ? cap : undefined).reduce((a, s) => a + s.reward, 0)),
      terminated: recorded.map((e) => (e.ending === 'terminated' || e.steps[e.steps.length - 1].terminated ? 1 : 0)),
    };
    const env = make(DISTRIBUTION_SEED + seedOffset++);
    let ours: Sample;
    try {
      ours = play(env, policy, spec.episodes, cap);
    } finally {
      env.dispose();
    }
    const z = { length: zScore(ours.length, theirs.length), return: zScore(ours.return, theirs.return), terminated: zScore(ours.terminated, theirs.terminated) };
    const worst = Math.max(z.length, z.return, z.terminated);
    ok &&= worst <= spec.standardErrors;
    const describe = (s: Sample) => `length ${mean(s.length).toFixed(1)}, return ${mean(s.return).toFixed(1)}${Number.isFinite(cap) ? ` (first ${cap} steps)` : ''}, ` +
      `terminated ${(100 * mean(s.terminated)).toFixed(0)}%`;
    lines.push(`${name}: ours (${ours.length.length}) ${describe(ours)}; recorded (${recorded.length}) ${describe(theirs)}; ` +
      `largest difference ${worst.toFixed(2)} standard errors (length ${z.length.toFixed(2)}, return ${z.return.toFixed(2)}, terminated ${z.terminated.toFixed(2)})`);
  }
  return { check: 'distribution', ok: ok && lines.length > 0, detail: `within ${spec.standardErrors} standard errors of the difference of the means, per policy:\n  ${lines.join('\n  ')}` };
}
