/**
 * The Anthropic API key (DESIGN §4): from Secrets Manager when ANTHROPIC_SECRET_ARN is set (only
 * the Propose role may read it), through Powertools' Secrets provider and its cache, else from
 * ANTHROPIC_API_KEY. The key never appears in an error, a log line or anything returned but the
 * key itself.
 */
import { GetParameterError } from '@aws-lambda-powertools/parameters/errors';
import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import { optionalEnv } from '../shared/ops/env.ts';
import { ProposerError } from './proposer.ts';

/** How long a warm Propose keeps the secret: a rotated key is picked up within this. */
export const SECRET_MAX_AGE_SECONDS = 300;

const secrets = new SecretsProvider();

/** The key; a failed read is not cached, so the next call tries again. */
export async function anthropicApiKey(): Promise<string> {
  return readKey();
}

/** Forgets the cached secret (tests, or right after the secret was rotated). */
export function clearApiKeyCache(): void {
  secrets.clearCache();
}

/** On AWS the key is the stack's secret; locally it is ANTHROPIC_API_KEY. Say which. */
function missingKey(arn: string | undefined): ProposerError {
  return new ProposerError(arn
    ? `No Anthropic API key: the secret ${arn} is empty (aws secretsmanager put-secret-value --secret-id ${arn} --secret-string <key>)`
    : 'No Anthropic API key: set ANTHROPIC_API_KEY, or choose --proposer offline');
}

async function readKey(): Promise<string> {
  const arn = optionalEnv('ANTHROPIC_SECRET_ARN');
  const key = arn === undefined ? optionalEnv('ANTHROPIC_API_KEY') : await readSecret(arn);
  const trimmed = key?.trim() ?? '';
  if (trimmed === '') throw missingKey(arn);
  return trimmed;
}

async function readSecret(arn: string): Promise<string | undefined> {
  let text: string | undefined;
  try {
    const value = await secrets.get(arn, { maxAge: SECRET_MAX_AGE_SECONDS });
    text = typeof value === 'string' ? value : value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : undefined;
  } catch (thrown) {
    // Powertools wraps the SDK's error; its cause says what Secrets Manager answered.
    const error = thrown instanceof GetParameterError && thrown.cause instanceof Error ? thrown.cause : thrown;
    const name = error instanceof Error ? error.name : 'Error';
    // A secret created without a value has no AWSCURRENT version yet: that is a missing key.
    if (name === 'ResourceNotFoundException' && /staging label|secret value/i.test(String((error as Error).message))) {
      throw missingKey(arn);
    }
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new ProposerError(`Could not read the Anthropic API key from the secret ${arn}: ${name}: ${message}`);
  }
  return text === undefined ? undefined : keyInSecret(text, arn);
}

/** A plain string, or JSON {"apiKey": ...} / {"ANTHROPIC_API_KEY": ...}. */
function keyInSecret(text: string, arn: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return trimmed;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    throw new ProposerError(`The secret ${arn} starts with "{" but is not valid JSON: store the key as plain text or as {"apiKey": "..."}`);
  }
  const record = parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  const key = record.apiKey ?? record.ANTHROPIC_API_KEY;
  if (typeof key === 'string') return key;
  const fields = Object.keys(record).map((f) => JSON.stringify(f)).join(', ') || 'none';
  throw new ProposerError(`The secret ${arn} is JSON without an "apiKey" or "ANTHROPIC_API_KEY" string field (fields: ${fields})`);
}
