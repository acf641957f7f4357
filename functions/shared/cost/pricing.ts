/**
 * The price table: US dollars per million tokens by model, from Anthropic's list prices
 * (platform.claude.com/docs/en/about-claude/pricing, November 2026). Bedrock ids ("us.anthropic.claude-sonnet-4-5-
 * 20250929-v1:0") are read as the Anthropic model they name; Bedrock's regional endpoints can cost
 * a little more. An unknown model has no price: its cost is null, never a guess.
 */

export interface ModelPrice {
  /** Base input tokens. */
  input: number;
  output: number;
  /** Prompt-cache writes (5-minute cache). */
  cacheWrite: number;
  /** Prompt-cache hits and refreshes. */
  cacheRead: number;
}

/**
 * Token counts as the proposers record them (TokenUsage fits). Thinking tokens (extended thinking)
 * are output tokens: the API counts them in outputTokens and bills them at the output price, so
 * they are priced there, once; TokenUsage.thinkingTokens says how many of them they were.
 */
export interface TokenCounts {
  inputTokens: number;
  /** Every output token billed, thinking included. */
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

const price = (input: number, output: number, cacheWrite: number, cacheRead: number): ModelPrice =>
  Object.freeze({ input, output, cacheWrite, cacheRead });

const FABLE_5_1 = price(10, 50, 12.5, 0.25);
const OPUS_5_5 = price(4, 20, 5, 0.2);
const SONNET_5_5 = price(2, 10, 2.5, 0.2);
const SONNET_5 = price(2, 10, 2.5, 0.2);
/** Prompts up to 100,000 tokens (ours are far smaller); longer prompts cost five times as much. */
const HAIKU_5_5 = price(0.1, 0.5, 0.125, 0.01);
const FABLE_5 = price(10, 50, 12.5, 1);
const OPUS_4_5 = price(5, 25, 6.25, 0.5);
const OPUS_4 = price(15, 75, 18.75, 1.5);
const SONNET = price(3, 15, 3.75, 0.3);
const HAIKU_4_5 = price(1, 5, 1.25, 0.1);
const HAIKU_3_5 = price(0.8, 4, 1, 0.08);
const HAIKU_3 = price(0.25, 1.25, 0.3, 0.03);

/** USD per million tokens, by model id without date or Bedrock decorations. */
export const PRICES_USD_PER_MTOK: Readonly<Record<string, ModelPrice>> = Object.freeze({
  'claude-fable-5-1': FABLE_5_1,
  'claude-mythos-5-1': FABLE_5_1,
  'claude-fable-5': FABLE_5,
  'claude-mythos-5': FABLE_5,
  'claude-opus-5-5': OPUS_5_5,
  'claude-opus-5': OPUS_4_5,
  'claude-opus-4-8': OPUS_4_5,
  'claude-opus-4-7': OPUS_4_5,
  'claude-opus-4-6': OPUS_4_5,
  'claude-opus-4-5': OPUS_4_5,
  'claude-opus-4-1': OPUS_4,
  'claude-opus-4': OPUS_4,
  'claude-sonnet-5-5': SONNET_5_5,
  'claude-sonnet-5': SONNET_5,
  'claude-sonnet-4-6': SONNET,
  'claude-sonnet-4-5': SONNET,
  'claude-sonnet-4': SONNET,
  'claude-3-7-sonnet': SONNET,
  'claude-haiku-5-5': HAIKU_5_5,
  'claude-haiku-4-5': HAIKU_4_5,
  'claude-3-5-haiku': HAIKU_3_5,
  'claude-3-haiku': HAIKU_3,
});

/**
 * The table's key for a model id: drops a Bedrock geography prefix ("us.", "eu.", "apac.",
 * "global." ...), the "anthropic." provider prefix, a Bedrock version suffix ("-v1:0") and a date
 * ("-20250929"). "claude-sonnet-4-5-20250929" and "global.anthropic.claude-sonnet-4-5-20250929-v1:0"
 * both become "claude-sonnet-4-5".
 */
export function normalizeModelId(model: string): string {
  return model
    .trim()
    .toLowerCase()
    .replace(/^arn:aws[^/]*\/(?:[^/]*\/)?/, '')
    .replace(/^(?:[a-z]{2,6}\.)?anthropic\./, '')
    .replace(/-v\d+(?::\d+)?$/, '')
    .replace(/-\d{8}$/, '');
}

/** The model's price, or null when the table does not know it. */
export function priceOf(model: string): ModelPrice | null {
  return PRICES_USD_PER_MTOK[normalizeModelId(model)] ?? null;
}

/** Estimated cost in US dollars (to a billionth), or null for a model the table does not know. */
export function costUsd(model: string, usage: TokenCounts): number | null {
  const p = priceOf(model);
  if (p === null) return null;
  const dollarsPerMillion =
    usage.inputTokens * p.input +
    usage.outputTokens * p.output +
    usage.cacheWriteTokens * p.cacheWrite +
    usage.cacheReadTokens * p.cacheRead;
  return Math.round(dollarsPerMillion * 1000) / 1e9;
}
