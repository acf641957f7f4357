/**
 * The Bedrock proposer, driven through the real @anthropic-ai/bedrock-sdk against a loopback
 * endpoint: InvokeModel's streaming path and its AWS event-stream framing, the SDK's own SigV4
 * signature, the body's anthropic_version, and the answer handling it shares with the Anthropic
 * proposer (refusal, one repair, retries, normalization, usage and cost).
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { createBedrockProposer, type BedrockProposerOptions } from '../functions/propose/bedrock.ts';
import { createModelProposer } from '../functions/propose/model-proposer.ts';
import { buildPrompt, promptHash } from '../functions/propose/prompt.ts';
import { ProposerError, type ProposeContext } from '../functions/propose/proposer.ts';
import type { Candidate } from '../functions/shared/search/types.ts';
import { BEST, GEN1, GEN2 } from './support/contexts.ts';
import { answer, apiError, startMessagesApiServer, type MessagesApiServer } from './support/messages-api-server.ts';

const MODEL = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const CREDENTIALS = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'session-token-example' };
const K3: ProposeContext = { ...GEN1, k: 3 };

const code = (tag: string): string =>
  `function computeReward(obs, action, nextObs, terminated) {\n  const ${tag} = Math.abs(nextObs[1]);\n  return [${tag}, { ${tag} }];\n}\n`;
const cand = (name: string): Candidate => ({ name, idea: `Idea of ${name}.`, code: code('speed') });
const ANALYSIS = 'The step cost dominates; the shaping is too small to matter.';
const json = (candidates: Candidate[], analysis: string | undefined = ANALYSIS): string => JSON.stringify({ analysis, candidates });
const THREE = [cand('speed-bonus'), cand('energy-potential'), cand('height-progress')];

async function rejection(promise: Promise<unknown>): Promise<ProposerError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ProposerError, `rejected with ${String(error)}`);
    assert.doesNotMatch(error.message, /\n/, 'one line');
    assert.ok(!error.message.includes(CREDENTIALS.secretAccessKey), 'the secret key never appears');
    return error;
  }
  assert.fail('did not reject');
}

describe('Function: createBedrockProposer', () => {
  let server: MessagesApiServer;
  const proposer = (opts: Partial<BedrockProposerOptions> = {}) =>
    createBedrockProposer({ model: MODEL, region: 'us-east-1', baseURL: server.url, credentials: CREDENTIALS, maxRetries: 2, ...opts });

  before(async () => {
    server = await startMessagesApiServer();
  });
  beforeEach(() => {
    server.script = [];
    server.requests.length = 0;
  });
  after(() => server.close());

  it('streams InvokeModel through the event-stream framing and returns the candidates, usage and cost', async () => {
    const text = json(THREE);
    server.script = [answer(text, { usage: { input_tokens: 5000, output_tokens: 4000 } })];

    const result = await proposer().propose(K3);

    assert.deepEqual(result.candidates, THREE);
    assert.equal(result.proposer, 'bedrock');
    assert.equal(result.model, MODEL);
    assert.equal(result.raw, text);
    assert.deepEqual(result.usage, { inputTokens: 5000, outputTokens: 4000, cacheReadTokens: 0, cacheWriteTokens: 0, thinkingTokens: 0 });
    assert.equal(result.costUsd, (5000 * 3 + 4000 * 15) / 1e6, 'priced as claude-sonnet-4-5');
    assert.equal(result.promptHash, promptHash(MODEL, buildPrompt(K3)));
  });

  it('sends a SigV4-signed request to /model/<id>/invoke-with-response-stream with anthropic_version in the body', async () => {
    server.script = [answer(json(THREE))];

    await proposer().propose(K3);

    assert.equal(server.requests.length, 1);
    const [request] = server.requests;
    assert.equal(request.method, 'POST');
    assert.equal(request.path, `/model/${MODEL}/invoke-with-response-stream`);
    assert.match(String(request.headers.authorization),
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=[a-z0-9;-]*host[a-z0-9;-]*, Signature=[0-9a-f]{64}$/);
    assert.match(String(request.headers['x-amz-date']), /^\d{8}T\d{6}Z$/);
    assert.equal(request.headers['x-amz-security-token'], CREDENTIALS.sessionToken);
    assert.equal(request.headers['anthropic-version'], undefined, 'the version moves into the body');
    assert.equal(typeof request.body.anthropic_version, 'string');
    assert.notEqual(request.body.anthropic_version, '');
    assert.equal(request.body.model, undefined, 'the model is in the path');
    assert.equal(request.body.stream, undefined, 'streaming is in the path');
    const prompt = buildPrompt(K3);
    assert.equal(request.body.system, prompt.system);
    assert.deepEqual(request.body.messages, [{ role: 'user', content: prompt.user }]);
    const config = request.body.output_config as { format: { type: string; schema: { required: string[] } } };
    assert.equal(config.format.type, 'json_schema');
    assert.deepEqual(config.format.schema.required, ['analysis', 'candidates']);
  });

  it('passes the effort level and the generation-2 reflection', async () => {
    server.script = [answer(json(THREE))];

    await proposer({ effort: 'high' }).propose({ ...GEN2, k: 3 });

    const body = server.requests[0].body;
    assert.equal((body.output_config as { effort: string }).effort, 'high');
    const user = (body.messages as Array<{ content: string }>)[0].content;
    assert.ok(user.includes(BEST.candidate.code.trimEnd()));
    assert.match(user, /shaping: \['0\.12'/);
    assert.match(user, /hostile_exfiltrate \| 0 \| error: ReferenceError: process is not defined/);
  });

  it('sends extended thinking in the body, as Bedrock\'s InvokeModel takes it, and counts its tokens', async () => {
    server.script = [answer(json(THREE), { thinking: { text: 'The shaping telescopes...', tokens: 900 } })];

    const result = await proposer({ thinkingBudget: 4096 }).propose(K3);

    const body = server.requests[0].body;
    assert.deepEqual(body.thinking, { type: 'enabled', budget_tokens: 4096 }, 'Sonnet 4.5 takes the budget form');
    assert.equal(body.max_tokens, 32_000 + 4096);
    assert.equal(result.usage?.thinkingTokens, 900);
    assert.deepEqual(result.candidates, THREE);
  });

  it('fails at once on a refusal', async () => {
    server.script = [answer('', { stopReason: 'refusal', stopDetails: { type: 'refusal', category: null, explanation: null } })];

    const error = await rejection(proposer().propose(K3));

    assert.equal(error.message, 'The model refused to write the reward functions (stop_reason "refusal")');
    assert.equal(server.requests.length, 1);
  });

  it('repairs an answer that fails the schema once, with the errors in the second request', async () => {
    server.script = [answer('{"candidates": [{"name": 7, "idea": "x", "code": "y"}]}'), answer(json(THREE))];

    const result = await proposer().propose(K3);

    assert.equal(server.requests.length, 2);
    assert.equal(server.requests[1].path, `/model/${MODEL}/invoke-with-response-stream`);
    const messages = server.requests[1].body.messages as Array<{ role: string; content: string }>;
    assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant', 'user']);
    assert.match(messages[2].content, /candidates\[0\]\.name: Invalid input: expected string, received number/);
    assert.deepEqual(result.candidates, THREE);
    assert.deepEqual(result.usage, { inputTokens: 2000, outputTokens: 4000, cacheReadTokens: 0, cacheWriteTokens: 0, thinkingTokens: 0 });
  });

  it('fails clearly when the repair fails too', async () => {
    server.script = [answer('not json'), answer('still not json')];

    const error = await rejection(proposer().propose(K3));

    assert.match(error.message, /did not match the schema, also after a repair request: the answer is not valid JSON/);
    assert.equal(server.requests.length, 2);
  });

  it('retries a throttled request (429) and succeeds', async () => {
    server.script = [apiError(429, 'ThrottlingException', 'Too many requests, please wait before trying again.', { 'retry-after': '0.05' }), answer(json(THREE))];

    const result = await proposer().propose(K3);

    assert.equal(server.requests.length, 2);
    assert.equal(result.candidates.length, 3);
  });

  it('fails clearly once the retries of a 500 are spent', async () => {
    const fail = apiError(500, 'InternalServerException', 'Internal server error', { 'retry-after-ms': '20' });
    server.script = [fail, fail];

    const error = await rejection(proposer({ maxRetries: 1 }).propose(K3));

    assert.equal(server.requests.length, 2);
    assert.match(error.message, /^Amazon Bedrock request for us\.anthropic\.claude-sonnet-4-5-20250929-v1:0 failed \(after up to 1 retries\): HTTP 500/);
  });

  it('normalizes the answer the same way: duplicates renamed, more than K cut', async () => {
    server.script = [answer(json([cand('dup'), cand('dup'), cand('c'), cand('d')]))];

    const result = await proposer().propose(K3);

    assert.deepEqual(result.candidates.map((c) => c.name), ['dup', 'dup-2', 'c']);
    assert.deepEqual(result.notes, ['The model wrote 4 usable candidates; kept the first 3 (K = 3).', 'Renamed a duplicate "dup" to "dup-2".']);
  });

  describe('Function: createModelProposer (bedrock)', () => {
    const saved = { ...process.env };
    afterEach(() => {
      process.env = { ...saved };
    });

    it('signs with the credentials of the default provider chain, in AWS_REGION, at EUREKA_BEDROCK_BASE_URL', async () => {
      Object.assign(process.env, {
        AWS_REGION: 'eu-west-1',
        AWS_ACCESS_KEY_ID: 'AKIDFROMENV',
        AWS_SECRET_ACCESS_KEY: 'secret-from-env',
        EUREKA_BEDROCK_BASE_URL: server.url,
      });
      delete process.env.AWS_SESSION_TOKEN;
      delete process.env.AWS_PROFILE;
      delete process.env.AWS_BEARER_TOKEN_BEDROCK;
      server.script = [answer(json(THREE))];

      const result = await (await createModelProposer({ proposer: 'bedrock', model: MODEL })).propose(K3);

      assert.equal(result.candidates.length, 3);
      assert.match(String(server.requests[0].headers.authorization), /Credential=AKIDFROMENV\/\d{8}\/eu-west-1\/bedrock\/aws4_request/);
    });

    it('rejects an Anthropic API model id, naming the kind of id Bedrock needs', async () => {
      process.env.AWS_REGION = 'us-east-1';
      const error = await rejection(createModelProposer({ proposer: 'bedrock', model: 'claude-sonnet-4-5' }));
      assert.match(error.message, /^Model "claude-sonnet-4-5" is not a Bedrock model id: give one such as "us\.anthropic\./);
    });

    it('needs a region', async () => {
      delete process.env.AWS_REGION;
      delete process.env.AWS_DEFAULT_REGION;
      const error = await rejection(createModelProposer({ proposer: 'bedrock', model: MODEL }));
      assert.equal(error.message, 'The Bedrock proposer needs a region: set AWS_REGION');
    });
  });
});
