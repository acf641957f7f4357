/**
 * The search's execution input (DESIGN §1, §7): every field optional, validated with zod, then
 * defaulted. `smoke: true` swaps in the smoke defaults for G, K, S and steps; fields given
 * explicitly still win. Unknown fields are rejected, so a typo never silently runs the defaults.
 */
import { z } from 'zod';
import {
  DEFAULT_BEDROCK_MODEL_ID, DEFAULT_MODEL_ID, ENV_VARS, MAX_COST_USD_LIMIT, MAX_EVAL_EPISODES, MAX_MAP_CONCURRENCY, MAX_RUNGS, MAX_SEEDS, MAX_SEED_RUN_STEPS,
  RACING_DEFAULTS, SEARCH_TIMEOUT_SECONDS, SEARCH_WORK_RESERVE_SECONDS, THINKING_BUDGET_LIMITS,
} from '../../../infra/config.ts';
import { DEFAULT_TASK_ID, TASK_IDS, getTask, renamedNote } from '../../../tasks/registry.ts';
import type { SearchSettings } from '../search/contracts.ts';
import { historyProblem } from '../cost/history-bound.ts';
import { timeProblem } from '../cost/time-bound.ts';
import { defaultConcurrency } from './default-concurrency.ts';
import { answererProblem, ProposerField, proposerChoice } from './proposer-input.ts';

/**
 * Defaults of every search; steps and evaluation episodes come from the task's measured budget, and
 * maxConcurrency from K, S and the task (default-concurrency.ts: a generation's seed-runs at once).
 */
export const SEARCH_DEFAULTS = {
  task: DEFAULT_TASK_ID,
  generations: 4,
  candidates: 6,
  seeds: 5,
  includeHostile: true,
  randomSeed: 0,
  repair: true,
  screen: 'report',
  feedback: 'none',
  feedbackTimeoutMinutes: 60,
  maxCostUsd: null,
  racing: RACING_DEFAULTS,
} as const;

/** `smoke: true`: a small search; its steps are the task's `budget.smokeSteps`. */
export const SMOKE_DEFAULTS = { generations: 2, candidates: 3, seeds: 2 } as const;

const KIB = 1024;
/** Human-written rewards travel in the execution input, which Step Functions caps at 256 KiB. */
const HUMAN_INIT_TOTAL_BYTES = 128 * KIB;

const count = (min: number, max: number) => z.int().min(min).max(max).optional();
const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');
const totalCodeBytes = (rewards: Array<{ code: string }>): number =>
  rewards.reduce((sum, r) => sum + utf8Bytes(r.code), 0);

/** The size of a code string, or of a list of rewards' code, in KiB to one decimal. */
function kib(input: unknown): string {
  const bytes = typeof input === 'string' ? utf8Bytes(input) : Array.isArray(input) ? totalCodeBytes(input) : 0;
  return (bytes / KIB).toFixed(1);
}

const HumanInit = z.strictObject({
  name: z.string().min(1).max(64),
  idea: z.string().max(500).optional(),
  code: z
    .string()
    .min(1)
    .refine((code) => utf8Bytes(code) <= 64 * KIB, {
      error: (issue) => `must be at most 64 KiB of UTF-8 (got ${kib(issue.input)} KiB)`,
    }),
});

export const SearchInputSchema = z.strictObject({
  task: z.string().refine((id) => TASK_IDS.includes(id), {
    error: (issue) => {
      const renamed = renamedNote(issue.input);
      return renamed !== null ? `must be one of the known tasks: ${describeValue(issue.input)} ${renamed}` : `must be one of the known tasks: ${TASK_IDS.join(', ')} (got ${describeValue(issue.input)})`;
    },
  }).optional(),
  smoke: z.boolean().optional(),
  searchId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,80}$/, { error: 'must be 1 to 80 letters, digits, "_" or "-"' })
    .optional(),
  generations: count(1, 20),
  candidates: count(1, 16),
  seeds: count(1, MAX_SEEDS),
  freshSeeds: count(1, MAX_SEEDS),
  steps: count(2048, MAX_SEED_RUN_STEPS),
  evalEpisodes: count(1, MAX_EVAL_EPISODES),
  includeHostile: z.boolean().optional(),
  proposer: ProposerField.optional(),
  model: z.string().min(1).max(200).optional(),
  effort: z.enum(['low', 'medium', 'high', 'xhigh', 'max']).optional(),
  thinkingBudget: count(THINKING_BUDGET_LIMITS.min, THINKING_BUDGET_LIMITS.max),
  maxConcurrency: count(1, MAX_MAP_CONCURRENCY),
  randomSeed: z.int().min(0).max(2 ** 32 - 1).optional(),
  repair: z.boolean().optional(),
  screen: z.enum(['report', 'repair', 'skip'], { error: 'must be "report", "repair" or "skip"' }).optional(),
  feedback: z.enum(['none', 'wait']).optional(),
  // Fractions are fine (0.1 is 6 s; under a second waits a second); a whole execution lasts at most a day.
  feedbackTimeoutMinutes: z.number().positive().max(SEARCH_TIMEOUT_SECONDS / 60).optional(),
  maxCostUsd: z.number().positive().max(MAX_COST_USD_LIMIT).optional(),
  // Successive halving inside each generation, or false: every checked candidate to the full budget.
  racing: z.union([
    z.literal(false),
    z.strictObject({ eta: count(2, 8), rungs: count(2, MAX_RUNGS) }),
  ], { error: `must be false (no racing) or {"eta": 2 to 8, "rungs": 2 to ${MAX_RUNGS}}` }).optional(),
  chunkSteps: count(2048, MAX_SEED_RUN_STEPS),
  humanInit: z
    .array(HumanInit)
    .max(16)
    .refine((rewards) => totalCodeBytes(rewards) <= HUMAN_INIT_TOTAL_BYTES, {
      error: (issue) =>
        `must total at most ${HUMAN_INIT_TOTAL_BYTES / KIB} KiB of code (got ${kib(issue.input)} KiB; ` +
        'Step Functions caps the data it carries at 256 KiB)',
    })
    .optional(),
});

export type SearchInput = SearchSettings & { searchId?: string };

export class InvalidSearchInput extends Error {
  override readonly name = 'InvalidSearchInput';
  constructor(readonly problems: string[]) {
    super(`Invalid search input: ${problems.join('; ')}`);
  }
}

/**
 * Validates the raw execution input and fills in every default. An absent input (undefined)
 * means all defaults. Throws InvalidSearchInput naming each bad field and why.
 * @param defaults what the caller decides: the proposer ('offline' locally without a key), and the
 *   stack's spending ceiling (on AWS: every search gets it, and its own maxCostUsd may only lower it)
 */
export function parseSearchInput(
  raw: unknown, defaults: { proposer: SearchSettings['proposer']; costCeilingUsd?: number | null; local?: boolean },
): SearchInput {
  const parsed = SearchInputSchema.safeParse(raw === undefined ? {} : raw, { reportInput: true });
  if (!parsed.success) throw new InvalidSearchInput(parsed.error.issues.flatMap(describeIssue));
  const input = parsed.data;
  const task = getTask(input.task ?? SEARCH_DEFAULTS.task);
  const chosen = input.proposer === undefined ? { proposer: defaults.proposer, answerer: null } : proposerChoice(input.proposer);
  const base = {
    ...SEARCH_DEFAULTS,
    steps: input.smoke ? task.budget.smokeSteps : task.budget.steps,
    evalEpisodes: task.budget.evalEpisodes,
    ...(input.smoke ? SMOKE_DEFAULTS : {}),
  };
  const chosenFields: Omit<SearchInput, 'maxConcurrency'> = {
    task: task.id,
    generations: input.generations ?? base.generations,
    candidates: input.candidates ?? base.candidates,
    seeds: input.seeds ?? base.seeds,
    steps: input.steps ?? base.steps,
    evalEpisodes: input.evalEpisodes ?? base.evalEpisodes,
    includeHostile: input.includeHostile ?? base.includeHostile,
    proposer: chosen.proposer,
    // Bedrock names models by inference profile; the offline proposer ignores the model; a local answerer is its own.
    model: chosen.answerer ?? input.model ?? (chosen.proposer === 'bedrock' ? DEFAULT_BEDROCK_MODEL_ID : DEFAULT_MODEL_ID),
    ...(input.effort === undefined ? {} : { effort: input.effort }),
    ...(input.thinkingBudget === undefined ? {} : { thinkingBudget: input.thinkingBudget }),
    randomSeed: input.randomSeed ?? base.randomSeed,
    humanInit: (input.humanInit ?? []).map((r) => ({ name: r.name, idea: r.idea ?? '', code: r.code })),
    repair: input.repair ?? base.repair,
    screen: input.screen ?? base.screen,
    feedback: input.feedback ?? base.feedback,
    feedbackTimeoutMinutes: input.feedbackTimeoutMinutes ?? base.feedbackTimeoutMinutes,
    maxCostUsd: input.maxCostUsd ?? defaults.costCeilingUsd ?? base.maxCostUsd,
    racing: input.racing === false ? false : { eta: input.racing?.eta ?? base.racing.eta, rungs: input.racing?.rungs ?? base.racing.rungs },
    ...(input.chunkSteps === undefined ? {} : { chunkSteps: input.chunkSteps }),
    // The re-check on seeds the search never used: as many as the search's own, unless given.
    ...(input.freshSeeds === undefined ? {} : { freshSeeds: input.freshSeeds }),
    ...(input.searchId === undefined ? {} : { searchId: input.searchId }),
  };
  const settings: SearchInput = { ...chosenFields, maxConcurrency: input.maxConcurrency ?? defaultConcurrency(chosenFields, task) };
  const problems = [
    answererProblem(chosen, input, defaults.local ?? false), pausesProblem(settings), ceilingProblem(settings, defaults.costCeilingUsd ?? null),
    historyProblem(settings, task), screenProblem(settings),
  ].filter((p): p is string => p !== null);
  // Only an input the rest accepts is estimated (the estimate reads every field as valid).
  if (problems.length === 0) problems.push(...[timeProblem(settings, task)].filter((p): p is string => p !== null));
  if (problems.length > 0) throw new InvalidSearchInput(problems);
  return settings;
}

/** The screen's repairs are the generation's repair: without it there is nothing to send them with. */
function screenProblem(s: Pick<SearchSettings, 'screen' | 'repair'>): string | null {
  return s.screen === 'repair' && !s.repair ? '"screen": "repair" sends a candidate back with the generation\'s repair, which "repair": false turns off' : null;
}

/** A search's own ceiling may lower the stack's, never raise it. */
function ceilingProblem(s: Pick<SearchSettings, 'maxCostUsd'>, ceiling: number | null): string | null {
  if (ceiling === null || s.maxCostUsd === null || s.maxCostUsd <= ceiling) return null;
  return `"maxCostUsd" must be at most ${ceiling}, the stack's ceiling (cdk deploy -c maxCostUsd=...) (got ${s.maxCostUsd})`;
}

/** The stack's ceiling from its environment variable (unset: none, as locally); a bad value fails at once. */
export function costCeilingUsd(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value <= 0 || value > MAX_COST_USD_LIMIT) {
    throw new Error(`${ENV_VARS.maxCostUsd} must be a number of US dollars, more than 0 and at most ${MAX_COST_USD_LIMIT} (got ${JSON.stringify(raw)})`);
  }
  return value;
}

const hours = (seconds: number): string => `${seconds / 3600} h`;

/**
 * The execution stops after SEARCH_TIMEOUT_SECONDS whatever it is doing: its G-1 pauses for
 * feedback must leave SEARCH_WORK_RESERVE_SECONDS of it to the search itself.
 */
function pausesProblem(s: Pick<SearchSettings, 'feedback' | 'generations' | 'feedbackTimeoutMinutes'>): string | null {
  const pauses = s.generations - 1;
  if (s.feedback !== 'wait' || pauses === 0) return null;
  const most = Math.floor(((SEARCH_TIMEOUT_SECONDS - SEARCH_WORK_RESERVE_SECONDS) / 60 / pauses) * 10) / 10;
  if (s.feedbackTimeoutMinutes <= most) return null;
  return `"feedbackTimeoutMinutes" must be at most ${most} with feedback "wait" and ${s.generations} generations: ` +
    `its ${pauses} pause${pauses === 1 ? '' : 's'} must leave ${hours(SEARCH_WORK_RESERVE_SECONDS)} of the execution's ` +
    `${hours(SEARCH_TIMEOUT_SECONDS)} to the search itself (got ${s.feedbackTimeoutMinutes})`;
}

// ---- One line per problem ------------------------------------------------------------------------

const TOP_FIELDS = Object.keys(SearchInputSchema.shape);
const HUMAN_INIT_FIELDS = Object.keys(HumanInit.shape);
/** Fields that take fractions; every other number in the input is a count or a seed. */
const FRACTIONAL_FIELDS = new Set(['maxCostUsd', 'feedbackTimeoutMinutes']);
/** What each kind of value is called; a count or a seed is "a whole number". */
const KINDS: Record<string, string> = {
  number: 'a whole number',
  int: 'a whole number',
  boolean: 'true or false',
  string: 'a string',
  array: 'a list',
  object: 'an object',
};

function describeIssue(issue: z.core.$ZodIssue): string[] {
  const field = fieldName(issue.path);
  const at = field === '' ? 'the input' : `"${field}"`;
  const got = 'input' in issue ? ` (got ${describeValue(issue.input)})` : '';
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => `unknown field "${fieldName([...issue.path, key])}"${suggest(key, issue.path)}`);
    case 'invalid_type':
      if (issue.input === undefined) return [`${at} is required`];
      if (issue.expected === 'number' && FRACTIONAL_FIELDS.has(field)) return [`${at} must be a number${got}`];
      return [`${at} must be ${KINDS[issue.expected] ?? issue.expected}${got}`];
    case 'too_big':
    case 'too_small': {
      const exclusive = 'inclusive' in issue && issue.inclusive === false;
      const bound = issue.code === 'too_big' ? `${exclusive ? 'less than' : 'at most'} ${issue.maximum}` : `${exclusive ? 'more than' : 'at least'} ${issue.minimum}`;
      const empty = issue.origin === 'string' && issue.code === 'too_small' && issue.minimum === 1;
      if (empty) return [`${at} must not be empty`];
      if (issue.origin === 'string') return [`${at} must be ${bound} characters${sizeOf(issue.input)}`];
      if (issue.origin === 'array') return [`${at} must have ${bound} items${sizeOf(issue.input)}`];
      return [`${at} must be ${bound}${got}`];
    }
    case 'invalid_value':
      return [`${at} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}${got}`];
    case 'invalid_format':
    case 'invalid_union':
    case 'custom':
      return [`${at} ${issue.message}${issue.code === 'invalid_format' ? got : ''}`];
    default:
      return [`${at}: ${issue.message}`];
  }
}

function fieldName(path: readonly PropertyKey[]): string {
  return path.reduce<string>((name, part) => {
    if (typeof part === 'number') return `${name}[${part}]`;
    return name === '' ? String(part) : `${name}.${String(part)}`;
  }, '');
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : String(typeof value);
}

function sizeOf(value: unknown): string {
  return typeof value === 'string' || Array.isArray(value) ? ` (got ${value.length})` : '';
}

/** ` (did you mean "candidates"?)` for a near miss of a known field, else nothing. */
function suggest(key: string, path: readonly PropertyKey[]): string {
  const known = path.length === 0 ? TOP_FIELDS : HUMAN_INIT_FIELDS;
  const scored = known.map((name) => ({ name, d: editDistance(key.toLowerCase(), name.toLowerCase()) }));
  const best = scored.sort((a, b) => a.d - b.d)[0];
  return best && best.d <= Math.max(1, Math.floor(best.name.length / 4)) ? ` (did you mean "${best.name}"?)` : '';
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}
