/**
 * MuJoCo's WebAssembly build against native MuJoCo in C on the same XML in the same run:
 * environment steps per CPU-second of every MuJoCo task, ours (bench/env-speed.ts: our environment,
 * 16 copies, random actions) and native (bench/mujoco-native/env-speed.c, compiled here against each
 * native build: the same frame skip, random controls and resets as often as our random episodes end;
 * for a declared robot its XML's folder, its reset keyframe and its actions' map to ctrl),
 * in alternating rounds in fresh processes, medians of three. The natives: the official 3.14.0
 * build, our engine's own version (`--native DIR`: the wheel's mujoco/ folder,
 * bench/mujoco-native/native-build.ts), the goal's reference; and Debian's 2.2.2 beside it. Below 0.8
 * of the same version (of 2.2.2 where no other is given), a profile of ours says where the time
 * goes: MuJoCo's own work in WebAssembly, the bindings' JavaScript, our environment's code, the
 * garbage collector.
 *
 * `npx tsx bench/mujoco-speed.ts [--task ID] [--native DIR]` (npm run bench runs it for every MuJoCo task).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { mujoco } from '../physics/mujoco/engine.ts';
import type { Task } from '../tasks/contract.ts';
import { MujocoEnv, type RobotSpec } from '../tasks/mujoco-common/mujoco-env.ts';
import { TASKS, prepareTask } from '../tasks/registry.ts';
import { compileAgainst, type NativeBuild } from './mujoco-native/native-build.ts';
import { profileShares } from './mujoco-profile.ts';
import { benchArgs } from './args.ts';

const run = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const GOAL = 0.8;

/** One native build's speed on a task. */
export interface NativeSpeed {
  version: string;
  label: string;
  stepsPerSecond: number;
  /** Ours over it. */
  ratio: number;
}

export interface MujocoSpeed {
  task: string;
  ours: number;
  /** Each native build that compiled and ran, in the order given. */
  natives: NativeSpeed[];
  /** Against native MuJoCo of our engine's version, the goal's reference; null without it. */
  sameVersion: NativeSpeed | null;
  /** Where our time goes, when below the goal: shares of the CPU profile by kind. */
  profile: Record<string, number> | null;
  /** Why a build is missing. */
  reasons: string[];
}

/** The MuJoCo tasks: those whose environment is a MujocoEnv. */
export async function mujocoTasks(): Promise<Array<{ task: Task; env: MujocoEnv }>> {
  const out = [];
  for (const t of TASKS) {
    const task = await prepareTask(t.id);
    const env = task.gymnasiumEnv(1, 0);
    if (env instanceof MujocoEnv) out.push({ task, env });
    else env.dispose?.();
  }
  return out;
}

async function ours(task: Task, profileDir?: string): Promise<{ stepsPerSecond: number; meanEpisode: number }> {
  const prof = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const { stdout } = await run(process.execPath, [...prof, '--import', 'tsx', join(root, 'bench', 'env-speed.ts'), '--task', task.id, '--ms', '2000'], { cwd: root });
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as { stepsPerSecond: number; meanEpisode: number };
}

export async function mujocoSpeed(task: Task, env: MujocoEnv, builds: readonly NativeBuild[]): Promise<MujocoSpeed> {
  const dir = await mkdtemp(join(tmpdir(), 'eureka-mujoco-speed-'));
  try {
    const spec = env.robotSpec;
    const xml = await writeModel(dir, spec);
    // A declared robot starts at its keyframe and is driven about it, as our environment does it.
    const declared = spec.native === undefined ? [] : [String(spec.native.keyframe), spec.native.actions.map((a) => `${a.actuator}:${a.offset}:${a.scale}`).join(',')];
    const reasons: string[] = [];
    const binaries: Array<{ build: NativeBuild; binary: string }> = [];
    for (const [k, build] of builds.entries()) {
      const binary = join(dir, `env-speed-${k}`);
      const failed = await compileAgainst(join(root, 'bench', 'mujoco-native', 'env-speed.c'), binary, build);
      if (failed === null) binaries.push({ build, binary });
      else reasons.push(`no native MuJoCo from ${failed}`);
    }
    const mine: number[] = [];
    const theirs: number[][] = binaries.map(() => []);
    const versions: string[] = binaries.map(() => '?');
    for (let round = 0; round < 3; round++) {
      const o = await ours(task);
      mine.push(o.stepsPerSecond);
      // The same work as ours: mj_rnePostConstraint after the steps where the task's observation reads contact forces.
      const rne = spec.rnePostConstraint ?? true ? '1' : '0';
      for (const [k, { binary }] of binaries.entries()) {
        const { stdout } = await run(binary, [xml, String(spec.frameSkip), String(Math.max(1, o.meanEpisode)), '2', rne, ...declared]);
        const native = JSON.parse(stdout) as { stepsPerSecond: number; version: string };
        theirs[k].push(native.stepsPerSecond);
        versions[k] = native.version;
      }
    }
    const median = (v: number[]): number => [...v].sort((a, b) => a - b)[1];
    const natives = binaries.map(({ build }, k) => ({ version: versions[k], label: build.label, stepsPerSecond: median(theirs[k]), ratio: median(mine) / median(theirs[k]) }));
    const sameVersion = natives.find((n) => n.version === mujoco().mj_versionString()) ?? null;
    const reference = sameVersion ?? natives[0];
    let profile: Record<string, number> | null = null;
    if (reference !== undefined && reference.ratio < GOAL) {
      const profiles = join(dir, 'profile');
      await ours(task, profiles);
      const file = (await readdir(profiles)).find((f) => f.endsWith('.cpuprofile'));
      if (file) profile = profileShares(JSON.parse(await readFile(join(profiles, file), 'utf8')));
    }
    return { task: task.id, ours: median(mine), natives, sameVersion, profile, reasons };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The model where native MuJoCo reads it, in `dir`/model/: Gymnasium's XML as one file, or a
 * declared robot's folder with its includes and assets. Returns the main file's path.
 */
export async function writeModel(dir: string, spec: RobotSpec): Promise<string> {
  const files = spec.files ?? { main: 'model.xml', files: new Map([['model.xml', new TextEncoder().encode(spec.xml)]]) };
  for (const [name, bytes] of files.files) {
    await mkdir(dirname(join(dir, 'model', name)), { recursive: true });
    await writeFile(join(dir, 'model', name), bytes);
  }
  return join(dir, 'model', files.main);
}

if (process.argv[1]?.endsWith('mujoco-speed.ts')) {
  // Parsed only when run: the benches that import mujocoTasks and mujocoSpeed read their own command lines.
  const { values: args } = benchArgs(import.meta.url, { options: { task: { type: 'string' }, native: { type: 'string' } } });
  const { nativeBuilds } = await import('./mujoco-native/native-build.ts');
  const builds = await nativeBuilds(args.native);
  const only = args.task;
  for (const { task, env } of await mujocoTasks()) {
    env.dispose?.();
    if (only !== undefined && task.id !== only) continue;
    const s = await mujocoSpeed(task, env, builds);
    process.stdout.write(`${JSON.stringify(s)}\n`);
  }
}
