/**
 * A person's feedback on AWS, in the order AWS runs it: `eureka feedback --stack` sends the task
 * token with SendTaskSuccess, and the paused execution resumes the moment the call arrives, before
 * the command has written anything anywhere. Played here by the real CLI against a loopback
 * CloudFormation (the stack's outputs), the running search's own table (DynamoDB, through
 * AWS_ENDPOINT_URL_DYNAMODB) and its pause (local/feedback-wait.ts, the same SendTaskSuccess),
 * through a Step Functions endpoint that holds the command's answer back until the search has asked
 * the model for generation 2: whatever the command would write after its call comes too late.
 * And `eureka show ID --stack` reads the same search from the stack's table, with its newest card
 * (the interim one at the pause, the winner's at the end) as a presigned URL into the bucket.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { STACK_OUTPUT_KEYS } from '../infra/config.ts';
import { FEEDBACK_ENDPOINT_FILE } from '../local/feedback-wait.ts';
import { openLocalTable } from '../local/dynalite.ts';
import { startAwsApiServer } from './support/aws-api-server.ts';
import { S3RVER_CREDENTIALS, loopbackClient, startS3Server } from './support/s3-server.ts';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { eureka, start } from './support/eureka-cli.ts';
import { answer, startMessagesApiServer } from './support/messages-api-server.ts';

const MODEL = 'claude-sonnet-5-5';
const energy = `function computeReward(obs, action, nextObs, terminated) {
  const e = (o) => 0.5 * o[1] * o[1] + 0.0025 / 3 * Math.sin(3 * o[0]);
  const shaping = 80000 * (0.99 * e(nextObs) - e(obs));
  return [shaping - 1, { shaping, step: -1 }];
}`;
const reply = (g: number) => answer(JSON.stringify({ candidates: [{ name: `g${g}-energy`, idea: 'energy shaping', code: energy }] }));

/** A Step Functions endpoint that forwards each call and answers only once `release()` resolves. */
async function holdingEndpoint(target: () => Promise<string>, release: () => Promise<void>): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const forwarded = await fetch(await target(), {
        method: 'POST', body: Buffer.concat(chunks),
        headers: { 'content-type': String(req.headers['content-type']), 'x-amz-target': String(req.headers['x-amz-target']) },
      });
      const body = await forwarded.text();
      await release();
      res.writeHead(forwarded.status, { 'content-type': forwarded.headers.get('content-type') ?? 'application/x-amz-json-1.0' });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('On AWS: answering a pause, and looking at the search', () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  after(async () => { for (const c of cleanup) await c(); });

  it('takes the words to generation 2\'s prompt with the execution, the command having written nothing; shows the newest card by URL', async () => {
    const model = await startMessagesApiServer([reply(1), reply(2)]);
    const dir = await mkdtemp(join(tmpdir(), 'eureka-order-'));
    cleanup.push(() => model.close(), () => rm(dir, { recursive: true, force: true }));
    const search = start(['search', '--generations', '2', '--candidates', '1', '--seeds', '1', '--steps', '4096', '--no-hostile', '--no-repair',
      '--proposer', 'anthropic', '--model', MODEL, '--feedback', 'wait', '--feedback-timeout', '10', '--data-dir', dir, '--search-id', 'on-aws', '--json'],
    { ANTHROPIC_API_KEY: 'test-key-not-real', ANTHROPIC_BASE_URL: model.url });
    cleanup.unshift(async () => search.stop());
    await search.waitFor(/waiting for your feedback after generation 1/);

    const tableEndpoint = (await readFile(join(dir, 'table', 'eureka-dynalite.endpoint'), 'utf8')).trim();
    // The stack's bucket: an S3 API holding copies of the local bucket's cards.
    const s3 = await startS3Server();
    cleanup.push(() => s3.close());
    const upload = async (key: string) => loopbackClient(s3.endpoint).send(new PutObjectCommand({
      Bucket: s3.bucket, Key: key, Body: await readFile(join(dir, 'bucket', key)), ContentType: 'text/html' }));
    const cloudFormation = await startAwsApiServer({
      stackName: 'EurekaOnAws',
      outputs: { [STACK_OUTPUT_KEYS.tableName]: 'eureka-searches', [STACK_OUTPUT_KEYS.bucketName]: s3.bucket },
      invoke: async () => { throw new Error('nothing is invoked'); },
    });
    cleanup.push(() => cloudFormation.close());
    const aws = (table: string) => ({
      AWS_ENDPOINT_URL_CLOUDFORMATION: cloudFormation.url, AWS_ENDPOINT_URL_DYNAMODB: table, AWS_ENDPOINT_URL_S3: s3.endpoint,
      AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    });
    /** eureka show --stack: the newest card's URL opens (no credentials) to the very card. */
    const showOnAws = async (table: string, kind: string, key: string) => {
      await upload(key);
      const shown = await eureka(['show', 'on-aws', '--stack', 'EurekaOnAws', '--json'], aws(table));
      assert.equal(shown.code, 0, shown.stderr);
      const { latestCard } = JSON.parse(shown.stdout);
      assert.equal(latestCard.kind, kind);
      assert.match(latestCard.location, new RegExp(`^${s3.endpoint}/${s3.bucket}/${key.replace(/[.]/g, '\\.')}\\?.*X-Amz-Expires=3600.*X-Amz-Signature=`));
      const fetched = await fetch(latestCard.location);
      assert.equal(await fetched.text(), await readFile(join(dir, 'bucket', key), 'utf8'));
    };
    await showOnAws(tableEndpoint, 'interim', 'searches/on-aws/generations/1/card.html');
    let askedSecond = false;
    const stepFunctions = await holdingEndpoint(
      async () => (await readFile(join(dir, FEEDBACK_ENDPOINT_FILE), 'utf8')).trim(),
      async () => {
        // Held until the search asked for generation 2 (or stopped): only then may the command go on.
        const deadline = Date.now() + 5 * 60_000;
        while (model.requests.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        askedSecond = model.requests.length >= 2;
      },
    );
    cleanup.push(() => new Promise((r) => { stepFunctions.server.closeAllConnections(); stepFunctions.server.close(r); }));

    const words = 'It rocks back and forth twice before it climbs: reward speed toward the flag from the first step.';
    const answered = await eureka(['feedback', 'on-aws', '--stack', 'EurekaOnAws', '--text', words], { ...aws(tableEndpoint), AWS_ENDPOINT_URL_SFN: stepFunctions.url });
    assert.equal(answered.code, 0, answered.stderr);
    assert.ok(askedSecond, 'generation 2 was asked for while the command waited for its SendTaskSuccess');
    const ended = await search.done;
    assert.equal(ended.code, 0, ended.stderr);

    const second = JSON.stringify(model.requests[1].body.messages);
    assert.ok(second.includes(words), 'the words are in the generation 2 prompt');
    const shown = JSON.parse((await eureka(['show', 'on-aws', '--json', '--data-dir', dir])).stdout);
    assert.deepEqual(shown.feedback.map((f: { state: string; text: string }) => [f.state, f.text]), [['answered', words]],
      'the table\'s copy, written by the search itself');
    const card = await readFile(join(dir, 'bucket', 'searches', 'on-aws', 'winner', 'card.html'), 'utf8');
    assert.ok(card.includes('reward speed toward the flag from the first step.'));

    // The search is over: its table is served from here now.
    const table = await openLocalTable({ dir: join(dir, 'table') });
    cleanup.unshift(() => table.close());
    await showOnAws(table.endpoint, 'winner', 'searches/on-aws/winner/card.html');
  });
});
