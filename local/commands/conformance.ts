/**
 * `eureka conformance --task ID FILE...`: replays episodes recorded from the original (Python,
 * Gymnasium) environment against the task's port and prints the largest deviation of each field
 * (before and after the first contact, where the task marks one) and the endings that differ.
 * A file may be gzipped. Exit 0 when every file is within the tolerance, 1 when it is not, 2 on bad usage.
 */
import { z } from 'zod';
import type { ConformanceReport, ConformanceTolerance, Task } from '../../tasks/contract.ts';
import { prepareTask } from '../../tasks/registry.ts';
import {
  DEFAULT_TOLERANCE, RecordingSchema, compareEpisode, describeTolerance, recordingText, replayEpisode, withinTolerance, worstDeviation, type Deviation, type Recording,
} from '../../tasks/conformance.ts';
import { parseFlags, UsageError } from '../flags.ts';
import { taskFlag } from '../task-flag.ts';
import { readUserBytes } from '../read-file.ts';

const ConformanceFlags = z.object({
  task: taskFlag(),
  files: z.array(z.string()).min(1, { error: 'give at least one recorded-episodes file' }),
  stateTolerance: z.coerce.number({ error: 'must be a number' }).nonnegative().optional(),
  obsTolerance: z.coerce.number({ error: 'must be a number' }).nonnegative().optional(),
  rewardTolerance: z.coerce.number({ error: 'must be a number' }).nonnegative().optional(),
  json: z.boolean().default(false),
});

export class NotConformant extends Error {
  override readonly name = 'NotConformant';
}

export async function conformanceCommand(raw: unknown): Promise<void> {
  const flags = parseFlags(ConformanceFlags, raw);
  const task = await prepareTask(flags.task);
  const recordings: Array<{ file: string; json: unknown; recording: Recording }> = [];
  for (const file of flags.files) {
    let json: unknown;
    try {
      json = JSON.parse(recordingText(await readUserBytes(file)));
    } catch (err) {
      if (err instanceof UsageError) throw err;
      throw new UsageError(`${file} is not JSON: ${(err as Error).message}`);
    }
    const parsed = RecordingSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new UsageError(`${file} is not in the recorded-episodes format: ${issue.path.join('.') || 'the file'}: ${issue.message}`);
    }
    if (parsed.data.task !== task.id) throw new UsageError(`${file} records ${parsed.data.task}, not ${task.id} (--task)`);
    recordings.push({ file, json, recording: parsed.data });
  }
  if (task.conformance) {
    ownChecks(task, task.conformance, recordings, flags.json);
    return;
  }
  const reports: Array<{ file: string; episodes: number } & Deviation> = recordings.map(({ file, recording }) => {
    const deviations = recording.episodes.map((episode) => compareEpisode(episode, replayEpisode(task, episode)));
    return { file, episodes: deviations.length, ...worstDeviation(deviations) };
  });
  const declared = task.conformanceTolerance ?? DEFAULT_TOLERANCE;
  // The flags set the tolerance of the free flight, or of the whole episode where there is no contact.
  const tolerance: ConformanceTolerance = {
    ...declared,
    state: flags.stateTolerance ?? declared.state, obs: flags.obsTolerance ?? declared.obs, reward: flags.rewardTolerance ?? declared.reward,
  };
  const ok = reports.every((r) => withinTolerance(r, tolerance));
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ task: task.id, ok, tolerance, files: reports })}\n`);
  } else {
    const lines = reports.map(describeReport);
    const limits = describeTolerance(tolerance);
    lines.push(ok ? `${task.id}: within tolerance (${limits})` : `${task.id}: NOT within tolerance (${limits})`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  if (!ok) throw new NotConformant(`${task.id} deviates from the recorded episodes beyond the tolerance`);
}

/**
 * A task with checks of its own (a MuJoCo task: logic, physics per step or by distribution): each
 * file's checks, by name, with what each compared. The tolerance flags do not apply to them.
 */
function ownChecks(task: Task, conformance: (recording: unknown) => ConformanceReport, recordings: Array<{ file: string; json: unknown }>, json: boolean): void {
  let reports: Array<{ file: string } & ConformanceReport>;
  try {
    reports = recordings.map(({ file, json: recording }) => ({ file, ...conformance(recording) }));
  } catch (err) {
    throw new UsageError(`the recording is not one ${task.id} can check: ${(err as Error).message}`);
  }
  const ok = reports.every((r) => r.checks.every((c) => c.ok));
  if (json) {
    process.stdout.write(`${JSON.stringify({ task: task.id, ok, files: reports })}\n`);
  } else {
    const lines = reports.flatMap((r) => [
      `${r.file}: ${r.episodes} episodes, ${r.steps} steps; ${r.engine === undefined ? '' : `${r.engine}; `}checked: ${r.checks.map((c) => c.check).join(', ')}`,
      ...r.checks.map((c) => `  ${c.check}: ${c.ok ? 'conforms' : 'DOES NOT CONFORM'}: ${c.detail}`),
    ]);
    lines.push(ok ? `${task.id}: conforms (${[...new Set(reports.flatMap((r) => r.checks.map((c) => c.check)))].join(', ')})` : `${task.id}: does NOT conform`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  if (!ok) throw new NotConformant(`${task.id} does not conform to the recorded episodes`);
}

const e2 = (x: number): string => x.toExponential(2);

function describeReport(r: { file: string; episodes: number } & Deviation): string {
  const contact = r.afterContact === null ? '' : ` (before the first contact); after it: state ${e2(r.afterContact.state)}, ` +
    `observation ${e2(r.afterContact.obs)}, reward ${e2(r.afterContact.reward)}`;
  const ending = r.firstEndingMismatch === null ? '' : ` (first: step ${r.firstEndingMismatch.recorded.step} ${r.firstEndingMismatch.recorded.kind} ` +
    `recorded, step ${r.firstEndingMismatch.ours.step} ${r.firstEndingMismatch.ours.kind} ours)`;
  return `${r.file}: ${r.episodes} episodes, ${r.steps} steps; largest deviation: state ${e2(r.state)}, observation ${e2(r.obs)}, reward ${e2(r.reward)}` +
    `${contact}; terminated/truncated differ on ${r.flagMismatches} steps` +
    (r.firstFlagMismatch === null ? '' : ` (first at step ${r.firstFlagMismatch})`) + `; endings differ in ${r.endingMismatches} episodes${ending}`;
}
