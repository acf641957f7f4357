/**
 * The Anthropic proposer (DESIGN §6): Claude writes the rewards through the Messages API with
 * `@anthropic-ai/sdk`, streamed, with structured output and the SDK's own retries (429, 529 and
 * 5xx, honouring retry-after). The answer is handled in model-answer.ts, shared with Bedrock.
 */
import Anthropic from '@anthropic-ai/sdk';
import { modelProposer, parseEffort } from './model-answer.ts';
import { thinkingOptions } from './thinking.ts';
import type { Proposer } from './proposer.ts';
import { MODEL_MAX_TOKENS } from '../shared/cost/worst-case.ts';

export interface AnthropicProposerOptions {
  apiKey: string;
  /** Model id, e.g. "claude-sonnet-4-5". */
  model: string;
  /** output_config.effort: low, medium, high, xhigh or max; unset leaves the model's default. */
  effort?: string;
  /** @default the SDK's (https://api.anthropic.com, or ANTHROPIC_BASE_URL) */
  baseURL?: string;
  /** Retries of a failed request by the SDK (429, 529, 5xx, connection errors). @default 2 */
  maxRetries?: number;
  /** Per request, retries excluded. @default 600000 (10 minutes) */
  timeoutMs?: number;
  /** Output token cap of one request's answer. @default 32000 */
  maxTokens?: number;
  /** Extended thinking's budget in tokens, on top of maxTokens, where the model has it (thinking.ts); unset: off. */
  thinkingBudget?: number;
}

export const MODEL_DEFAULTS = { maxRetries: 2, timeoutMs: 600_000, maxTokens: MODEL_MAX_TOKENS } as const;

/** Replaces every occurrence of the secret with "[redacted]". */
export function redactor(secret: string | undefined): (text: string) => string {
  if (secret === undefined || secret.length < 4) return (text) => text;
  return (text) => text.split(secret).join('[redacted]');
}

export function createAnthropicProposer(opts: AnthropicProposerOptions): Proposer {
  const effort = parseEffort(opts.effort);
  const maxRetries = opts.maxRetries ?? MODEL_DEFAULTS.maxRetries;
  const client = new Anthropic({
    apiKey: opts.apiKey,
    ...(opts.baseURL === undefined ? {} : { baseURL: opts.baseURL }),
    maxRetries,
    timeout: opts.timeoutMs ?? MODEL_DEFAULTS.timeoutMs,
  });
  const options = {
    proposer: 'anthropic',
    service: 'Anthropic API',
    model: opts.model,
    ...(effort === undefined ? {} : { effort }),
    maxTokens: opts.maxTokens ?? MODEL_DEFAULTS.maxTokens,
    ...thinkingOptions(opts.model, opts.thinkingBudget),
    maxRetries,
    redact: redactor(opts.apiKey),
  } as const;
  return modelProposer(client, options);
}
