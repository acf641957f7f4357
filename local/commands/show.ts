/**
 * `eureka show [ID]`: the scoreboard of a search, running or finished (the latest local one by
 * default), and where its newest card is: the winner's once published, else the interim card of
 * its last generation. Locally a file; with --stack, a search on AWS, read from the stack's table,
 * and the card as a presigned URL. --open opens that card in the browser.
 */
import { FUNCTION_CAPS } from '../../infra/config.ts';
import type { SearchEstimate } from '../../functions/shared/cost/estimate.ts';
import { durationOf } from '../../functions/shared/cost/estimate-text.ts';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { interimCardKey, winnerPrefix } from '../../functions/shared/store/keys.ts';
import { FAILED_CHECK, proposerUsage, type HistoryRecord, type StopRecord } from '../../functions/shared/store/records.ts';
import { SearchStore } from '../../functions/shared/store/search-store.ts';
import { S3BlobStore } from '../../functions/shared/store/blob-s3.ts';
import { Table } from '../../functions/shared/store/table.ts';
import type { SearchSettings } from '../../functions/shared/search/contracts.ts';
import { computeOf } from '../../functions/shared/card/assemble-card.ts';
import { stepsAtBudget } from '../../functions/shared/search/chunk-size.ts';
import { getTask } from '../../tasks/registry.ts';
import { parseFlags, UsageError } from '../flags.ts';
import { withLocalStore } from '../runtime.ts';
import { explainAws, stackOutputs } from '../stack-outputs.ts';
import { publishedVerdict, verdictLine, type ShownVerdict } from './show-verdict.ts';
import { formatGeneration, readGeneration, type GenerationReport } from './show-generation.ts';
import { latestSearch, localStatus } from './show-latest.ts';

const ShowFlags = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,80}$/, { error: 'must be a search id' }).optional(),
  dataDir: z.string().default('.eureka'),
  stack: z.string().min(1).optional(),
  json: z.boolean().default(false),
  open: z.boolean().default(false),
  generation: z.coerce.number({ error: 'must be a generation number' }).int({ error: 'must be a whole number' }).min(1, { error: 'must be 1 or more' }).optional(),
});

export async function showCommand(raw: unknown): Promise<void> {
  const flags = parseFlags(ShowFlags, raw);
  if (flags.generation !== undefined) return showGeneration(flags, flags.generation);
  let report: ScoreboardReport;
  if (flags.stack === undefined) {
    report = await printScoreboard(flags.dataDir, flags.id ?? (await latestSearch(flags.dataDir)), false);
  } else {
    const searchId = idOnAws(flags);
    report = await onAws(flags.stack, async (store, bucketName) => {
      const { presignedUrl } = await import('../presigned-url.ts');
      return readReport(store, searchId, (key) => presignedUrl(bucketName, key), `in stack ${flags.stack}`);
    });
  }
  process.stdout.write(flags.json ? `${JSON.stringify(report)}\n` : formatReport(report));
  if (flags.open && report.latestCard) {
    const { openInBrowser } = await import('../open.ts');
    await openInBrowser(report.latestCard.location);
  }
}

/** --generation N: the proposer's analysis, the candidates and the reflection of one generation. */
async function showGeneration(flags: z.infer<typeof ShowFlags>, generation: number): Promise<void> {
  let report: GenerationReport;
  if (flags.stack === undefined) {
    const id = flags.id ?? (await latestSearch(flags.dataDir));
    report = await withLocalStore(flags.dataDir, (store) => readGeneration(store, id, generation));
  } else {
    const id = idOnAws(flags);
    report = await onAws(flags.stack, (store) => readGeneration(store, id, generation));
  }
  process.stdout.write(flags.json ? `${JSON.stringify(report)}\n` : formatGeneration(report));
}

/** On AWS there is no latest search to default to. */
function idOnAws(flags: z.infer<typeof ShowFlags>): string {
  if (flags.id === undefined) throw new UsageError('--stack: give the search id (eureka show ID --stack NAME)');
  return flags.id;
}

/** Reads a search on AWS: its table and bucket through the stack's outputs, AWS's errors explained. */
async function onAws<T>(stack: string, read: (store: SearchStore, bucketName: string) => Promise<T>): Promise<T> {
  try {
    const { tableName, bucketName } = await stackOutputs(stack, ['tableName', 'bucketName']);
    return await read(new SearchStore(new Table(tableName), new S3BlobStore(bucketName)), bucketName);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw explainAws(err, stack, 'could not read the search');
  }
}

export interface ScoreboardReport {
  searchId: string;
  /**
   * The table's status; locally a `running` search whose process is gone is `stopped`, and one
   * whose execution failed `failed` (show-latest.ts), with `statusDetail` saying how to go on.
   */
  status: string;
  statusDetail: string | null;
  task: string;
  generations: Array<{
    generation: number; bestSoFar: string | null;
    rows: Array<{ name: string; success: number; progress: number | null; meanSuccessSteps: number | null; meanReturn: number | null; outcome: string; reason: string }>;
  }>;
  proposer: { kind: string; model: string; requests: number; inputTokens: number; outputTokens: number; thinkingTokens?: number; costUsd: number | null; repairRequests: number };
  /** The input's ceiling on the proposer's cost (null: none). */
  maxCostUsd: number | null;
  /** Why the search finished before its last generation, if it did. */
  stopped: StopRecord | null;
  /** Candidates that failed their sandbox check and never trained. */
  failedChecks: number;
  /** Each pause for a person's feedback: answered, waiting, or timed out. */
  feedback: Array<{ generation: number; state: 'answered' | 'waiting' | 'timed out'; action: string | null; text: string | null; deadline: string; cardPath: string | null }>;
  /** The winner's card (a file, or with --stack a presigned URL); null until it is published. */
  cardPath: string | null;
  /** The newest card: the winner's, else the interim card of the last generation; null before any candidate trained. */
  latestCard: { kind: 'winner' | 'interim'; generation: number | null; location: string } | null;
  /** Environment steps the search trained so far, and what it would have without racing (summary.json's, once published). */
  stepsTrained: number;
  stepsFullBudget: number;
  /** Seconds the seed-runs' invocations took, summed (times TrainSeed's memory: GB-seconds), and the search's wall seconds so far. */
  seedRunSeconds: number;
  wallSeconds: number;
  /** What "Start the search" estimated before anything trained (null: a search stored before it). */
  estimate: SearchEstimate | null;
  /** History events per execution as the local runtime counted them (null: not counted, a search on AWS). */
  history: HistoryRecord | null;
  /** Once published: did the winner beat the best baseline on the fresh seeds (summary.json's beatsBaselines, with both scores)? */
  verdict: ShownVerdict | null;
}

/** Reads a local search's records and, when asked, prints them as a table on stdout. */
export async function printScoreboard(dataDir: string, searchId: string, print: boolean): Promise<ScoreboardReport> {
  const bucketPath = async (key: string) => join(resolve(dataDir), 'bucket', key);
  const report = await withLocalStore(dataDir, (store) => readReport(store, searchId, bucketPath, `in ${dataDir}`));
  const { status, detail } = await localStatus(dataDir, searchId, report.status);
  report.status = status;
  report.statusDetail = detail;
  if (print) process.stdout.write(formatReport(report));
  return report;
}

/** `locate`: where a person opens an object of the bucket (a file, a URL). */
async function readReport(store: SearchStore, searchId: string, locate: (key: string) => Promise<string>, where: string): Promise<ScoreboardReport> {
  const meta = await store.meta(searchId).catch(() => { throw new UsageError(`no search ${searchId} ${where}`); });
  const summaries = await store.summaries(searchId);
  const answers = await store.answers(searchId);
  // From the table alone, so no S3 listing is needed: Publish records the winner's keys, and
  // Reflect writes the interim card of each generation it summarizes.
  const published = await store.winner<{ keys?: { cardHtml?: string } }>(searchId);
  const cardKey = published?.keys?.cardHtml ?? null;
  const lastGeneration = summaries.at(-1)?.generation ?? null;
  const latestCard = cardKey !== null
    ? { kind: 'winner' as const, generation: null, location: await locate(cardKey) }
    : meta.best && lastGeneration !== null
      ? { kind: 'interim' as const, generation: lastGeneration, location: await locate(interimCardKey(searchId, lastGeneration)) }
      : null;
  const now = Date.now();
  return {
    searchId,
    task: meta.config.task,
    status: meta.status,
    statusDetail: null,
    generations: summaries.map((s) => ({
      generation: s.generation,
      rows: s.scoreboard.map(({ name, success, progress, meanSuccessSteps, meanReturn, outcome, reason }) => ({ name, success, progress: progress ?? null, meanSuccessSteps, meanReturn, outcome, reason })),
      bestSoFar: s.bestSoFar?.name ?? null,
    })),
    proposer: {
      kind: meta.config.proposer,
      model: answers[0]?.model ?? meta.config.model,
      ...proposerUsage(answers, await store.bills(searchId)),
    },
    maxCostUsd: meta.config.maxCostUsd ?? null,
    stopped: meta.stoppedBy ?? null,
    failedChecks: summaries.reduce((n, s) => n + s.scoreboard.filter((row) => row.reason.startsWith(FAILED_CHECK)).length, 0),
    feedback: await Promise.all((await store.feedbacks(searchId)).map(async (f) => ({
      generation: f.generation,
      state: f.answer ? 'answered' as const : Date.parse(f.deadline) > now ? 'waiting' as const : 'timed out' as const,
      action: f.answer?.action ?? null,
      text: f.answer?.text ?? null,
      deadline: f.deadline,
      cardPath: f.cardKey === '' ? null : await locate(f.cardKey),
    }))),
    cardPath: latestCard?.kind === 'winner' ? latestCard.location : null,
    latestCard,
    ...(await stepsOf(store, searchId, meta.config)),
    wallSeconds: ((meta.status === 'finished' ? Date.parse(meta.updatedAt) : now) - Date.parse(meta.startedAt)) / 1000,
    estimate: meta.estimate ?? null,
    history: meta.history ?? null,
    verdict: await publishedVerdict(store, searchId),
  };
}

/** summary.json's count once the search is published; until then, what its records say so far. */
async function stepsOf(store: SearchStore, searchId: string, config: SearchSettings): Promise<{ stepsTrained: number; stepsFullBudget: number; seedRunSeconds: number }> {
  const summary = await store.blobs.getText(`${winnerPrefix(searchId)}/summary.json`);
  if (summary !== undefined) {
    const { stepsTrained, stepsFullBudget, seedRunSeconds } = JSON.parse(summary) as { stepsTrained?: number; stepsFullBudget?: number; seedRunSeconds?: number };
    if (stepsTrained !== undefined && stepsFullBudget !== undefined) return { stepsTrained, stepsFullBudget, seedRunSeconds: seedRunSeconds ?? 0 };
  }
  const records = (await Promise.all(Array.from({ length: config.generations + 1 }, (_, g) => store.candidates(searchId, g)))).flat();
  return computeOf(records, [], stepsAtBudget(getTask(config.task), config.steps));
}

function formatReport(r: ScoreboardReport): string {
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`.padStart(5);
  const lines = [`search ${r.searchId} on ${r.task} (${r.status})`];
  if (r.statusDetail) lines.push(r.statusDetail);
  const cell = (x: number | null, digits: number) => (x === null ? '-' : x.toFixed(digits)).padStart(8);
  for (const g of r.generations) {
    lines.push(`generation ${g.generation} (best so far: ${g.bestSoFar ?? '-'})   success  progress   steps   return`);
    for (const row of g.rows) {
      lines.push(`  ${pct(row.success)}   ${cell(row.progress, 2)} ${cell(row.meanSuccessSteps, 0)} ${cell(row.meanReturn, 1)}  ${row.outcome.padEnd(7)} ${row.name}${row.reason ? `  (${row.reason})` : ''}`);
    }
  }
  const p = r.proposer;
  const cost = p.costUsd === null ? 'cost unknown' : `about $${p.costUsd.toFixed(4)}`;
  lines.push(p.kind === 'offline'
    ? `proposer: offline (${p.requests} generation${p.requests === 1 ? '' : 's'}, no model calls)`
    : p.kind === 'command' || p.kind === 'files'
      ? `proposer: ${p.kind} ${JSON.stringify(p.model)}, ${p.requests} request${p.requests === 1 ? '' : 's'}, no cost`
      : `proposer: ${p.kind} ${p.model}, ${p.requests} request${p.requests === 1 ? '' : 's'}, ${p.inputTokens} input and ${p.outputTokens} output tokens${p.thinkingTokens ? ` (${p.thinkingTokens} of them thinking)` : ''}, ${cost}`);
  if (r.failedChecks > 0) lines.push(`${r.failedChecks} candidate${r.failedChecks === 1 ? '' : 's'} failed the sandbox check and never trained; ${p.repairRequests} repair request${p.repairRequests === 1 ? '' : 's'}`);
  if (r.maxCostUsd !== null) lines.push(`budget: $${r.maxCostUsd.toFixed(2)}${p.costUsd === null ? '' : `, spent $${p.costUsd.toFixed(4)}`}`);
  if (r.stopped) lines.push(`stopped early by ${r.stopped.reason === 'budget' ? 'the budget' : 'a person'}: ${r.stopped.detail}`);
  for (const f of r.feedback) {
    if (f.state === 'waiting') lines.push(`waiting for feedback after generation ${f.generation} until ${f.deadline}: eureka feedback ${r.searchId} --text "..." | --continue | --stop (interim card: ${f.cardPath ?? '-'})`);
    else if (f.state === 'timed out') lines.push(`feedback after generation ${f.generation}: nobody answered by ${f.deadline}; the search went on`);
    else lines.push(`feedback after generation ${f.generation}: ${f.action}${f.text ? ` "${f.text}"` : ''}`);
  }
  if (r.stepsFullBudget > 0) {
    const share = r.stepsTrained / r.stepsFullBudget;
    lines.push(`steps trained: ${r.stepsTrained.toLocaleString('en-US')} of the ${r.stepsFullBudget.toLocaleString('en-US')} a search without racing would have (${(share * 100).toFixed(0)}%)`);
  }
  if (r.estimate) lines.push(estimateLine(r));
  if (r.history) lines.push(historyLine(r.history));
  if (r.verdict) lines.push(verdictLine(r.verdict));
  lines.push(`card: ${r.cardPath ?? '(not published yet)'}`);
  if (r.latestCard?.kind === 'interim') lines.push(`interim card after generation ${r.latestCard.generation}: ${r.latestCard.location}`);
  return `${lines.join('\n')}\n`;
}

/** The estimate made before the search beside what it spent (on AWS, the estimate's AWS figures). */
function estimateLine(r: ScoreboardReport): string {
  const e = r.estimate!;
  const where = e.local ?? e.aws;
  const gb = (FUNCTION_CAPS.trainSeed.memoryMb / 1024) * r.seedRunSeconds;
  const int = (x: number) => Math.round(x).toLocaleString('en-US');
  return `estimated before it started: ${int(e.steps.raced)} steps (${int(e.steps.fullBudget)} without racing), ${durationOf(where.seconds)}, ` +
    `${int(where.gbSeconds)} GB-seconds of seed-runs; ${r.status === 'finished' ? 'spent' : 'spent so far'}: ${int(r.stepsTrained)} steps ` +
    `(${int(r.stepsFullBudget)} without racing), ${durationOf(r.wallSeconds)}, ${int(gb)} GB-seconds`;
}

/** Each execution's history against Step Functions' quota on it. */
function historyLine(h: HistoryRecord): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const children = h.seedRunExecutions === 0 ? '' : `; ${n(h.seedRunExecutions)} seed-run executions, the largest ${n(h.largestSeedRun)}`;
  return `history events (at most ${n(h.limit)} an execution): ${n(h.search)} in the search's execution${children}`;
}
