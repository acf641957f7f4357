/**
 * The Anthropic API key (DESIGN §4): from Secrets Manager when ANTHROPIC_SECRET_ARN is set (only
 * the Propose role may read it), else from ANTHROPIC_API_KEY. Read once per process (a Lambda cold
 * start). The key never appears in an error, a log line or anything returned but the key itself.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { optionalEnv } from '../shared/env.ts';
import { ProposerError } from './proposer.ts';

let cached: Promise<string> | undefined;

/** The key, cached for the process; a failed read is not cached, so the next call tries again. */
export function anthropicApiKey(): Promise<string> {
  cached ??= readKey().catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}

/** Forgets the cached key (tests, or after the secret was rotated). */
export function clearApiKeyCache(): void {
  cached = undefined;
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
    const out = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: arn }));
    text = out.SecretString ?? (out.SecretBinary ? Buffer.from(out.SecretBinary).toString('utf8') : undefined);
  } catch (error) {
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
