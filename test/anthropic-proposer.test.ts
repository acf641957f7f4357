/**
 * The Anthropic proposer, driven through the real @anthropic-ai/sdk against a loopback server
 * that plays the Messages API: streaming, structured output, refusal, one repair, SDK retries,
 * answer normalization, usage and cost; the API key's sources; the price table.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { createAnthropicProposer, type AnthropicProposerOptions } from '../functions/propose/anthropic.ts';
import { anthropicApiKey, clearApiKeyCache } from '../functions/propose/api-key.ts';
import { checkAnswer, normalizeCandidates, readAnswer } from '../functions/propose/answer-schema.ts';
import { worstCaseCostUsd } from '../functions/propose/model-answer.ts';
import { createModelProposer } from '../functions/propose/model-proposer.ts';
import { buildPrompt, promptHash } from '../functions/propose/prompt.ts';
import { getTask } from '../tasks/registry.ts';
import { ProposerError, type ProposeContext } from '../functions/propose/proposer.ts';
import type { Candidate } from '../functions/shared/search/types.ts';
import { costUsd, normalizeModelId } from '../functions/shared/cost/pricing.ts';
import { BEST, GEN1, GEN2 } from './support/contexts.ts';
import { answer, apiError, startMessagesApiServer, type MessagesApiServer } from './support/messages-api-server.ts';

const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:anthropic-AbCdEf';


const KEY = 'sk-ant-test-0123456789abcdef';
const MODEL = 'claude-sonnet-5-5';
const K3: ProposeContext = { ...GEN1, k: 3 };

const code = (tag: string): string =>
  `function computeReward(obs, action, nextObs, terminated) {\n  const ${tag} = nextObs[0] - obs[0];\n  return [${tag}, { ${tag} }];\n}\n`;
const cand = (name: string, extra: Partial<Candidate> = {}): Candidate => ({ name, idea: `Idea of ${name}.`, code: code('progress'), ...extra });
const ANALYSIS = 'The step cost dominates; the shaping is too small to matter.';
const json = (candidates: Candidate[], analysis: string | undefined = ANALYSIS): string => JSON.stringify({ analysis, candidates });
const THREE = [cand('energy-shaping'), cand('height-progress'), cand('velocity-bonus')];

/** The ProposerError a promise rejects with, after checking it is one and is one line. */
async function rejection(promise: Promise<unknown>): Promise<ProposerError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ProposerError, `rejected with ${String(error)}`);
    assert.equal(error.name, 'ProposerError');
    assert.doesNotMatch(error.message, /\n/, 'one line');
    assert.ok(!error.message.includes(KEY), 'the key never appears');
    return error;
  }
  assert.fail('did not reject');
}

describe('Function: createAnthropicProposer', () => {
  let server: MessagesApiServer;
  const proposer = (opts: Partial<AnthropicProposerOptions> = {}) =>
    createAnthropicProposer({ apiKey: KEY, model: MODEL, baseURL: server.url, maxRetries: 2, ...opts });

  before(async () => {
    server = await startMessagesApiServer();
  });
  beforeEach(() => {
    server.script = [];
    server.requests.length = 0;
  });
  after(() => server.close());

  describe('a streamed, structured answer', () => {
    it('returns the candidates, the raw answer, usage, cost and the prompt hash', async () => {
      const text = json(THREE);
      server.script = [answer(text, { usage: { input_tokens: 1200, output_tokens: 3400, cache_read_input_tokens: 100, cache_creation_input_tokens: 50 } })];

      const result = await proposer().propose(K3);

      assert.deepEqual(result.candidates, THREE);
      assert.equal(result.analysis, ANALYSIS, 'the analysis written before the candidates');
      assert.equal(result.proposer, 'anthropic');
      assert.equal(result.model, MODEL);
      assert.equal(result.raw, text);
      assert.deepEqual(result.notes, []);
      assert.deepEqual(result.usage, { inputTokens: 1200, outputTokens: 3400, cacheReadTokens: 100, cacheWriteTokens: 50, thinkingTokens: 0 });
      // claude-sonnet-5-5 as published: $2 input, $10 output, $0.20 cache read, $2.50 cache write per MTok.
      assert.equal(result.costUsd, (1200 * 2 + 3400 * 10 + 100 * 0.2 + 50 * 2.5) / 1e6);
      assert.equal(result.promptHash, promptHash(MODEL, buildPrompt(K3)));
    });

    it('sends the model, the system prompt, the task, the output schema and stream: true', async () => {
      server.script = [answer(json(THREE))];

      await proposer().propose(K3);

      assert.equal(server.requests.length, 1);
      const [request] = server.requests;
      const prompt = buildPrompt(K3);
      assert.equal(request.method, 'POST');
      assert.equal(request.path, '/v1/messages');
      assert.equal(request.headers.authorization, `Bearer ${KEY}`, 'SDK 1.x sends the API key as a bearer token');
      assert.equal(typeof request.headers['anthropic-version'], 'string');
      assert.equal(request.body.model, MODEL);
      assert.equal(request.body.stream, true);
      assert.equal(request.body.max_tokens, 32_000);
      assert.equal(request.body.system, prompt.system);
      assert.deepEqual(request.body.messages, [{ role: 'user', content: prompt.user }]);
      const config = request.body.output_config as { format: { type: string; schema: Record<string, unknown> }; effort?: string };
      assert.equal(config.effort, undefined, 'no effort unless asked');
      assert.equal(config.format.type, 'json_schema');
      const schema = config.format.schema as { properties: Record<string, { items: { $ref: string } }>; required: string[]; $defs: Record<string, { properties: Record<string, unknown>; required: string[]; additionalProperties: boolean }> };
      assert.deepEqual(schema.required, ['analysis', 'candidates']);
      assert.deepEqual(Object.keys(schema.properties), ['analysis', 'candidates'], 'the analysis comes first: the model reasons before it writes code');
      const item = schema.$defs[schema.properties.candidates.items.$ref.split('/').pop() ?? ''];
      assert.deepEqual(item.required, ['name', 'idea', 'code']);
      assert.equal(item.additionalProperties, false);
    });

    it('sends no thinking unless a budget is given', async () => {
      server.script = [answer(json(THREE))];
      await proposer().propose(K3);
      assert.equal(server.requests[0].body.thinking, undefined);
      assert.equal(proposer().worstCaseCostUsd(K3), worstCaseCostUsd({ model: MODEL, maxTokens: 32_000 }, buildPrompt(K3)));
    });

    it('turns on extended thinking in the form the model takes, its budget on top of the answer\'s cap', async () => {
      for (const [model, thinking] of [
        ['claude-sonnet-4-5-20250929', { type: 'enabled', budget_tokens: 6000 }],
        ['claude-opus-4-6', { type: 'adaptive' }],
        [MODEL, { type: 'adaptive' }],
      ] as const) {
        server.requests.length = 0;
        server.script = [answer(json(THREE), { thinking: { text: 'First the step cost...', tokens: 1500 }, usage: { input_tokens: 1000, output_tokens: 4000 } })];
        const result = await proposer({ model, thinkingBudget: 6000 }).propose(K3);
        assert.deepEqual(server.requests[0].body.thinking, thinking, model);
        assert.equal(server.requests[0].body.max_tokens, 38_000, `${model}: 32,000 for the answer and 6,000 for the thinking`);
        assert.deepEqual(result.candidates, THREE, 'the thinking block is read past');
        assert.equal(result.usage?.thinkingTokens, 1500);
        assert.deepEqual(result.notes, []);
      }
    });

    it('reserves the thinking budget in the worst case: every output token it may bill, twice', () => {
      const without = proposer().worstCaseCostUsd(K3) ?? NaN;
      const withThinking = proposer({ thinkingBudget: 6000 }).worstCaseCostUsd(K3) ?? NaN;
      assert.ok(Math.abs(withThinking - without - (2 * 6000 * 10) / 1e6) < 1e-12, `${withThinking} against ${without}`);
    });

    it('says so when the model has no extended thinking, and sends none', async () => {
      server.script = [answer(json(THREE))];
      const result = await proposer({ model: 'claude-3-5-haiku-20241022', thinkingBudget: 6000 }).propose(K3);
      assert.equal(server.requests[0].body.thinking, undefined);
      assert.equal(server.requests[0].body.max_tokens, 32_000);
      assert.deepEqual(result.notes, ['thinkingBudget 6000 was not used: claude-3-5-haiku-20241022 has no extended thinking.']);
    });

    it('passes the effort level as output_config.effort', async () => {
      server.script = [answer(json(THREE))];

      await proposer({ effort: 'medium' }).propose(K3);

      assert.equal((server.requests[0].body.output_config as { effort: string }).effort, 'medium');
    });

    it('rejects an unknown effort level before any request', () => {
      assert.throws(() => proposer({ effort: 'extreme' }), (e: unknown) => e instanceof ProposerError && /Unknown effort "extreme"/.test(e.message));
    });

    it('sends the reflection on the best so far and the scoreboard from generation 2', async () => {
      server.script = [answer(json(THREE))];

      await proposer().propose({ ...GEN2, k: 3 });

      const user = (server.requests[0].body.messages as Array<{ content: string }>)[0].content;
      assert.ok(user.includes(BEST.candidate.code.trimEnd()), 'the best code');
      assert.match(user, /seed 1: 0\.95/);
      assert.match(user, /shaping: \['0\.12', '3\.44'/);
      assert.match(user, /hostile_exfiltrate \| 0 \| error: ReferenceError: process is not defined/);
      assert.match(user, /generation 1: 0\.57 \(g1-energy-shaping-2\)/);
    });
  });

  describe('an answer that cannot be used', () => {
    it('fails at once on a refusal, with the category and explanation', async () => {
      server.script = [answer('{"candid', {
        stopReason: 'refusal',
        stopDetails: { type: 'refusal', category: 'cyber', explanation: 'The request looks like exploit development.' },
      })];

      const error = await rejection(proposer().propose(K3));

      assert.match(error.message, /refused to write the reward functions \(category cyber\): The request looks like exploit development/);
      assert.equal(server.requests.length, 1);
    });

    it('asks once for a repair with the problems, and takes the repaired answer', async () => {
      const broken = JSON.stringify({ candidates: [{ name: 'energy', idea: 'no code here' }] });
      server.script = [
        answer(broken, { usage: { input_tokens: 100, output_tokens: 10 } }),
        answer(json(THREE), { usage: { input_tokens: 200, output_tokens: 20 } }),
      ];

      const result = await proposer().propose(K3);

      assert.equal(server.requests.length, 2);
      const messages = server.requests[1].body.messages as Array<{ role: string; content: string }>;
      assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant', 'user']);
      assert.equal(messages[1].content, broken);
      assert.match(messages[2].content, /candidates\[0\]\.code: Invalid input: expected string, received undefined/);
      assert.match(messages[2].content, /with 3 candidates/);
      assert.deepEqual(result.candidates, THREE);
      assert.deepEqual(result.usage, { inputTokens: 300, outputTokens: 30, cacheReadTokens: 0, cacheWriteTokens: 0, thinkingTokens: 0 });
      assert.match(result.notes[0], /first answer could not be used \(candidates\[0\]\.code: .*\); a repair request fixed it/);
    });

    it('says an answer cut off at max_tokens stopped early, and asks for shorter code', async () => {
      server.script = [answer(json(THREE).slice(0, 50), { stopReason: 'max_tokens' }), answer(json(THREE))];

      await proposer().propose(K3);

      const repair = (server.requests[1].body.messages as Array<{ content: string }>)[2].content;
      assert.match(repair, /stopped early \(stop_reason "max_tokens" after 2000 output tokens\)/);
      assert.match(repair, /not valid JSON/);
      assert.match(repair, /keep the code short/);
    });

    it('fails clearly when the repaired answer is still wrong', async () => {
      server.script = [answer('Here are your rewards: ...'), answer(JSON.stringify({ candidates: [] }))];

      const error = await rejection(proposer().propose(K3));

      assert.equal(server.requests.length, 2);
      assert.match(error.message, /did not match the schema, also after a repair request: candidates: Too small: expected array to have >=1 items/);
      assert.match(error.message, /first answer: the answer is not valid JSON/);
    });
  });

  describe('SDK retries', () => {
    it('retries a 429 after its retry-after and succeeds', async () => {
      server.script = [apiError(429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit', { 'retry-after': '1' }), answer(json(THREE))];

      const result = await proposer().propose(K3);

      assert.equal(server.requests.length, 2);
      assert.equal(result.candidates.length, 3);
    });

    it('retries a 529 overloaded answer and succeeds', async () => {
      server.script = [apiError(529, 'overloaded_error', 'Overloaded', { 'retry-after': '0.05' }), answer(json(THREE))];

      const result = await proposer().propose(K3);

      assert.equal(server.requests.length, 2);
      assert.equal(result.candidates.length, 3);
    });

    it('retries 500s and succeeds within maxRetries', async () => {
      const fail = apiError(500, 'api_error', 'Internal server error', { 'retry-after-ms': '20' });
      server.script = [fail, fail, answer(json(THREE))];

      const result = await proposer({ maxRetries: 2 }).propose(K3);

      assert.equal(server.requests.length, 3);
      assert.equal(result.candidates.length, 3);
    });

    it('fails clearly once the retries are spent', async () => {
      const fail = apiError(500, 'api_error', 'Internal server error', { 'retry-after-ms': '20' });
      server.script = [fail, fail, fail];

      const error = await rejection(proposer({ maxRetries: 1 }).propose(K3));

      assert.equal(server.requests.length, 2);
      assert.match(error.message, /^Anthropic API request for claude-sonnet-5-5 failed \(after up to 1 retries\): HTTP 500 api_error: Internal server error; request id req_test_\d+$/);
    });

    it('does not retry a 400, and never shows the key even when the server echoes it', async () => {
      server.script = [apiError(400, 'invalid_request_error', `invalid bearer token ${KEY}`), answer(json(THREE))];

      const error = await rejection(proposer().propose(K3));

      assert.equal(server.requests.length, 1);
      assert.match(error.message, /HTTP 400 invalid_request_error: invalid bearer token \[redacted\]/);
    });
  });

  describe('fixing what the model got slightly wrong', () => {
    it('makes duplicate names unique with -2, -3 and notes it', async () => {
      server.script = [answer(json([cand('energy'), cand('energy'), cand('energy')]))];

      const result = await proposer().propose(K3);

      assert.deepEqual(result.candidates.map((c) => c.name), ['energy', 'energy-2', 'energy-3']);
      assert.deepEqual(result.notes, ['Renamed a duplicate "energy" to "energy-2".', 'Renamed a duplicate "energy" to "energy-3".']);
    });

    it('drops a candidate whose code is over 64 KiB, naming it, and accepts the rest', async () => {
      const huge = `// ${'x'.repeat(65 * 1024)}\n${code('big')}`;
      server.script = [answer(json([cand('huge-table', { code: huge }), cand('height'), cand('velocity')]))];

      const result = await proposer().propose(K3);

      assert.deepEqual(result.candidates.map((c) => c.name), ['height', 'velocity']);
      assert.match(result.notes[0], /^Dropped "huge-table": its code is 65\.\d KiB, over the 64 KiB limit\.$/);
      assert.match(result.notes[1], /wrote 2 usable candidates, fewer than K = 3; accepted them/);
    });

    it('cuts more than K candidates to the first K', async () => {
      server.script = [answer(json([cand('a'), cand('b'), cand('c'), cand('d'), cand('e')]))];

      const result = await proposer().propose(K3);

      assert.deepEqual(result.candidates.map((c) => c.name), ['a', 'b', 'c']);
      assert.deepEqual(result.notes, ['The model wrote 5 usable candidates; kept the first 3 (K = 3).']);
    });

    it('accepts fewer than K candidates with a note', async () => {
      server.script = [answer(json([cand('only-one')]))];

      const result = await proposer().propose(K3);

      assert.equal(result.candidates.length, 1);
      assert.deepEqual(result.notes, ['The model wrote 1 usable candidate, fewer than K = 3; accepted it.']);
    });

    it('fails when no candidate is usable', async () => {
      const huge = 'x'.repeat(70 * 1024);
      server.script = [answer(json([cand('a', { code: huge }), cand('b', { code: '   ' })]))];

      const error = await rejection(proposer().propose(K3));

      assert.match(error.message, /no usable candidates: Dropped "a": its code is 70\.0 KiB.*Dropped "b": its code is blank/);
    });

    it('has no cost for a model the price table does not know', async () => {
      server.script = [answer(json(THREE))];

      const result = await proposer({ model: 'claude-future-9' }).propose(K3);

      assert.equal(result.costUsd, null);
      assert.ok(result.usage !== null && result.usage.outputTokens === 2000);
    });
  });

  describe('Function: createModelProposer (anthropic)', () => {
    const saved = { ...process.env };
    afterEach(() => {
      process.env = { ...saved };
      clearApiKeyCache();
    });

    it('reads the key from ANTHROPIC_API_KEY and honours ANTHROPIC_BASE_URL', async () => {
      delete process.env.ANTHROPIC_SECRET_ARN;
      process.env.ANTHROPIC_API_KEY = KEY;
      process.env.ANTHROPIC_BASE_URL = server.url;
      server.script = [answer(json(THREE))];

      const result = await (await createModelProposer({ proposer: 'anthropic', model: MODEL, effort: 'low' })).propose(K3);

      assert.equal(result.candidates.length, 3);
      assert.equal(server.requests[0].headers.authorization, `Bearer ${KEY}`);
      assert.equal((server.requests[0].body.output_config as { effort: string }).effort, 'low');
    });

    it('states the training budget of the search it proposes for', async () => {
      process.env.ANTHROPIC_API_KEY = KEY;
      process.env.ANTHROPIC_BASE_URL = server.url;
      server.script = [answer(json(THREE))];

      await (await createModelProposer({ proposer: 'anthropic', model: MODEL })).propose({ ...K3, budget: { steps: 60_000, seeds: 2, evalEpisodes: 20 } });

      const user = (server.requests[0].body.messages as Array<{ content: string }>)[0].content;
      assert.match(user, /Training budget: 60000 environment steps per seed/);
    });

    it('sends another task its own description, environment source and signature, and no MountainCar words', async () => {
      process.env.ANTHROPIC_API_KEY = KEY;
      process.env.ANTHROPIC_BASE_URL = server.url;
      server.script = [answer(json(THREE))];
      const task = getTask('Acrobot-v1');

      await (await createModelProposer({ proposer: 'anthropic', model: MODEL })).propose({ ...K3, task: task.id });

      const body = server.requests[0].body;
      const user = (body.messages as Array<{ content: string }>)[0].content;
      const system = body.system as string;
      assert.ok(user.includes(task.description), 'the description');
      assert.ok(user.includes(task.environmentSource.trimEnd()), 'the environment source');
      assert.ok(user.includes('function computeReward(obs, action, nextObs, terminated) {'), 'the signature');
      assert.ok(user.includes('// obs, nextObs: [cos theta1, sin theta1, cos theta2'), 'the observation layout');
      assert.ok(user.includes('action is a number: 0 (torque -1), 1 (torque 0) or 2 (torque +1).'), 'the action type');
      assert.doesNotMatch(`${system}\n${user}`, /mountain ?car|the flag|valley|position -?1\.2/i);
    });
  });
});

describe('Function: checkAnswer and normalizeCandidates', () => {
  it('accepts JSON in a ```json fence', () => {
    const checked = checkAnswer('```json\n' + json(THREE) + '\n```');
    assert.ok(checked.ok);
  });

  it('keeps the analysis, and keeps the candidates of an answer without one, with a note', () => {
    const read = checkAnswer(json(THREE, '  Shaping pays nothing late; rescale it.  '));
    assert.ok(read.ok);
    assert.equal(read.answer.analysis, 'Shaping pays nothing late; rescale it.');
    assert.deepEqual(read.notes, []);
    const without = checkAnswer(JSON.stringify({ candidates: THREE }));
    assert.ok(without.ok);
    assert.equal(without.answer.analysis, '');
    assert.deepEqual(without.notes, ['The answer has no analysis (the schema asks for one before the candidates).']);
    assert.equal(readAnswer(without, 3).notes[0], without.notes[0], 'the note goes on with the answer');
  });

  it('rejects an analysis that is not text, naming the field', () => {
    const checked = checkAnswer(JSON.stringify({ analysis: 3, candidates: THREE }));
    assert.ok(!checked.ok);
    assert.match(checked.problems[0], /^analysis: /);
  });

  it('cleans names for keys and prompts, noting the change', () => {
    const { candidates, notes } = normalizeCandidates({ candidates: [cand('Energy Shaping!'), cand('***')] }, 2);
    assert.deepEqual(candidates.map((c) => c.name), ['Energy-Shaping', 'candidate-2']);
    assert.equal(notes.length, 2);
  });

  it('finds a free suffix when "-2" is taken', () => {
    const { candidates } = normalizeCandidates({ candidates: [cand('a'), cand('a-2'), cand('a')] }, 3);
    assert.deepEqual(candidates.map((c) => c.name), ['a', 'a-2', 'a-3']);
  });
});

describe('Function: anthropicApiKey', () => {
  const saved = { ...process.env };
  let secretServer: { url: string; value: () => string | null; calls: number; close: () => Promise<void> };
  let secretValue: string | null = null;

  before(async () => {
    const state = { calls: 0 };
    const server = createServer((req, res) => {
      state.calls++;
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        // Like Secrets Manager: only the secret asked for by its ARN exists.
        const asked = (JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { SecretId?: string }).SecretId;
        if (asked !== SECRET_ARN) {
          res.writeHead(400, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-errortype': 'ResourceNotFoundException' });
          res.end(JSON.stringify({ __type: 'ResourceNotFoundException', message: 'Secrets Manager can\'t find the specified secret.' }));
          return;
        }
        if (secretValue === null) {
          res.writeHead(400, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-errortype': 'ResourceNotFoundException' });
          res.end(JSON.stringify({ __type: 'ResourceNotFoundException', message: "Secrets Manager can't find the specified secret value for staging label: AWSCURRENT" }));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
        res.end(JSON.stringify({ ARN: SECRET_ARN, Name: 'anthropic', SecretString: secretValue }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    secretServer = {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      value: () => secretValue,
      get calls() {
        return state.calls;
      },
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  });
  beforeEach(() => {
    process.env = { ...saved };
    delete process.env.ANTHROPIC_SECRET_ARN;
    delete process.env.ANTHROPIC_API_KEY;
    clearApiKeyCache();
  });
  after(async () => {
    process.env = { ...saved };
    clearApiKeyCache();
    await secretServer.close();
  });

  const ARN = SECRET_ARN;
  const useSecret = (value: string | null, arn = ARN): void => {
    secretValue = value;
    Object.assign(process.env, {
      ANTHROPIC_SECRET_ARN: arn,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: secretServer.url,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
    });
    delete process.env.AWS_PROFILE;
  };

  it('uses ANTHROPIC_API_KEY when no secret is configured', async () => {
    process.env.ANTHROPIC_API_KEY = `  ${KEY}\n`;
    assert.equal(await anthropicApiKey(), KEY);
  });

  it('fails with one line when there is no key, and tries again next time', async () => {
    const error = await rejection(anthropicApiKey());
    assert.equal(error.message, 'No Anthropic API key: set ANTHROPIC_API_KEY, or choose --proposer offline');
    process.env.ANTHROPIC_API_KEY = KEY;
    assert.equal(await anthropicApiKey(), KEY);
  });

  it('reads a plain-text secret once, then from Powertools\' cache', async () => {
    useSecret(`${KEY}\n`);
    const before = secretServer.calls;
    assert.equal(await anthropicApiKey(), KEY);
    assert.equal(await anthropicApiKey(), KEY);
    assert.equal(secretServer.calls - before, 1);
  });

  it('reads a JSON secret with apiKey or ANTHROPIC_API_KEY', async () => {
    useSecret(JSON.stringify({ apiKey: KEY }));
    assert.equal(await anthropicApiKey(), KEY);
    clearApiKeyCache();
    useSecret(JSON.stringify({ ANTHROPIC_API_KEY: KEY }));
    assert.equal(await anthropicApiKey(), KEY);
  });

  it('names the fields of a JSON secret without the key, never its values', async () => {
    useSecret(JSON.stringify({ key: KEY }));
    const error = await rejection(anthropicApiKey());
    assert.match(error.message, /is JSON without an "apiKey" or "ANTHROPIC_API_KEY" string field \(fields: "key"\)/);
  });

  it('asks for the secret it is given, and says so when that secret does not exist', async () => {
    const other = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:someone-else-XyZ123';
    useSecret(KEY, other);
    const error = await rejection(anthropicApiKey());
    assert.equal(error.message, `Could not read the Anthropic API key from the secret ${other}: ResourceNotFoundException: Secrets Manager can't find the specified secret.`);
    clearApiKeyCache();
    useSecret(KEY);
    assert.equal(await anthropicApiKey(), KEY);
  });

  it('treats an empty secret, or one with no value yet, as a missing key naming the secret', async () => {
    useSecret('  ');
    assert.match((await rejection(anthropicApiKey())).message, new RegExp(`^No Anthropic API key: the secret ${ARN} is empty \\(aws secretsmanager put-secret-value --secret-id ${ARN} `));
    useSecret(null);
    assert.match((await rejection(anthropicApiKey())).message, /^No Anthropic API key: the secret arn:aws:secretsmanager/);
  });
});

describe('Function: costUsd', () => {
  it('reads Anthropic and Bedrock ids as the same model', () => {
    for (const id of ['claude-sonnet-4-5', 'claude-sonnet-4-5-20250929', 'anthropic.claude-sonnet-4-5-20250929-v1:0',
      'us.anthropic.claude-sonnet-4-5-20250929-v1:0', 'global.anthropic.claude-sonnet-4-5-20250929-v1:0',
      'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-5-20250929-v1:0']) {
      assert.equal(normalizeModelId(id), 'claude-sonnet-4-5', id);
    }
    assert.equal(normalizeModelId('claude-opus-4-20250514'), 'claude-opus-4');
    assert.equal(normalizeModelId('claude-3-5-haiku-20241022'), 'claude-3-5-haiku');
  });

  it('prices input, output and cache tokens per million, at Anthropic\'s published rates', () => {
    // Not the table retyped: the rates of each model's page at platform.claude.com/docs/en/models/<model>/overview
    // (input, output, 5-minute cache write, cache read per MTok), as published in November 2026.
    const published: Record<string, [number, number, number, number]> = {
      'claude-sonnet-5-5': [2, 10, 2.5, 0.2],
      'claude-opus-5-5': [4, 20, 5, 0.2],
      'claude-opus-5': [5, 25, 6.25, 0.5],
      'claude-sonnet-5': [2, 10, 2.5, 0.2],
      'claude-sonnet-4-5': [3, 15, 3.75, 0.3],
      'claude-haiku-4-5': [1, 5, 1.25, 0.1],
    };
    const usage = { inputTokens: 1_000_000, outputTokens: 2_000_000, cacheReadTokens: 3_000_000, cacheWriteTokens: 4_000_000 };
    for (const [model, [input, output, write, read]] of Object.entries(published)) {
      assert.equal(costUsd(model, usage), Math.round((input + 2 * output + 4 * write + 3 * read) * 1e9) / 1e9, model);
    }
    assert.equal(costUsd('claude-unknown-1', usage), null);
    assert.equal(costUsd('gpt-5', usage), null);
  });
});
