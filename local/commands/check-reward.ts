/**
 * `eureka check-reward FILE`: run a reward in the sandbox on sample transitions of a task, then
 * screen it on the task's bank of successes and failures, here or (--remote) on the deployed TrainSeed.
 * The first line, and the exit code, say whether the check or the screen rejects it (exit-codes.ts).
 */
import { z } from 'zod';
import { getTask } from '../../tasks/registry.ts';
import { checkReward } from '../../functions/train-seed/check-reward.ts';
import { failsScreen, screenFindings } from '../../functions/shared/words/screen-words.ts';
import type { Screen } from '../../functions/shared/search/screen-types.ts';
import type { FirstStepsPay } from '../../functions/shared/search/types.ts';
import type { Termination } from '../../tasks/contract.ts';
import { parseFlags } from '../flags.ts';
import { taskFlag } from '../task-flag.ts';
import { readUserFile } from '../read-file.ts';
import { DEFAULT_STACK_NAME } from '../../infra/config.ts';
import { checkRemotely } from '../remote-seed-run.ts';
import { describeScreen } from '../screen-text.ts';
import { EXIT } from '../exit-codes.ts';

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
  const task = getTask(flags.task);
  const report = flags.remote ? await checkRemotely(flags.stack, task.id, source) : await checkReward(task, source);
  const screen = report.screen ?? null;
  const rejectedBy = report.verdict !== 'ok' ? 'check' : screen !== null && failsScreen(screen) ? 'screen' : null;
  if (rejectedBy !== null) process.exitCode = rejectedBy === 'check' ? EXIT.checkRejected : EXIT.screenFails;
  if (flags.json) {
    // The screen with its words, as the reflection and the card put them.
    process.stdout.write(`${JSON.stringify({ ...report, rejectedBy, screen: screen && { ...screen, findings: screenFindings(screen) } })}\n`);
    return;
  }
  const lines = [headline(report, screen)];
  lines.push(`verdict: ${report.verdict}${report.reason ? ` (${report.reason})` : ''}`);
  for (const [name, mean] of Object.entries(report.terms)) lines.push(`term ${name}: mean ${mean.toFixed(5)}`);
  if (report.firstSteps) lines.push(describeFirstSteps(report.firstSteps, task.termination));
  if (screen) lines.push(...describeScreen(screen));
  process.stdout.write(`${lines.join('\n')}\n`);
}

/**
 * What it pays as the first, untrained policies act; and where failing ends the episode early and a
 * step that goes on pays below zero, that ending it pays them.
 */
function describeFirstSteps(pay: FirstStepsPay, termination: Termination): string {
  const f = (x: number | null) => (x === null ? 'none' : x.toFixed(3));
  const line = `the untrained policy's steps: ${f(pay.goingOn)} a step that goes on, ${f(pay.ending)} on a step that ends the episode (${pay.endings} of ${pay.steps})`;
  const failingEnds = termination === 'failure' || termination === 'mixed';
  return failingEnds && pay.goingOn !== null && pay.goingOn < 0
    ? `${line}; going on pays below zero and failing ends the episode, so ending it pays the first policies`
    : line;
}

/** The first line: who rejected the reward and why, or that neither did. */
function headline(report: { verdict: string; reason: string }, screen: Screen | null): string {
  if (report.verdict !== 'ok') return `REJECTED by the sandbox check: ${report.verdict}${report.reason ? ` (${report.reason})` : ''}`;
  const fails = screen === null ? [] : screenFindings(screen).filter((f) => f.severity === 'fails');
  if (fails.length > 0) return `REJECTED by the screen: it ${fails.map((f) => f.text).join('; it ')}`;
  return screen === null ? 'passed the sandbox check (no screen ran)' : 'passed the sandbox check and the screen';
}
