/**
 * The search definition as plain ASL JSON, without AWS: the chain of workflow.ts built in a
 * throwaway stack whose Lambda targets are placeholder ARNs, one per Task role, so the local
 * runner (aws-local-stepfunctions) can map every Task state to a local handler, by state name
 * (LAMBDA_TASK_STATES) or by Resource (localRoleOfResource).
 */
import { Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { SEARCH_TIMEOUT_SECONDS, type TaskRole } from './config.ts';
import { buildSearchDefinition, type SearchTargets } from './workflow.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** A state machine definition in the Amazon States Language. */
export interface AslDefinition {
  StartAt: string;
  States: Record<string, JsonObject>;
  TimeoutSeconds?: number;
  Comment?: string;
}

/** Every Task state of the definition, Map iterations included, by name (names are unique across the machine). */
export function taskStates(states: Record<string, JsonObject>, into = new Map<string, JsonObject>()): Map<string, JsonObject> {
  for (const [name, state] of Object.entries(states)) {
    if (state.Type === 'Task') into.set(name, state);
    const processor = (state.ItemProcessor ?? state.Iterator) as { States?: Record<string, JsonObject> } | undefined;
    if (processor?.States) taskStates(processor.States, into);
  }
  return into;
}

const LOCAL_ACCOUNT = '000000000000';
const LOCAL_REGION = 'local';
const LOCAL_PARTITION = 'aws';

/** Function names of the placeholder ARNs (kebab-case, like functions/<name>). */
const LOCAL_FUNCTION_NAMES: Readonly<Record<TaskRole, string>> = {
  init: 'init',
  propose: 'propose',
  check: 'check',
  repair: 'repair',
  plan: 'plan',
  promote: 'promote',
  trainSeed: 'train-seed',
  reflect: 'reflect',
  feedback: 'feedback',
  finish: 'finish',
  publish: 'publish',
};

/** `arn:aws:lambda:local:000000000000:function:<name>` for each Task role. */
export const LOCAL_FUNCTION_ARNS: Readonly<Record<TaskRole, string>> = Object.fromEntries(
  Object.entries(LOCAL_FUNCTION_NAMES).map(([role, name]) =>
    [role, `arn:${LOCAL_PARTITION}:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT}:function:${name}`]),
) as Record<TaskRole, string>;

/** The Task role behind a placeholder Resource ARN, or undefined for any other resource. */
export function localRoleOfResource(resource: string): TaskRole | undefined {
  const entry = Object.entries(LOCAL_FUNCTION_ARNS).find(([, arn]) => arn === resource);
  return entry?.[0] as TaskRole | undefined;
}

/** Renders the search definition to plain ASL, with placeholder Lambda ARNs and no tokens. */
export function definitionAsl(): AslDefinition {
  const stack = new Stack(undefined, 'LocalSearchDefinition', {
    env: { account: LOCAL_ACCOUNT, region: LOCAL_REGION },
  });
  const targets = Object.fromEntries(
    Object.entries(LOCAL_FUNCTION_ARNS).map(([role, arn]) =>
      [role, lambda.Function.fromFunctionArn(stack, `${role}Function`, arn)]),
  ) as unknown as SearchTargets;
  const { chain } = buildSearchDefinition(stack, targets);
  const graph = new sfn.StateGraph(chain.startState, 'Eureka reward search');
  const rendered = resolveIntrinsics(stack.resolve(graph.toGraphJson()) as Json);
  const definition = rendered as unknown as AslDefinition;
  return { ...definition, TimeoutSeconds: SEARCH_TIMEOUT_SECONDS };
}

const PSEUDO_PARAMETERS: Readonly<Record<string, string>> = {
  'AWS::Partition': LOCAL_PARTITION,
  'AWS::Region': LOCAL_REGION,
  'AWS::AccountId': LOCAL_ACCOUNT,
  'AWS::URLSuffix': 'amazonaws.com',
};

/** Evaluates the CloudFormation intrinsics a resolved definition may hold (Ref, Fn::Join). */
function resolveIntrinsics(value: Json): Json {
  if (Array.isArray(value)) return value.map(resolveIntrinsics);
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'string' && value.includes('${Token[')) {
      throw new Error(`unresolved token in the local definition: ${value}`);
    }
    return value;
  }
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === 'Ref') {
    const name = value.Ref;
    if (typeof name === 'string' && name in PSEUDO_PARAMETERS) return PSEUDO_PARAMETERS[name];
    throw new Error(`cannot resolve Ref ${JSON.stringify(name)} in the local definition`);
  }
  if (keys.length === 1 && keys[0] === 'Fn::Join') {
    const args = value['Fn::Join'];
    if (Array.isArray(args) && typeof args[0] === 'string' && Array.isArray(args[1])) {
      return args[1].map((part) => String(resolveIntrinsics(part))).join(args[0]);
    }
  }
  if (keys.some((key) => key.startsWith('Fn::'))) {
    throw new Error(`cannot resolve ${keys.join(', ')} in the local definition`);
  }
  return Object.fromEntries(keys.map((key) => [key, resolveIntrinsics(value[key])]));
}
