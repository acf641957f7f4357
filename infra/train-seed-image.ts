/**
 * TrainSeed as a container image (context `trainer=tfjs-node`): the same handler and caps as the
 * zip (search-function.ts), built from functions/train-seed/Dockerfile with the native TensorFlow
 * backend. `cdk synth` only stages the build context (no Docker needed); `cdk deploy` builds the
 * image, which needs Docker on the deploying machine.
 */
import { Duration } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { FUNCTION_CAPS, LOG_RETENTION_DAYS } from './config.ts';
import { grantSearchObjects, PROJECT_ROOT } from './search-function.ts';

/** What the image's build context leaves out: installed packages and anything generated. */
const BUILD_CONTEXT_EXCLUDES = ['node_modules', '.git', 'cdk.out', '.eureka', 'tmp', 'test', 'bench', '*.log'];

export interface TrainSeedImageProps {
  description: string;
  vpc: ec2.IVpc;
  vpcSubnets: ec2.SubnetSelection;
  securityGroups: ec2.ISecurityGroup[];
}

export class TrainSeedImageFunction extends lambda.DockerImageFunction {
  constructor(scope: Construct, id: string, props: TrainSeedImageProps) {
    const caps = FUNCTION_CAPS.trainSeed;
    super(scope, id, {
      ...props,
      code: lambda.DockerImageCode.fromImageAsset(PROJECT_ROOT, {
        file: 'functions/train-seed/Dockerfile',
        platform: Platform.LINUX_ARM64,
        exclude: BUILD_CONTEXT_EXCLUDES,
      }),
      architecture: lambda.Architecture.ARM_64,
      memorySize: caps.memoryMb,
      timeout: Duration.seconds(caps.timeoutSeconds),
      logGroup: new logs.LogGroup(scope, `${id}Logs`, { retention: LOG_RETENTION_DAYS as logs.RetentionDays }),
      loggingFormat: lambda.LoggingFormat.JSON,
      tracing: lambda.Tracing.ACTIVE,
      environment: { EUREKA_TFJS_BACKEND: 'tfjs-node' },
    });
  }

  /** As SearchFunction.bindBucket: EUREKA_BUCKET and the searches/ objects. */
  bindBucket(bucket: s3.IBucket, options: { tagging?: boolean } = {}): this {
    grantSearchObjects(this, bucket, options);
    return this;
  }
}
