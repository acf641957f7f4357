/**
 * One environment's steps per CPU-second (16 copies, uniformly random actions), measured in a
 * process of its own after a warm-up: `npx tsx bench/env-speed.ts --task ID [--engine planck|box2d-wasm]
 * [--ms 2000]` prints one JSON line. npm run bench runs it in alternating rounds per engine
 * (bench/seed-run.ts): in one process the LunarLanders' two engines would share physics.ts's call
 * sites, and the JIT compiled for both would slow each.
 */
import type { Task, VecEnv } from '../tasks/contract.ts';
import { prepareTask } from '../tasks/registry.ts';
import { landerOn, planckLander } from './lunar-engines/lander-env.ts';
import { benchArgs } from './args.ts';

const WARM_UP_MS = 2500;

/** Steps per CPU-second over `ms` of this process's CPU time (the wall clock would count other processes' turns). */
export function stepsPerCpuSecond(task: Task, env: VecEnv, ms: number, episodes = { ended: 0 }): number {
  const actions = new Float64Array(16 * task.actionSize);
  const a = task.action;
  let x = 12345;
  const next = (): number => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const cpuMs = (since: NodeJS.CpuUsage): number => {
    const used = process.cpuUsage(since);
    return (used.user + used.system) / 1000;
  };
  const started = process.cpuUsage();
  let steps = 0;
  while (cpuMs(started) < ms) {
    for (let k = 0; k < 10; k++) {
      for (let i = 0; i < actions.length; i++) {
        actions[i] = a.kind === 'discrete' ? Math.floor(next() * a.names.length) : a.low[i % a.low.length] + next() * (a.high[i % a.high.length] - a.low[i % a.low.length]);
      }
      env.step(actions);
      steps += 16;
      for (let i = 0; i < 16; i++) episodes.ended += env.terminated[i] | env.truncated[i];
    }
  }
  return steps / (cpuMs(started) / 1000);
}

/** The LunarLanders on another engine: planck (theirs before box2d-f32) or box2d-wasm (Box2D 2.4.1). */
async function otherEngine(taskId: string, engine: string): Promise<VecEnv> {
  if (engine === 'planck') {
    const env = planckLander(taskId, 16, 0);
    if (env !== null) return env;
  }
  if (engine === 'box2d-wasm') {
    // Loaded only when asked: box2d-wasm instantiates its module as it loads.
    const { Box2DLanderWorld } = await import('./lunar-engines/box2d-wasm-world.ts');
    const env = landerOn(() => new Box2DLanderWorld(), taskId, 16, 0);
    if (env !== null) return env;
  }
  throw new Error(`--engine ${engine}: ${taskId} does not run on it (planck and box2d-wasm run the LunarLanders)`);
}

if (process.argv[1]?.endsWith('env-speed.ts')) {
  // Parsed only when run: importing the module for its exports reads no command line and never exits.
  const { values: args } = benchArgs(import.meta.url, { options: { task: { type: 'string' }, engine: { type: 'string' }, ms: { type: 'string' } } });
  const task = await prepareTask(args.task ?? 'LunarLander-v3');
  const engine = args.engine ?? 'ours';
  const env = engine === 'ours' ? task.makeEnv(16, 0) : await otherEngine(task.id, engine);
  const ms = Number(args.ms ?? 2000);
  // Warm up first (not counted): the JIT takes about 2 s of stepping to reach its steady speed on
  // the LunarLanders (measured 10k, 31-46k, then 62-68k steps in their first three seconds).
  stepsPerCpuSecond(task, env, WARM_UP_MS);
  const episodes = { ended: 0 };
  const stepsPerSecond = stepsPerCpuSecond(task, env, ms, episodes);
  // The mean length of the random episodes: the native MuJoCo reference resets as often (bench/mujoco-speed.ts).
  const meanEpisode = Math.round((stepsPerSecond * ms) / 1000 / Math.max(1, episodes.ended));
  process.stdout.write(`${JSON.stringify({ task: task.id, engine, stepsPerSecond, meanEpisode })}\n`);
  env.dispose?.();
}
