/**
 * What the commands that reach a deployed stack share (`eureka start`, `feedback --stack`,
 * `train --remote`): its outputs by CloudFormation DescribeStacks, and one line a user can act on
 * for the usual ways AWS is not reachable.
 */
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { STACK_OUTPUT_KEYS } from '../infra/config.ts';

export class AwsUnavailable extends Error {
  override readonly name = 'AwsUnavailable';
}

type OutputName = keyof typeof STACK_OUTPUT_KEYS;

/** The named outputs of the stack; a missing one says how to get it. */
export async function stackOutputs<K extends OutputName>(stack: string, names: K[]): Promise<Record<K, string>> {
  const { Stacks } = await new CloudFormationClient({}).send(new DescribeStacksCommand({ StackName: stack }));
  const outputs = Stacks?.[0]?.Outputs ?? [];
  return Object.fromEntries(names.map((name) => {
    const value = outputs.find((o) => o.OutputKey === STACK_OUTPUT_KEYS[name])?.OutputValue;
    if (!value) throw new AwsUnavailable(`stack ${stack} has no ${STACK_OUTPUT_KEYS[name]} output: deploy this version with npx cdk deploy`);
    return [name, value];
  })) as Record<K, string>;
}

/** `doing`: what failed, for the last resort ("could not start the search"). */
export function explainAws(err: unknown, stack: string, doing: string): Error {
  const e = err as Error & { name?: string; message?: string };
  if (e instanceof AwsUnavailable) return e;
  if (e.name === 'CredentialsProviderError' || /credential/i.test(e.message ?? '')) {
    return new AwsUnavailable('no AWS credentials: run aws configure or set AWS_PROFILE (or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)');
  }
  if (/Region is missing/i.test(e.message ?? '')) return new AwsUnavailable('no AWS region: set AWS_REGION (or a region in your AWS profile)');
  if (e.name === 'ValidationError' && /does not exist/.test(e.message ?? '')) {
    return new AwsUnavailable(`no stack ${stack} in this account and region: deploy it with npx cdk deploy, or pass --stack`);
  }
  return new AwsUnavailable(`${doing}: ${e.name}: ${e.message}`);
}
