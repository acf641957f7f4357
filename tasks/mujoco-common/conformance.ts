/**
 * Conformance of a MuJoCo task against Gymnasium's own v5 code, on recordings in the golden format
 * (shared/golden/mujoco/README.md: native MuJoCo 2.2.2 under Gymnasium 1.4.0; and the same episodes
 * on native MuJoCo 3.14.0, our engine's own version: bench/mujoco-native/record-gymnasium.py). The
 * recording's `source.mujoco` says which: on our engine's version the physics is checked per step
 * on every task (the spec's `sameVersion`), since the official native build and the WebAssembly
 * build step alike to rounding, contacts included; on 2.2.2 as that README says the recordings allow:
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
import { mujoco } from '../../physics/mujoco/engine.ts';
import type { ConformanceCheck, ConformanceReport } from '../contract.ts';
import { RecordingSchema, type Recording } from '../conformance.ts';
import { compareDistributions, type DistributionSpec } from './distribution.ts';
import type { MujocoEnv } from './mujoco-env.ts';
import { mujocoEpisode, policyName, type MujocoEpisode } from './recording.ts';
import { subStepCheck, type SubStepSpec } from './sub-step.ts';
import { logicCheck } from './logic-check.ts';

export { logicCheck };

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
  /**
   * The physics and last sub-step's checks of a recording made on native MuJoCo of our engine's own
   * version (its `source.mujoco` names it), where every step agrees to rounding. @default those above
   */
  sameVersion?: Pick<MujocoConformanceSpec, 'physics' | 'subStep'>;
}

/**
 * Per step: 'max', the largest deviation of any step (where the two MuJoCo versions agree to
 * rounding); 'mean', the deviation's mean over the steps (where contacts part them on some steps,
 * by more than a broken port would on one, but not on most: Ant). @default 'max'
 */
type PerStepMeasure = 'max' | 'mean';
type PhysicsSpec = { check: 'per-step'; tolerance: number; policy?: string; measure?: PerStepMeasure } | ({ check: 'distribution' } & DistributionSpec);

const maxAbs = (a: ArrayLike<number>, b: ArrayLike<number>): number => maxAbsOf(a, b, () => true);

/** The task's conformance check of a parsed recording. */
export function mujocoConformance(spec: MujocoConformanceSpec): (recording: unknown) => ConformanceReport {
  return (recording) => {
    const parsed = RecordingSchema.parse(recording);
    const episodes = parsed.episodes.map(mujocoEpisode);
    const steps = episodes.reduce((n, e) => n + e.steps.length, 0);
    const recorded = recordedVersion(parsed);
    const ours = mujoco().mj_versionString();
    const same = recorded === ours ? spec.sameVersion : undefined;
    const chosen: MujocoConformanceSpec = same === undefined ? spec : { make: spec.make, physics: same.physics, subStep: same.subStep };
    const checks: ConformanceCheck[] = [logicCheck(chosen, episodes)];
    for (const physics of [chosen.physics].flat()) checks.push(physicsCheck(chosen, physics, episodes));
    if (chosen.subStep) checks.push(subStepCheck(chosen.make, chosen.subStep, episodes));
    const engine = `recorded on MuJoCo ${recorded ?? '(a version it does not name)'}, ours is ${ours}` + (same === undefined ? '' : ': the checks for the same version');
    return { episodes: episodes.length, steps, checks, engine };
  };
}

/** Each recorded step simulated from the recorded qpos, qvel and warm start: the next qpos and qvel's largest deviation, where, and their sum over the steps. */
export function perStepDeviations(spec: Pick<MujocoConformanceSpec, 'make'>, episodes: MujocoEpisode[]): { worst: number; where: string; sum: number; steps: number } {
  let [worst, sum, steps] = [0, 0, 0];
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
        [sum, steps] = [sum + deviation, steps + 1];
      });
    }
  } finally {
    env.dispose();
  }
  return { worst, where, sum, steps };
}

/** The MuJoCo version a recording names in its source ("MuJoCo 3.14.0 (the official mujoco wheel)"), or null. */
export function recordedVersion(recording: Pick<Recording, 'source'>): string | null {
  const source = recording.source;
  const text = typeof source === 'string' ? source : typeof source?.mujoco === 'string' ? source.mujoco : '';
  return /MuJoCo (\d+\.\d+\.\d+)/.exec(text)?.[1] ?? null;
}

function physicsCheck(spec: MujocoConformanceSpec, physics: PhysicsSpec, episodes: MujocoEpisode[]): ConformanceCheck {
  if (physics.check === 'distribution') return compareDistributions(spec.make, physics, episodes);
  if (physics.policy === undefined) return perStepCheck(spec, episodes, physics.tolerance, physics.measure);
  const chosen = episodes.filter((e) => policyName(e) === physics.policy);
  const check = perStepCheck(spec, chosen, physics.tolerance, physics.measure);
  return { ...check, detail: `the ${chosen.length} ${physics.policy} episodes: ${check.detail}` };
}

/** The largest deviation over the entries `keep` selects. */
function maxAbsOf(a: ArrayLike<number>, b: ArrayLike<number>, keep: (k: number) => boolean): number {
  if (a.length !== b.length) return Infinity;
  let worst = 0;
  for (let k = 0; k < a.length; k++) if (keep(k)) worst = Math.max(worst, Math.abs(a[k] - b[k]));
  return worst;
}

/** Each step simulated from the recorded state before it (warm start included): the next qpos and qvel. */
export function perStepCheck(spec: Pick<MujocoConformanceSpec, 'make'>, episodes: MujocoEpisode[], tolerance: number, measure: PerStepMeasure = 'max'): ConformanceCheck {
  const { worst, where, sum, steps } = perStepDeviations(spec, episodes);
  const largest = `largest deviation of the next qpos and qvel ${worst.toExponential(2)}${where ? ` (${where})` : ''}`;
  if (measure === 'mean') {
    const mean = sum / Math.max(1, steps);
    return {
      check: 'physics per step', ok: mean <= tolerance,
      detail: `each step from the recorded qpos, qvel and warm start: mean over the steps of the next qpos and qvel's deviation ${mean.toExponential(2)}, ` +
        `tolerance ${tolerance} (${largest})`,
    };
  }
  return { check: 'physics per step', ok: worst <= tolerance, detail: `each step from the recorded qpos, qvel and warm start: ${largest}, tolerance ${tolerance}` };
}
