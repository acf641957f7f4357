/**
 * The Bedrock proposer (DESIGN §6): the same request and answer handling as the Anthropic
 * proposer (model-answer.ts), through `@anthropic-ai/bedrock-sdk`. The client rewrites the request
 * to Bedrock's InvokeModel shape (`/model/<id>/invoke-with-response-stream`, `anthropic_version` in
 * the body), signs it with SigV4 (the Lambda role's credentials from the default provider chain,
 * or explicit ones) and turns Bedrock's binary event stream back into the Messages API's events.
 * Bedrock's InvokeModel takes Claude's `output_config` (structured output and effort) and `thinking` as is.
 */
import { AnthropicBedrock } from '@anthropic-ai/bedrock-sdk';
import { MODEL_DEFAULTS, redactor } from './anthropic.ts';
import { modelProposer, parseEffort } from './model-answer.ts';
import { thinkingOptions } from './thinking.ts';
import type { Proposer } from './proposer.ts';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface BedrockProposerOptions {
  /** Bedrock model or inference-profile id, e.g. "us.anthropic.claude-sonnet-4-5-20250929-v1:0". */
  model: string;
  region: string;
  /** output_config.effort: low, medium, high, xhigh or max; unset leaves the model's default. */
  effort?: string;
  /** @default https://bedrock-runtime.<region>.amazonaws.com */
  baseURL?: string;
  /** @default the default provider chain (in Lambda: the function's role) */
  credentials?: AwsCredentials;
  /** Retries of a failed request by the SDK. @default 2 */
  maxRetries?: number;
  /** Per request, retries excluded. @default 600000 (10 minutes) */
  timeoutMs?: number;
  /** Output token cap of one request's answer. @default 32000 */
  maxTokens?: number;
  /** Extended thinking's budget in tokens, on top of maxTokens, where the model has it (thinking.ts); unset: off. */
  thinkingBudget?: number;
}

export function createBedrockProposer(opts: BedrockProposerOptions): Proposer {
  const effort = parseEffort(opts.effort);
  const maxRetries = opts.maxRetries ?? MODEL_DEFAULTS.maxRetries;
  const credentials = opts.credentials;
  const common = {
    awsRegion: opts.region,
    // SigV4 only: a Bedrock bearer token in the environment (AWS_BEARER_TOKEN_BEDROCK) is not used.
    apiKey: null,
    ...(opts.baseURL === undefined ? {} : { baseURL: opts.baseURL }),
    maxRetries,
    timeout: opts.timeoutMs ?? MODEL_DEFAULTS.timeoutMs,
  };
  const client =
    credentials === undefined
      ? new AnthropicBedrock(common)
      : new AnthropicBedrock({
          ...common,
          awsAccessKey: credentials.accessKeyId,
          awsSecretKey: credentials.secretAccessKey,
          awsSessionToken: credentials.sessionToken ?? null,
        });
  const options = {
    proposer: 'bedrock',
    service: 'Amazon Bedrock',
    model: opts.model,
    ...(effort === undefined ? {} : { effort }),
    maxTokens: opts.maxTokens ?? MODEL_DEFAULTS.maxTokens,
    ...thinkingOptions(opts.model, opts.thinkingBudget),
    maxRetries,
    redact: redactor(credentials?.secretAccessKey),
  } as const;
  return modelProposer(client, options);
}
