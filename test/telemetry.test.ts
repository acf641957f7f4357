/**
 * Powertools in the handlers: structured JSON log lines with the search's keys, EMF metrics with
 * the right dimensions and values, the Lambda context, and the API key in no log line. Lines are
 * taken through the telemetry module's sink (Powertools' printLog and publishStoredMetrics
 * extension points), the same path the local runtime writes search.log through.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { rewardKey } from '../functions/shared/store/keys.ts';
import { setTelemetrySink } from '../functions/shared/ops/telemetry.ts';
import type { SeedResult } from '../functions/shared/search/types.ts';
import { localAwsEnv, startLocalTable, type LocalTable } from '../local/dynalite.ts';
import { answer, startMessagesApiServer, type MessagesApiServer } from './support/messages-api-server.ts';

const KEY = 'sk-ant-api03-THIS-KEY-MUST-NEVER-BE-LOGGED-0123456789';
const lines: Array<Record<string, unknown>> = [];
const logs = () => lines.filter((l) => typeof l.message === 'string');
const blobs = () => lines.filter((l) => '_aws' in l) as Array<Record<string, unknown> & { _aws: { CloudWatchMetrics: Array<{ Namespace: string; Dimensions: string[][]; Metrics: Array<{ Name: string; Unit: string }> }> } }>;

describe('Telemetry: Powertools logs and metrics of the handlers', () => {
  let dir = '';
  let table: LocalTable;
  let server: MessagesApiServer;
  const saved = { ...process.env };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'eureka-telemetry-'));
    table = await startLocalTable({ dir: join(dir, 'table') });
    server = await startMessagesApiServer();
    Object.assign(process.env, localAwsEnv(table), { EUREKA_DATA_DIR: dir, ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url });
    setTelemetrySink((line) => lines.push(JSON.parse(line) as Record<string, unknown>));
  });
  beforeEach(() => { lines.length = 0; });
  after(async () => {
    setTelemetrySink(() => {});
    await server.close();
    await table.close();
    await rm(dir, { recursive: true, force: true });
    process.env = saved;
  });

  it('logs a seed-run as one JSON line with its keys, and emits its time and outcome as metrics', async () => {
    const reward = join(dir, 'bucket', rewardKey('tel', 1, 'energy'));
    await mkdir(dirname(reward), { recursive: true });
    await writeFile(reward, await readFile(new URL('../examples/energy.js', import.meta.url), 'utf8'));
    const { handler } = await import('../functions/train-seed/handler.ts');
    const task = { searchId: 'tel', task: 'MountainCar-v0', generation: 1, candidateId: 'energy', seed: 4, budget: { steps: 4096, evalEpisodes: 2 } };
    await handler(task, { functionName: 'EurekaServerless-TrainSeed', awsRequestId: 'req-1', memoryLimitInMB: '1769', invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:x', functionVersion: '$LATEST' });
    const result = JSON.parse(await readFile(join(dir, 'bucket', 'searches/tel/generations/1/candidates/energy/seeds/4/result.json'), 'utf8')) as SeedResult;

    const [line] = logs();
    assert.equal(logs().length, 1);
    assert.equal(line.level, 'INFO');
    assert.equal(line.message, 'seed-run finished');
    assert.equal(line.service, 'eureka-serverless');
    for (const [k, v] of Object.entries({ searchId: 'tel', generation: 1, candidateId: 'energy', seed: 4, outcome: 'trained', seconds: result.wallSeconds, success: result.success })) {
      assert.deepEqual(line[k], v, k);
    }
    assert.equal(line.function_name, 'EurekaServerless-TrainSeed', 'the Lambda context');
    assert.equal(line.function_request_id, 'req-1');
    assert.equal(typeof line.cold_start, 'boolean');

    const [blob] = blobs();
    const [directive] = blob._aws.CloudWatchMetrics;
    assert.equal(directive.Namespace, 'EurekaServerless');
    assert.deepEqual(directive.Dimensions, [['service', 'outcome']]);
    assert.deepEqual(directive.Metrics.map((m) => [m.Name, m.Unit]).sort(), [['SeedRunSeconds', 'Seconds'], ['SeedRuns', 'Count']]);
    assert.equal(blob.outcome, 'trained');
    assert.equal(blob.SeedRuns, 1);
    assert.equal(blob.SeedRunSeconds, result.wallSeconds);

    // A stored result is not a new seed-run: no second line, no second count.
    lines.length = 0;
    await handler(task);
    assert.deepEqual(lines, []);
  });

  it('logs a failed check with a clipped reason and never the code', async () => {
    const code = `function computeReward(obs) { throw new Error('${'x'.repeat(400)}'); }\n// SECRET-MARKER-IN-CODE`;
    const reward = join(dir, 'bucket', rewardKey('tel', 1, 'thrower'));
    await mkdir(dirname(reward), { recursive: true });
    await writeFile(reward, code);
    const { handler } = await import('../functions/train-seed/handler.ts');
    await handler({ kind: 'check', searchId: 'tel', task: 'MountainCar-v0', generation: 1, candidateId: 'thrower' });
    const [line] = logs();
    assert.equal(line.message, 'check finished');
    assert.equal(line.verdict, 'error');
    assert.ok(String(line.reason).length <= 200, 'clipped');
    assert.doesNotMatch(JSON.stringify(lines), /SECRET-MARKER-IN-CODE/);
    assert.deepEqual(blobs()[0]._aws.CloudWatchMetrics[0].Dimensions, [['service', 'verdict']]);
    assert.equal(blobs()[0].CandidateChecks, 1);
  });

  it('logs a proposal\'s tokens and cost, with the model\'s usage as metrics, and the key nowhere', async () => {
    const { handler: reflect } = await import('../functions/reflect/handler.ts');
    const { handler: propose } = await import('../functions/propose/handler.ts');
    await reflect({ kind: 'init', executionName: 'tel-model', input: { proposer: 'anthropic', candidates: 1, includeHostile: false } });
    const code = 'function computeReward(obs, action, nextObs, terminated) { return [-1, { step: -1 }]; }';
    server.script.push(answer(JSON.stringify({ candidates: [{ name: 'steps', idea: 'the step cost', code }] }), { usage: { input_tokens: 1200, output_tokens: 800 } }));
    lines.length = 0;
    await propose({ searchId: 'tel-model', generation: 1 });
    const line = logs().find((l) => l.message === 'proposal stored');
    assert.ok(line, JSON.stringify(lines));
    assert.deepEqual([line.searchId, line.generation, line.proposer, line.model, line.inputTokens, line.outputTokens],
      ['tel-model', 1, 'anthropic', 'claude-sonnet-5-5', 1200, 800]);
    assert.ok(Math.abs(Number(line.costUsd) - (1200 * 2 + 800 * 10) / 1e6) < 1e-12);
    const blob = blobs().find((b) => 'ModelOutputTokens' in b);
    assert.ok(blob);
    assert.equal(blob.ModelOutputTokens, 800);
    assert.equal(blob.ModelInputTokens, 1200);
    assert.deepEqual(blob._aws.CloudWatchMetrics[0].Dimensions, [['service', 'request']]);
    assert.ok(JSON.stringify(server.requests.at(-1)?.headers).includes(KEY), 'the key was sent');
    assert.ok(!JSON.stringify(lines).includes(KEY), 'and never logged');
    assert.ok(!JSON.stringify(lines).includes(code), 'nor the model\'s code');
  });
});
