/**
 * A proposer answered as text by anyone (`command:CMD`, `files:DIR`): a local model, any CLI, a
 * person. The request is the model's prompt (prompt.ts) with the answer's JSON schema spelled out,
 * since no structured output holds the answerer to it; the answer goes through the same check, the
 * same fixes and the same ONE schema repair as a model's (model-answer.ts), each reply billed at $0
 * in the ledger before it is checked, so a retried, redriven or resumed search replays it instead
 * of asking again. A bad answer (empty, not JSON, the wrong shape) gets a repair request that says
 * what was wrong; a second bad one fails the request with both reasons.
 */
import { ANSWER_FORMAT, checkAnswer, readAnswer, type Checked } from './answer-schema.ts';
import { buildPrompt, buildRepairPrompt, promptHash, type Prompt } from './prompt.ts';
import { NO_LEDGER, ProposerError, type BilledReply, type Proposer, type ProposerAnswer, type ReplyLedger } from './proposer.ts';

/** One request as the answerer gets it. */
export interface TextRequest {
  /** The whole request: the prompt, and for a schema repair the first answer and what was wrong with it. */
  text: string;
  /** 1 for the request, 2 for its schema repair. */
  step: number;
  promptHash: string;
}

export interface TextAnswerer {
  kind: 'command' | 'files';
  /** What answers, in records and messages: the command line, or the directory. */
  label: string;
  /** The answer's text. */
  ask(request: TextRequest): Promise<string>;
}

const NO_USAGE = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ').trim();

export function textProposer(answerer: TextAnswerer): Proposer {
  return {
    propose: (context, ledger) => converse(answerer, buildPrompt(context), context.k, ledger),
    repair: (context, ledger) => converse(answerer, buildRepairPrompt(context), context.failed.length, ledger),
    worstCaseCostUsd: () => 0,
  };
}

/** The prompt as one text, with the answer's format: what structured output tells a model, in words. */
export function requestText(prompt: Prompt, k: number): string {
  return `${prompt.system}\n\n${prompt.user.trimEnd()}\n\n# The answer's format\n` +
    `Answer with one JSON object and nothing else (a \`\`\`json fence around it is fine): {"analysis": "...", "candidates": [...]}, your analysis first, with ${k} ` +
    `candidate${k === 1 ? '' : 's'}, matching this JSON schema:\n\n\`\`\`json\n${JSON.stringify(ANSWER_FORMAT.schema, null, 2)}\n\`\`\`\n`;
}

function repairText(request: string, answer: string, problems: string[], k: number): string {
  return `${request}\n# Your first answer\n\n${answer.trim() === '' ? '(empty)' : answer.trimEnd()}\n\n# It could not be used\n` +
    `${problems.join('; ')}.\nAnswer again with the complete, corrected JSON object with ${k} candidate${k === 1 ? '' : 's'}, and nothing else.\n`;
}

/**
 * The answer checked as a model's is; failing that, the JSON object inside it, for an answerer that
 * wraps it in words (a chat model's "Here are the rewards: ...").
 */
export function checkText(text: string): Checked {
  const checked = checkAnswer(text);
  if (checked.ok) return checked;
  const fence = /```(?:json)?\s*\n([\s\S]*?)\n?```/.exec(text)?.[1];
  const [open, close] = [text.indexOf('{'), text.lastIndexOf('}')];
  for (const inner of [fence, open >= 0 && close > open ? text.slice(open, close + 1) : undefined]) {
    if (inner === undefined || inner === text) continue;
    const again = checkAnswer(inner);
    if (again.ok) return { ...again, notes: [...again.notes, 'The answer had text around its JSON object: read the object alone.'] };
  }
  return checked;
}

/** The reply billed at this step of the same request, or a new one, billed at $0 before it is checked. */
async function exchange(answerer: TextAnswerer, ledger: ReplyLedger, request: TextRequest): Promise<BilledReply> {
  const stored = await ledger.stored(request.step, request.promptHash);
  if (stored !== undefined) return stored;
  const text = await answerer.ask(request);
  const reply: BilledReply = { text, stopReason: null, stopDetails: null, usage: { ...NO_USAGE }, promptHash: request.promptHash };
  // Nothing to hold against the budget while it is asked: a local answer costs nothing.
  await (await ledger.reserve(request.step, 0, request.promptHash)).billed(reply, 0);
  return reply;
}

async function converse(answerer: TextAnswerer, prompt: Prompt, k: number, ledger: ReplyLedger = NO_LEDGER): Promise<ProposerAnswer> {
  const hash = promptHash(`${answerer.kind}:${answerer.label}`, prompt);
  const first = requestText(prompt, k);
  let reply = await exchange(answerer, ledger, { text: first, step: 1, promptHash: hash });
  let checked = checkText(reply.text);
  const notes: string[] = [];
  if (!checked.ok) {
    const problems = checked.problems;
    reply = await exchange(answerer, ledger, { text: repairText(first, reply.text, problems, k), step: 2, promptHash: hash });
    checked = checkText(reply.text);
    if (!checked.ok) {
      throw new ProposerError(oneLine(`The answer of ${answerer.kind} ${JSON.stringify(answerer.label)} did not match the schema, ` +
        `also after a repair request: ${checked.problems.join('; ')} (first answer: ${problems.join('; ')})`));
    }
    notes.push(`The first answer could not be used (${problems.join('; ')}); a repair request fixed it.`);
  }
  const read = readAnswer(checked, k);
  return {
    analysis: read.analysis,
    candidates: read.candidates,
    proposer: answerer.kind,
    model: answerer.label,
    raw: reply.text,
    usage: null,
    costUsd: 0,
    notes: [...notes, ...read.notes],
    promptHash: hash,
  };
}
