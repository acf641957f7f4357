/**
 * The engine's share of a robot's seed-run: one seed-run of the task's person's shaping
 * (bench/seed-speed.ts, one core, grading included) under V8's CPU profiler, its samples sorted by
 * where they were: MuJoCo (its WebAssembly and the bindings' JavaScript), the trainer (the MLP
 * kernel's WebAssembly and functions/train-seed/), the reward sandbox (QuickJS), our environment's
 * code (tasks/, physics/), the garbage collector, and the rest (the process's start: loading
 * TypeScript, the modules). Idle samples are left out. Over part of the budget (`--steps`) the
 * grading's 20 greedy episodes and the start weigh more than over the whole.
 *
 *   npx tsx bench/engine-share.ts --task Hopper-v5 [--steps 1000000] [--seed 0] [--json]
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { benchArgs } from './args.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

interface ProfileNode { id: number; callFrame: { functionName: string; url: string }; children?: number[] }
interface CpuProfile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

export const KINDS = ['MuJoCo', 'trainer', 'reward sandbox', 'environment', 'garbage collector', 'start and the rest'] as const;
type Kind = typeof KINDS[number] | 'idle';

/** Where a sample was: its innermost frame, and for WebAssembly other than MuJoCo's, the first caller that has a file. */
function kindOf(node: ProfileNode, callerFile: (node: ProfileNode) => string): Kind {
  const { url, functionName } = node.callFrame;
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(garbage collector)') return 'garbage collector';
  if (url.includes('mujoco.wasm') || url.includes('@mujoco/mujoco')) return 'MuJoCo';
  const file = url.startsWith('wasm') || url === '' ? callerFile(node) : url;
  if (file.includes('quickjs')) return 'reward sandbox';
  if (file.includes('/functions/train-seed/') || file.includes('@tensorflow')) return 'trainer';
  if (file.includes('/tasks/') || file.includes('/physics/') || file.includes('/core/')) return 'environment';
  return 'start and the rest';
}

/** Shares of the profile's time by kind (idle left out). */
export function seedRunShares(profile: CpuProfile): Record<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const callerFile = (node: ProfileNode): string => {
    let at: ProfileNode | undefined = node;
    while (at !== undefined && (at.callFrame.url === '' || at.callFrame.url.startsWith('wasm'))) at = byId.get(parent.get(at.id) ?? -1);
    return at?.callFrame.url ?? '';
  };
  const time = new Map<string, number>(KINDS.map((k) => [k, 0]));
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (node === undefined) return;
    const kind = kindOf(node, callerFile);
    if (kind !== 'idle') time.set(kind, (time.get(kind) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...time.values()].reduce((a, b) => a + b, 0) || 1;
  return Object.fromEntries([...time].map(([k, t]) => [k, Math.round((1000 * t) / total) / 1000]));
}

if (process.argv[1]?.endsWith('engine-share.ts')) {
  // Parsed only when run: importing the module for its exports reads no command line and never exits.
  const { values: args } = benchArgs(import.meta.url, {
    options: { task: { type: 'string', default: 'Hopper-v5' }, steps: { type: 'string', default: '1000000' }, seed: { type: 'string', default: '0' }, json: { type: 'boolean' } },
  });
  const { task, steps, seed } = args;
  const dir = await mkdtemp(join(tmpdir(), 'eureka-engine-share-'));
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--import', 'tsx', join(root, 'bench', 'seed-speed.ts'),
      '--task', task, '--steps', steps, '--seed', seed], { cwd: root, maxBuffer: 1 << 20 });
    const run = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
    const file = (await readdir(dir)).find((f) => f.endsWith('.cpuprofile'));
    if (file === undefined) throw new Error('no CPU profile was written');
    const shares = seedRunShares(JSON.parse(await readFile(join(dir, file), 'utf8')) as CpuProfile);
    if (args.json) process.stdout.write(`${JSON.stringify({ ...run, shares })}\n`);
    else {
      process.stdout.write(`${task}, ${steps} steps, seed ${seed}: ${run.cpuSeconds} CPU s (${run.stepsPerCpuSecond} steps per CPU-second), ${run.wallSeconds} s wall\n`);
      process.stdout.write(`  ${Object.entries(shares).map(([k, v]) => `${k} ${(100 * v).toFixed(1)}%`).join(', ')}\n`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
