/**
 * `eureka start`: start a search on AWS. The state machine comes from the stack's outputs; the
 * input is checked here first, so a typo is one line now rather than a failed execution later.
 */
import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { z } from 'zod';
import { DEFAULT_MAX_COST_USD, DEFAULT_STACK_NAME } from '../../infra/config.ts';
import { printEstimate } from './estimate.ts';
import { InvalidSearchInput, parseSearchInput } from '../../functions/shared/input/search-input.ts';
import { parseFlags, UsageError } from '../flags.ts';
import { explainAws, stackOutputs } from '../stack-outputs.ts';
import { getTask } from '../../tasks/registry.ts';
import { noteRoundedSteps } from '../steps-note.ts';

const StartFlags = z.object({
  stack: z.string().min(1).default(DEFAULT_STACK_NAME),
  input: z.string().default('{}'),
  name: z.string().regex(/^[A-Za-z0-9_-]{1,80}$/, { error: 'letters, digits, - and _ only (at most 80)' }).optional(),
  json: z.boolean().default(false),
  estimate: z.boolean().default(false),
  maxCost: z.coerce.number({ error: 'must be a number of US dollars' }).positive({ error: 'must be more than 0' }).optional(),
});

export async function startCommand(raw: unknown): Promise<void> {
  const flags = parseFlags(StartFlags, raw);
  const input = parseInput(flags.input);
  if (flags.estimate) {
    // The stack's ceiling applies to every search that gives none (cdk deploy -c maxCostUsd=...).
    printEstimate(input, { proposer: 'anthropic', costCeilingUsd: flags.maxCost ?? DEFAULT_MAX_COST_USD, local: false, flag: '--input' }, flags.json);
    return;
  }
  try {
    const stateMachineArn = await stateMachineOf(flags.stack);
    const started = await new SFNClient({}).send(new StartExecutionCommand({ stateMachineArn, input: JSON.stringify(input), name: flags.name }));
    const region = stateMachineArn.split(':')[3];
    const consoleUrl = `https://${region}.console.aws.amazon.com/states/home?region=${region}#/v2/executions/details/${started.executionArn}`;
    if (flags.json) process.stdout.write(`${JSON.stringify({ executionArn: started.executionArn, consoleUrl })}\n`);
    else process.stdout.write(`started ${started.executionArn}\nwatch it: ${consoleUrl}\n`);
  } catch (err) {
    throw explainAws(err, flags.stack, 'could not start the search');
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
    const parsed = parseSearchInput(input, { proposer: 'anthropic' });
    // Only a budget the input gives: the tasks' own are what they measured, rounded or not.
    if ((input as { steps?: unknown }).steps !== undefined) noteRoundedSteps(getTask(parsed.task), parsed.steps, '--input steps');
  } catch (err) {
    if (err instanceof InvalidSearchInput) throw new UsageError(`--input: ${err.message}`);
    throw err;
  }
  return input as object;
}

async function stateMachineOf(stack: string): Promise<string> {
  return (await stackOutputs(stack, ['stateMachineArn'])).stateMachineArn;
}
