/**
 * Where a MuJoCo task's speed gap to native goes: MuJoCo's own stepping through the WebAssembly
 * bindings, with no environment around it (16 MjData of the task's XML, random controls, the
 * frame skip's mj_step calls; no observation, reward, reset noise or trainer), against native
 * MuJoCo in C on the same XML (bench/mujoco-native/env-speed.c, compiled here against Debian's 2.2.2
 * and, with --native DIR, the official 3.14.0 build: bench/mujoco-native/native-build.ts), in
 * alternating rounds in fresh processes, medians of three. If the bare loop's ratio is about the
 * task's (bench/mujoco-speed.ts), the gap is the engine's build, not our environment.
 *
 * `npx tsx bench/mujoco-bare.ts --task ID [--task ...] [--native DIR]` (default: every MuJoCo task); --json.
 * (`--bare XML_FILE FRAME_SKIP` is the bench's own: the bare loop alone, in the process it starts for each round.)
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { mujoco } from '../physics/mujoco/engine.ts';
import { compileModel, readModelFolder } from '../physics/mujoco/model-files.ts';
import { mujocoTasks, writeModel } from './mujoco-speed.ts';
import { compileAgainst, nativeBuilds } from './mujoco-native/native-build.ts';
import { argError, benchArgs } from './args.ts';

const run = promisify(execFile);
const root = new URL('..', import.meta.url).pathname;
const COPIES = 16;
// Positionals only for --bare's two (its XML file and frame skip).
const { values: args, positionals } = benchArgs(import.meta.url, {
  options: { task: { type: 'string', multiple: true }, native: { type: 'string' }, json: { type: 'boolean' }, bare: { type: 'boolean' } },
  allowPositionals: true,
});
if (args.bare ? positionals.length !== 2 : positionals.length > 0) argError(import.meta.url, args.bare ? '--bare takes XML_FILE FRAME_SKIP' : `unexpected argument '${positionals[0]}'`);
const only = args.task ?? [];

/** In a process of its own (`--bare XML_FILE FRAME_SKIP`): environment steps per CPU-second of the bare loop (the XML's folder loaded with it). */
async function bareRound(xmlFile: string, frameSkip: number): Promise<number> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', join(root, 'bench', 'mujoco-bare.ts'), '--bare', xmlFile, String(frameSkip)], { cwd: root });
  return Number(stdout.trim());
}

async function bareLoop(xmlFile: string, frameSkip: number, seconds: number): Promise<number> {
  const { loadMujoco } = await import('../physics/mujoco/engine.ts');
  await loadMujoco();
  const mj = mujoco();
  const model = compileModel(readModelFolder(xmlFile));
  const datas = Array.from({ length: COPIES }, () => new mj.MjData(model));
  try {
    const range = model.actuator_ctrlrange as Float64Array;
    const loop = (budget: number): number => {
      let steps = 0;
      const start = process.cpuUsage();
      while ((process.cpuUsage(start).user + process.cpuUsage(start).system) / 1e6 < budget) {
        for (const data of datas) {
          const ctrl = data.ctrl as Float64Array;
          for (let u = 0; u < model.nu; u++) ctrl[u] = range[2 * u] + (range[2 * u + 1] - range[2 * u]) * Math.random();
          for (let k = 0; k < frameSkip; k++) mj.mj_step(model, data);
          steps += 1;
        }
      }
      return steps / budget;
    };
    loop(1);
    return loop(seconds);
  } finally {
    for (const data of datas) data.delete();
    model.delete();
  }
}

if (args.bare) {
  process.stdout.write(`${await bareLoop(positionals[0], Number(positionals[1]), 2)}\n`);
} else {
  const rows = [];
  const builds = await nativeBuilds(args.native);
  for (const { task, env } of await mujocoTasks()) {
    const spec = env.robotSpec;
    env.dispose?.();
    if (only.length > 0 && !only.includes(task.id)) continue;
    const dir = await mkdtemp(join(tmpdir(), 'eureka-mujoco-bare-'));
    try {
      const xml = await writeModel(dir, spec);
      const binaries: string[] = [];
      for (const [k, build] of builds.entries()) {
        const binary = join(dir, `env-speed-${k}`);
        const failed = await compileAgainst(join(root, 'bench', 'mujoco-native', 'env-speed.c'), binary, build);
        if (failed !== null) throw new Error(failed);
        binaries.push(binary);
      }
      const bare: number[] = [];
      const natives: Array<{ version: string; runs: number[] }> = binaries.map(() => ({ version: '?', runs: [] }));
      for (let round = 0; round < 3; round++) {
        bare.push(await bareRound(xml, spec.frameSkip));
        // Native resets once a million steps here: the bare loop never resets either.
        for (const [k, binary] of binaries.entries()) {
          const out = JSON.parse((await run(binary, [xml, String(spec.frameSkip), '1000000', '2'])).stdout) as { stepsPerSecond: number; version: string };
          natives[k].runs.push(out.stepsPerSecond);
          natives[k].version = out.version;
        }
      }
      const median = (v: number[]): number => [...v].sort((a, b) => a - b)[1];
      const row = { task: task.id, bare: median(bare), natives: natives.map((n) => ({ version: n.version, stepsPerSecond: median(n.runs), ratio: median(bare) / median(n.runs) })) };
      rows.push(row);
      if (!args.json) {
        process.stdout.write(`${task.id.padEnd(26)} bare mj_step loop ${row.bare.toFixed(0)} steps per CPU-second; ` +
          `${row.natives.map((n) => `native ${n.version} ${n.stepsPerSecond.toFixed(0)}: ${n.ratio.toFixed(2)}x`).join('; ')}\n`);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  if (args.json) process.stdout.write(`${JSON.stringify(rows)}\n`);
}
