/**
 * `eureka train --remote` and `eureka check-reward --remote`: the reward goes to the stack's
 * bucket (s3rver) and the deployed TrainSeed is invoked through the real @aws-sdk/client-lambda,
 * against a loopback server that plays the Lambda Invoke API (and CloudFormation's outputs) and
 * runs the real TrainSeed handler, each invocation in a worker process with the Lambda's caps
 * (local/train-seed-pool.ts). The output is the local command's, number for number, also when the
 * sandbox hit its memory cap and the process that hosted it exited before it answered.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FUNCTION_CAPS, STACK_OUTPUT_KEYS } from '../infra/config.ts';
import type { CheckItem, SeedResult, SeedTask } from '../functions/shared/search/types.ts';
import { TrainSeedPool } from '../local/train-seed-pool.ts';
import { startAwsApiServer, type AwsApiServer } from './support/aws-api-server.ts';
import { REGION, S3RVER_CREDENTIALS, startS3Server, type LoopbackS3 } from './support/s3-server.ts';
import { eureka } from './support/eureka-cli.ts';

const EXAMPLES = new URL('../examples/', import.meta.url).pathname;
const FUNCTION = 'EurekaServerless-TrainSeedFunction-abc123';

describe('CLI: one seed-run on the deployed function', () => {
  let s3: LoopbackS3;
  let aws: AwsApiServer;
  let pool: TrainSeedPool;
  const saved = { ...process.env };
  let env: NodeJS.ProcessEnv = {};

  before(async () => {
    s3 = await startS3Server();
    // The "deployed" TrainSeed: the real handler, reading and writing the bucket as on AWS.
    Object.assign(process.env, {
      EUREKA_BUCKET: s3.bucket, AWS_ENDPOINT_URL_S3: s3.endpoint, AWS_REGION: REGION,
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    });
    delete process.env.EUREKA_DATA_DIR;
    // Each invocation in a process of its own with the Lambda's caps, as Lambda runs it: a process
    // that hosted a sandbox memory fault exits before it answers (Runtime.ExitError).
    const { PATH, HOME, EUREKA_BUCKET, AWS_ENDPOINT_URL_S3, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY } = process.env;
    pool = new TrainSeedPool(FUNCTION_CAPS.trainSeed, { PATH, HOME, EUREKA_BUCKET, AWS_ENDPOINT_URL_S3, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY }, undefined, 1);
    aws = await startAwsApiServer({
      stackName: 'EurekaServerless',
      outputs: { [STACK_OUTPUT_KEYS.trainSeedFunctionName]: FUNCTION, [STACK_OUTPUT_KEYS.bucketName]: s3.bucket },
      invoke: async (name, payload) => {
        if (name !== FUNCTION) throw Object.assign(new Error(`Function not found: ${name}`), { name: 'ResourceNotFoundException' });
        if ((payload as { seed?: number }).seed === 13) throw Object.assign(new Error('Runtime exited with error: signal: killed'), { name: 'Runtime.OutOfMemory' });
        const item = payload as SeedTask | CheckItem;
        return 'kind' in item ? pool.check(item) : pool.invoke(item);
      },
    });
    env = {
      AWS_ENDPOINT_URL_CLOUDFORMATION: aws.url, AWS_ENDPOINT_URL_LAMBDA: aws.url, AWS_ENDPOINT_URL_S3: s3.endpoint, AWS_REGION: REGION,
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      EUREKA_BUCKET: '', EUREKA_DATA_DIR: '',
    };
  });
  after(async () => {
    pool.close();
    await aws.close();
    await s3.close();
    process.env = saved;
  });

  it('trains on the deployed function and prints what the local train prints', async () => {
    const args = ['train', '--reward', `${EXAMPLES}energy.js`, '--steps', '4096', '--eval-episodes', '5', '--seed', '3', '--json'];
    const remote = await eureka([...args, '--remote'], env);
    assert.equal(remote.code, 0, remote.stderr);
    const local = await eureka(args);
    assert.equal(local.code, 0, local.stderr);
    const [r, l] = [JSON.parse(remote.stdout) as SeedResult, JSON.parse(local.stdout) as SeedResult];
    assert.equal(aws.invocations.length, 1);
    const item = aws.invocations[0].payload as Record<string, unknown>;
    assert.deepEqual({ ...item, searchId: '' }, { searchId: '', task: 'MountainCar-v0', generation: 1, candidateId: 'remote-reward', seed: 3, budget: { steps: 4096, evalEpisodes: 5 } });
    assert.match(String(item.searchId), /^remote-\d{8}-\d{6}-[0-9a-f]{6}$/);
    const same = (x: SeedResult) => ({ ...x, candidateId: '', wallSeconds: 0, sandboxSeconds: 0 });
    assert.deepEqual(same(r), same(l), 'the same seed-run, number for number');
    const human = await eureka(['train', '--reward', `${EXAMPLES}energy.js`, '--steps', '4096', '--eval-episodes', '5', '--seed', '3', '--remote'], env);
    assert.match(human.stdout, /^task: MountainCar-v0\noutcome: trained\n/);
  });

  it('checks a reward on the deployed function, with the local verdict and reason', async () => {
    const file = `${EXAMPLES}hostile/exfiltrate.js`;
    const remote = await eureka(['check-reward', file, '--remote', '--json'], env);
    const local = await eureka(['check-reward', file, '--json']);
    assert.equal(remote.code, 3, remote.stderr);
    assert.equal(local.code, 3, local.stderr);
    const [r, l] = [JSON.parse(remote.stdout), JSON.parse(local.stdout)];
    assert.equal(r.verdict, 'error');
    assert.deepEqual({ verdict: r.verdict, reason: r.reason, terms: r.terms }, { verdict: l.verdict, reason: l.reason, terms: l.terms });
    assert.equal((aws.invocations.at(-1)?.payload as { kind: string }).kind, 'check');
  });

  it('prints the stored result of a seed-run whose sandbox hit its memory cap, as the local train does', async () => {
    const args = ['train', '--reward', `${EXAMPLES}hostile/memory-arrays.js`, '--steps', '4096', '--eval-episodes', '2', '--seed', '1', '--json'];
    const before = aws.invocations.length;
    const remote = await eureka([...args, '--remote'], env);
    assert.equal(remote.code, 5, remote.stderr);
    const local = await eureka(args);
    assert.equal(local.code, 5, local.stderr);
    const [r, l] = [JSON.parse(remote.stdout) as SeedResult, JSON.parse(local.stdout) as SeedResult];
    assert.equal(r.outcome, 'memory');
    assert.match(r.reason, /^reward exceeded its 64 MiB memory limit at step \d+$/);
    const same = (x: SeedResult) => ({ ...x, candidateId: '', wallSeconds: 0, sandboxSeconds: 0 });
    assert.deepEqual(same(r), same(l));
    // As the state machine: the process that hosted the fault exited (Runtime.ExitError), and the
    // retry, in a fresh one, returned the stored result.
    assert.equal(aws.invocations.length - before, 2);
  });

  it('prints the verdict of a check whose sandbox hit its memory cap', async () => {
    const file = `${EXAMPLES}hostile/memory-arrays.js`;
    const remote = await eureka(['check-reward', file, '--remote', '--json'], env);
    const local = await eureka(['check-reward', file, '--json']);
    assert.equal(remote.code, 3, remote.stderr);
    const [r, l] = [JSON.parse(remote.stdout), JSON.parse(local.stdout)];
    assert.equal(r.verdict, 'memory');
    assert.deepEqual({ verdict: r.verdict, reason: r.reason }, { verdict: l.verdict, reason: l.reason });
  });

  it('says what went wrong: the function failing, a stack without the output, no such stack', async () => {
    const failed = await eureka(['train', '--reward', `${EXAMPLES}energy.js`, '--steps', '4096', '--seed', '13', '--remote'], env);
    assert.equal(failed.code, 1);
    assert.equal(failed.stderr, `eureka: ${FUNCTION} failed (Unhandled): Runtime.OutOfMemory: Runtime exited with error: signal: killed\n`);
    const missing = await eureka(['check-reward', `${EXAMPLES}energy.js`, '--remote', '--stack', 'Elsewhere'], env);
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, 'eureka: no stack Elsewhere in this account and region: deploy it with npx cdk deploy, or pass --stack\n');
  });
});
