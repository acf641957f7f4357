/**
 * The most one model request can bill before it is sent, in tokens: the prompt at one token per 3
 * characters (code and English run 3.5 to 4 here, so this overestimates), every output token the
 * cap allows (thinking included), twice (a schema repair resends the prompt with the first
 * answer's text). The budget check (functions/propose/model-answer.ts) and the estimate
 * (estimate.ts) both count it here, so the estimate's worst case is what the ceiling will reserve.
 */
import type { TokenCounts } from './pricing.ts';

/** The answer's output cap of one reply (MODEL_DEFAULTS.maxTokens in functions/propose/anthropic.ts). */
export const MODEL_MAX_TOKENS = 32_000;

/** The most code one candidate may have (the prompt's rules say so; longer code is dropped). */
export const MAX_CODE_BYTES = 64 * 1024;

/** Characters per token the worst case assumes. */
export const CHARS_PER_TOKEN = 3;

export function worstCaseTokens(promptChars: number, maxTokens: number, outputCap: number): TokenCounts {
  const promptTokens = Math.ceil(promptChars / CHARS_PER_TOKEN);
  return { inputTokens: 2 * promptTokens + maxTokens + 1000, outputTokens: 2 * outputCap, cacheReadTokens: 0, cacheWriteTokens: 0 };
}
