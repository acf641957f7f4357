/**
 * `npm run bench`: speed, measured beside its reference in the same run (DESIGN §8).
 *
 * 1. MountainCar-v0: one 150,000-step seed-run of the energy shaping, and the PyTorch reference
 *    trainer in this repository (bench/torch_ppo.py, CleanRL's PPO) on the same seed and budget,
 *    when /usr/bin/python3 has torch (apt-get install -y python3-torch python3-numpy): the ratio.
 * 2. The continuous trainer: Pendulum-v1 with the task's own PPO settings, against the reference's
 *    continuous PPO with the same settings: the ratio.
 * 3. Every task: its environment's steps per CPU-second (16 copies, random actions; the LunarLanders
 *    beside planck, the engine they ran on before) and one seed-run of the person's shaping at the
 *    task's default budget (skipped with --quick); the LunarLander-v3 seed-run's time as a multiple
 *    of the reference's MountainCar seed-run.
 * 3b. The MuJoCo tasks: environment steps per CPU-second against native MuJoCo in C on the same
 *    XML, 3.14.0 (the version of ours) and Debian's 2.2.2 (bench/mujoco-speed.ts; below 0.8 of the
 *    same version, a profile of where the time goes), the
 *    sandbox's share of their seed-run, and that seed-run as a multiple of the reference's MountainCar one.
 * 4. The trainer's minibatch step on LunarLander-v3's network at 64 and 512 rows
 *    (bench/minibatch.ts compares it with the other ways measured).
 * 5. The sandbox: the cost of one evaluate() of 2,048 transitions, its share of a seed-run, QuickJS's
 *    start-up (paid by every chunk, charged to no reward), the operations each task's baselines
 *    count per transition against the budget per step, and how long it takes to stop a reward that
 *    never returns and one that eats memory.
 *
 * Flags: --seed N (default 0), --quick, --task ID (repeatable: only these tasks in 3 and 3b), --native
 * DIR (native MuJoCo 3.14.0 for 3b: the official wheel's mujoco/ folder; or EUREKA_NATIVE_MUJOCO),
 * --json (one JSON object on stdout).
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sampleTransitions } from '../functions/train-seed/check-reward.ts';
import { ppoConfigFor } from '../core/ppo-config.ts';
import { Random } from '../core/random.ts';
import { initialParameters, networkFor } from '../functions/train-seed/network.ts';
import { layoutOf, openRewardSandbox, RewardFault } from '../functions/train-seed/sandbox.ts';
import { SANDBOX_CAPS } from '../infra/config.ts';
import { runSeed } from '../functions/train-seed/seed-run.ts';
import type { Task } from '../tasks/contract.ts';
import { planckLander } from './lunar-engines/lander-env.ts';
import { getTask, TASKS } from '../tasks/registry.ts';
import { measureStep, oursStep, warmUp } from './minibatch-ways.ts';
import { mujocoSpeed, mujocoTasks } from './mujoco-speed.ts';
import { nativeBuilds } from './mujoco-native/native-build.ts';
import { benchArgs } from './args.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PYTHON = '/usr/bin/python3';
const REFERENCE = resolve(root, 'bench', 'torch_ppo.py');
const { values: args } = benchArgs(import.meta.url, {
  options: { seed: { type: 'string' }, quick: { type: 'boolean' }, task: { type: 'string', multiple: true }, native: { type: 'string' }, json: { type: 'boolean' } },
});
const seed = Number(args.seed ?? 0) || 0;
const json = args.json === true;
const quick = args.quick === true;
const onlyTasks = args.task ?? [];
const chosen = (id: string): boolean => onlyTasks.length === 0 || onlyTasks.includes(id);
const log = (line: string): void => {
  if (!json) process.stdout.write(`${line}\n`);
};

interface ReferenceRun { train_s: number; success: number; steps_per_s: number }

async function hasTorch(): Promise<boolean> {
  try {
    await promisify(execFile)(PYTHON, ['-c', 'import torch, numpy']);
    return true;
  } catch {
    return false;
  }
}

async function reference(task: Task, steps: number): Promise<ReferenceRun> {
  const { seed: _seed, totalTimesteps: _steps, ...config } = ppoConfigFor(task, seed, steps);
  const { stdout } = await promisify(execFile)(PYTHON, [REFERENCE, '--task', task.id, '--steps', String(steps), '--seed', String(seed), '--config', JSON.stringify(config)], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as ReferenceRun;
}

/** One seed-run of the task's person's shaping (or the given source). */
async function seedRun(task: Task, steps: number, source = task.baselines.human.code) {
  const { result } = await runSeed({ task, candidateId: 'bench', source, seed, budget: { steps, evalEpisodes: task.budget.evalEpisodes } });
  return { seconds: result.wallSeconds, success: result.success, sandboxShare: result.sandboxSeconds / result.wallSeconds, stepsPerSecond: steps / result.wallSeconds, backend: result.backend };
}

/** Side by side with the reference: ours, theirs and the ratio of the two times. */
async function versus(task: Task, steps: number, target: number, source?: string) {
  const ours = await seedRun(task, steps, source);
  const ref = torch ? await reference(task, steps) : null;
  const ratio = ref ? ours.seconds / ref.train_s : null;
  log(`${task.id}, ${steps} steps, seed ${seed}, backend ${ours.backend}`);
  log(`  ours:      ${ours.seconds.toFixed(2)} s (training, sandbox and grading), ${ours.stepsPerSecond.toFixed(0)} steps/s, success ${ours.success}`);
  log(ref ? `  reference: ${ref.train_s.toFixed(2)} s (PyTorch, training only), success ${ref.success}` : `  reference: skipped: ${PYTHON} has no torch (apt-get install -y python3-torch python3-numpy)`);
  log(ratio === null ? '  ratio:     -' : `  ratio:     ${ratio.toFixed(2)}x the reference's time (target <= ${target})`);
  return { task: task.id, steps, ours, reference: ref, ratio };
}

/** One round of bench/env-speed.ts in a fresh process: an engine's steps per CPU-second. */
async function speedRound(task: Task, engine: 'ours' | 'planck'): Promise<number> {
  const args = ['--import', 'tsx', resolve(root, 'bench', 'env-speed.ts'), '--task', task.id, '--ms', '2000', ...(engine === 'planck' ? ['--engine', 'planck'] : [])];
  const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: root });
  return (JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as { stepsPerSecond: number }).stepsPerSecond;
}

/**
 * A task's environment speed; for the LunarLanders also planck's, the engine they ran on before
 * box2d-f32 (bench/lunar-engines/): each measured in processes of their own (bench/env-speed.ts),
 * in alternating rounds so that the machine's load falls on both alike: the medians of three.
 */
async function environmentSpeed(task: Task): Promise<{ ours: number; planck: number | null }> {
  const hasPlanck = planckLander(task.id, 1, 0) !== null;
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let round = 0; round < 3; round++) {
    ours.push(await speedRound(task, 'ours'));
    if (hasPlanck) theirs.push(await speedRound(task, 'planck'));
  }
  const median = (v: number[]): number => v.sort((p, q) => p - q)[1];
  return { ours: median(ours), planck: hasPlanck ? median(theirs) : null };
}

/** Milliseconds per minibatch step of the trainer at 64 and 512 rows. */
function minibatchCost(): Record<64 | 512, number> {
  const task = getTask('LunarLander-v3');
  const net = networkFor(task);
  const config = ppoConfigFor(task, seed, 0);
  const step = oursStep(net, initialParameters(net, config.init, new Random(seed)), config);
  warmUp(net, [step], [64, 512], 2000);
  return { 64: measureStep(net, step, 64).wall, 512: measureStep(net, step, 512).wall };
}

/** Milliseconds per evaluate() of 2048 MountainCar transitions (73 calls: one 150,000-step seed-run). */
async function sandboxCost(source: string) {
  const task = getTask('MountainCar-v0');
  const batch = sampleTransitions(task, 2048, seed);
  const sandbox = await openRewardSandbox(source, layoutOf(task));
  const calls = 73;
  for (let c = 0; c < calls; c++) sandbox.evaluate(batch, c * batch.count);
  const perCall = sandbox.usedMs / calls;
  sandbox.dispose();
  return perCall;
}

/**
 * QuickJS's start-up as every chunk pays it: the wall time of opening a sandbox less the time its
 * load() call took (what usedMs counts). The first in a process, and the median of the next ten.
 */
async function sandboxStartup(source: string): Promise<{ firstMs: number; medianMs: number }> {
  const layout = layoutOf(getTask('MountainCar-v0'));
  const startups: number[] = [];
  for (let i = 0; i < 11; i++) {
    const started = performance.now();
    const sandbox = await openRewardSandbox(source, layout);
    startups.push(performance.now() - started - sandbox.usedMs);
    sandbox.dispose();
  }
  const rest = startups.slice(1).sort((a, b) => a - b);
  return { firstMs: startups[0], medianMs: (rest[4] + rest[5]) / 2 };
}

/** QuickJS operations per transition of each task's two baselines (4 calls of 2,048 sampled transitions). */
async function baselineOperations(): Promise<Array<{ task: string; human: number; environment: number }>> {
  const rows = [];
  for (const task of TASKS) {
    await task.prepare?.();
    const batch = sampleTransitions(task, 2048, seed);
    const per = async (source: string) => {
      const sandbox = await openRewardSandbox(source, layoutOf(task));
      for (let c = 0; c < 4; c++) sandbox.evaluate(batch, c * batch.count);
      const operations = sandbox.usedOperations / (4 * batch.count);
      sandbox.dispose();
      return operations;
    };
    rows.push({ task: task.id, human: await per(task.baselines.human.code), environment: await per(task.baselines.environment.code) });
  }
  return rows;
}

/** Milliseconds from opening a hostile reward to the fault that ends it. */
async function timeToStop(source: string): Promise<{ ms: number; outcome: string }> {
  const task = getTask('MountainCar-v0');
  const batch = sampleTransitions(task, 2048, seed);
  const started = performance.now();
  try {
    const sandbox = await openRewardSandbox(source, layoutOf(task));
    for (let c = 0; c < 10; c++) sandbox.evaluate(batch, c * batch.count);
    sandbox.dispose();
    return { ms: performance.now() - started, outcome: 'none' };
  } catch (error) {
    if (!(error instanceof RewardFault)) throw error;
    return { ms: performance.now() - started, outcome: error.outcome };
  }
}

const torch = await hasTorch();
const example = (name: string) => readFile(resolve(root, 'examples', name), 'utf8');

const mountainCar = await versus(getTask('MountainCar-v0'), 150_000, 0.5, await example('energy.js'));
log(`  sandbox:   ${(mountainCar.ours.sandboxShare * 100).toFixed(1)}% of the seed-run`);
const pendulum = getTask('Pendulum-v1');
const continuous = await versus(pendulum, pendulum.budget.steps, 0.6);

log('\nenvironments: steps per CPU-second, 16 copies, random actions; seed-run of the person\'s shaping at the default budget');
const tasks = [];
for (const task of TASKS.filter((t) => chosen(t.id))) {
  const speed = await environmentSpeed(task);
  const envStepsPerSecond = speed.ours;
  const run = quick ? null : await seedRun(task, task.budget.steps);
  tasks.push({ task: task.id, envStepsPerSecond, planckStepsPerSecond: speed.planck, defaultSteps: task.budget.steps, seedRun: run });
  log(`  ${task.id.padEnd(26)} env ${envStepsPerSecond.toFixed(0).padStart(7)} steps/s` +
    (speed.planck === null ? '' : ` (planck ${speed.planck.toFixed(0)} steps/s: ${(envStepsPerSecond / speed.planck).toFixed(2)}x)`) + (run === null ? '' :
    `   seed-run ${String(task.budget.steps).padStart(9)} steps: ${run.seconds.toFixed(1).padStart(6)} s (${run.stepsPerSecond.toFixed(0)} steps/s, success ${run.success})`));
}

const lander = tasks.find((t) => t.task === 'LunarLander-v3')?.seedRun ?? null;
const landerRatio = lander && mountainCar.reference ? lander.seconds / mountainCar.reference.train_s : null;
if (lander) {
  log(`  LunarLander-v3's seed-run: ${landerRatio === null ? '-' : `${landerRatio.toFixed(2)}x`} the reference's ${mountainCar.steps.toLocaleString('en')}-step MountainCar seed-run (target <= 4)`);
}

log('\nMuJoCo: steps per CPU-second against native MuJoCo in C, same XML, same run (goal >= 0.8 of the same version, 3.14.0: --native DIR); the seed-run of the person\'s shaping at the default budget');
const builds = await nativeBuilds(args.native);
const mujoco = [];
for (const { task, env } of await mujocoTasks()) {
  env.dispose?.();
  if (!chosen(task.id)) continue;
  const speed = await mujocoSpeed(task, env, builds);
  const run = tasks.find((t) => t.task === task.id)?.seedRun ?? null;
  const multiple = run && mountainCar.reference ? run.seconds / mountainCar.reference.train_s : null;
  mujoco.push({ ...speed, sandboxShare: run?.sandboxShare ?? null, seedRunMultiple: multiple });
  const natives = speed.natives.map((n) => `native ${n.version} ${n.stepsPerSecond.toFixed(0)}: ${n.ratio.toFixed(2)}x`);
  log(`  ${task.id.padEnd(26)} ours ${speed.ours.toFixed(0)}; ${[...natives, ...speed.reasons].join('; ')}`);
  if (speed.sameVersion === null) log('    no native MuJoCo of our engine\'s version: --native DIR, the official wheel\'s mujoco/ folder (bench/mujoco-native/native-build.ts)');
  if (speed.profile) log(`    below the goal; where our time goes (CPU profile): ${Object.entries(speed.profile).map(([k, v]) => `${k} ${(100 * v).toFixed(1)}%`).join(', ')}`);
  if (run) log(`    seed-run: sandbox ${(100 * run.sandboxShare).toFixed(1)}% of it (goal < 10%); ${multiple === null ? '-' : `${multiple.toFixed(2)}x`} the reference's MountainCar seed-run`);
}

const minibatch = minibatchCost();
log('\ntrainer: one minibatch step (loss, gradient, norm clip, Adam), LunarLander-v3\'s network');
log(`  64 rows: ${minibatch[64].toFixed(2)} ms, 512 rows: ${minibatch[512].toFixed(2)} ms (least of 7 trials of 40; bench/minibatch.ts for the other ways)`);

const perCall = await sandboxCost(await example('energy.js'));
const startup = await sandboxStartup(await example('energy.js'));
const operations = await baselineOperations();
const neverReturns = await timeToStop(await example('hostile/never-returns.js'));
const memory = await timeToStop(await example('hostile/memory-arrays.js'));
log('\nsandbox');
log(`  evaluate() of 2048 transitions (energy.js): ${perCall.toFixed(2)} ms per call, ${(perCall * 73 / 1000).toFixed(2)} s per 150,000-step seed-run`);
log(`  QuickJS's start-up, paid by every chunk and charged to no reward's budget: ${startup.medianMs.toFixed(1)} ms (the first in a process ${startup.firstMs.toFixed(1)} ms)`);
log(`  operations per transition (the budget: ${SANDBOX_CAPS.seedRunOperationsPerStep} a step plus ${SANDBOX_CAPS.seedRunOperationsPerObservation} an observation entry, at least ${SANDBOX_CAPS.seedRunMinOperations.toLocaleString('en')} a seed-run; bench/reward-operations.ts for model-written rewards):`);
for (const row of operations) log(`    ${row.task.padEnd(26)} the person's shaping ${row.human.toFixed(1).padStart(6)}, the environment's reward ${row.environment.toFixed(1).padStart(6)}`);
log(`  never-returns.js stopped after ${neverReturns.ms.toFixed(0)} ms (${neverReturns.outcome}); memory-arrays.js after ${memory.ms.toFixed(0)} ms (${memory.outcome})`);

if (json) {
  process.stdout.write(`${JSON.stringify({ seed, backend: mountainCar.ours.backend, mountainCar, continuous, tasks, landerRatio, mujoco, minibatchMs: minibatch, sandbox: { perCallMs: perCall, startup, operations, neverReturns, memory } })}\n`);
}
