/**
 * A declared robot's physics against native MuJoCo in C on the same XML (bench/declared-native.ts
 * runs the native side: bench/mujoco-native/step-native.c). Only the physics is compared: the XML,
 * the frame skip and the task's own resets; what the folder computes from the state (observation,
 * action map, termination) is its own code, tested apart.
 *
 * - Our free runs: episodes from the task's resets (its seeds), uniformly random ctrl in each
 *   actuator's ctrlrange, a fixed number of steps, no termination.
 * - Per step: native takes each of our steps from our state before it (qpos, qvel, warm start) with
 *   our ctrl; the next qpos and qvel are compared. Steps are told apart by contact: none in either
 *   engine's sub-steps (where the two versions agree to rounding), or some.
 * - By distribution, where contacts part them: native's own free runs from other resets and other
 *   ctrl (independent samples) against ours, rank tests on where each episode ends (the root's x,
 *   y, z and how upright it is) and on its mean speed.
 *
 * Everything on our side is made again from seeds, so a recording of native's outputs (and a
 * digest of the inputs it was given) is all a test needs.
 */
import { createHash } from 'node:crypto';
import { Random } from '../../../core/random.ts';
import { MujocoCopies } from '../../../physics/mujoco/copies.ts';
import { mujoco } from '../../../physics/mujoco/engine.ts';
import type { Task } from '../../contract.ts';

/** What the check makes environments with: a registered task, or a spec's makeEnv as `gymnasiumEnv`. */
export type EnvMaker = Pick<Task, 'gymnasiumEnv' | 'id'>;
import { MujocoEnv, type RobotSpec } from '../mujoco-env.ts';
import { rankSumPValue } from '../rank-test.ts';

export interface RunPlan {
  /** Episodes of each side (ours, and native's own for the distribution). */
  episodes: number;
  /** Of our episodes, the first this many are stepped by native too, step by step. */
  perStepEpisodes: number;
  steps: number;
  /** Our episodes reset from seeds seed..seed+episodes-1, native's from the next `episodes` seeds. */
  seed: number;
}

/** One step's end: next qpos, qvel and warm start, and the most contacts over its sub-steps. */
export interface StepEnd { qpos: number[]; qvel: number[]; warm: number[]; ncon: number }

export interface FreeRun { qpos0: number[]; qvel0: number[]; ctrls: number[][]; ends: StepEnd[] }

/** The task's robot (a MujocoEnv: a declared robot or Gymnasium's), made once for its spec and start states. */
export function robotOf(task: EnvMaker): RobotSpec {
  const env = task.gymnasiumEnv(1, 0);
  try {
    if (!(env instanceof MujocoEnv)) throw new Error(`${task.id} is not a MuJoCo task`);
    return env.robotSpec;
  } finally {
    env.dispose?.();
  }
}

/** The task's reset of `seed`: its first episode's qpos and qvel. */
function start(task: EnvMaker, seed: number): { qpos: number[]; qvel: number[] } {
  const env = task.gymnasiumEnv(1, seed) as MujocoEnv;
  try {
    return { qpos: Array.from(env.qpos(0)), qvel: Array.from(env.qvel(0)) };
  } finally {
    env.dispose();
  }
}

/** Ctrl uniform in each actuator's ctrlrange (±1 where it has none), from the episode's own generator. */
function randomCtrls(copies: MujocoCopies, seed: number, steps: number): number[][] {
  const range = copies.model.actuator_ctrlrange as Float64Array;
  const rng = new Random(1_000_000 + seed);
  return Array.from({ length: steps }, () => Array.from({ length: copies.nu }, (_, u) => {
    const [lo, hi] = range[2 * u] < range[2 * u + 1] ? [range[2 * u], range[2 * u + 1]] : [-1, 1];
    return rng.uniform(lo, hi);
  }));
}

/** One step as step-native.c takes it: ctrl, frame-skip mj_steps, the most contacts seen. */
function stepOnce(copies: MujocoCopies, ctrl: number[], frameSkip: number): StepEnd {
  const mj = mujoco();
  const data = copies.data[0];
  (data.ctrl as Float64Array).set(ctrl);
  let ncon = 0;
  for (let k = 0; k < frameSkip; k++) {
    mj.mj_step(copies.model, data);
    ncon = Math.max(ncon, data.ncon);
  }
  return { qpos: Array.from(copies.qpos(0)), qvel: Array.from(copies.qvel(0)), warm: Array.from(data.qacc_warmstart as Float64Array), ncon };
}

export function withCopies<T>(robot: RobotSpec, run: (copies: MujocoCopies) => T): T {
  const copies = new MujocoCopies({ xml: robot.xml, files: robot.files, copies: 1, frameSkip: robot.frameSkip, rnePostConstraint: false });
  try {
    return run(copies);
  } finally {
    copies.dispose();
  }
}

/** Free runs from the seeds `first`.. (ours, or the inputs native's own runs are given). */
export function freeRuns(task: EnvMaker, robot: RobotSpec, first: number, plan: RunPlan, simulate: boolean): FreeRun[] {
  return withCopies(robot, (copies) => Array.from({ length: plan.episodes }, (_, e) => {
    const { qpos, qvel } = start(task, first + e);
    const ctrls = randomCtrls(copies, first + e, plan.steps);
    if (!simulate) return { qpos0: qpos, qvel0: qvel, ctrls, ends: [] };
    copies.resetData(0);
    copies.setState(0, qpos, qvel);
    return { qpos0: qpos, qvel0: qvel, ctrls, ends: ctrls.map((c) => stepOnce(copies, c, robot.frameSkip)) };
  }));
}

const line = (values: readonly number[]): string => values.map((v) => v.toPrecision(17)).join(' ');

/** step-native.c's commands: each of our steps from our state before it ('S'), then native's own free runs ('R', 'C'). */
export function nativeCommands(ours: FreeRun[], theirs: FreeRun[]): string {
  const out: string[] = [];
  for (const run of ours) {
    run.ends.forEach((_, t) => {
      const before = t === 0 ? null : run.ends[t - 1];
      // The first step's warm start: what mj_forward leaves after a reset, zeros (as our reset's).
      const warm = before?.warm ?? run.qvel0.map(() => 0);
      out.push(`S ${line(before?.qpos ?? run.qpos0)} ${line(before?.qvel ?? run.qvel0)} ${line(warm)} ${line(run.ctrls[t])}`);
    });
  }
  for (const run of theirs) {
    out.push(`R ${line(run.qpos0)} ${line(run.qvel0)}`);
    for (const c of run.ctrls) out.push(`C ${line(c)}`);
  }
  return `${out.join('\n')}\n`;
}

/** SHA-256 of the commands: a recording is of these inputs and no others. */
export const inputDigest = (commands: string): string => createHash('sha256').update(commands).digest('hex');

/** step-native.c's output lines as step ends. */
export function parseEnds(text: string, nq: number, nv: number): StepEnd[] {
  return text.trim().split('\n').filter((l) => !l.startsWith('version')).map((l) => {
    const v = l.trim().split(/\s+/).map(Number);
    return { qpos: v.slice(0, nq), qvel: v.slice(nq, nq + nv), warm: v.slice(nq + nv, nq + 2 * nv), ncon: v[nq + 2 * nv] };
  });
}

export interface PerStep { steps: number; worst: number; median: number; where: string }

/** The next qpos and qvel's largest deviation per step, over steps without contact and with. */
export function perStep(ours: FreeRun[], native: StepEnd[]): { noContact: PerStep; contact: PerStep } {
  const groups = { noContact: [] as Array<[number, string]>, contact: [] as Array<[number, string]> };
  let k = 0;
  ours.forEach((run, e) => run.ends.forEach((end, t) => {
    const theirs = native[k++];
    const deviation = Math.max(...end.qpos.map((q, i) => Math.abs(q - theirs.qpos[i])), ...end.qvel.map((q, i) => Math.abs(q - theirs.qvel[i])));
    groups[end.ncon === 0 && theirs.ncon === 0 ? 'noContact' : 'contact'].push([deviation, `episode ${e} step ${t + 1}`]);
  }));
  const summary = (g: Array<[number, string]>): PerStep => {
    const sorted = g.map((d) => d[0]).sort((a, b) => a - b);
    const worst = g.reduce((w, d) => (d[0] > w[0] ? d : w), [0, '']);
    return { steps: g.length, worst: worst[0], median: sorted[Math.floor(sorted.length / 2)] ?? 0, where: worst[1] };
  };
  return { noContact: summary(groups.noContact), contact: summary(groups.contact) };
}

/** What the distribution compares of an episode: where the root ends (x, y, z, how upright) and the mean speed. */
export type EpisodeStats = Record<'x' | 'y' | 'z' | 'upright' | 'speed', number>;

export function episodeStats(runs: Array<{ ends: StepEnd[] }>, rootQpos: number): EpisodeStats[] {
  return runs.map(({ ends }) => {
    const q = ends[ends.length - 1].qpos;
    const [w, x, y] = q.slice(rootQpos + 3, rootQpos + 6);
    const speed = ends.reduce((s, end) => s + Math.hypot(...end.qvel), 0) / ends.length;
    // The root's z axis, up (1) or down (-1): 1 - 2(x² + y²) of its quaternion.
    return { x: q[rootQpos], y: q[rootQpos + 1], z: q[rootQpos + 2], upright: w === undefined ? 1 : 1 - 2 * (x * x + y * y), speed };
  });
}

export interface DistributionResult { quantity: keyof EpisodeStats; ours: number; theirs: number; p: number }

/** Rank tests of each quantity; each at `falseAlarm` over their number (Bonferroni). */
export function compareStats(ours: EpisodeStats[], theirs: EpisodeStats[]): DistributionResult[] {
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return (['x', 'y', 'z', 'upright', 'speed'] as const).map((quantity) => {
    const a = ours.map((s) => s[quantity]);
    const b = theirs.map((s) => s[quantity]);
    return { quantity, ours: mean(a), theirs: mean(b), p: rankSumPValue(a, b) };
  });
}

/** The first free joint's qpos address (the root the statistics follow), 0 without one. */
export function rootQposOf(robot: RobotSpec): number {
  return withCopies(robot, (copies) => {
    const types = copies.model.jnt_type as Int32Array;
    const j = types.findIndex((t) => t === 0);
    return j < 0 ? 0 : (copies.model.jnt_qposadr as Int32Array)[j];
  });
}
