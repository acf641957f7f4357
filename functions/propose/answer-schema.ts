/**
 * A proposer's answer as JSON, and the one way it is read: the schema the model is held to
 * (structured output), the check of an answer's text against it, and what can be fixed without
 * the model (names made unique, oversize code dropped, more than K cut to K). Every proposer that
 * reads a JSON answer (the Anthropic and Bedrock models, a command's or a person's answer) reads it
 * here, so the `analysis` it writes before its candidates is kept the same way for all of them.
 */
import { zodOutputFormat } from '@anthropic-ai/sdk/helpers/zod';
import type { JSONOutputFormat } from '@anthropic-ai/sdk/resources/messages';
import { z } from 'zod';
import { REWARD_RULES, REWARD_SIGNATURE } from './prompt.ts';
import { ProposerError } from './proposer.ts';
import type { Candidate } from '../shared/search/types.ts';

/**
 * The answer: its analysis first, so that a model writing the object in order reasons before it
 * writes code (Eureka's model writes its analysis before its code), then the candidates.
 */
export const AnswerSchema = z.object({
  analysis: z.string().describe(
    'Written first: your reading of the feedback (each reward term\'s statistics, how the episodes ended, the line to beat), ' +
      'what you change and why; in generation 1, what the task needs and how the candidates differ.',
  ),
  candidates: z
    .array(
      z.object({
        name: z.string().min(1).describe('A short, unique kebab-case name, for example energy-shaping-bonus.'),
        idea: z.string().describe('One or two sentences: what the reward encourages and why it should help PPO solve the task.'),
        code: z.string().min(1).describe(`The complete JavaScript source that defines ${REWARD_SIGNATURE}.`),
      }),
    )
    .min(1)
    .describe('The candidate reward functions, K of them.'),
});

export type Answer = z.infer<typeof AnswerSchema>;

/**
 * What an answer is read with: the same, but an answer without an analysis (an older stored one, a
 * command's that left it out) keeps its candidates; the analysis is then empty and a note says so.
 */
const ReadableAnswer = AnswerSchema.partial({ analysis: true });

/** The wire format: the SDK's strict JSON schema of AnswerSchema (no parse hook: we validate, so a bad answer can be repaired). */
export const ANSWER_FORMAT: JSONOutputFormat = { type: 'json_schema', schema: zodOutputFormat(AnswerSchema).schema };

export type Checked = { ok: true; answer: Answer; notes: string[] } | { ok: false; problems: string[] };

const MAX_PROBLEMS = 8;

/** Parses and validates the answer's text; a ```json fence around it is tolerated. */
export function checkAnswer(text: string): Checked {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/.exec(text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(fenced ? fenced[1] : text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { ok: false, problems: [text.trim() === '' ? 'the answer is empty' : `the answer is not valid JSON (${why})`] };
  }
  const result = ReadableAnswer.safeParse(parsed);
  if (result.success) {
    const { analysis, candidates } = result.data;
    const notes = analysis === undefined ? ['The answer has no analysis (the schema asks for one before the candidates).'] : [];
    return { ok: true, answer: { analysis: (analysis ?? '').trim(), candidates }, notes };
  }
  const issues = result.error.issues;
  const problems = issues.slice(0, MAX_PROBLEMS).map((issue) => {
    const at = issue.path.reduce<string>((s, p) => (typeof p === 'number' ? `${s}[${p}]` : s ? `${s}.${String(p)}` : String(p)), '');
    return `${at || 'the answer'}: ${issue.message}`;
  });
  if (issues.length > MAX_PROBLEMS) problems.push(`and ${issues.length - MAX_PROBLEMS} more problems`);
  return { ok: false, problems };
}

const NAME_LENGTH = 64;
const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');
const candidatesCount = (n: number): string => `${n} usable candidate${n === 1 ? '' : 's'}`;

/** A name safe for keys and prompts: letters, digits, "_" and "-", at most 64 characters. */
function cleanName(name: string, index: number): string {
  const cleaned = name.trim().replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, NAME_LENGTH);
  return cleaned === '' ? `candidate-${index + 1}` : cleaned;
}

/** Names cleaned, oversize or empty code dropped, the list cut to K, duplicates renamed; each change noted. */
export function normalizeCandidates(answer: Pick<Answer, 'candidates'>, k: number): { candidates: Candidate[]; notes: string[] } {
  const notes: string[] = [];
  let candidates: Candidate[] = [];
  answer.candidates.forEach((c, i) => {
    const name = cleanName(c.name, i);
    if (name !== c.name) notes.push(`Renamed ${JSON.stringify(c.name)} to "${name}" (names use letters, digits, "_" and "-").`);
    const bytes = utf8Bytes(c.code);
    if (bytes > REWARD_RULES.maxCodeBytes) {
      notes.push(`Dropped "${name}": its code is ${(bytes / 1024).toFixed(1)} KiB, over the ${REWARD_RULES.maxCodeBytes / 1024} KiB limit.`);
    } else if (c.code.trim() === '') {
      notes.push(`Dropped "${name}": its code is blank.`);
    } else {
      candidates.push({ name, idea: c.idea.trim(), code: c.code });
    }
  });
  if (candidates.length > k) {
    notes.push(`The model wrote ${candidatesCount(candidates.length)}; kept the first ${k} (K = ${k}).`);
    candidates = candidates.slice(0, k);
  }
  candidates = uniqueNames(candidates, notes);
  if (candidates.length === 0) {
    throw new ProposerError(`The model's answer has no usable candidates${notes.length > 0 ? `: ${notes.join(' ')}` : ''}`);
  }
  if (candidates.length < k) notes.push(`The model wrote ${candidatesCount(candidates.length)}, fewer than K = ${k}; accepted ${candidates.length === 1 ? 'it' : 'them'}.`);
  return { candidates, notes };
}

function uniqueNames(candidates: Candidate[], notes: string[]): Candidate[] {
  const taken = new Set<string>();
  return candidates.map((c) => {
    if (!taken.has(c.name)) {
      taken.add(c.name);
      return c;
    }
    let n = 2;
    while (taken.has(`${c.name}-${n}`)) n++;
    const unique = `${c.name}-${n}`;
    taken.add(unique);
    notes.push(`Renamed a duplicate "${c.name}" to "${unique}".`);
    return { ...c, name: unique };
  });
}

/** A checked answer as a proposer gives it on: its analysis, the usable candidates, and every note on both. */
export function readAnswer(checked: Extract<Checked, { ok: true }>, k: number): { analysis: string; candidates: Candidate[]; notes: string[] } {
  const normalized = normalizeCandidates(checked.answer, k);
  return { analysis: checked.answer.analysis, candidates: normalized.candidates, notes: [...checked.notes, ...normalized.notes] };
}
