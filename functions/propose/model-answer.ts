/**
 * A model's answer, from request to candidates, shared by the Anthropic and the Bedrock proposer
 * (one code path, two transports). The request is streamed with structured output
 * (`output_config.format`, the JSON schema of answer-schema.ts); the answer is checked against the
 * same schema. A refusal fails at once; an answer that does not parse or validate gets ONE repair
 * request carrying the previous answer and the problems, then fails. What can be fixed without the
 * model is fixed and noted (answer-schema.ts).
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError } from '@anthropic-ai/sdk';
import type { Message, MessageParam, Messages, OutputConfig } from '@anthropic-ai/sdk/resources/messages';
import { costUsd, priceOf } from '../shared/cost/pricing.ts';
import { worstCaseTokens } from '../shared/cost/worst-case.ts';
import { ANSWER_FORMAT, checkAnswer, readAnswer, type Checked } from './answer-schema.ts';
import { buildPrompt, buildRepairPrompt, promptHash, type Prompt } from './prompt.ts';
import { MODEL_STREAM_MARGIN_SECONDS, MODEL_STREAM_TOKENS_PER_SECOND } from '../../infra/config.ts';
import {
  NO_LEDGER, ProposeOutOfTime, ProposerError, type BilledReply, type Proposer, type ProposerAnswer, type RepairContext, type ReplyLedger,
} from './proposer.ts';
import type { TokenUsage } from '../shared/store/records.ts';
import type { ThinkingPlan } from './thinking.ts';

// The answer's schema and its reading moved to answer-schema.ts; these names stay importable here.
export { ANSWER_FORMAT, AnswerSchema, checkAnswer, normalizeCandidates, type Answer, type Checked } from './answer-schema.ts';

export const EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
export type Effort = NonNullable<OutputConfig['effort']> & (typeof EFFORTS)[number];

/** The effort level, checked; undefined leaves it to the model (the API's default is high). */
export function parseEffort(effort: string | undefined): Effort | undefined {
  if (effort === undefined) return undefined;
  const found = EFFORTS.find((e) => e === effort);
  if (found === undefined) throw new ProposerError(`Unknown effort "${effort}": use one of ${EFFORTS.join(', ')}`);
  return found;
}

// ---- The conversation ----------------------------------------------------------------------------

/** What both clients (Anthropic, AnthropicBedrock) offer: the Messages API's streaming helper. */
export interface MessagesClient {
  messages: Pick<Messages, 'stream'>;
}

export interface ConversationOptions {
  proposer: 'anthropic' | 'bedrock';
  /** Who answered, for error messages: "Anthropic API" or "Amazon Bedrock". */
  service: string;
  model: string;
  effort?: Effort;
  /** Output tokens the answer may take (the thinking's budget comes on top). */
  maxTokens: number;
  /** Extended thinking (thinking.ts), or none. */
  thinking?: ThinkingPlan;
  /** What the settings asked for and could not have (a thinking budget for a model without thinking): noted on every answer. */
  settingsNote?: string;
  /** The client's retry count, for error messages. */
  maxRetries: number;
  /** Removes secrets from any text that leaves this module in an error. */
  redact: (text: string) => string;
}

type Reply = BilledReply;

function repairRequest(problems: string[], reply: Reply, k: number): string {
  const cut = reply.stopReason === 'max_tokens' ? ' It was cut off at the output limit: keep the code short.' : '';
  return [
    `Your answer could not be used: ${problems.join('; ')}.${cut}`,
    `Answer again with the complete, corrected JSON object {"analysis", "candidates": [{"name", "idea", "code"}, ...]} with ${k} candidates, and nothing else.`,
  ].join('\n');
}

/** Error messages are one line: whatever the API or the model wrote is folded. */
const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ').trim();

function refusal(reply: Reply): ProposerError {
  const d = reply.stopDetails;
  const category = d?.category ? ` (category ${d.category})` : '';
  const why = d?.explanation ? `: ${d.explanation}` : '';
  return new ProposerError(oneLine(`The model refused to write the reward functions${category}${why} (stop_reason "refusal")`));
}

/** The reply checked; an answer that stopped early says so first. */
function inspect(reply: Reply): Checked {
  const checked = checkAnswer(reply.text);
  const reason = reply.stopReason;
  if (checked.ok || (reason !== 'max_tokens' && reason !== 'model_context_window_exceeded')) return checked;
  const early = `the answer stopped early (stop_reason "${reason}" after ${reply.usage.outputTokens} output tokens)`;
  return { ok: false, problems: [early, ...checked.problems] };
}

function apiFailure(error: unknown, options: ConversationOptions): Error {
  if (error instanceof ProposerError) return error;
  let what: string;
  if (error instanceof APIConnectionTimeoutError) what = 'the request timed out';
  else if (error instanceof APIConnectionError) what = `could not connect (${error.message})`;
  else if (error instanceof APIError) {
    const kind = error.type ? ` ${error.type}` : '';
    const id = error.requestID ? `; request id ${error.requestID}` : '';
    const where = error.status === undefined ? 'an error event in the stream' : `HTTP ${error.status}`;
    what = `${where}${kind}: ${error.apiMessage ?? error.message}${id}`;
  } else what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const status = error instanceof APIError ? error.status : undefined;
  const retryable = error instanceof APIConnectionError || (status !== undefined && (status === 408 || status === 409 || status === 429 || status >= 500));
  const retried = retryable ? ` (after up to ${options.maxRetries} retries)` : '';
  return new ProposerError(options.redact(oneLine(`${options.service} request for ${options.model} failed${retried}: ${what}`)), { cause: error });
}

/** What one step of the conversation sends: its system prompt and messages, and the ledger step it is billed at. */
interface Step {
  system: string;
  messages: MessageParam[];
  step: number;
  promptHash: string;
}

/**
 * One step of the conversation: the reply an earlier attempt was billed for, or a new streamed
 * request, its worst case reserved before it is sent and its reply billed as soon as it arrives,
 * before anything checks it. Usage is added to the request's total either way.
 */
async function exchange(client: MessagesClient, options: ConversationOptions, ledger: ReplyLedger, at: Step, usage: TokenUsage): Promise<Reply> {
  const reply = (await ledger.stored(at.step, at.promptHash)) ?? (await send(client, options, ledger, at));
  usage.inputTokens += reply.usage.inputTokens;
  usage.outputTokens += reply.usage.outputTokens;
  usage.cacheReadTokens += reply.usage.cacheReadTokens;
  usage.cacheWriteTokens += reply.usage.cacheWriteTokens;
  usage.thinkingTokens = (usage.thinkingTokens ?? 0) + (reply.usage.thinkingTokens ?? 0);
  if (reply.stopReason === 'refusal') throw refusal(reply);
  return reply;
}

async function send(client: MessagesClient, options: ConversationOptions, ledger: ReplyLedger, at: Step): Promise<Reply> {
  const reservation = await ledger.reserve(at.step, exchangeWorstCaseUsd(options, at), at.promptHash);
  let started = false;
  let message: Message;
  try {
    const stream = client.messages.stream({
      model: options.model,
      max_tokens: outputCap(options),
      ...(options.thinking === undefined ? {} : { thinking: options.thinking.config }),
      system: at.system,
      messages: at.messages,
      output_config: { format: ANSWER_FORMAT, ...(options.effort === undefined ? {} : { effort: options.effort }) },
    });
    stream.on('streamEvent', (event) => { if (event.type === 'message_start') started = true; });
    message = await stream.finalMessage();
  } catch (error) {
    // Refused before any reply began (an HTTP error, no connection): nothing was billed. A reply cut
    // off mid-stream may have been billed for what it wrote: its worst case stands.
    if (!started) await reservation.released();
    throw apiFailure(error, options);
  }
  const reply: Reply = {
    text: message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(''),
    stopReason: message.stop_reason,
    stopDetails: message.stop_details ? { category: message.stop_details.category ?? null, explanation: message.stop_details.explanation ?? null } : null,
    usage: {
      inputTokens: message.usage.input_tokens,
      outputTokens: message.usage.output_tokens,
      cacheReadTokens: message.usage.cache_read_input_tokens ?? 0,
      cacheWriteTokens: message.usage.cache_creation_input_tokens ?? 0,
      // Part of outputTokens (and priced as output): the API reports how many went to thinking.
      thinkingTokens: message.usage.output_tokens_details?.thinking_tokens ?? 0,
    },
    promptHash: at.promptHash,
  };
  await reservation.billed(reply, costUsd(options.model, reply.usage));
  return reply;
}

/** A model proposer over a Messages client: the generation's request, its repair request, their worst cost. */
export function modelProposer(client: MessagesClient, options: ConversationOptions): Proposer {
  return {
    propose: (context, ledger) => answerThroughMessages(client, options, buildPrompt(context), context.k, ledger),
    repair: (context, ledger) => answerThroughMessages(client, options, buildRepairPrompt(context), context.failed.length, ledger),
    worstCaseCostUsd: (context) => worstCaseCostUsd(options, 'failed' in context ? buildRepairPrompt(context as RepairContext) : buildPrompt(context)),
  };
}

/** Every output token one reply may bill: the answer's cap and the thinking's budget on top. */
export function outputCap(options: Pick<ConversationOptions, 'maxTokens' | 'thinking'>): number {
  return options.maxTokens + (options.thinking?.budgetTokens ?? 0);
}

/** The most one exchange can cost before it is sent (worst-case.ts: its prompt and every output token, twice). */
export function worstCaseCostUsd(options: Pick<ConversationOptions, 'model' | 'maxTokens' | 'thinking'>, prompt: Prompt): number | null {
  return costUsd(options.model, worstCaseTokens(prompt.system.length + prompt.user.length, options.maxTokens, outputCap(options)));
}

/** The most one step can cost: its messages at one token per 3 characters, and every output token the cap allows (thinking included). */
function exchangeWorstCaseUsd(options: Pick<ConversationOptions, 'model' | 'maxTokens' | 'thinking'>, at: Pick<Step, 'system' | 'messages'>): number | null {
  const price = priceOf(options.model);
  if (price === null) return null;
  const chars = at.system.length + at.messages.reduce((n, m) => n + (typeof m.content === 'string' ? m.content.length : JSON.stringify(m.content).length), 0);
  return (Math.ceil(chars / 3) * price.input + outputCap(options) * price.output) / 1e6;
}

/**
 * A schema repair streams up to maxTokens more (32,000 at ~60 tokens a second is ~530 s): one
 * that could not finish in the time the invocation has left is not sent. An earlier attempt's
 * stored repair reply costs no time.
 */
async function ensureTimeForRepair(options: Pick<ConversationOptions, 'maxTokens'>, ledger: ReplyLedger, hash: string): Promise<void> {
  if (ledger.timeLeftMs === undefined || (await ledger.stored(2, hash)) !== undefined) return;
  const needMs = (options.maxTokens / MODEL_STREAM_TOKENS_PER_SECOND + MODEL_STREAM_MARGIN_SECONDS) * 1000;
  const leftMs = ledger.timeLeftMs();
  if (leftMs >= needMs) return;
  throw new ProposeOutOfTime(`the schema repair could stream ${options.maxTokens} tokens, ${Math.round(needMs / 1000)} s at ` +
    `${MODEL_STREAM_TOKENS_PER_SECOND} tokens/s, and the invocation has ${Math.round(leftMs / 1000)} s left: a retry sends it`);
}

/** Asks for K candidates (one schema repair at most) and turns the answer into the proposer's answer. */
export async function answerThroughMessages(
  client: MessagesClient,
  options: ConversationOptions,
  prompt: Prompt,
  k: number,
  ledger: ReplyLedger = NO_LEDGER,
): Promise<ProposerAnswer> {
  const usage: TokenUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, thinkingTokens: 0 };
  const hash = promptHash(options.model, prompt);
  const messages: MessageParam[] = [{ role: 'user', content: prompt.user }];
  let reply = await exchange(client, options, ledger, { system: prompt.system, messages, step: 1, promptHash: hash }, usage);
  let checked = inspect(reply);
  const notes: string[] = options.settingsNote === undefined ? [] : [options.settingsNote];
  if (!checked.ok) {
    const first = checked.problems;
    messages.push(
      { role: 'assistant', content: reply.text.trim() === '' ? '(empty answer)' : reply.text },
      { role: 'user', content: repairRequest(first, reply, k) },
    );
    await ensureTimeForRepair(options, ledger, hash);
    reply = await exchange(client, options, ledger, { system: prompt.system, messages, step: 2, promptHash: hash }, usage);
    checked = inspect(reply);
    if (!checked.ok) {
      throw new ProposerError(oneLine(
        `The model's answer did not match the schema, also after a repair request: ${checked.problems.join('; ')} ` +
          `(first answer: ${first.join('; ')}; ${usage.inputTokens} input and ${usage.outputTokens} output tokens spent)`,
      ));
    }
    notes.push(`The first answer could not be used (${first.join('; ')}); a repair request fixed it.`);
  }
  const read = readAnswer(checked, k);
  return {
    analysis: read.analysis,
    candidates: read.candidates,
    proposer: options.proposer,
    model: options.model,
    raw: reply.text,
    usage,
    costUsd: costUsd(options.model, usage),
    notes: [...notes, ...read.notes],
    promptHash: hash,
  };
}
