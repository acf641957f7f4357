/**
 * The model proposers' factory, called by the Propose handler for every proposer but offline:
 * the Anthropic API with the key from api-key.ts, or Bedrock in AWS_REGION with the function's
 * role. Tests point them at loopback servers with ANTHROPIC_BASE_URL / EUREKA_BEDROCK_BASE_URL.
 */
import { optionalEnv } from '../shared/ops/env.ts';
import { createAnthropicProposer } from './anthropic.ts';
import { anthropicApiKey } from './api-key.ts';
import { createBedrockProposer } from './bedrock.ts';
import { ProposerError, type Proposer } from './proposer.ts';

export interface ModelProposerSettings {
  proposer: 'anthropic' | 'bedrock';
  model: string;
  /** low, medium, high, xhigh or max; unset leaves the model's default. */
  effort?: string;
  /** Extended thinking's budget in tokens; unset: off. */
  thinkingBudget?: number;
}

/** A Bedrock id names its provider ("anthropic.", "us.anthropic." ...) or is an ARN. */
const BEDROCK_ID = /^(?:arn:aws|(?:[a-z]{2,6}\.)?anthropic\.)/;

export async function createModelProposer(settings: ModelProposerSettings): Promise<Proposer> {
  const common = {
    model: settings.model,
    ...(settings.effort === undefined ? {} : { effort: settings.effort }),
    ...(settings.thinkingBudget === undefined ? {} : { thinkingBudget: settings.thinkingBudget }),
  };
  if (settings.proposer === 'anthropic') {
    const baseURL = optionalEnv('ANTHROPIC_BASE_URL');
    return createAnthropicProposer({ ...common, apiKey: await anthropicApiKey(), ...(baseURL === undefined ? {} : { baseURL }) });
  }
  const region = optionalEnv('AWS_REGION') ?? optionalEnv('AWS_DEFAULT_REGION');
  if (region === undefined) throw new ProposerError('The Bedrock proposer needs a region: set AWS_REGION');
  if (!BEDROCK_ID.test(settings.model)) {
    throw new ProposerError(
      `Model "${settings.model}" is not a Bedrock model id: give one such as "us.anthropic.claude-sonnet-4-5-20250929-v1:0" (--model)`,
    );
  }
  const baseURL = optionalEnv('EUREKA_BEDROCK_BASE_URL');
  return createBedrockProposer({ ...common, region, ...(baseURL === undefined ? {} : { baseURL }) });
}
