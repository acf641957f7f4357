/** The zod schema a task folder's spec is checked against when the registry loads it. */
import { z } from 'zod';
import { BASELINE_NAMES } from './contract.ts';

const fn = z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', { error: 'must be a function' });
const text = z.string().trim().min(1);
const finite = z.number().refine(Number.isFinite, { error: 'must be a finite number' });
/** A bound: a number or ±Infinity (zod's number refuses the infinities). */
const bound = z.custom<number>((v) => typeof v === 'number' && !Number.isNaN(v), { error: 'must be a number or ±Infinity' });

const ObservationDimSchema = z.object({
  name: text,
  low: bound,
  high: bound,
  typical: z.tuple([finite, finite]).refine(([lo, hi]) => lo < hi, { error: 'must be [low, high] with low < high' }).optional(),
  hidden: z.boolean().optional(),
}).refine((d) => d.low < d.high, { error: 'low must be below high' })
  .refine((d) => d.typical !== undefined || (Number.isFinite(d.low) && Number.isFinite(d.high)), {
    error: 'needs a finite typical range where its bounds are infinite (the trainer scales it to [-1, 1])',
  });

const ActionSpaceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('discrete'), names: z.array(text).min(2), neutral: z.int().min(0).optional() })
    .refine((a) => a.neutral === undefined || a.neutral < a.names.length, { error: 'neutral must be one of the actions' }),
  z.object({ kind: z.literal('box'), names: z.array(text).min(1), low: z.array(finite), high: z.array(finite) })
    .refine((a) => a.low.length === a.names.length && a.high.length === a.names.length, { error: 'low, high and names must have one entry per dimension' })
    .refine((a) => a.low.every((lo, k) => lo < a.high[k]), { error: 'low must be below high in every dimension' }),
]);

const FieldTolerance = z.object({ state: finite.nonnegative(), obs: finite.nonnegative(), reward: finite.nonnegative() });

const RewardSourceSchema = z.object({ idea: text, code: z.string().includes('computeReward', { error: 'must define computeReward' }) });

/**
 * A task's id, which is also its folder's name: the rule the registry loads folders by and
 * `eureka new-task` names them by, so a folder new-task writes always loads. Gymnasium's ids
 * ("CartPole-v1") are of this kind; the version suffix is a convention, not required.
 */
export const TASK_ID = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
/** The rule in words, after "a task's id" (as in "NAME "my task": a task's id starts with ..."). */
export const TASK_ID_RULE = 'starts with a letter and holds only letters, digits, _ . - (at most 64 characters), such as CartPole-v1 or MyTask-v0';

export const TaskSpecSchema = z.object({
  id: z.string().regex(TASK_ID, { error: `a task's id ${TASK_ID_RULE}` }),
  description: text,
  maxEpisodeSteps: z.int().min(1).max(100_000),
  rewardThreshold: finite.optional(),
  // Ant-v5 observes 105 numbers (its contact forces among them).
  observation: z.array(ObservationDimSchema).min(1).max(256),
  recorded: z.array(z.object({ name: text })).max(64).optional(),
  action: ActionSpaceSchema,
  makeEnv: fn,
  prepare: fn.optional(),
  success: z.object({ clause: text, headline: text, describe: text, returnFormula: text.optional(), test: fn }),
  tieBreak: z.enum(['fewer-steps', 'none'], {
    error: 'must be "fewer-steps" or "none" (candidates are ranked by success, then progress, never by a reward\'s return)',
  }).optional(),
  progress: z.object({ describe: text, label: text, measure: fn, format: fn }, {
    error: 'must say how far an episode got: { describe, label, measure(episode), format(value) }, measured on the observations and recorded state, never a reward',
  }),
  diagnostic: z.never({ error: 'is now progress: { describe, label, measure, format }, measured on the observations and recorded state, never a reward' }).optional(),
  termination: z.enum(['success', 'failure', 'never', 'mixed']),
  baselines: z.object({ environment: RewardSourceSchema, human: RewardSourceSchema }),
  features: z.array(z.object({
    name: z.string().regex(/^[a-z][A-Za-z0-9]{0,30}$/, { error: 'must be a camelCase identifier' }),
    expression: text,
    describe: text,
  })).min(1).max(12),
  render: z.object({ animation: fn, plots: fn, story: fn }),
  budget: z.object({
    steps: z.int().min(2048).max(10_000_000),
    evalEpisodes: z.int().min(1).max(100),
    smokeSteps: z.int().min(2048).max(10_000_000),
    stepsPerSecond: finite.positive().optional(),
    raceSurvival: finite.min(0).max(1).optional(),
  }),
  ppo: z.record(z.string(), z.unknown()).optional(),
  replay: fn.optional(),
  conformance: fn.optional(),
  conformanceTolerance: FieldTolerance.extend({
    replayFrom: z.enum(['start', 'each-step']).optional(),
    afterContact: FieldTolerance.optional(),
  }).optional(),
  environmentFile: z.string().regex(/^[A-Za-z0-9_.-]+$/).optional(),
  environmentFiles: z.array(text).min(1).max(4).optional(),
  environmentText: text.optional(),
  environmentNote: text.optional(),
  bank: z.object({
    successWords: text.optional(),
    policies: z.array(z.object({
      name: z.string().regex(/^[a-z][a-z0-9-]{0,30}$/, { error: 'must be a kebab-case name' }),
      kind: z.enum(['success', 'failure']),
      words: text,
      episodes: z.int().min(1).max(100).optional(),
      act: fn,
    })).max(16).refine((ps) => new Set(ps.map((p) => p.name)).size === ps.length, { error: 'policy names must be unique' }).optional(),
    trainedSuccesses: z.enum(BASELINE_NAMES).optional(),
    trainedFailures: z.object({ baseline: z.enum(BASELINE_NAMES), words: text }).optional(),
    noSuccessesYet: text.optional(),
  }).optional(),
}).superRefine((spec, ctx) => {
  spec.features.forEach((f, i) => {
    const problem = featureProblem(f.expression, spec.observation.length, spec.recorded?.length ?? 0);
    if (problem !== null) ctx.addIssue({ code: 'custom', path: ['features', i, 'expression'], message: problem });
  });
});

/**
 * Why a feature's expression would break every offline candidate that uses it, found when the
 * folder loads rather than as a search's failed checks: it does not parse, or reads an entry of
 * `s` or `r` past the observation's or the recorded state's length (read as undefined, so NaN).
 * A task folder is trusted code (docs/your-own-task.md), so the expression runs here, once, on
 * arrays of 0.5 that note each index read.
 */
export function featureProblem(expression: string, obsSize: number, recordSize: number): string | null {
  let feature: (s: unknown, r: unknown) => unknown;
  try {
    feature = new Function('s', 'r', `'use strict'; return (${expression});`) as typeof feature;
  } catch (error) {
    return `does not parse as a JavaScript expression over s: ${(error as Error).message}`;
  }
  const past: string[] = [];
  const watched = (name: string, size: number) => new Proxy(new Array<number>(size).fill(0.5), {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key) && Number(key) >= size) past.push(`${name}[${key}]`);
      return Reflect.get(target, key, receiver);
    },
  });
  try {
    feature(watched('s', obsSize), watched('r', recordSize));
  } catch (error) {
    return `throws on a state of 0.5s: ${(error as Error).message}`;
  }
  if (past.length > 0) return `reads ${[...new Set(past)].join(', ')}, past the ${obsSize} observation entries (s) and ${recordSize} recorded ones (r)`;
  return null;
}

/** One line: every problem, with the field it is at. */
export function describeSpecIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.map(String).join('.') || 'the default export'}: ${issue.message}`).join('; ');
}
