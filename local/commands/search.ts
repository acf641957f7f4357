/** `eureka search`: the whole search, on this machine, through the same state machine as AWS. */
import { randomBytes } from 'node:crypto';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { MAX_EVAL_EPISODES, MAX_RUNGS, MAX_SEED_RUN_STEPS, MAX_SEEDS, THINKING_BUDGET_LIMITS } from '../../infra/config.ts';
import type { PublishResult } from '../../functions/shared/search/contracts.ts';
import { ProposerField } from '../../functions/shared/input/proposer-input.ts';
import { EXIT } from '../exit-codes.ts';
import { intFlag, parseFlags, UsageError } from '../flags.ts';
import { taskFlag } from '../task-flag.ts';
import { getTask } from '../../tasks/registry.ts';
import { noteRoundedSteps } from '../steps-note.ts';
import { progressReporter } from '../progress.ts';
import { readUserFile } from '../read-file.ts';
import { runLocalSearch, UnknownSearch } from '../runtime.ts';
import { printEstimate } from './estimate.ts';
import { printScoreboard } from './show.ts';

const SearchFlags = z.object({
  task: taskFlag(),
  smoke: z.boolean().default(false),
  generations: intFlag(1, 20).optional(),
  candidates: intFlag(1, 16).optional(),
  seeds: intFlag(1, MAX_SEEDS).optional(),
  freshSeeds: intFlag(1, MAX_SEEDS).optional(),
  steps: intFlag(2048, MAX_SEED_RUN_STEPS).optional(),
  evalEpisodes: intFlag(1, MAX_EVAL_EPISODES).optional(),
  racing: z.boolean().default(true),
  racingEta: intFlag(2, 8).optional(),
  racingRungs: intFlag(2, MAX_RUNGS).optional(),
  chunkSteps: intFlag(2048, MAX_SEED_RUN_STEPS).optional(),
  randomSeed: intFlag(0, 2 ** 32 - 1).optional(),
  proposer: ProposerField.optional(),
  model: z.string().min(1).optional(),
  thinkingBudget: intFlag(THINKING_BUDGET_LIMITS.min, THINKING_BUDGET_LIMITS.max).optional(),
  hostile: z.boolean().default(true),
  humanInit: z.array(z.string()).default([]),
  repair: z.boolean().default(true),
  screen: z.enum(['report', 'repair', 'skip'], { error: 'must be report, repair or skip' }).optional(),
  feedback: z.enum(['none', 'wait'], { error: 'must be none or wait' }).optional(),
  feedbackTimeout: z.coerce.number({ error: 'must be a number of minutes' }).positive({ error: 'must be more than 0' }).max(1440, { error: 'must be at most 1440 (a day)' }).optional(),
  maxCost: z.coerce.number({ error: 'must be a number of US dollars' }).positive({ error: 'must be more than 0' }).max(10_000, { error: 'must be at most 10000' }).optional(),
  searchId: z.string().regex(/^[A-Za-z0-9_-]{1,80}$/, { error: 'letters, digits, - and _ only (at most 80)' }).optional(),
  resume: z.string().regex(/^[A-Za-z0-9_-]{1,80}$/, { error: 'must be the id of an earlier search' }).optional(),
  dataDir: z.string().default('.eureka'),
  json: z.boolean().default(false),
  estimate: z.boolean().default(false),
});

export async function searchCommand(raw: unknown): Promise<void> {
  const flags = parseFlags(SearchFlags, raw);
  if (flags.resume && flags.searchId) throw new UsageError('--resume and --search-id: give one of them');
  if (!flags.racing && (flags.racingEta !== undefined || flags.racingRungs !== undefined)) {
    throw new UsageError('--no-racing and --racing-eta/--racing-rungs: give one of them');
  }
  if (flags.estimate && flags.resume) throw new UsageError('--estimate and --resume: an estimate is of a new search');
  const searchId = flags.resume ?? flags.searchId ?? newSearchId();
  const input = flags.resume ? { searchId } : await executionInput(flags, searchId);
  // Once the search is accepted (its first event; a refused one is one line) or estimated.
  const noteSteps = once(() => { if (!flags.resume) noteRoundedSteps(getTask(flags.task), flags.steps, '--steps'); });
  if (flags.estimate) {
    const proposer = process.env.ANTHROPIC_API_KEY ? 'anthropic' : 'offline';
    printEstimate(input, { proposer, costCeilingUsd: null, local: true, flag: 'search' }, flags.json);
    noteSteps();
    return;
  }

  const progress = progressReporter();
  // Ctrl-C stops the search as a kill would (it resumes from its stores); say how, rather than nothing.
  const interrupted = () => {
    progress.stop();
    process.stderr.write(`\neureka: stopped; \`eureka search --resume ${searchId} --data-dir ${flags.dataDir}\` continues it\n`);
    process.exit(EXIT.interrupted);
  };
  process.once('SIGINT', interrupted);
  let result: { output: unknown };
  try {
    result = await runLocalSearch({ dataDir: flags.dataDir, executionName: searchId, input, resume: flags.resume !== undefined, onEvent: (event) => {
      noteSteps();
      progress.onEvent(event);
    } });
  } catch (err) {
    if (err instanceof UnknownSearch) throw new UsageError(`--resume: ${err.message}`);
    throw err;
  } finally {
    process.removeListener('SIGINT', interrupted);
    progress.stop();
  }
  const published = result.output as PublishResult;
  const cardPath = join(flags.dataDir, 'bucket', published.cardKey);
  const { generations, verdict } = await printScoreboard(flags.dataDir, searchId, !flags.json);
  if (flags.json) process.stdout.write(`${JSON.stringify({ searchId, winner: published.winner, baselines: published.baselines, generations, cardPath })}\n`);
  if (published.winner === null) {
    // Why, as summary.json and `eureka show` say it.
    process.stderr.write(`eureka: no winner: ${verdict !== null && 'nothingTrained' in verdict ? verdict.nothingTrained : 'no candidate trained'}\n`);
    process.exitCode = EXIT.noWinner;
  }
}

async function executionInput(flags: z.infer<typeof SearchFlags>, searchId: string): Promise<Record<string, unknown>> {
  const humanInit = await Promise.all(flags.humanInit.map(async (file) => {
    const code = await readUserFile(file);
    const idea = /\/\/\s*idea:\s*(.*)/.exec(code)?.[1]?.trim() ?? `the reward in ${basename(file)}`;
    return { name: basename(file).replace(/\.[^.]+$/, '').replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 64) || 'human', idea, code };
  }));
  const pick = Object.fromEntries(Object.entries({
    generations: flags.generations, candidates: flags.candidates, seeds: flags.seeds, freshSeeds: flags.freshSeeds, steps: flags.steps, evalEpisodes: flags.evalEpisodes,
    proposer: flags.proposer, model: flags.model, thinkingBudget: flags.thinkingBudget, feedback: flags.feedback, feedbackTimeoutMinutes: flags.feedbackTimeout, maxCostUsd: flags.maxCost,
    chunkSteps: flags.chunkSteps, racing: racingInput(flags), randomSeed: flags.randomSeed, screen: flags.screen,
  }).filter(([, v]) => v !== undefined));
  return { searchId, task: flags.task, ...(flags.smoke ? { smoke: true } : {}), ...pick, includeHostile: flags.hostile, repair: flags.repair, ...(humanInit.length ? { humanInit } : {}) };
}

/** --no-racing is Eureka's way; --racing-eta/--racing-rungs override the defaults. */
function racingInput(flags: z.infer<typeof SearchFlags>): false | { eta?: number; rungs?: number } | undefined {
  if (!flags.racing) return false;
  if (flags.racingEta === undefined && flags.racingRungs === undefined) return undefined;
  return { ...(flags.racingEta === undefined ? {} : { eta: flags.racingEta }), ...(flags.racingRungs === undefined ? {} : { rungs: flags.racingRungs }) };
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (!done) fn();
    done = true;
  };
}

function newSearchId(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `search-${stamp}-${randomBytes(2).toString('hex')}`;
}
