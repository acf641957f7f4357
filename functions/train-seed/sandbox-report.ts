/**
 * What crosses the sandbox boundary, host side: the batch as a buffer of float64 going in (a
 * copy), and coming out the wrapper's JSON string (term names or the first fault) plus a buffer
 * of float64 values, all parsed and checked by the host before anything is believed. Also turns
 * the wrapper's fault records into one-line reasons.
 */
import type { FaultOutcome, RewardBatch, SandboxLimits, TransitionBatch, TransitionLayout } from './sandbox-types.ts';

/** Float64 values per transition: obs, action, nextObs, terminated (0/1), then state and nextState where the task records any. */
export function strideOf(layout: TransitionLayout): number {
  return 2 * layout.obsSize + layout.actionSize + 1 + 2 * recordSizeOf(layout);
}

export const recordSizeOf = (layout: TransitionLayout): number => layout.recordSize ?? 0;

/** One flat float64 buffer for the whole batch; float32 observations widen to float64 exactly. */
export function encodeBatch(batch: TransitionBatch, layout: TransitionLayout): Float64Array {
  const { count, obs, actions, nextObs, terminated } = batch;
  const { obsSize: d, actionSize: k } = layout;
  const r = recordSizeOf(layout);
  const stride = strideOf(layout);
  const flat = new Float64Array(stride * count);
  for (let i = 0; i < count; i++) {
    const b = stride * i;
    for (let j = 0; j < d; j++) flat[b + j] = obs[d * i + j];
    for (let j = 0; j < k; j++) flat[b + d + j] = actions[k * i + j];
    for (let j = 0; j < d; j++) flat[b + d + k + j] = nextObs[d * i + j];
    flat[b + 2 * d + k] = terminated[i] ? 1 : 0;
    for (let j = 0; j < r; j++) flat[b + 2 * d + k + 1 + j] = batch.state?.[r * i + j] ?? 0;
    for (let j = 0; j < r; j++) flat[b + 2 * d + k + 1 + r + j] = batch.nextState?.[r * i + j] ?? 0;
  }
  return flat;
}

export function checkBatch(batch: TransitionBatch, layout: TransitionLayout): void {
  const { count } = batch;
  const { obsSize: d, actionSize: k } = layout;
  const r = recordSizeOf(layout);
  const ok =
    Number.isInteger(count) && count >= 0 &&
    batch.obs.length >= d * count && batch.nextObs.length >= d * count &&
    batch.actions.length >= k * count && batch.terminated.length >= count &&
    (r === 0 || ((batch.state?.length ?? 0) >= r * count && (batch.nextState?.length ?? 0) >= r * count));
  if (!ok) throw new RangeError(`transition batch arrays are shorter than count=${count} transitions of ${d} + ${k} + ${r} values`);
}

/** What the wrapper's describe() says about a thrown value. */
export interface Thrown {
  type: string;
  readable: boolean;
  name: string;
  message: string;
  stack: string;
}

export function parseThrown(text: string): Thrown {
  return readThrown(JSON.parse(text));
}

function readThrown(raw: unknown): Thrown {
  const field = (key: string): string => {
    const value = isRecord(raw) ? raw[key] : undefined;
    return typeof value === 'string' ? value : '';
  };
  return {
    type: field('type'),
    readable: isRecord(raw) && raw.readable === true,
    name: field('name'),
    message: field('message'),
    stack: field('stack'),
  };
}

/** The outcome and reason for something a candidate threw (or QuickJS threw on its behalf). */
export function classifyThrown(thrown: Thrown, limits: SandboxLimits): { outcome: FaultOutcome; text: string } {
  const internal = thrown.type === 'object' && thrown.name === 'InternalError';
  if (internal && thrown.message === 'out of memory') {
    return { outcome: 'memory', text: `reward exceeded its ${mib(limits.memoryBytes)} memory limit` };
  }
  if (internal && thrown.message === 'stack overflow') {
    return { outcome: 'error', text: `reward overflowed its ${kib(limits.stackBytes)} stack (recursion too deep)` };
  }
  return { outcome: 'error', text: describeThrown(thrown) };
}

/** " at line N" when a stack points into the candidate's file, else "". */
export function lineOf(stack: string): string {
  const where = /reward\.js:(\d+)/.exec(stack);
  return where ? ` at line ${where[1]}` : '';
}

function describeThrown(thrown: Thrown): string {
  const where = lineOf(thrown.stack);
  const at = where ? ` (${where.trim()})` : '';
  if (thrown.type === 'undefined' || thrown.type === 'null') return `${thrown.type} (not an Error)`;
  if (thrown.type !== 'object' && thrown.type !== 'function') return `${oneLine(thrown.message)} (a ${thrown.type}, not an Error)`;
  if (!thrown.readable) return 'an object whose message could not be read';
  if (!thrown.name && !thrown.message) return 'an object that is not an Error';
  const head = thrown.name && thrown.message ? `${thrown.name}: ${thrown.message}` : thrown.name || thrown.message;
  return oneLine(head) + at;
}

/** The wrapper's answer to run(): a fault, or the term names (values come separately). */
export function readRunHeader(text: string, limits: SandboxLimits, stepOffset: number): string[] | ReportFault {
  const raw: unknown = JSON.parse(text);
  if (!isRecord(raw)) return malformedReport('not an object');
  if (typeof raw.fault === 'string') return faultReason(raw, limits, stepOffset);
  const names = raw.names;
  if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) return malformedReport('names');
  if (names.length > limits.maxTerms) return { outcome: 'error', text: `reward used more than ${limits.maxTerms} terms` };
  if (new Set(names).size !== names.length) return malformedReport('duplicate names');
  for (const name of names) {
    const problem = termNameProblem(name, limits);
    if (problem) return { outcome: 'error', text: problem };
  }
  return names;
}

/** Splits take()'s values (count rewards, then count per term) after checking them all. */
export function readRunValues(values: Float64Array, names: string[], count: number): RewardBatch | ReportFault {
  if (values.length !== count * (1 + names.length)) return malformedReport('value count');
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i])) return malformedReport('non-finite value');
  const terms = new Map<string, Float64Array>();
  names.forEach((name, k) => terms.set(name, values.slice(count * (1 + k), count * (2 + k))));
  return { rewards: values.slice(0, count), terms };
}

export interface ReportFault {
  outcome: FaultOutcome;
  text: string;
}

export function isReportFault<T extends object>(value: T | ReportFault): value is ReportFault {
  return 'outcome' in value && 'text' in value;
}

function faultReason(raw: Record<string, unknown>, limits: SandboxLimits, stepOffset: number): ReportFault {
  const step = typeof raw.step === 'number' ? raw.step + stepOffset : stepOffset;
  const term = typeof raw.term === 'string' ? JSON.stringify(raw.term) : '""';
  const got = typeof raw.got === 'string' ? raw.got : 'something else';
  // A total or a term of undefined: most often read past the end of obs, action or state.
  const value = got === 'undefined' ? 'undefined (what an index past the end of an array, or a missing property, reads)' : got;
  const malformed = `reward returned a malformed value at step ${step}`;
  const shape = 'expected [total, terms] or {reward, terms}';
  switch (raw.fault) {
    case 'shape':
      return { outcome: 'error', text: `${malformed}: ${shape}, got ${got}` };
    case 'total':
      return { outcome: 'error', text: `${malformed}: ${shape} with a number total, got ${value}` };
    case 'terms':
      return { outcome: 'error', text: `${malformed}: ${shape} with an object of terms, got ${got}` };
    case 'term-type':
      return { outcome: 'error', text: `${malformed}: term ${term} is ${value}, not a number` };
    case 'nonfinite':
      return { outcome: 'error', text: `reward returned a non-finite value at step ${step}` };
    case 'term-nonfinite':
      return { outcome: 'error', text: `reward returned a non-finite value for term ${term} at step ${step}` };
    case 'term-count':
      return { outcome: 'error', text: `reward used more than ${limits.maxTerms} terms (at step ${step})` };
    case 'term-name':
      return { outcome: 'error', text: `term name longer than ${limits.maxTermNameLength} characters: ${clip(term)} (at step ${step})` };
    case 'threw': {
      const thrown = readThrown(raw.error);
      const { outcome, text } = classifyThrown(thrown, limits);
      if (outcome !== 'error' || text.startsWith('reward overflowed')) return { outcome, text: `${text} at step ${step}` };
      return { outcome, text: `reward threw at step ${step}: ${text}` };
    }
    default:
      return malformedReport(`unknown fault ${String(raw.fault)}`);
  }
}

function termNameProblem(name: string, limits: SandboxLimits): string {
  if (name.length === 0) return 'term name is empty';
  if (name.length > limits.maxTermNameLength) return `term name longer than ${limits.maxTermNameLength} characters: ${clip(JSON.stringify(name))}`;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return `term name ${JSON.stringify(name)} contains control characters`;
  return '';
}

/** The wrapper is trusted, so this means a bug in it, not in the candidate. */
function malformedReport(what: string): ReportFault {
  return { outcome: 'error', text: `sandbox wrapper returned an unreadable report (${what})` };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Candidate-controlled text in a reason: one line, bounded. */
export function oneLine(text: string): string {
  return clip(text.replace(/\s+/g, ' ').trim());
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

export function mib(bytes: number): string {
  return `${Math.round(bytes / 2 ** 20)} MiB`;
}

/** "10 million operations", "2,500,000 operations". */
export function operations(count: number): string {
  return `${count >= 1e6 && count % 1e5 === 0 ? `${count / 1e6} million` : count.toLocaleString('en')} operations`;
}

export function kib(bytes: number): string {
  return `${Math.round(bytes / 2 ** 10)} KiB`;
}
