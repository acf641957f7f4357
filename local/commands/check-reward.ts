/** `eureka check-reward FILE`: run a reward in the sandbox on sample transitions of a task. */
import { z } from 'zod';
import { getTask } from '../../tasks/registry.ts';
import { checkReward } from '../../functions/train-seed/check-reward.ts';
import { parseFlags } from '../flags.ts';
import { taskFlag } from '../task-flag.ts';
import { readUserFile } from '../read-file.ts';

const CheckFlags = z.object({ file: z.string(), task: taskFlag(), json: z.boolean().default(false) });

export async function checkRewardCommand(raw: unknown): Promise<void> {
  const flags = parseFlags(CheckFlags, raw);
  const report = await checkReward(getTask(flags.task), await readUserFile(flags.file));
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(report)}\n`);
    return;
  }
  const lines = [`verdict: ${report.verdict}${report.reason ? ` (${report.reason})` : ''}`];
  for (const [name, mean] of Object.entries(report.terms)) lines.push(`term ${name}: mean ${mean.toFixed(5)}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}
