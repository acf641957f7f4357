/**
 * TrainSeed: one chunk of one candidate's seed-run (seed-task.ts), or one candidate's sandbox check
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
import { blobStoreFromEnv } from '../shared/store/blob-from-env.ts';
import { optionalEnv } from '../shared/ops/env.ts';
import { defaultChunkSteps } from '../shared/search/chunk-size.ts';
import { MAX_SEED_RUN_STEPS } from '../../infra/config.ts';
import { getTask } from '../../tasks/registry.ts';
import { eventKeys, logger, metrics, MetricUnit, withTelemetry, type InvocationContext } from '../shared/ops/telemetry.ts';
import type { CheckSummary, ChunkAnswer, SeedResult, SeedSummary } from '../shared/search/types.ts';
import { checkCandidate, checkSummary } from './candidate-check.ts';
import { trainSeedChunk } from './seed-task.ts';

export { MissingReward } from './seed-task.ts';

const blobs = blobStoreFromEnv();
const sandboxLimits = sandboxLimitsFromEnv();

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
    steps: z.number().int().min(1).max(MAX_SEED_RUN_STEPS),
    evalEpisodes: z.number().int().min(1).max(1000),
  }),
  /** Absent: the budget (a caller outside the state machine, `eureka train --remote`). */
  targetSteps: z.number().int().min(1).max(MAX_SEED_RUN_STEPS).optional(),
  /** Absent: the task's own (functions/shared/search/chunk-size.ts). */
  chunkSteps: z.number().int().min(1).max(MAX_SEED_RUN_STEPS).optional(),
}).refine((t) => t.targetSteps === undefined || t.targetSteps <= t.budget.steps, { error: 'targetSteps must not pass budget.steps', path: ['targetSteps'] });

export const CheckItemSchema = z.object({ kind: z.literal('check'), ...ids });

/** Exit code of a process ended after a memory fault (what Lambda reports as Runtime.ExitError). */
export const RETIRED_EXIT_CODE = 75;

export async function handler(event: unknown, context?: InvocationContext): Promise<ChunkAnswer | CheckSummary> {
  let retire = false;
  const answer = await withTelemetry(context, eventKeys(event), async () => {
    if (typeof event === 'object' && event !== null && (event as { kind?: unknown }).kind === 'check') {
      const check = await checkCandidate(blobs, CheckItemSchema.parse(event));
      retire = check.ran && check.record.verdict === 'memory';
      const summary = checkSummary(check.record);
      if (check.ran) recordCheck(summary);
      return summary;
    }
    const parsed = SeedTaskSchema.parse(event);
    const item = { ...parsed, targetSteps: parsed.targetSteps ?? parsed.budget.steps, chunkSteps: parsed.chunkSteps ?? defaultChunkSteps(getTask(parsed.task)) };
    const { answer, result, ran, restarted } = await trainSeedChunk(blobs, item, reportToParent, sandboxLimits);
    if (restarted) logger.warn('seed-run started over: its checkpoint was not resumed', { seed: item.seed, reason: restarted });
    retire = ran && result?.outcome === 'memory';
    if (ran && result && answer.done) recordSeedRun(result, answer.summary);
    return answer;
  });
  if (retire) {
    // stderr, not the logger: the line must be there wherever the process runs, Lambda or not.
    process.stderr.write('TrainSeed: this process hosted a sandbox memory fault; its result is stored, and the process ends so that no other candidate runs in it\n');
    process.exit(RETIRED_EXIT_CODE);
  }
  return answer;
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
function reportToParent(stats: { trainSuccess: number | null }, update: number, total: number): void {
  process.send?.({ type: 'progress', update, total, trainSuccess: stats.trainSuccess });
}

/**
 * EUREKA_SANDBOX_MEMORY_MB: the seed-run sandbox's WebAssembly memory cap in MiB (default 64, the
 * stack never sets it). The kill test raises it so that a reward can outgrow its process's memory
 * cap, the defence behind the sandbox's own.
 */
function sandboxLimitsFromEnv(): { memoryBytes: number } | undefined {
  const raw = optionalEnv('EUREKA_SANDBOX_MEMORY_MB');
  if (raw === undefined) return undefined;
  const mib = Number(raw);
  if (!Number.isInteger(mib) || mib < 32 || mib > 4096) throw new Error(`EUREKA_SANDBOX_MEMORY_MB must be a whole number of MiB from 32 to 4096, got ${JSON.stringify(raw)}`);
  return { memoryBytes: mib * 1024 * 1024 };
}
