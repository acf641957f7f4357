/** `eureka train --reward FILE`: one graded seed-run of a reward on this machine. */
import cliProgress from 'cli-progress';
import { z } from 'zod';
import { runSeed } from '../../functions/train-seed/seed-run.ts';
import type { SeedResult } from '../../functions/shared/types.ts';
import { intFlag, parseFlags } from '../flags.ts';
import { readUserFile } from '../read-file.ts';

const TrainFlags = z.object({
  reward: z.string({ error: 'is required (a JavaScript file defining computeReward)' }),
  seed: intFlag(0, 2 ** 31 - 1).default(0),
  steps: intFlag(2048, 5_000_000).default(150_000),
  evalEpisodes: intFlag(1, 1000).default(20),
  json: z.boolean().default(false),
});

export async function trainCommand(raw: unknown): Promise<void> {
  const flags = parseFlags(TrainFlags, raw);
  const source = await readUserFile(flags.reward);
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: 'training [{bar}] {percentage}% | update {value}/{total} | train success {success}', hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  const { result } = await runSeed({
    candidateId: flags.reward,
    source,
    seed: flags.seed,
    budget: { steps: flags.steps, evalEpisodes: flags.evalEpisodes },
    onUpdate: (stats, update, total) => {
      if (update === 1) bar.start(total, 0, { success: '0.00' });
      bar.update(update, { success: stats.trainSuccess.toFixed(2) });
    },
  });
  bar.stop();
  if (flags.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else process.stdout.write(describe(result));
}

function describe(r: SeedResult): string {
  const lines = [
    `outcome: ${r.outcome}${r.reason ? ` (${r.reason})` : ''}`,
    `success: ${(r.success * 100).toFixed(0)}% of greedy evaluation episodes reached the flag`,
    `mean steps to the flag: ${r.meanStepsToFlag === null ? '-' : r.meanStepsToFlag.toFixed(1)}`,
    `mean highest position: ${r.meanMaxPosition.toFixed(3)}`,
    `training: ${r.steps} steps in ${r.wallSeconds.toFixed(1)} s on ${r.backend} (sandbox ${r.sandboxSeconds.toFixed(2)} s)`,
    ...Object.entries(r.terms).map(([name, t]) => `term ${name}: early ${t.early.toFixed(4)}, late ${t.late.toFixed(4)}`),
  ];
  return `${lines.join('\n')}\n`;
}
