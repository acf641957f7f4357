/**
 * `npm run bench`: one 150,000-step seed-run of the energy-shaping example, and in the same run the
 * PyTorch reference trainer on the same seed when /usr/bin/python3 has torch. Prints both times,
 * the ratio, the sandbox's share and steps per second. `--json` prints one JSON object instead.
 * Flags: --steps N (default 150000), --seed N (default 0), --json.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runSeed } from '../functions/train-seed/seed-run.ts';
import { getTask } from '../tasks/registry.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PYTHON = '/usr/bin/python3';
const REFERENCE = process.env.EUREKA_REFERENCE ?? resolve(root, '..', 'shared', 'reference', 'torch_ppo_reference.py');

interface ReferenceRun { train_s: number; success: number }

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

async function reference(steps: number, seed: number): Promise<ReferenceRun | { skipped: string }> {
  const run = promisify(execFile);
  try {
    await run(PYTHON, ['-c', 'import torch, numpy']);
  } catch {
    return { skipped: `${PYTHON} has no torch (apt-get install -y python3-torch python3-numpy)` };
  }
  const { stdout } = await run(PYTHON, [REFERENCE, String(steps), String(seed)], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as ReferenceRun;
}

const steps = flag('steps', 150_000);
const seed = flag('seed', 0);
const json = process.argv.includes('--json');
const source = await readFile(resolve(root, 'examples', 'energy.js'), 'utf8');

const ours = await runSeed({ task: getTask('MountainCar-v0'), candidateId: 'energy', source, seed, budget: { steps, evalEpisodes: 20 } });
const ref = await reference(steps, seed);
const r = ours.result;
const report = {
  steps,
  seed,
  backend: r.backend,
  ours: { seconds: r.wallSeconds, success: r.success, stepsPerSecond: steps / r.wallSeconds, sandboxShare: r.sandboxSeconds / r.wallSeconds },
  reference: ref,
  ratio: 'train_s' in ref ? r.wallSeconds / ref.train_s : null,
};

if (json) {
  process.stdout.write(`${JSON.stringify(report)}\n`);
} else {
  const lines = [
    `seed-run, ${steps} steps, seed ${seed}, backend ${r.backend}`,
    `  ours:      ${r.wallSeconds.toFixed(2)} s (training, sandbox and grading), ${report.ours.stepsPerSecond.toFixed(0)} steps/s, success ${r.success}`,
    `  sandbox:   ${r.sandboxSeconds.toFixed(3)} s = ${(report.ours.sandboxShare * 100).toFixed(1)}% of the seed-run`,
    'train_s' in ref
      ? `  reference: ${ref.train_s.toFixed(2)} s (PyTorch, training only), success ${ref.success}`
      : `  reference: skipped: ${ref.skipped}`,
    report.ratio === null ? '  ratio:     -' : `  ratio:     ${report.ratio.toFixed(2)}x the reference's time (target <= 1.0, goal 0.5)`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
