/**
 * `npm run bench:learning`: DESIGN §8's learning claim on 5 seeds (the test suite checks 2 to keep
 * CI short). Trains the energy shaping and the environment's own reward for 150,000 steps on each
 * seed and prints the greedy success of each. `--seeds 0,1,2` picks seeds; `--json` for machines.
 */
import { readFile } from 'node:fs/promises';
import { runSeed } from '../functions/train-seed/seed-run.ts';

const i = process.argv.indexOf('--seeds');
const seeds = (i > 0 ? process.argv[i + 1] : '0,1,2,3,4').split(',').map(Number);
const json = process.argv.includes('--json');
const rows: Array<{ reward: string; seed: number; success: number; meanStepsToFlag: number | null; seconds: number }> = [];

for (const reward of ['energy', 'environment']) {
  const source = await readFile(new URL(`../examples/${reward}.js`, import.meta.url), 'utf8');
  for (const seed of seeds) {
    const { result } = await runSeed({ candidateId: reward, source, seed, budget: { steps: 150_000, evalEpisodes: 20 } });
    rows.push({ reward, seed, success: result.success, meanStepsToFlag: result.meanStepsToFlag, seconds: result.wallSeconds });
    if (!json) process.stdout.write(`${reward.padEnd(12)} seed ${seed}: success ${(result.success * 100).toFixed(0).padStart(3)}%  (${result.wallSeconds.toFixed(1)} s)\n`);
  }
}
if (json) process.stdout.write(`${JSON.stringify(rows)}\n`);
