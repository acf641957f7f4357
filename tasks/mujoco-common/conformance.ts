/**
 * Conformance of a MuJoCo task against Gymnasium's own v5 code, on recordings in the golden format
 * (shared/golden/mujoco/README.md: native MuJoCo 2.2.2 under Gymnasium 1.4.0). Three checks, as
 * that README says the recordings allow:
 *
 * - logic, exactly: every recorded step is given to our environment as its next state (no physics),
 *   and its observation, reward, reward terms (v5's info names) and endings must be Gymnasium's;
 * - physics per step, where the two MuJoCo versions agree (no contacts): each step simulated from
 *   the recorded qpos, qvel and warm start, its next qpos and qvel within the task's tolerance;
 * - by distribution, where contact handling changed between 2.2 and 3.x: our episodes of the same
 *   policies (distribution.ts) against the recorded ones, returns, lengths and endings;
 * - where the observation or reward reads MuJoCo's last sub-step of a step (body and site
 *   positions, contact forces: sub-step.ts), those parts per step, simulated, within a tolerance,
 *   and left out of the exact logic check.
 */
import type { ConformanceCheck, ConformanceReport } from '../contract.ts';
import { RecordingSchema } from '../conformance.ts';
import { compareDistributions, type DistributionSpec } from './distribution.ts';
import type { MujocoEnv } from './mujoco-env.ts';
import { mujocoEpisode, policyName, type MujocoEpisode } from './recording.ts';
import { describeEntries, subStepCheck, type SubStepSpec } from './sub-step.ts';

export interface MujocoConformanceSpec {
  /** A fresh one-copy environment seeded with `seed` (the caller's task is prepared). */
  make: (seed: number) => MujocoEnv;
  /**
   * How the physics is checked: each step (with its tolerance on qpos and qvel; of one recorded
   * policy's episodes only, where `policy` names it), by distribution, or several of these.
   */
  physics: PhysicsSpec | readonly PhysicsSpec[];
  /** What the observation and reward read of MuJoCo's last sub-step, if anything (sub-step.ts). @default nothing */
  subStep?: SubStepSpec;
}

type PhysicsSpec = { check: 'per-step'; tolerance: number; policy?: string } | ({ check: 'distribution' } & DistributionSpec);

const maxAbs = (a: ArrayLike<number>, b: ArrayLike<number>): number => maxAbsOf(a, b, () => true);

/** The task's conformance check of a parsed recording. */
export function mujocoConformance(spec: MujocoConformanceSpec): (recording: unknown) => ConformanceReport {
  return (recording) => {
    const parsed = RecordingSchema.parse(recording);
    const episodes = parsed.episodes.map(mujocoEpisode);
    const steps = episodes.reduce((n, e) => n + e.steps.length, 0);
    const checks: ConformanceCheck[] = [logicCheck(spec, episodes)];
    for (const physics of [spec.physics].flat()) checks.push(physicsCheck(spec, physics, episodes));
    if (spec.subStep) checks.push(subStepCheck(spec.make, spec.subStep, episodes));
    return { episodes: episodes.length, steps, checks };
  };
}

function physicsCheck(spec: MujocoConformanceSpec, physics: PhysicsSpec, episodes: MujocoEpisode[]): ConformanceCheck {
  if (physics.check === 'distribution') return compareDistributions(spec.make, physics, episodes);
  if (physics.policy === undefined) return perStepCheck(spec, episodes, physics.tolerance);
  const chosen = episodes.filter((e) => policyName(e) === physics.policy);
  const check = perStepCheck(spec, chosen, physics.tolerance);
  return { ...check, detail: `the ${chosen.length} ${physics.policy} episodes: ${check.detail}` };
}

/**
 * Each recorded step given as our next state: observation, reward, terms and endings, exactly;
 * what reads the last sub-step (spec.subStep) left out.
 */
export function logicCheck(spec: Pick<MujocoConformanceSpec, 'make' | 'subStep'>, episodes: MujocoEpisode[]): ConformanceCheck {
  const worst = { obs: 0, reward: 0, terms: 0 };
  const skipped = new Set(spec.subStep?.obs ?? []);
  const exact = (k: number): boolean => !skipped.has(k);
  const subTerms = spec.subStep?.terms ?? {};
  const rewardExact = Object.keys(subTerms).length === 0;
  const endingsExact = spec.subStep?.endings !== true;
  let flags = 0;
  let first = '';
  const env = spec.make(0);
  try {
    env.autoReset = false;
    for (const episode of episodes) {
      env.setRecordedState(0, episode.initial_qpos, episode.initial_qvel);
      env.restartFromState(0);
      worst.obs = Math.max(worst.obs, maxAbsOf(env.obs, episode.initial_obs.map(Math.fround), exact));
      episode.steps.forEach((step, t) => {
        const before = t === 0 ? { qpos: episode.initial_qpos, qvel: episode.initial_qvel } : episode.steps[t - 1];
        env.setRecordedState(0, before.qpos, before.qvel);
        env.giveNextState(0, step.qpos, step.qvel);
        env.step(step.action);
        worst.obs = Math.max(worst.obs, maxAbsOf(env.finalObs, step.obs.map(Math.fround), exact));
        if (rewardExact) worst.reward = Math.max(worst.reward, Math.abs(env.reward[0] - step.reward));
        for (const [name, value] of Object.entries(env.info[0])) {
          if (!(name in subTerms)) worst.terms = Math.max(worst.terms, Math.abs(value - (step.info?.[name] ?? Number.NaN)));
        }
        if (endingsExact && ((env.terminated[0] === 1) !== step.terminated || (env.truncated[0] === 1) !== step.truncated)) {
          flags += 1;
          first ||= ` (first: seed ${episode.seed ?? '?'} step ${t + 1})`;
        }
      });
    }
  } finally {
    env.dispose();
  }
  const ok = worst.obs === 0 && worst.reward === 0 && worst.terms === 0 && flags === 0;
  const left = spec.subStep ? leftOut(spec.subStep) : '';
  return {
    check: 'logic', ok,
    detail: `from each recorded state, exactly: largest deviation of the observation (float32) ${worst.obs.toExponential(2)}, ` +
      `reward ${worst.reward.toExponential(2)}, reward terms ${worst.terms.toExponential(2)}; terminated/truncated differ on ${flags} steps${first}${left}`,
  };
}

/** The largest deviation over the entries `keep` selects. */
function maxAbsOf(a: ArrayLike<number>, b: ArrayLike<number>, keep: (k: number) => boolean): number {
  if (a.length !== b.length) return Infinity;
  let worst = 0;
  for (let k = 0; k < a.length; k++) if (keep(k)) worst = Math.max(worst, Math.abs(a[k] - b[k]));
  return worst;
}

/** What the logic check left to the last sub-step's check, in words. */
function leftOut(subStep: SubStepSpec): string {
  const parts = [
    subStep.obs.length > 0 ? `observation ${describeEntries(subStep.obs)}` : '',
    Object.keys(subStep.terms).length > 0 ? `the reward and ${Object.keys(subStep.terms).join(', ')}` : '',
    subStep.endings ? 'the endings' : '',
  ].filter((p) => p !== '');
  return ` (left to the last sub-step's check: ${parts.join(', ')})`;
}

/** Each step simulated from the recorded state before it (warm start included): the next qpos and qvel. */
export function perStepCheck(spec: Pick<MujocoConformanceSpec, 'make'>, episodes: MujocoEpisode[], tolerance: number): ConformanceCheck {
  let worst = 0;
  let where = '';
  const env = spec.make(0);
  try {
    env.autoReset = false;
    for (const episode of episodes) {
      episode.steps.forEach((step, t) => {
        const before = t === 0
          ? { qpos: episode.initial_qpos, qvel: episode.initial_qvel, qacc_warmstart: episode.initial_qacc_warmstart }
          : episode.steps[t - 1];
        env.setRecordedState(0, before.qpos, before.qvel, before.qacc_warmstart);
        env.step(step.action);
        const deviation = Math.max(maxAbs(env.qpos(0), step.qpos), maxAbs(env.qvel(0), step.qvel));
        if (deviation > worst) [worst, where] = [deviation, `seed ${episode.seed ?? '?'} step ${t + 1}`];
      });
    }
  } finally {
    env.dispose();
  }
  return {
    check: 'physics per step', ok: worst <= tolerance,
    detail: `each step from the recorded qpos, qvel and warm start: largest deviation of the next qpos and qvel ${worst.toExponential(2)}` +
      `${where ? ` (${where})` : ''}, tolerance ${tolerance}`,
  };
}
