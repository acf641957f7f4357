/**
 * A declared robot's physics here (MuJoCo 3.14's WebAssembly build) against native MuJoCo in C on
 * the same XML (tasks/mujoco-common/declared/native-check.ts says what is compared): compiles
 * bench/mujoco-native/step-native.c against a native build, feeds it our steps and its own free
 * runs, and prints the per-step deviations (without contact and with) and the distribution's rank
 * tests. With --record FILE it writes what a test needs to check the same again without native
 * MuJoCo (test/declared-native.test.ts): native's outputs, and a digest of the inputs.
 *
 *   EUREKA_TASK_PATH=DIR npx tsx bench/declared-native.ts --task ID [--episodes 40] [--per-step-episodes 6]
 *     [--steps 150] [--seed 500] [--native DIR] [--record FILE.json.gz]
 *
 * Native is Debian's libmujoco-dev (2.2.2: apt-get install -y libmujoco-dev) unless --native names
 * a folder holding include/mujoco/mujoco.h and libmujoco.so.* (the official Python wheel's
 * `mujoco/` folder holds 3.14.0's: pip download --no-deps mujoco==3.14.0, then unzip it).
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { prepareTask } from '../tasks/registry.ts';
import {
  compareStats, episodeStats, freeRuns, inputDigest, nativeCommands, parseEnds, perStep, robotOf, rootQposOf, type RunPlan,
} from '../tasks/mujoco-common/declared/native-check.ts';
import { wheelLink } from './mujoco-native/native-build.ts';
import { argError, benchArgs } from './args.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = benchArgs(import.meta.url, {
  options: {
    task: { type: 'string' }, episodes: { type: 'string', default: '40' }, 'per-step-episodes': { type: 'string', default: '6' }, steps: { type: 'string', default: '150' },
    seed: { type: 'string', default: '500' }, native: { type: 'string' }, record: { type: 'string' },
  },
});
if (args.task === undefined) argError(import.meta.url, 'needs --task ID: a declared MuJoCo task (its folder on EUREKA_TASK_PATH)');

const task = await prepareTask(args.task);
const robot = robotOf(task);
if (robot.files === undefined) throw new Error(`${task.id} is no declared robot (its XML has no folder to load)`);
const plan: RunPlan = { episodes: Number(args.episodes), perStepEpisodes: Number(args['per-step-episodes']), steps: Number(args.steps), seed: Number(args.seed) };

const dir = await mkdtemp(join(tmpdir(), 'eureka-declared-native-'));
try {
  for (const [name, bytes] of robot.files.files) {
    await mkdir(dirname(join(dir, 'model', name)), { recursive: true });
    await writeFile(join(dir, 'model', name), bytes);
  }
  const binary = join(dir, 'step-native');
  const source = join(root, 'bench', 'mujoco-native', 'step-native.c');
  const link = args.native === undefined ? ['-lmujoco'] : await wheelLink(resolve(args.native));
  await promisify(execFile)('cc', ['-O2', '-o', binary, source, ...link]);

  const ours = freeRuns(task, robot, plan.seed, plan, true);
  const theirs = freeRuns(task, robot, plan.seed + plan.episodes, plan, false);
  const stepped = ours.slice(0, plan.perStepEpisodes);
  const commands = nativeCommands(stepped, theirs);
  const output = await runNative(binary, [join(dir, 'model', robot.files.main), String(robot.frameSkip)], commands);
  const version = output.match(/^version (.+)$/m)?.[1] ?? '?';
  const ends = parseEnds(output, ours[0].qpos0.length, ours[0].qvel0.length);
  const steps = plan.perStepEpisodes * plan.steps;
  const native = { perStep: ends.slice(0, steps), runs: Array.from({ length: plan.episodes }, (_, e) => ({ ends: ends.slice(steps + e * plan.steps, steps + (e + 1) * plan.steps) })) };
  const rootQpos = rootQposOf(robot);
  const stats = { ours: episodeStats(ours, rootQpos), theirs: episodeStats(native.runs, rootQpos) };
  const report = {
    task: task.id, native: version, plan, frameSkip: robot.frameSkip,
    perStep: perStep(stepped, native.perStep),
    distribution: compareStats(stats.ours, stats.theirs),
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  if (args.record !== undefined) {
    // What the test needs: native's per-step ends (next qpos, qvel and contacts) and its own runs' statistics.
    const recording = {
      format: 'eureka-serverless/declared-native@1', task: task.id, native: version, made: `npx tsx bench/declared-native.ts --task ${task.id} --episodes ${plan.episodes} --per-step-episodes ${plan.perStepEpisodes} --steps ${plan.steps} --seed ${plan.seed}${args.native ? ' --native DIR' : ''}`,
      plan, inputs: inputDigest(commands),
      perStep: native.perStep.map((e) => ({ qpos: e.qpos, qvel: e.qvel, ncon: e.ncon })),
      theirStats: stats.theirs,
    };
    await writeFile(args.record, gzipSync(JSON.stringify(recording), { level: 9 }));
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}

function runNative(binary: string, argv: string[], input: string): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(binary, argv, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done(Buffer.concat(out).toString('utf8')) : fail(new Error(`step-native exited ${code}: ${Buffer.concat(err).toString('utf8')}`))));
    child.stdin.end(input);
  });
}
