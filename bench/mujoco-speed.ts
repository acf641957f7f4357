/**
 * MuJoCo's WebAssembly build against native MuJoCo in C (Debian's libmujoco-dev, 2.2.2), on the
 * same XML in the same run: environment steps per CPU-second of every MuJoCo task, ours
 * (bench/env-speed.ts: our environment, 16 copies, random actions) and native
 * (bench/mujoco-native/env-speed.c, compiled here: the same frame skip, random controls and resets
 * as often as our random episodes end), in alternating rounds in fresh processes, medians of three.
 * Below 0.8 of native, a profile of ours says where the time goes: MuJoCo's own work in
 * WebAssembly, the bindings' JavaScript, our environment's code, the garbage collector; and the
 * bindings alone (a bare loop of mj_step, no environment) against native.
 *
 * `npx tsx bench/mujoco-speed.ts [--task ID]` (npm run bench runs it for every MuJoCo task).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Task } from '../tasks/contract.ts';
import { MujocoEnv } from '../tasks/mujoco-common/mujoco-env.ts';
import { TASKS, prepareTask } from '../tasks/registry.ts';
import { profileShares } from './mujoco-profile.ts';

const run = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const GOAL = 0.8;

export interface MujocoSpeed {
  task: string;
  ours: number;
  native: number | null;
  ratio: number | null;
  /** Where our time goes, when below the goal: shares of the CPU profile by kind. */
  profile: Record<string, number> | null;
  nativeVersion: string | null;
  reason?: string;
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

export async function mujocoSpeed(task: Task, env: MujocoEnv): Promise<MujocoSpeed> {
  const dir = await mkdtemp(join(tmpdir(), 'eureka-mujoco-speed-'));
  try {
    const spec = env.robotSpec;
    const xml = join(dir, 'model.xml');
    await writeFile(xml, spec.xml);
    const binary = join(dir, 'env-speed');
    try {
      await run('cc', ['-O2', '-o', binary, join(root, 'bench', 'mujoco-native', 'env-speed.c'), '-lmujoco']);
    } catch (error) {
      const first = await ours(task);
      return { task: task.id, ours: first.stepsPerSecond, native: null, ratio: null, profile: null, nativeVersion: null, reason: `no native MuJoCo (apt-get install -y libmujoco-dev): ${(error as Error).message.split('\n')[0]}` };
    }
    const mine: number[] = [];
    const theirs: number[] = [];
    let version = '';
    for (let round = 0; round < 3; round++) {
      const o = await ours(task);
      mine.push(o.stepsPerSecond);
      // The same work as ours: mj_rnePostConstraint after the steps where the task's observation reads contact forces.
      const rne = spec.rnePostConstraint ?? true ? '1' : '0';
      const { stdout } = await run(binary, [xml, String(spec.frameSkip), String(Math.max(1, o.meanEpisode)), '2', rne]);
      const native = JSON.parse(stdout) as { stepsPerSecond: number; version: string };
      theirs.push(native.stepsPerSecond);
      version = native.version;
    }
    const median = (v: number[]): number => v.sort((a, b) => a - b)[1];
    const ratio = median(mine) / median(theirs);
    let profile: Record<string, number> | null = null;
    if (ratio < GOAL) {
      const profiles = join(dir, 'profile');
      await ours(task, profiles);
      const file = (await readdir(profiles)).find((f) => f.endsWith('.cpuprofile'));
      if (file) profile = profileShares(JSON.parse(await readFile(join(profiles, file), 'utf8')));
    }
    return { task: task.id, ours: median(mine), native: median(theirs), ratio, profile, nativeVersion: version };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('mujoco-speed.ts')) {
  const only = process.argv.includes('--task') ? process.argv[process.argv.indexOf('--task') + 1] : undefined;
  for (const { task, env } of await mujocoTasks()) {
    env.dispose?.();
    if (only !== undefined && task.id !== only) continue;
    const s = await mujocoSpeed(task, env);
    process.stdout.write(`${JSON.stringify(s)}\n`);
  }
}
