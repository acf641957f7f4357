/**
 * The whole deployment, read top to bottom as the architecture (DESIGN §2-4):
 * Storage -> Network -> Functions -> Workflow -> Events -> Outputs.
 *
 * Context (all optional): `alarmEmail` (where the alarms go), `trainer` ("tfjs-node": TrainSeed as a
 * container image with the native backend), `maxCostUsd` (the spending ceiling of every search the
 * stack starts, default DEFAULT_MAX_COST_USD), `schedule` ("rate(7 days)") with `scheduleInput` (JSON execution input)
 * starts searches on a schedule; `s3PrefixListId` ("pl-…", from `aws ec2
 * describe-managed-prefix-lists --filters Name=prefix-list-name,Values=com.amazonaws.<region>.s3`)
 * skips the deploy-time lookup of the S3 prefix list.
 */
import { Aws, type CfnElement, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as cr from 'aws-cdk-lib/custom-resources';
import { Construct, type IConstruct } from 'constructs';
import {
  DEFAULT_BEDROCK_FOUNDATION_MODEL,
  DEFAULT_BEDROCK_MODEL_ID,
  DEFAULT_MAX_COST_USD,
  ENV_VARS,
  EVENT_SOURCE,
  type FunctionRole,
  LOG_RETENTION_DAYS,
  MAX_COST_USD_LIMIT,
  SEARCH_TIMEOUT_SECONDS,
  SEED_POLICY_EXPIRY_DAYS,
  SEED_POLICY_TAG,
  STACK_OUTPUT_KEYS,
  START_DETAIL_TYPE,
  TASK_FUNCTION,
  type TaskRole,
} from './config.ts';
import { MUJOCO_WASM_FILES, SEARCH_OBJECTS, SearchFunction, TRAIN_SEED_WASM_FILES } from './search-function.ts';
import { SearchMonitoring } from './monitoring.ts';
import { TrainSeedImageFunction } from './train-seed-image.ts';
import { buildSearchDefinition, DISTRIBUTED_MAP_LABELS } from './workflow.ts';

/** Context keys the stack reads. */
export const CONTEXT_KEYS = {
  schedule: 'schedule',
  scheduleInput: 'scheduleInput',
  s3PrefixListId: 's3PrefixListId',
  /** An e-mail address for the alarms (an SNS topic and subscription are created for it). */
  alarmEmail: 'alarmEmail',
  /** `tfjs-node`: TrainSeed as a container image with the native TensorFlow backend. */
  trainer: 'trainer',
  /** The spending ceiling on the model of every search, in US dollars (default DEFAULT_MAX_COST_USD). */
  maxCostUsd: 'maxCostUsd',
} as const;

/** Feature flags the stack relies on, set on its own node so tests and `cdk synth` agree. */
export const STACK_FEATURE_FLAGS: Readonly<Record<string, boolean>> = {
  // Server access logs are delivered under a bucket policy, not the legacy LogDelivery ACL.
  '@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy': true,
  // Merge IAM statements so every role's policy stays short and readable.
  '@aws-cdk/aws-iam:minimizePolicies': true,
};

const logRetention = LOG_RETENTION_DAYS as logs.RetentionDays;

export class EurekaStack extends Stack {
  readonly stateMachine: sfn.StateMachine;
  readonly functions: Readonly<Record<FunctionRole, lambda.Function>>;
  readonly monitoring: SearchMonitoring;

  constructor(scope: Construct, id: string, props: StackProps = {}) {
    super(scope, id, props);
    for (const [flag, value] of Object.entries(STACK_FEATURE_FLAGS)) this.node.setContext(flag, value);

    // ---------------------------------------------------------------- Storage
    const accessLogsBucket = new s3.Bucket(this, 'AccessLogsBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      lifecycleRules: [{ expiration: Duration.days(365) }],
    });
    const bucket = new s3.Bucket(this, 'ArtifactsBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: accessLogsBucket,
      serverAccessLogsPrefix: 'artifacts/',
      lifecycleRules: [
        // Prefix filters take no wildcards, so the seed-runs' policies (searches/*/generations/*/
        // candidates/*/seeds/*/policy/) are tagged on upload and expire by tag; winner/ is kept.
        {
          id: 'ExpireSeedPolicies',
          tagFilters: { [SEED_POLICY_TAG.key]: SEED_POLICY_TAG.value },
          expiration: Duration.days(SEED_POLICY_EXPIRY_DAYS),
        },
        { id: 'AbortIncompleteUploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
    });

    const table = new dynamodb.Table(this, 'SearchTable', {
      partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
      sortKey: { name: 'sk', type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const anthropicSecret = new secretsmanager.Secret(this, 'AnthropicApiKeySecret', {
      description: 'Anthropic API key of the propose function: aws secretsmanager put-secret-value --secret-string sk-ant-…',
    });
    acknowledge(anthropicSecret, 'A third-party API key: it is rotated in the Anthropic console, which no '
      + 'rotation Lambda can call.', 'AwsSolutions-SMG4');

    // ---------------------------------------------------------------- Network
    // Seed-runs execute hostile reward code: private isolated subnets (no NAT, no internet
    // gateway), an S3 gateway endpoint that only reaches this bucket, HTTPS to S3 as the only egress.
    const vpc = new ec2.Vpc(this, 'SeedRunVpc', {
      maxAzs: 2,
      natGateways: 0,
      createInternetGateway: false,
      subnetConfiguration: [{ name: 'seed-runs', subnetType: ec2.SubnetType.PRIVATE_ISOLATED, cidrMask: 24 }],
      // Nothing runs in the default security group; restricting it would need a custom resource.
      restrictDefaultSecurityGroup: false,
      flowLogs: {
        SeedRunFlowLog: {
          destination: ec2.FlowLogDestination.toCloudWatchLogs(
            new logs.LogGroup(this, 'SeedRunFlowLogs', { retention: logRetention })),
          trafficType: ec2.FlowLogTrafficType.ALL,
        },
      },
    });
    const isolatedSubnets: ec2.SubnetSelection = { subnetType: ec2.SubnetType.PRIVATE_ISOLATED };

    const s3Endpoint = vpc.addGatewayEndpoint('S3GatewayEndpoint', {
      service: ec2.GatewayVpcEndpointAwsService.S3,
      subnets: [isolatedSubnets],
    });
    s3Endpoint.addToPolicy(new iam.PolicyStatement({
      principals: [new iam.AnyPrincipal()],
      actions: ['s3:GetObject', 's3:PutObject', 's3:PutObjectTagging', 's3:ListBucket'],
      resources: [bucket.bucketArn, bucket.arnForObjects('*')],
    }));

    const seedRunSecurityGroup = new ec2.SecurityGroup(this, 'TrainSeedSecurityGroup', {
      vpc,
      description: 'Seed-runs: HTTPS to the S3 gateway endpoint only',
      allowAllOutbound: false,
    });
    seedRunSecurityGroup.addEgressRule(ec2.Peer.prefixList(this.s3PrefixListId()), ec2.Port.tcp(443),
      'HTTPS to S3 through the gateway endpoint');

    // ---------------------------------------------------------------- Functions
    const propose = new SearchFunction(this, 'ProposeFunction', {
      role: 'propose',
      description: 'Propose rewards: the model (or the offline proposer) writes K candidate rewards',
      // The registry it loads compiles a declared robot's XML as the task loads, where no stored facts match it.
      assetFiles: MUJOCO_WASM_FILES,
    }).bindTable(table).bindBucket(bucket).bindAnthropicSecret(anthropicSecret)
      .bindBedrockModel(DEFAULT_BEDROCK_MODEL_ID, DEFAULT_BEDROCK_FOUNDATION_MODEL);

    const trainSeedNetwork = { vpc, vpcSubnets: isolatedSubnets, securityGroups: [seedRunSecurityGroup] };
    const trainSeedDescription = 'Train one seed: PPO with a sandboxed candidate reward, graded on the true metric';
    const trainer = this.node.tryGetContext(CONTEXT_KEYS.trainer) as string | undefined;
    if (trainer !== undefined && trainer !== 'wasm' && trainer !== 'tfjs-node') {
      throw new Error(`context ${CONTEXT_KEYS.trainer} must be wasm (the zip, default) or tfjs-node (a container image), got ${JSON.stringify(trainer)}`);
    }
    const trainSeed = trainer === 'tfjs-node'
      ? new TrainSeedImageFunction(this, 'TrainSeedFunction', { description: `${trainSeedDescription} (tfjs-node image)`, ...trainSeedNetwork })
        .bindBucket(bucket, { tagging: true })
      : new SearchFunction(this, 'TrainSeedFunction', {
        role: 'trainSeed',
        description: trainSeedDescription,
        ...trainSeedNetwork,
        assetFiles: TRAIN_SEED_WASM_FILES,
        // Skip the import of the native backend: it is never in the bundle.
        environment: { EUREKA_TFJS_BACKEND: 'wasm' },
      }).bindBucket(bucket, { tagging: true });

    // "Start the search" runs here: every search it records gets the stack's spending ceiling,
    // whoever started it (the console, the bus, the schedule); an input may only lower it.
    const reflect = new SearchFunction(this, 'ReflectFunction', {
      role: 'reflect',
      description: 'Start the search and reflect on each generation: validate, rank, summarise',
      assetFiles: MUJOCO_WASM_FILES,
      environment: { [ENV_VARS.maxCostUsd]: String(this.costCeilingUsd()) },
    }).bindTable(table).bindBucket(bucket);

    const publish = new SearchFunction(this, 'PublishFunction', {
      role: 'publish',
      description: 'Publish the winner: reward, card and policy',
      assetFiles: MUJOCO_WASM_FILES,
    }).bindTable(table).bindBucket(bucket);
    this.functions = { propose, trainSeed, reflect, publish };

    // Only the Propose role may read the key, whatever other identity policies in the account say.
    anthropicSecret.addToResourcePolicy(new iam.PolicyStatement({
      effect: iam.Effect.DENY,
      principals: [new iam.AnyPrincipal()],
      actions: ['secretsmanager:GetSecretValue'],
      resources: ['*'],
      conditions: { StringNotEquals: { 'aws:PrincipalArn': propose.role!.roleArn } },
    }));

    for (const fn of [propose, trainSeed, reflect, publish]) {
      acknowledge(fn, 'AWS-maintained minimum for writing logs (and, for TrainSeed, for its VPC network interfaces).',
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        ...(fn === trainSeed
          ? ['AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaVPCAccessExecutionRole]']
          : []));
      acknowledge(fn, 'X-Ray PutTraceSegments/PutTelemetryRecords support no resource-level permissions.',
        'AwsSolutions-IAM5[Resource::*]');
      acknowledge(fn, `Objects are created per search under ${SEARCH_OBJECTS}; the wildcard is that prefix of our own bucket.`,
        `AwsSolutions-IAM5[Resource::${this.arnRef(bucket)}/${SEARCH_OBJECTS}]`);
      acknowledge(fn, 'nodejs22.x is pinned in infra/config.ts: the Lambda runtime closest to the Node 20 the code is '
        + 'developed and tested on; nodejs24.x is a one-line change there.', 'AwsSolutions-L1');
    }
    acknowledge(propose, 'A global inference profile routes to the foundation model in any region; the wildcard is '
      + 'the region of that one model.',
    `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:bedrock:*::foundation-model/${DEFAULT_BEDROCK_FOUNDATION_MODEL}]`);

    // ---------------------------------------------------------------- Workflow
    const workflow = new Construct(this, 'SearchWorkflow');
    // Each Task role runs in the function config.ts assigns it (check in TrainSeed, repair in Propose, ...).
    const roleTargets = Object.fromEntries(Object.entries(TASK_FUNCTION).map(([role, fn]) => [role, this.functions[fn]])) as Record<TaskRole, lambda.Function>;
    const { chain } = buildSearchDefinition(workflow, roleTargets);
    this.stateMachine = new sfn.StateMachine(this, 'SearchStateMachine', {
      definitionBody: sfn.DefinitionBody.fromChainable(chain),
      stateMachineType: sfn.StateMachineType.STANDARD,
      timeout: Duration.seconds(SEARCH_TIMEOUT_SECONDS),
      tracingEnabled: true,
      logs: {
        destination: new logs.LogGroup(this, 'SearchStateMachineLogs', {
          logGroupName: `/aws/vendedlogs/states/${this.stackName}-search`,
          retention: logRetention,
        }),
        level: sfn.LogLevel.ALL,
        includeExecutionData: true,
      },
    });
    acknowledge(this.stateMachine, 'CloudWatch log delivery and X-Ray support no resource-level permissions.',
      'AwsSolutions-IAM5[Resource::*]');
    acknowledge(this.stateMachine, 'lambda:InvokeFunction on <function>:* covers the versions and aliases of our own '
      + 'four functions (granted by LambdaInvoke).',
    ...[propose, trainSeed, reflect, publish].map((fn) => `AwsSolutions-IAM5[Resource::${this.arnRef(fn)}:*]`));
    // Every seed-run Map runs each seed-run as a child execution of this state machine.
    const machineName = `{"Fn::Select":[6,{"Fn::Split":[":",{"Ref":"${this.getLogicalId(this.stateMachine.node.defaultChild as CfnElement)}"}]}]}`;
    const executions = `arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:${machineName}`;
    acknowledge(this.stateMachine.node.findChild('DistributedMapPolicy'), 'The Distributed Map describes, stops and redrives the '
      + 'child executions of this one state machine; their names are not known before they start.',
    `AwsSolutions-IAM5[Resource::${executions}:*]`, ...DISTRIBUTED_MAP_LABELS.map((label) => `AwsSolutions-IAM5[Resource::${executions}/${label}:*]`));

    // "Wait for feedback": only a person answers a pause, with `eureka feedback`. No function of
    // the stack may send a task token; whoever answers attaches this policy. The answer travels
    // with the execution (the token's output), so answering writes nothing: the search keeps its
    // own records. The person may look at the search too (eureka show --stack, the cards).
    const thisStack = this.formatArn({ service: 'cloudformation', resource: 'stack', resourceName: `${this.stackName}/*` });
    const feedbackResponder = new iam.ManagedPolicy(this, 'FeedbackResponderPolicy', {
      description: 'Answer a paused search and look at it (eureka feedback, eureka show --stack): read its records and cards, send its task token back',
      statements: [
        new iam.PolicyStatement({ sid: 'AnswerAPause', actions: ['states:SendTaskSuccess'], resources: [this.stateMachine.stateMachineArn] }),
        new iam.PolicyStatement({ sid: 'ReadTheSearch', actions: ['dynamodb:GetItem', 'dynamodb:Query'], resources: [table.tableArn] }),
        new iam.PolicyStatement({ sid: 'OpenItsCards', actions: ['s3:GetObject'], resources: [bucket.arnForObjects(CARD_OBJECTS)] }),
        new iam.PolicyStatement({ sid: 'FindTheStack', actions: ['cloudformation:DescribeStacks'], resources: [thisStack] }),
      ],
    });
    acknowledge(feedbackResponder, `The cards of every search (${CARD_OBJECTS}: the interim cards and the winner's), `
      + 'whose ids are not known before they start.', `AwsSolutions-IAM5[Resource::<${this.getLogicalId(bucket.node.defaultChild as CfnElement)}.Arn>/${CARD_OBJECTS}]`);
    acknowledge(feedbackResponder, 'A stack ARN ends in an id CloudFormation assigns at creation: the wildcard is that id of this one stack.',
      `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:cloudformation:<AWS::Region>:<AWS::AccountId>:stack/${this.stackName}/*]`);

    // ---------------------------------------------------------------- Events
    // "Waiting for feedback" is announced by the reflect function, on the default bus.
    events.EventBus.fromEventBusName(this, 'DefaultBus', 'default').grantPutEventsTo(reflect);
    new events.Rule(this, 'StartSearchRule', {
      description: `Starts a search for each "${START_DETAIL_TYPE}" event; its detail is the execution input`,
      eventPattern: { source: [EVENT_SOURCE], detailType: [START_DETAIL_TYPE] },
      targets: [new targets.SfnStateMachine(this.stateMachine, {
        input: events.RuleTargetInput.fromEventPath('$.detail'),
      })],
    });

    const schedule = this.node.tryGetContext(CONTEXT_KEYS.schedule) as string | undefined;
    if (schedule) {
      new events.Rule(this, 'ScheduledSearchRule', {
        description: `Starts a search on ${schedule}`,
        schedule: events.Schedule.expression(schedule),
        targets: [new targets.SfnStateMachine(this.stateMachine, {
          input: events.RuleTargetInput.fromObject(this.scheduleInput()),
        })],
      });
    }

    // ---------------------------------------------------------------- Monitoring
    const alarmEmail = this.node.tryGetContext(CONTEXT_KEYS.alarmEmail) as string | undefined;
    this.monitoring = new SearchMonitoring(this, 'Monitoring', {
      stateMachine: this.stateMachine, functions: this.functions, trainSeed, dashboardName: `${this.stackName}-searches`,
      ...(alarmEmail ? { alarmEmail } : {}),
    });

    // ---------------------------------------------------------------- Outputs
    const outputs: Record<keyof typeof STACK_OUTPUT_KEYS, string> = {
      stateMachineArn: this.stateMachine.stateMachineArn,
      bucketName: bucket.bucketName,
      tableName: table.tableName,
      secretArn: anthropicSecret.secretArn,
      trainSeedFunctionName: trainSeed.functionName,
      feedbackPolicyArn: feedbackResponder.managedPolicyArn,
    };
    for (const [key, value] of Object.entries(outputs)) {
      const outputKey = STACK_OUTPUT_KEYS[key as keyof typeof STACK_OUTPUT_KEYS];
      new CfnOutput(this, outputKey, { value, exportName: `${this.stackName}-${outputKey}` });
    }
  }

  /**
   * The id of the region's S3 managed prefix list: from context when given, else looked up at
   * deploy time (EC2 DescribeManagedPrefixLists) so synth needs no account and no lookups.
   */
  private s3PrefixListId(): string {
    const fromContext = this.node.tryGetContext(CONTEXT_KEYS.s3PrefixListId) as string | undefined;
    if (fromContext) return fromContext;
    const lookup = new cr.AwsCustomResource(this, 'S3PrefixListLookup', {
      onUpdate: {
        service: 'EC2',
        action: 'describeManagedPrefixLists',
        parameters: { Filters: [{ Name: 'prefix-list-name', Values: [`com.amazonaws.${Aws.REGION}.s3`] }] },
        physicalResourceId: cr.PhysicalResourceId.fromResponse('PrefixLists.0.PrefixListId'),
        outputPaths: ['PrefixLists.0.PrefixListId'],
      },
      policy: cr.AwsCustomResourcePolicy.fromSdkCalls({ resources: cr.AwsCustomResourcePolicy.ANY_RESOURCE }),
      installLatestAwsSdk: false,
      logGroup: new logs.LogGroup(this, 'S3PrefixListLookupLogs', { retention: logRetention }),
    });
    acknowledge(lookup, 'ec2:DescribeManagedPrefixLists supports no resource-level permissions.',
      'AwsSolutions-IAM5[Resource::*]');
    // The provider function is a singleton at the stack's root, shared by every AwsCustomResource.
    const provider = this.node.findChild(PROVIDER_FUNCTION_ID);
    acknowledge(provider, 'The CDK custom-resource provider logs with the AWS-maintained AWSLambdaBasicExecutionRole.',
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]');
    return lookup.getResponseField('PrefixLists.0.PrefixListId');
  }

  /** How cdk-nag names a resource's ARN in a finding: `<LogicalId.Arn>`. */
  private arnRef(construct: IConstruct): string {
    return `<${this.getLogicalId(construct.node.defaultChild as CfnElement)}.Arn>`;
  }

  /** The spending ceiling of every search: `-c maxCostUsd=...`, else DEFAULT_MAX_COST_USD. */
  private costCeilingUsd(): number {
    const raw = this.node.tryGetContext(CONTEXT_KEYS.maxCostUsd) as unknown;
    if (raw === undefined) return DEFAULT_MAX_COST_USD;
    const value = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
    if (!Number.isFinite(value) || value <= 0 || value > MAX_COST_USD_LIMIT) {
      throw new Error(`context ${CONTEXT_KEYS.maxCostUsd} must be a number of US dollars, more than 0 and at most ${MAX_COST_USD_LIMIT}, got ${JSON.stringify(raw)}`);
    }
    return value;
  }

  /** The schedule's execution input: a JSON string from `-c scheduleInput=…` or an object from cdk.json. */
  private scheduleInput(): Record<string, unknown> {
    const raw = this.node.tryGetContext(CONTEXT_KEYS.scheduleInput) as unknown;
    if (raw === undefined) return {};
    let value = raw;
    if (typeof raw === 'string') {
      try {
        value = JSON.parse(raw);
      } catch (error) {
        throw new Error(`context ${CONTEXT_KEYS.scheduleInput} is not JSON (${(error as Error).message}): ${raw}`);
      }
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new Error(`context ${CONTEXT_KEYS.scheduleInput} must be a JSON object, got ${JSON.stringify(raw)}`);
    }
    return value as Record<string, unknown>;
  }
}

/** Both kinds of card (searches/<id>/generations/<g>/card.html, searches/<id>/winner/card.html): `*` spans slashes. */
const CARD_OBJECTS = 'searches/*/card.html';

/** Id of the function that serves every AwsCustomResource of a stack (fixed by aws-cdk-lib). */
const PROVIDER_FUNCTION_ID = 'AWS679f53fac002430cb0da5b7982bd2287';

/** Acknowledges cdk-nag findings on a construct and everything under it, with the reason why. */
function acknowledge(scope: IConstruct, reason: string, ...ids: string[]): void {
  Validations.of(scope).acknowledge(...ids.map((id) => ({ id, reason })));
}
