/**
 * The deployment (infra/stack.ts) asserted on its CloudFormation template. esbuild bundling is
 * skipped (`aws:cdk:bundling-stacks: []`); each configuration is synthesized once and shared.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { build } from 'esbuild';
import { App, type CfnElement, Validations } from 'aws-cdk-lib';
import { Capture, Match, Template } from 'aws-cdk-lib/assertions';
import cdkNag from 'cdk-nag';
import type { IConstruct } from 'constructs';
import {
  DEFAULT_MAX_COST_USD,
  ENV_VARS,
  EVENT_SOURCE,
  FUNCTION_CAPS,
  type FunctionRole,
  LAMBDA_RUNTIME,
  LOG_RETENTION_DAYS,
  SEED_POLICY_EXPIRY_DAYS,
  SEED_POLICY_TAG,
  STACK_OUTPUT_KEYS,
  START_DETAIL_TYPE,
} from '../infra/config.ts';
import { EurekaStack } from '../infra/stack.ts';
import { costCeilingUsd, parseSearchInput } from '../functions/shared/input/search-input.ts';
import { FEEDBACK_TIMEOUT_PATH, SEED_RUN_STATES, STATE } from '../infra/workflow.ts';

interface Synthesized {
  app: App;
  stack: EurekaStack;
  template: Template;
}

function synth(context: Record<string, unknown> = {}): Synthesized {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const stack = new EurekaStack(app, 'EurekaServerless');
  return { app, stack, template: Template.fromStack(stack) };
}

const base = synth();
const ROLES: FunctionRole[] = ['propose', 'trainSeed', 'reflect', 'publish'];

type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown };

function logicalId(construct: IConstruct): string {
  return base.stack.getLogicalId(construct.node.defaultChild as CfnElement);
}

function roleId(role: FunctionRole): string {
  return logicalId(base.stack.functions[role].role!);
}

function functionProps(role: FunctionRole): Record<string, unknown> {
  const resource = base.template.toJSON().Resources[logicalId(base.stack.functions[role])];
  return resource.Properties as Record<string, unknown>;
}

/** Every statement of the inline policies attached to a role. */
function statementsOf(roleLogicalId: string): Statement[] {
  const policies = base.template.findResources('AWS::IAM::Policy', {
    Properties: { Roles: Match.arrayWith([{ Ref: roleLogicalId }]) },
  });
  return Object.values(policies).flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);
}

function actionsOf(statements: Statement[]): string[] {
  return statements.flatMap((statement) => [statement.Action].flat());
}

describe('Stack: network of the seed-runs', () => {
  it('has no NAT gateway, internet gateway or route out of the VPC', () => {
    for (const type of ['AWS::EC2::NatGateway', 'AWS::EC2::InternetGateway', 'AWS::EC2::VPCGatewayAttachment',
      'AWS::EC2::EIP', 'AWS::EC2::Route', 'AWS::EC2::EgressOnlyInternetGateway', 'AWS::EC2::TransitGatewayAttachment']) {
      base.template.resourceCountIs(type, 0);
    }
    base.template.allResourcesProperties('AWS::EC2::Subnet', { MapPublicIpOnLaunch: false });
  });

  it('runs TrainSeed in the isolated subnets with the seed-run security group', () => {
    const subnets = Object.keys(base.template.findResources('AWS::EC2::Subnet'));
    const [securityGroup] = Object.keys(base.template.findResources('AWS::EC2::SecurityGroup'));
    const vpcConfig = functionProps('trainSeed').VpcConfig as { SubnetIds: unknown[]; SecurityGroupIds: unknown[] };
    assert.deepEqual(vpcConfig.SubnetIds, subnets.map((id) => ({ Ref: id })));
    assert.deepEqual(vpcConfig.SecurityGroupIds, [{ 'Fn::GetAtt': [securityGroup, 'GroupId'] }]);
    for (const role of ['propose', 'reflect', 'publish'] as const) {
      assert.equal(functionProps(role).VpcConfig, undefined, `${role} needs the internet, not the VPC`);
    }
  });

  it('lets the seed-run security group send only HTTPS to the S3 prefix list', () => {
    const [securityGroup] = Object.values(base.template.findResources('AWS::EC2::SecurityGroup'));
    // No inline rule: the standalone rule below replaces the default allow-all egress.
    assert.equal(securityGroup.Properties.SecurityGroupEgress, undefined);
    assert.equal(securityGroup.Properties.SecurityGroupIngress, undefined);
    base.template.resourceCountIs('AWS::EC2::SecurityGroupIngress', 0);
    base.template.resourceCountIs('AWS::EC2::SecurityGroupEgress', 1);
    const prefixList = new Capture();
    base.template.hasResourceProperties('AWS::EC2::SecurityGroupEgress', {
      IpProtocol: 'tcp', FromPort: 443, ToPort: 443, DestinationPrefixListId: prefixList,
    });
    const [lookupId] = Object.keys(base.template.findResources('Custom::AWS'));
    assert.deepEqual(prefixList.asObject(), { 'Fn::GetAtt': [lookupId, 'PrefixLists.0.PrefixListId'] });
    const create = JSON.stringify(base.template.toJSON().Resources[lookupId].Properties);
    assert.match(create, /describeManagedPrefixLists/);
    assert.match(create, /prefix-list-name/);
    assert.match(create, /com\.amazonaws\.".*AWS::Region.*\.s3/);
  });

  it('takes the S3 prefix list id from context without a lookup', () => {
    const { template } = synth({ s3PrefixListId: 'pl-63a5400a' });
    template.resourceCountIs('Custom::AWS', 0);
    template.resourceCountIs('AWS::Lambda::Function', 4);
    template.hasResourceProperties('AWS::EC2::SecurityGroupEgress', {
      IpProtocol: 'tcp', FromPort: 443, ToPort: 443, DestinationPrefixListId: 'pl-63a5400a',
    });
  });

  it('limits the S3 gateway endpoint to the project bucket', () => {
    const bucket = logicalId(base.stack.node.findChild('ArtifactsBucket'));
    base.template.hasResourceProperties('AWS::EC2::VPCEndpoint', {
      VpcEndpointType: 'Gateway',
      PolicyDocument: {
        Statement: [{
          Effect: 'Allow',
          Principal: { AWS: '*' },
          Action: ['s3:GetObject', 's3:ListBucket', 's3:PutObject', 's3:PutObjectTagging'],
          Resource: [
            { 'Fn::GetAtt': [bucket, 'Arn'] },
            { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucket, 'Arn'] }, '/*']] },
          ],
        }],
      },
    });
  });
});

describe('Stack: permissions', () => {
  it('lets only the Propose role read the Anthropic key', () => {
    const readers = Object.values(base.template.findResources('AWS::IAM::Policy')).filter((policy) =>
      actionsOf(policy.Properties.PolicyDocument.Statement).some((action) => action.startsWith('secretsmanager:')));
    assert.equal(readers.length, 1);
    assert.deepEqual(readers[0].Properties.Roles, [{ Ref: roleId('propose') }]);
    base.template.hasResourceProperties('AWS::SecretsManager::ResourcePolicy', {
      ResourcePolicy: {
        Statement: [{
          Effect: 'Deny',
          Principal: { AWS: '*' },
          Action: 'secretsmanager:GetSecretValue',
          Condition: { StringNotEquals: { 'aws:PrincipalArn': { 'Fn::GetAtt': [roleId('propose'), 'Arn'] } } },
        }],
      },
    });
  });

  it('gives TrainSeed only its objects: no table, secret, model or events', () => {
    const actions = new Set(actionsOf(statementsOf(roleId('trainSeed'))));
    assert.deepEqual([...actions].sort(), [
      's3:GetObject', 's3:ListBucket', 's3:PutObject', 's3:PutObjectTagging',
      'xray:PutTelemetryRecords', 'xray:PutTraceSegments',
    ]);
    const objects = statementsOf(roleId('trainSeed')).find((statement) => [statement.Action].flat().includes('s3:PutObject'));
    assert.match(JSON.stringify(objects?.Resource), /"\/searches\/\*"/);
  });

  it('grants Bedrock to Propose only, on the configured model', () => {
    for (const role of ROLES) {
      const bedrock = actionsOf(statementsOf(roleId(role))).filter((action) => action.startsWith('bedrock:'));
      assert.deepEqual(bedrock.sort(), role === 'propose' ? ['bedrock:InvokeModel', 'bedrock:InvokeModelWithResponseStream'] : []);
    }
  });

  it('gives the other functions the table and the searches/ objects, never a delete', () => {
    for (const role of ['propose', 'reflect', 'publish'] as const) {
      const actions = actionsOf(statementsOf(roleId(role)));
      assert.ok(actions.includes('dynamodb:PutItem'), `${role} writes the table`);
      assert.ok(actions.includes('s3:PutObject'), `${role} writes objects`);
      assert.ok(!actions.some((action) => action.startsWith('s3:Delete')), `${role} deletes no object`);
    }
  });
});

describe('Stack: a person\'s feedback', () => {
  const [machineId] = Object.keys(base.template.findResources('AWS::StepFunctions::StateMachine'));
  const definition = (): Record<string, Record<string, unknown>> => {
    const [separator, parts] = base.template.toJSON().Resources[machineId].Properties.DefinitionString['Fn::Join'] as [string, unknown[]];
    // Each Ref and Fn::GetAtt sits inside a JSON string of the definition.
    return JSON.parse(parts.map((part) => (typeof part === 'string' ? part : '<ref>')).join(separator)).States;
  };

  it('waits on a task token for the search\'s timeout, and goes on when it passes', () => {
    const wait = definition()[STATE.waitForFeedback];
    assert.match(String(wait.Resource), /:states:::lambda:invoke\.waitForTaskToken$/);
    assert.equal((wait.Parameters as { Payload: Record<string, string> }).Payload['token.$'], '$$.Task.Token');
    assert.equal(wait.TimeoutSecondsPath, FEEDBACK_TIMEOUT_PATH);
    assert.deepEqual((wait.Catch as Array<{ ErrorEquals: string[]; Next: string }>).map((c) => [c.ErrorEquals, c.Next]),
      [[['States.Timeout'], STATE.feedbackTimedOut]]);
  });

  it('lets no function send a task token: only the responder policy, on this state machine', () => {
    const sendsTokens = (statements: Statement[]) => actionsOf(statements).some((a) => a.startsWith('states:SendTask') || a === 'states:*');
    for (const role of ROLES) assert.ok(!sendsTokens(statementsOf(roleId(role))), `${role} cannot send a task token`);
    const inline = Object.values(base.template.findResources('AWS::IAM::Policy')).filter((p) => sendsTokens(p.Properties.PolicyDocument.Statement));
    assert.deepEqual(inline, [], 'no inline policy sends task tokens');
    const managed = Object.entries(base.template.findResources('AWS::IAM::ManagedPolicy'))
      .filter(([, p]) => sendsTokens(p.Properties.PolicyDocument.Statement));
    assert.equal(managed.length, 1);
    const [id, policy] = managed[0];
    const statements = policy.Properties.PolicyDocument.Statement as Statement[];
    const send = statements.find((st) => actionsOf([st]).includes('states:SendTaskSuccess'));
    assert.deepEqual(send?.Resource, { Ref: machineId }, 'on this state machine only');
    assert.equal(policy.Properties.Roles, undefined, 'attached to no role of the stack');
    base.template.hasOutput(STACK_OUTPUT_KEYS.feedbackPolicyArn, { Value: { Ref: id } });
  });

  it('grants whoever answers only what answering and looking need: no table write, DescribeStacks on this stack', () => {
    const [[, policy]] = Object.entries(base.template.findResources('AWS::IAM::ManagedPolicy'))
      .filter(([id]) => id.startsWith('FeedbackResponderPolicy'));
    const statements = policy.Properties.PolicyDocument.Statement as Statement[];
    const bySid = Object.fromEntries(statements.map((st) => [(st as Statement & { Sid: string }).Sid, st]));
    assert.deepEqual(Object.keys(bySid).sort(), ['AnswerAPause', 'FindTheStack', 'OpenItsCards', 'ReadTheSearch']);
    assert.ok(statements.every((st) => st.Effect === 'Allow'));
    assert.deepEqual(actionsOf([bySid.AnswerAPause]), ['states:SendTaskSuccess']);
    assert.deepEqual(actionsOf([bySid.ReadTheSearch]).sort(), ['dynamodb:GetItem', 'dynamodb:Query']);
    assert.ok(!actionsOf(statements).some((a) => /^dynamodb:(Put|Update|Delete|BatchWrite)/.test(a) || a === 'dynamodb:*'), 'it writes nothing in the table');
    assert.deepEqual(actionsOf([bySid.OpenItsCards]), ['s3:GetObject']);
    assert.match(JSON.stringify(bySid.OpenItsCards.Resource), /\/searches\/\*\/card\.html"/, 'the cards only');
    assert.deepEqual(actionsOf([bySid.FindTheStack]), ['cloudformation:DescribeStacks']);
    assert.match(JSON.stringify(bySid.FindTheStack.Resource), /:stack\/EurekaServerless\/\*"/, 'this stack only');
  });

  it('lets the reflect function announce the pause on the default bus, and only it', () => {
    for (const role of ROLES) {
      const puts = actionsOf(statementsOf(roleId(role))).includes('events:PutEvents');
      assert.equal(puts, role === 'reflect', role);
    }
  });
});

describe('Stack: functions', () => {
  for (const role of ROLES) {
    it(`caps ${role} from infra/config.ts`, () => {
      const props = functionProps(role);
      assert.equal(props.MemorySize, FUNCTION_CAPS[role].memoryMb);
      assert.equal(props.Timeout, FUNCTION_CAPS[role].timeoutSeconds);
      assert.equal(props.Runtime, LAMBDA_RUNTIME);
      assert.ok(Number(/^nodejs(\d+)\.x$/.exec(String(props.Runtime))?.[1]) >= 22, 'nodejs22.x or newer');
      assert.deepEqual(props.TracingConfig, { Mode: 'Active' });
      assert.equal(props.Handler, 'index.handler');
      const logGroup = (props.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref;
      assert.equal(base.template.toJSON().Resources[logGroup].Properties.RetentionInDays, LOG_RETENTION_DAYS);
    });
  }

  it('binds each environment variable with its grant', () => {
    const names = (role: FunctionRole): string[] =>
      Object.keys((functionProps(role).Environment as { Variables: Record<string, unknown> }).Variables).sort();
    assert.deepEqual(names('propose'), [ENV_VARS.anthropicSecretArn, ENV_VARS.bedrockModelId, ENV_VARS.bucket,
      ENV_VARS.table, 'NODE_OPTIONS'].sort());
    assert.deepEqual(names('trainSeed'), [ENV_VARS.bucket, 'EUREKA_TFJS_BACKEND', 'NODE_OPTIONS'].sort());
    assert.deepEqual(names('reflect'), [ENV_VARS.bucket, ENV_VARS.maxCostUsd, ENV_VARS.table, 'NODE_OPTIONS'].sort());
    assert.deepEqual(names('publish'), [ENV_VARS.bucket, ENV_VARS.table, 'NODE_OPTIONS'].sort());
  });
});

describe('Stack: storage', () => {
  it('keeps the bucket private, encrypted, TLS-only, and expires seed-run policies by tag', () => {
    base.template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true,
      },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      LoggingConfiguration: Match.objectLike({ LogFilePrefix: 'artifacts/' }),
      LifecycleConfiguration: {
        Rules: Match.arrayWith([Match.objectLike({
          Status: 'Enabled',
          ExpirationInDays: SEED_POLICY_EXPIRY_DAYS,
          TagFilters: [{ Key: SEED_POLICY_TAG.key, Value: SEED_POLICY_TAG.value }],
        })]),
      },
    });
    const bucket = logicalId(base.stack.node.findChild('ArtifactsBucket'));
    base.template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: bucket },
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({
          Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        })]),
      },
    });
  });

  it('keys the table by pk/sk strings, on demand, with point-in-time recovery', () => {
    base.template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'S' }],
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
  });
});

describe('Stack: workflow and events', () => {
  it('runs a STANDARD state machine with ALL logging and tracing', () => {
    base.template.hasResourceProperties('AWS::StepFunctions::StateMachine', {
      StateMachineType: 'STANDARD',
      TracingConfiguration: { Enabled: true },
      LoggingConfiguration: Match.objectLike({ Level: 'ALL', IncludeExecutionData: true }),
    });
    const role = logicalId(base.stack.stateMachine.role);
    const actions = actionsOf(statementsOf(role));
    assert.ok(actions.includes('events:PutEvents'), 'announces the winner');
    assert.ok(actions.includes('lambda:InvokeFunction'), 'invokes the functions');
  });

  it('starts a search for each "Start reward search" event with its detail as input', () => {
    base.template.resourceCountIs('AWS::Events::Rule', 1);
    base.template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: { source: [EVENT_SOURCE], 'detail-type': [START_DETAIL_TYPE] },
      State: 'ENABLED',
      Targets: [Match.objectLike({
        Arn: { Ref: logicalId(base.stack.stateMachine) },
        InputPath: '$.detail',
        RoleArn: Match.anyValue(),
      })],
    });
  });

  it('adds the schedule only when the context sets it', () => {
    const { template, stack } = synth({ schedule: 'rate(7 days)', scheduleInput: '{"smoke":true}' });
    template.resourceCountIs('AWS::Events::Rule', 2);
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(7 days)',
      Targets: [Match.objectLike({
        Arn: { Ref: stack.getLogicalId(stack.stateMachine.node.defaultChild as CfnElement) },
        Input: '{"smoke":true}',
      })],
    });
    assert.equal(Object.keys(base.template.findResources('AWS::Events::Rule', {
      Properties: { ScheduleExpression: Match.anyValue() },
    })).length, 0);
  });

  it('gives every search a spending ceiling: "Start the search" applies the stack\'s, DEFAULT_MAX_COST_USD unless -c maxCostUsd sets another', () => {
    // What "Start the search" does with the Reflect function's environment as the template sets it.
    const start = (synthesized: Synthesized, input: Record<string, unknown> = {}) => {
      const fn = synthesized.template.toJSON().Resources[synthesized.stack.getLogicalId(synthesized.stack.functions.reflect.node.defaultChild as CfnElement)];
      const raw = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables[ENV_VARS.maxCostUsd];
      return parseSearchInput(input, { proposer: 'anthropic', costCeilingUsd: costCeilingUsd(typeof raw === 'string' ? raw : undefined) });
    };
    assert.equal(start(base).maxCostUsd, DEFAULT_MAX_COST_USD, 'an input without maxCostUsd gets the stack\'s');
    assert.throws(() => start(base, { maxCostUsd: DEFAULT_MAX_COST_USD + 1 }), /"maxCostUsd" must be at most 10, the stack's ceiling/);
    const lower = synth({ maxCostUsd: '2.5' });
    assert.equal(start(lower).maxCostUsd, 2.5);
    assert.equal(start(lower, { maxCostUsd: 1 }).maxCostUsd, 1, 'an input may lower it');
    assert.throws(() => start(lower, { maxCostUsd: 3 }), /"maxCostUsd" must be at most 2\.5, the stack's ceiling/);
    for (const bad of ['none', '0', '-1', '20000']) {
      assert.throws(() => synth({ maxCostUsd: bad }), /context maxCostUsd must be a number of US dollars, more than 0 and at most 10000/, bad);
    }
  });

  it('rejects a schedule input that is not a JSON object', () => {
    assert.throws(() => synth({ schedule: 'rate(1 day)', scheduleInput: '{smoke' }), /scheduleInput is not JSON/);
  });

  it('exports the outputs `eureka start` reads', () => {
    for (const key of Object.values(STACK_OUTPUT_KEYS)) {
      base.template.hasOutput(key, { Export: { Name: `EurekaServerless-${key}` } });
    }
    base.template.hasOutput(STACK_OUTPUT_KEYS.stateMachineArn, { Value: { Ref: logicalId(base.stack.stateMachine) } });
  });
});

describe('Stack: cdk-nag', () => {
  it('finds nothing that is not acknowledged', () => {
    const report = new cdkNag.AwsSolutionsChecks(base.app, { verbose: true }).validateScope(base.app);
    assert.deepEqual(report.violations.map((violation) => violation.ruleName), []);
  });

  it('has a written reason for every acknowledgment', () => {
    const acknowledgments = base.stack.node.findAll().flatMap((construct) => construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) => Object.entries(entry.data as Record<string, string>)));
    assert.ok(acknowledgments.length > 0);
    for (const [id, reason] of acknowledgments) {
      assert.ok(typeof reason === 'string' && reason.length > 20, `${id} needs a reason`);
    }
  });
});

describe('Stack: operating it', () => {
  const machineId = logicalId(base.stack.stateMachine);

  it('has the "Eureka searches" dashboard: executions, seed-runs, checks, tokens and cost, each function\'s errors and throttles', () => {
    const dashboards = Object.values(base.template.findResources('AWS::CloudWatch::Dashboard'));
    assert.equal(dashboards.length, 1);
    assert.equal(dashboards[0].Properties.DashboardName, 'EurekaServerless-searches');
    const body = JSON.stringify(dashboards[0].Properties.DashboardBody);
    for (const title of ['Executions', 'Seed-run outcomes', 'Seed-run time (s)', 'Candidates: checks and failures', 'Model tokens',
      'Model cost (USD, estimated) and the winners', 'Lambda errors', 'Lambda throttles', 'Alarms']) {
      assert.ok(body.includes(`\\"title\\":\\"${title}\\"`), title);
    }
    for (const metric of ['ExecutionsStarted', 'ExecutionsSucceeded', 'ExecutionsFailed', 'SeedRuns', 'SeedRunSeconds', 'CandidateChecks',
      'CandidatesFailed', 'ModelInputTokens', 'ModelOutputTokens', 'ModelCostUsd', 'WinnerFreshSuccess', 'Errors', 'Throttles']) {
      assert.ok(body.includes(`\\"${metric}\\"`), metric);
    }
    assert.ok(body.includes('\\"EurekaServerless\\"'), 'the Powertools namespace');
    for (const role of ROLES) assert.ok(body.includes(logicalId(base.stack.functions[role])), `${role}'s errors and throttles`);
  });

  it('alarms on a failed execution and on TrainSeed throttling, to no one unless alarmEmail is set', () => {
    base.template.resourceCountIs('AWS::CloudWatch::Alarm', 2);
    base.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/States', MetricName: 'ExecutionsFailed', Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      Dimensions: [{ Name: 'StateMachineArn', Value: { Ref: machineId } }], TreatMissingData: 'notBreaching',
    });
    base.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/Lambda', MetricName: 'Throttles', Dimensions: [{ Name: 'FunctionName', Value: { Ref: logicalId(base.stack.functions.trainSeed) } }],
    });
    for (const alarm of Object.values(base.template.findResources('AWS::CloudWatch::Alarm'))) assert.equal(alarm.Properties.AlarmActions, undefined);
    base.template.resourceCountIs('AWS::SNS::Topic', 0);

    const { template } = synth({ alarmEmail: 'ops@example.com' });
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
    const [topicId] = Object.keys(template.findResources('AWS::SNS::Topic'));
    for (const alarm of Object.values(template.findResources('AWS::CloudWatch::Alarm'))) assert.deepEqual(alarm.Properties.AlarmActions, [{ Ref: topicId }]);
    template.hasResourceProperties('AWS::SNS::TopicPolicy', { PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) } });
  });

  it('fans every seed-run out as a STANDARD child execution of a Distributed Map, and lets the state machine run them', () => {
    const [separator, parts] = base.template.toJSON().Resources[machineId].Properties.DefinitionString['Fn::Join'] as [string, unknown[]];
    const states = JSON.parse(parts.map((part) => (typeof part === 'string' ? part : '<ref>')).join(separator)).States as Record<string, Record<string, unknown>>;
    const maps = { [STATE.trainBaselines]: ['$.search.baselineTasks', SEED_RUN_STATES.baselines.label],
      [STATE.trainRung]: ['$.seedRuns.tasks', SEED_RUN_STATES.seeds.label], [STATE.trainFresh]: ['$.reflection.freshTasks', SEED_RUN_STATES.fresh.label] };
    for (const [name, [itemsPath, label]] of Object.entries(maps)) {
      const map = states[name];
      assert.deepEqual((map.ItemProcessor as { ProcessorConfig: unknown }).ProcessorConfig, { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' }, name);
      assert.equal(map.Label, label);
      assert.equal(map.MaxConcurrencyPath, '$.search.config.maxConcurrency');
      assert.equal(map.ItemsPath, itemsPath);
    }
    for (const inline of [STATE.checkCandidates, STATE.checkRepaired]) {
      assert.equal((states[inline].ItemProcessor as { ProcessorConfig?: { Mode?: string } }).ProcessorConfig?.Mode ?? 'INLINE', 'INLINE', inline);
    }
    const machineRole = base.template.toJSON().Resources[machineId].Properties.RoleArn['Fn::GetAtt'][0];
    const statements = statementsOf(machineRole);
    const start = statements.find((st) => actionsOf([st]).includes('states:StartExecution'));
    assert.deepEqual(start?.Resource, { Ref: machineId }, 'its own children only');
    assert.ok(statements.some((st) => ['states:DescribeExecution', 'states:StopExecution'].every((a) => actionsOf([st]).includes(a))));
    assert.ok(actionsOf(statements).includes('states:RedriveExecution'), 'and redrives them');
  });

  it('deploys TrainSeed as an arm64 container image with tfjs-node when trainer=tfjs-node, synthesized without Docker', () => {
    const { app, stack, template } = synth({ trainer: 'tfjs-node' });
    const fn = template.toJSON().Resources[stack.getLogicalId(stack.functions.trainSeed.node.defaultChild as CfnElement)].Properties;
    assert.equal(fn.PackageType, 'Image');
    assert.ok(fn.Code.ImageUri, 'an image asset');
    assert.equal(fn.Runtime, undefined);
    assert.deepEqual(fn.Architectures, ['arm64']);
    assert.equal(fn.MemorySize, FUNCTION_CAPS.trainSeed.memoryMb);
    assert.equal(fn.Timeout, FUNCTION_CAPS.trainSeed.timeoutSeconds);
    assert.equal(fn.Environment.Variables.EUREKA_TFJS_BACKEND, 'tfjs-node');
    assert.ok(fn.VpcConfig.SubnetIds.length > 0, 'in the isolated subnets, as the zip');
    const assembly = app.synth();
    const manifest = JSON.parse(readFileSync(join(assembly.directory, `${stack.artifactId}.assets.json`), 'utf8')) as { dockerImages: Record<string, { source: { dockerFile?: string; platform?: string } }> };
    const images = Object.values(manifest.dockerImages);
    assert.equal(images.length, 1, 'one image, built at deploy time');
    assert.deepEqual([images[0].source.dockerFile, images[0].source.platform], ['functions/train-seed/Dockerfile', 'linux/arm64']);
    assert.throws(() => synth({ trainer: 'gpu' }), /context trainer must be wasm \(the zip, default\) or tfjs-node \(a container image\), got "gpu"/);
    const zip = functionProps('trainSeed');
    assert.equal(zip.PackageType, undefined, 'the default stays the zip');
    assert.equal((zip.Environment as { Variables: Record<string, string> }).Variables.EUREKA_TFJS_BACKEND, 'wasm');
  });

  it('copies into the tfjs-node image\'s build every file of ours the TrainSeed handler imports', async () => {
    // Prepare: what the Dockerfile's build stage copies, and what the handler's bundle reads.
    const dockerfile = readFileSync('functions/train-seed/Dockerfile', 'utf8');
    const buildStage = dockerfile.slice(0, dockerfile.lastIndexOf('\nFROM '));
    const copied = [...buildStage.matchAll(/^COPY (\S+) /gm)].map((m) => m[1]).filter((from) => !from.startsWith('package'));
    const { metafile } = await build({
      entryPoints: ['functions/train-seed/handler.ts'], bundle: true, platform: 'node', format: 'esm', write: false, metafile: true, logLevel: 'silent',
      external: ['@tensorflow/*', '@jitl/*', 'quickjs-emscripten*'],
    });

    // Act
    const ours = Object.keys(metafile.inputs).filter((path) => !path.startsWith('node_modules/'));
    const missing = ours.filter((path) => !copied.some((from) => path === from || path.startsWith(`${from}/`)));

    // Assess
    assert.ok(ours.some((path) => path.startsWith('core/')), 'the handler reaches core/');
    assert.deepEqual(missing, []);
  });
});
