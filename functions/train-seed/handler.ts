/**
 * TrainSeed: one seed-run of one candidate (seed-task.ts), or one candidate's sandbox check
 * before any seed trains it (candidate-check.ts, `kind: 'check'`). The isolated function: the
 * only one that runs model-written code.
 *
 * A process whose sandbox hit its memory cap is not trusted with another candidate (DESIGN §4:
 * WebAssembly memory never shrinks, and the fault may have left the module mid-way). So the
 * invocation that hosted the fault stores its result (result.json or check.json) and then ends the
 * process before it answers: Lambda reports Runtime.ExitError and discards the container, the
 * state machine retries that error, and the retry, on a fresh container, returns the stored result.
 * No retired container is ever left warm for another candidate to land on.
 */
import { z } from 'zod';
import { blobStoreFromEnv } from '../shared/blob.ts';
import { seedResultKey } from '../shared/keys.ts';
import { eventKeys, logger, metrics, MetricUnit, withTelemetry, type InvocationContext } from '../shared/telemetry.ts';
import type { CheckSummary, SeedResult, SeedSummary } from '../shared/types.ts';
import { checkCandidate, checkSummary } from './candidate-check.ts';
import { trainSeed } from './seed-task.ts';
import { summarize } from './seed-summary.ts';

export { MissingReward } from './seed-task.ts';

const blobs = blobStoreFromEnv();

const ids = {
  searchId: z.string().regex(/^[A-Za-z0-9_-]{1,80}$/),
  task: z.string().min(1).max(64),
  generation: z.number().int().min(0),
  candidateId: z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/),
};

export const SeedTaskSchema = z.object({
  ...ids,
  seed: z.number().int().min(0),
  budget: z.object({
    steps: z.number().int().min(1).max(5_000_000),
    evalEpisodes: z.number().int().min(1).max(1000),
  }),
});

export const CheckItemSchema = z.object({ kind: z.literal('check'), ...ids });

/** Exit code of a process ended after a memory fault (what Lambda reports as Runtime.ExitError). */
export const RETIRED_EXIT_CODE = 75;

export async function handler(event: unknown, context?: InvocationContext): Promise<SeedSummary | CheckSummary> {
  let retire = false;
  const summary = await withTelemetry(context, eventKeys(event), async () => {
    if (typeof event === 'object' && event !== null && (event as { kind?: unknown }).kind === 'check') {
      const check = await checkCandidate(blobs, CheckItemSchema.parse(event));
      retire = check.ran && check.record.verdict === 'memory';
      const summary = checkSummary(check.record);
      if (check.ran) recordCheck(summary);
      return summary;
    }
    const item = SeedTaskSchema.parse(event);
    const { result, ran } = await trainSeed(blobs, item, reportToParent);
    retire = ran && result.outcome === 'memory';
    const summary = summarize(result, seedResultKey(item.searchId, item.generation, item.candidateId, item.seed));
    if (ran) recordSeedRun(result, summary);
    return summary;
  });
  if (retire) {
    // stderr, not the logger: the line must be there wherever the process runs, Lambda or not.
    process.stderr.write('TrainSeed: this process hosted a sandbox memory fault; its result is stored, and the process ends so that no other candidate runs in it\n');
    process.exit(RETIRED_EXIT_CODE);
  }
  return summary;
}

/** One line and the seed-run's metrics: its time, and a count by outcome. */
function recordSeedRun(result: SeedResult, summary: SeedSummary): void {
  logger.info('seed-run finished', {
    task: result.task, outcome: result.outcome, success: result.success, seconds: result.wallSeconds,
    sandboxSeconds: result.sandboxSeconds, backend: result.backend, reason: summary.reason,
  });
  metrics.addDimension('outcome', result.outcome);
  metrics.addMetric('SeedRuns', MetricUnit.Count, 1);
  metrics.addMetric('SeedRunSeconds', MetricUnit.Seconds, result.wallSeconds);
}

function recordCheck(summary: CheckSummary): void {
  logger.info('check finished', { verdict: summary.verdict, reason: summary.reason });
  metrics.addDimension('verdict', summary.verdict);
  metrics.addMetric('CandidateChecks', MetricUnit.Count, 1);
}

/** Run as a local child process (local/), the seed-run reports its progress to the parent. */
function reportToParent(stats: { trainSuccess: number }, update: number, total: number): void {
  process.send?.({ type: 'progress', update, total, trainSuccess: stats.trainSuccess });
}
