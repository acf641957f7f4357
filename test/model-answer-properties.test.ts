/**
 * Model answers, generated (fast-check; issue 32): the real @anthropic-ai/sdk against a loopback
 * Messages API answers generation 1's request with a malformed answer, and its one repair request
 * with another. Each is refused by what was wrong with it (named in the failure), nothing of it is
 * kept or trained, there is exactly one repair request, and every reply is billed once: a retry of
 * the request asks the model nothing and bills nothing again. Seeded: the same answers every run.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { createAnthropicProposer } from '../functions/propose/anthropic.ts';
import { propose } from '../functions/propose/propose.ts';
import { ProposerError } from '../functions/propose/proposer.ts';
import { initSearch } from '../functions/reflect/init.ts';
import { answer, startMessagesApiServer, type MessagesApiServer } from './support/messages-api-server.ts';
import { realStore } from './support/real-store.ts';

const SEED = 3233;
const MODEL = 'claude-sonnet-5-5';
const CODE = 'function computeReward(obs, action, nextObs) { return [nextObs[0] - obs[0], {}]; }';
const candidate = { name: 'progress', idea: 'move right', code: CODE };

/** A malformed answer's text and what its refusal must say. */
const malformed: fc.Arbitrary<{ text: string; says: RegExp }> = fc.oneof(
  fc.constantFrom('', '   ', '\n').map((text) => ({ text, says: /the answer is empty/ })),
  fc.string({ minLength: 1, maxLength: 60 }).filter((t) => t.trim() !== '' && !parses(t)).map((text) => ({ text, says: /the answer is not valid JSON/ })),
  fc.constantFrom(
    { value: {}, says: /candidates: / },
    { value: [], says: /the answer: / },
    { value: 42, says: /the answer: / },
    { value: { candidates: [] }, says: /candidates: / },
    { value: { candidates: 'three rewards' }, says: /candidates: / },
    { value: { candidates: [{ name: 'x', idea: 'y' }] }, says: /candidates\[0\]\.code: / },
    { value: { candidates: [{ ...candidate, name: '' }] }, says: /candidates\[0\]\.name: / },
    { value: { candidates: [{ ...candidate, code: '' }] }, says: /candidates\[0\]\.code: / },
    { value: { candidates: [candidate, { ...candidate, idea: 7 }] }, says: /candidates\[1\]\.idea: / },
    { value: { analysis: 3, candidates: [candidate] }, says: /analysis: / },
  ).map(({ value, says }) => ({ text: JSON.stringify(value), says })),
);

function parses(text: string): boolean {
  try { JSON.parse(text); return true; } catch { return false; }
}

describe('Property: malformed model answers (the real SDK on a loopback server, a real table)', () => {
  const real = realStore('eureka-answer-properties-');
  let server: MessagesApiServer;
  before(async () => { server = await startMessagesApiServer(); });
  after(() => server.close());
  const anthropic = async () => createAnthropicProposer({ apiKey: 'sk-ant-test-properties', model: MODEL, baseURL: server.url, maxRetries: 0 });
  let searches = 0;

  it('refuses each by what was wrong, after one repair request; keeps and trains nothing; bills each reply once', async () => {
    await fc.assert(fc.asyncProperty(malformed, malformed, async (first, second) => {
      const searchId = `answers-${searches++}`;
      await initSearch(real.store(), { kind: 'init', executionName: searchId, input: { proposer: 'anthropic', model: MODEL, candidates: 2, includeHostile: false, maxCostUsd: 5 } }, 'anthropic', 10);
      server.requests.length = 0;
      server.script = [answer(first.text), answer(second.text)];
      await assert.rejects(propose(real.store(), { searchId, generation: 1 }, anthropic), (error: Error) => {
        assert.ok(error instanceof ProposerError, String(error));
        assert.match(error.message, /did not match the schema, also after a repair request/);
        const why = error.message.split(/also after a repair request/)[1];
        assert.ok(first.says.test(why) && second.says.test(why), `${error.message} should say ${first.says} and ${second.says}`);
        return true;
      });
      assert.equal(server.requests.length, 2, 'the request and its one repair');
      const repairRequest = server.requests[1].body.messages as Array<{ role: string; content: unknown }>;
      assert.deepEqual(repairRequest.map((m) => m.role), ['user', 'assistant', 'user'], 'the repair shows the first answer');
      assert.equal(await real.store().answer(searchId, 1, 'proposal'), undefined, 'nothing kept: nothing to check or train');
      assert.deepEqual(await real.store().blobs.list(`searches/${searchId}/generations/1/candidates/`), [], 'no candidate\'s reward written');
      const bills = await real.store().bills(searchId);
      assert.equal(bills.length, 2, 'each reply billed');
      assert.equal(new Set(bills.map((b) => `${b.generation}/${b.kind}/${b.step}`)).size, 2, 'once each');

      // A retry of the failed request (Step Functions' Retry, a redrive, a resume) asks and bills nothing again.
      server.script = [answer(JSON.stringify({ candidates: [candidate] }))];
      await assert.rejects(propose(real.store(), { searchId, generation: 1 }, anthropic), ProposerError);
      assert.equal(server.requests.length, 2, 'no new request');
      assert.equal((await real.store().bills(searchId)).length, 2, 'no new bill');
    }), { seed: SEED, numRuns: 25 });
  });
});
