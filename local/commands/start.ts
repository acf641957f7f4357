/**
 * `eureka start`: start a search on AWS. The state machine comes from the stack's outputs; the
 * input is checked here first, so a typo is one line now rather than a failed execution later.
 */
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { z } from 'zod';
import { DEFAULT_STACK_NAME, STACK_OUTPUT_KEYS } from '../../infra/config.ts';
import { InvalidSearchInput, parseSearchInput } from '../../functions/shared/search-input.ts';
import { parseFlags, UsageError } from '../flags.ts';

const StartFlags = z.object({
  stack: z.string().min(1).default(DEFAULT_STACK_NAME),
  input: z.string().default('{}'),
  name: z.string().regex(/^[A-Za-z0-9_-]{1,80}$/, { error: 'letters, digits, - and _ only (at most 80)' }).optional(),
  json: z.boolean().default(false),
});

export class AwsUnavailable extends Error {
  override readonly name = 'AwsUnavailable';
}

export async function startCommand(raw: unknown): Promise<void> {
  const flags = parseFlags(StartFlags, raw);
  const input = parseInput(flags.input);
  try {
    const stateMachineArn = await stateMachineOf(flags.stack);
    const started = await new SFNClient({}).send(new StartExecutionCommand({ stateMachineArn, input: JSON.stringify(input), name: flags.name }));
    const region = stateMachineArn.split(':')[3];
    const consoleUrl = `https://${region}.console.aws.amazon.com/states/home?region=${region}#/v2/executions/details/${started.executionArn}`;
    if (flags.json) process.stdout.write(`${JSON.stringify({ executionArn: started.executionArn, consoleUrl })}\n`);
    else process.stdout.write(`started ${started.executionArn}\nwatch it: ${consoleUrl}\n`);
  } catch (err) {
    throw explain(err, flags.stack);
  }
}

function parseInput(text: string): object {
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch {
    throw new UsageError('--input: is not JSON (give the execution input, e.g. \'{"smoke":true}\')');
  }
  try {
    parseSearchInput(input, { proposer: 'anthropic' });
  } catch (err) {
    if (err instanceof InvalidSearchInput) throw new UsageError(`--input: ${err.message}`);
    throw err;
  }
  return input as object;
}

async function stateMachineOf(stack: string): Promise<string> {
  const { Stacks } = await new CloudFormationClient({}).send(new DescribeStacksCommand({ StackName: stack }));
  const arn = Stacks?.[0]?.Outputs?.find((o) => o.OutputKey === STACK_OUTPUT_KEYS.stateMachineArn)?.OutputValue;
  if (!arn) throw new AwsUnavailable(`stack ${stack} has no ${STACK_OUTPUT_KEYS.stateMachineArn} output: deploy it with npx cdk deploy`);
  return arn;
}

/** One line a user can act on, for the usual ways AWS is not reachable. */
function explain(err: unknown, stack: string): Error {
  const e = err as Error & { name?: string; message?: string };
  if (e instanceof AwsUnavailable) return e;
  if (e.name === 'CredentialsProviderError' || /credential/i.test(e.message ?? '')) {
    return new AwsUnavailable('no AWS credentials: run aws configure or set AWS_PROFILE (or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)');
  }
  if (/Region is missing/i.test(e.message ?? '')) return new AwsUnavailable('no AWS region: set AWS_REGION (or a region in your AWS profile)');
  if (e.name === 'ValidationError' && /does not exist/.test(e.message ?? '')) {
    return new AwsUnavailable(`no stack ${stack} in this account and region: deploy it with npx cdk deploy, or pass --stack`);
  }
  return new AwsUnavailable(`could not start the search: ${e.name}: ${e.message}`);
}
