/**
 * One function construct with our defaults: runtime, architecture, memory, timeout, logs and
 * tracing from config.ts; bundled as ESM by the locally installed esbuild (no Docker); `bind…`
 * helpers that set an environment variable and grant the matching access together.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, type NodejsFunctionProps, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import {
  ENV_VARS,
  FUNCTION_CAPS,
  type FunctionRole,
  LAMBDA_ARCHITECTURE,
  LAMBDA_RUNTIME,
  LOG_RETENTION_DAYS,
} from './config.ts';

/** The repository root: entries, package-lock.json and node_modules live here. */
export const PROJECT_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/** Folder of each function under functions/. */
const FUNCTION_DIRS: Readonly<Record<FunctionRole, string>> = {
  propose: 'propose',
  trainSeed: 'train-seed',
  reflect: 'reflect',
  publish: 'publish',
};

/**
 * Every function carries a copy of tasks/ beside its index.mjs: the registry lists the task
 * folders there and the prompt reads each environment's source from it (the task modules
 * themselves are bundled by esbuild through the registry's import pattern).
 */
export const TASKS_DIR = 'tasks';

/** The only objects the functions read and write (DESIGN §3 key layout). */
export const SEARCH_OBJECTS = 'searches/*';

/** The handler file of a function role (absolute path). */
export function handlerEntry(role: FunctionRole): string {
  return join(PROJECT_ROOT, 'functions', FUNCTION_DIRS[role], 'handler.ts');
}

/**
 * MuJoCo's official WebAssembly build (physics/mujoco/), loaded through
 * `new URL('mujoco.wasm', import.meta.url)`: beside the code of every function, since every one
 * loads the task registry, and a robot declared from its MJCF file is compiled when its task loads
 * unless its stored facts match its XML (tasks/mujoco-common/declared/robot-facts.ts);
 * (TrainSeed also trains and grades; Reflect's interim card and Publish's card draw the episode).
 */
export const MUJOCO_WASM_FILES = ['node_modules/@mujoco/mujoco/mujoco.wasm'];

/**
 * The wasm files the TrainSeed bundle loads from its own directory: TensorFlow.js's backend
 * (through `__dirname`, defined below as import.meta.dirname), QuickJS's release-sync variant
 * (through `new URL('emscripten-module.wasm', import.meta.url)`) and MuJoCo's.
 */
export const TRAIN_SEED_WASM_FILES = [
  'node_modules/@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm',
  'node_modules/@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm',
  'node_modules/@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm',
  'node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm',
  ...MUJOCO_WASM_FILES,
];

/**
 * ESM needs `require` for the CommonJS packages esbuild bundles (emscripten glue requires fs and
 * path). `__dirname`/`__filename` are replaced by `define` below, so code may still declare its own.
 */
const ESM_REQUIRE_BANNER =
  "import { createRequire as __eurekaCreateRequire } from 'node:module';"
  + ' const require = __eurekaCreateRequire(import.meta.url);';

export interface SearchFunctionProps
  extends Pick<NodejsFunctionProps, 'vpc' | 'vpcSubnets' | 'securityGroups' | 'description' | 'environment'> {
  role: FunctionRole;
  /** Files, relative to the project root, copied next to index.mjs after bundling (wasm). */
  assetFiles?: string[];
}

export class SearchFunction extends NodejsFunction {
  readonly searchRole: FunctionRole;

  constructor(scope: Construct, id: string, props: SearchFunctionProps) {
    const { role, assetFiles = [], environment = {}, ...network } = props;
    const caps = FUNCTION_CAPS[role];
    for (const file of assetFiles) {
      if (!existsSync(join(PROJECT_ROOT, file))) {
        throw new Error(`${id}: asset file ${file} is missing; run npm ci`);
      }
    }
    const logGroup = new logs.LogGroup(scope, `${id}Logs`, { retention: LOG_RETENTION_DAYS as logs.RetentionDays });
    super(scope, id, {
      ...network,
      entry: handlerEntry(role),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      runtime: lambdaRuntime(),
      architecture: LAMBDA_ARCHITECTURE === 'arm64' ? lambda.Architecture.ARM_64 : lambda.Architecture.X86_64,
      memorySize: caps.memoryMb,
      timeout: Duration.seconds(caps.timeoutSeconds),
      logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      tracing: lambda.Tracing.ACTIVE,
      environment: { NODE_OPTIONS: '--enable-source-maps', ...environment },
      bundling: {
        forceDockerBundling: false,
        format: OutputFormat.ESM,
        mainFields: ['module', 'main'],
        banner: ESM_REQUIRE_BANNER,
        define: { __dirname: 'import.meta.dirname', __filename: 'import.meta.filename' },
        // The pinned AWS SDK v3 is bundled (DESIGN §9); tfjs-node is an optional native backend
        // that cannot be installed here, so an `import()` of it fails and the wasm backend runs.
        externalModules: ['@tensorflow/tfjs-node'],
        minify: true,
        keepNames: true,
        sourceMap: true,
        sourcesContent: false,
        commandHooks: {
          beforeBundling: () => [],
          beforeInstall: () => [],
          afterBundling: (inputDir: string, outputDir: string) => [
            ...assetFiles.map((file) => `cp "${join(inputDir, file)}" "${outputDir}/"`),
            `cp -R "${join(inputDir, TASKS_DIR)}" "${join(outputDir, TASKS_DIR)}"`,
          ],
        },
      },
    });
    this.searchRole = role;
  }

  /** EUREKA_TABLE, with read and write access to its items. */
  bindTable(table: dynamodb.ITable): this {
    this.addEnvironment(ENV_VARS.table, table.tableName);
    table.grantReadWriteData(this);
    return this;
  }

  /**
   * EUREKA_BUCKET, with read and write access to `searches/*` objects (all the handlers use), and
   * ListBucket so a missing key is a 404, not a 403. No delete: every step only adds objects.
   * @param tagging also PutObjectTagging (TrainSeed tags seed-run policies for expiry)
   */
  bindBucket(bucket: s3.IBucket, options: { tagging?: boolean } = {}): this {
    grantSearchObjects(this, bucket, options);
    return this;
  }

  /** ANTHROPIC_SECRET_ARN, with read access to the secret. */
  bindAnthropicSecret(secret: secretsmanager.ISecret): this {
    this.addEnvironment(ENV_VARS.anthropicSecretArn, secret.secretArn);
    secret.grantRead(this);
    return this;
  }

  /**
   * EUREKA_BEDROCK_MODEL_ID, with InvokeModel on that inference profile and its foundation model
   * (a global profile routes to any region, hence the region wildcard on the model).
   */
  bindBedrockModel(inferenceProfileId: string, foundationModelId: string): this {
    const stack = Stack.of(this);
    this.addEnvironment(ENV_VARS.bedrockModelId, inferenceProfileId);
    this.addToRolePolicy(new iam.PolicyStatement({
      actions: ['bedrock:InvokeModel', 'bedrock:InvokeModelWithResponseStream'],
      resources: [
        stack.formatArn({ service: 'bedrock', resource: 'inference-profile', resourceName: inferenceProfileId }),
        `arn:${stack.partition}:bedrock:*::foundation-model/${foundationModelId}`,
      ],
    }));
    return this;
  }
}

/** EUREKA_BUCKET on a function, with the access every handler's bucket needs (see bindBucket). */
export function grantSearchObjects(fn: lambda.Function, bucket: s3.IBucket, { tagging = false }: { tagging?: boolean } = {}): void {
  fn.addEnvironment(ENV_VARS.bucket, bucket.bucketName);
  fn.addToRolePolicy(new iam.PolicyStatement({
    actions: ['s3:GetObject', 's3:PutObject', ...(tagging ? ['s3:PutObjectTagging'] : [])],
    resources: [bucket.arnForObjects(SEARCH_OBJECTS)],
  }));
  fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }));
}

/** The configured runtime as a CDK Runtime (fails fast on a name CDK does not know). */
export function lambdaRuntime(): lambda.Runtime {
  const runtime = lambda.Runtime.ALL.find((candidate) => candidate.name === LAMBDA_RUNTIME);
  if (!runtime) throw new Error(`unknown Lambda runtime ${LAMBDA_RUNTIME} in infra/config.ts`);
  return runtime;
}
