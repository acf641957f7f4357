/**
 * `eureka check-reward FILE`: run a reward in the sandbox on sample transitions of a task, then
 * screen it on the task's bank of successes and failures, here or (--remote) on the deployed TrainSeed.
 */
import { z } from 'zod';
import { getTask } from '../../tasks/registry.ts';
import { checkReward } from '../../functions/train-seed/check-reward.ts';
import { screenFindings } from '../../functions/shared/screen-words.ts';
import { parseFlags } from '../flags.ts';
import { taskFlag } from '../task-flag.ts';
import { readUserFile } from '../read-file.ts';
import { DEFAULT_STACK_NAME } from '../../infra/config.ts';
import { checkRemotely } from '../remote-seed-run.ts';
import { describeScreen } from '../screen-text.ts';

const CheckFlags = z.object({
  file: z.string(),
  task: taskFlag(),
  /** Check on the deployed TrainSeed function of --stack instead of here. */
  remote: z.boolean().default(false),
  stack: z.string().min(1).default(DEFAULT_STACK_NAME),
  json: z.boolean().default(false),
});

export async function checkRewardCommand(raw: unknown): Promise<void> {
  const flags = parseFlags(CheckFlags, raw);
  const source = await readUserFile(flags.file);
  const report = flags.remote ? await checkRemotely(flags.stack, flags.task, source) : await checkReward(getTask(flags.task), source);
  const screen = report.screen ?? null;
  if (flags.json) {
    // The screen with its words, as the reflection and the card put them.
    process.stdout.write(`${JSON.stringify({ ...report, screen: screen && { ...screen, findings: screenFindings(screen) } })}\n`);
    return;
  }
  const lines = [`verdict: ${report.verdict}${report.reason ? ` (${report.reason})` : ''}`];
  for (const [name, mean] of Object.entries(report.terms)) lines.push(`term ${name}: mean ${mean.toFixed(5)}`);
  if (screen) lines.push(...describeScreen(screen));
  process.stdout.write(`${lines.join('\n')}\n`);
}
