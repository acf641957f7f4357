/**
 * Logs and metrics with Powertools for AWS Lambda: one Logger (structured JSON lines) and one
 * Metrics (CloudWatch EMF, namespace TELEMETRY.metricsNamespace) per process. On Lambda both print
 * to stdout, where CloudWatch takes them. Elsewhere a sink can take the lines instead (the
 * extension points Powertools offers subclasses: Logger.printLog, Metrics.publishStoredMetrics):
 * the local runtime appends them to <data-dir>/search.log (EUREKA_LOG_FILE), so they never mix
 * with the terminal's progress bars or a command's JSON on stdout; tests collect them. Anywhere
 * else (neither Lambda nor a log file: a script, a test that does not ask) they are dropped.
 *
 * What is logged is ours: ids, outcomes, times, tokens and costs, and a reason clipped to 200
 * characters. Never model-written code, never the API key.
 */
import { appendFileSync } from 'node:fs';
import { Logger, type LogItem } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { ConstructorOptions } from '@aws-lambda-powertools/logger/types';
import { TELEMETRY } from '../../../infra/config.ts';
import { optionalEnv } from './env.ts';

export { MetricUnit } from '@aws-lambda-powertools/metrics';

/** Where lines go instead of stdout: one JSON object per call. */
export type TelemetrySink = (line: string) => void;

const logFile = optionalEnv('EUREKA_LOG_FILE');
const onLambda = optionalEnv('AWS_LAMBDA_FUNCTION_NAME') !== undefined;
let sink: TelemetrySink | null = logFile !== undefined ? fileSink(logFile) : onLambda ? null : () => {};

/** Appends each line to a file (several processes may share it: each line is one write). */
export function fileSink(path: string): TelemetrySink {
  return (line) => appendFileSync(path, `${line}\n`);
}

/** Sends every log line and metrics blob of this process to `next` (null: stdout again). */
export function setTelemetrySink(next: TelemetrySink | null): void {
  sink = next;
}

class SearchLogger extends Logger {
  protected override printLog(logLevel: number, log: LogItem): void {
    if (sink === null) {
      super.printLog(logLevel, log);
      return;
    }
    log.prepareForPrint();
    sink(JSON.stringify(log.getAttributes(), this.getJsonReplacer()));
  }

  protected override createLogger(options?: ConstructorOptions): SearchLogger {
    return new SearchLogger(options);
  }
}

class SearchMetrics extends Metrics {
  override publishStoredMetrics(): this {
    if (!this.hasStoredMetrics()) return this;
    if (sink === null) return super.publishStoredMetrics();
    sink(JSON.stringify(this.serializeMetrics()));
    this.clearMetrics();
    this.clearDimensions();
    this.clearMetadata();
    return this;
  }
}

export const logger = new SearchLogger({ serviceName: TELEMETRY.serviceName });
export const metrics = new SearchMetrics({ namespace: TELEMETRY.metricsNamespace, serviceName: TELEMETRY.serviceName });

let coldStart = true;

/** Lambda's context, as much of it as the logger reads. */
export interface InvocationContext {
  functionName?: string;
  /** Absent locally: the logger then adds no Lambda context. */
  awsRequestId?: string;
  /** How long the invocation has left, in ms (the local runtime gives Propose its Lambda's timeout too). */
  getRemainingTimeInMillis?: () => number;
  [key: string]: unknown;
}

/**
 * Runs one invocation with `keys` on its log lines (searchId, generation, candidateId, seed...),
 * the Lambda context when there is one, and its metrics published at the end, even on a throw.
 */
export async function withTelemetry<T>(context: InvocationContext | undefined, keys: Record<string, unknown>, run: () => Promise<T>): Promise<T> {
  if (context?.awsRequestId !== undefined) logger.addContext(context as never);
  logger.appendKeys({ ...keys, ...(context?.awsRequestId === undefined ? { cold_start: coldStart } : {}) });
  coldStart = false;
  try {
    return await run();
  } catch (error) {
    // Lambda logs an unhandled error as well; this line carries the search's keys, and on this
    // machine it is where a failed state's Cause is kept (the definition's Catch keeps the name).
    const message = error instanceof Error ? error.message : String(error);
    logger.error('invocation failed', { error: error instanceof Error ? error.name : 'Error', cause: message.split('\n')[0].slice(0, 200) });
    throw error;
  } finally {
    metrics.publishStoredMetrics();
    logger.resetKeys();
  }
}

/** The keys of an event that name what it is about, those it has. */
export function eventKeys(event: unknown): Record<string, unknown> {
  if (typeof event !== 'object' || event === null) return {};
  const e = event as Record<string, unknown>;
  const keys = ['searchId', 'generation', 'candidateId', 'seed', 'kind'] as const;
  return Object.fromEntries(keys.filter((k) => typeof e[k] === 'string' || typeof e[k] === 'number').map((k) => [k, e[k]]));
}
