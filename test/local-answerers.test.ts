/**
 * The local answerers one request at a time: a command (a real shell command), a directory a
 * program writes in, the request text they get, what a bad answer gets, the input that asks for
 * them (local only), and the definition's Retry that lets a person take longer than Propose's
 * timeout. End to end in a search: local-answerers-search.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { ANSWER_PENDING_ERROR, ANSWER_PENDING_RETRIES, ANSWER_WAIT_SLICE_SECONDS, FUNCTION_CAPS, taskTimeoutSeconds } from '../infra/config.ts';
import { definitionAsl } from '../infra/workflow-asl.ts';
import { STATE } from '../infra/workflow-names.ts';
import { commandAnswerer } from '../functions/propose/command-answerer.ts';
import { CHANGING_ANSWER_SECONDS, filesAnswerer } from '../functions/propose/files-answerer.ts';
import { ProposerError, type BilledReply, type ReplyLedger } from '../functions/propose/proposer.ts';
import { checkText, textProposer, type TextAnswerer } from '../functions/propose/text-proposer.ts';
import { parseSearchInput } from '../functions/shared/input/search-input.ts';
import { GEN1 } from './support/contexts.ts';

const FIXTURES = new URL('./fixtures/answerers/', import.meta.url).pathname;
const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'eureka-answerers-'));
  dirs.push(dir);
  return dir;
}
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

/** Shell that waits until the background process has written its pid. */
const until = (file: string) => `until [ -s ${file} ]; do sleep 0.02; done;`;

/** The process is no longer running (gone, or a zombie left for its parent to reap): polled, never timed. */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 200; i++) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
    if (stat === null || / Z /.test(stat)) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
}

const request = (text: string, step = 1) => ({ text, step, promptHash: 'hash' });

/** A ledger kept in memory, as searchLedger keeps it in the table: what was billed, per step. */
function memoryLedger(): ReplyLedger & { bills: Array<{ step: number; costUsd: number | null }> } {
  const replies = new Map<number, BilledReply>();
  const bills: Array<{ step: number; costUsd: number | null }> = [];
  return {
    bills,
    stored: async (step) => replies.get(step),
    reserve: async (step) => ({
      billed: async (reply, costUsd) => { replies.set(step, reply); bills.push({ step, costUsd }); },
      released: async () => {},
    }),
  };
}

/** An answerer that gives these texts in turn, and counts the requests. */
function scripted(texts: string[]): TextAnswerer & { asked: string[] } {
  const asked: string[] = [];
  return { kind: 'command', label: 'scripted', asked, ask: async (r) => { asked.push(r.text); return texts[asked.length - 1] ?? ''; } };
}

const ONE = JSON.stringify({ candidates: [{ name: 'c1', idea: 'an idea', code: 'function computeReward() { return [0, {}]; }' }] });

describe('Proposer: the request a command or a person gets', () => {
  it('is the model\'s prompt with the answer\'s JSON schema and K spelled out', async () => {
    const answerer = scripted([ONE]);
    await textProposer(answerer).propose({ ...GEN1, k: 4 });
    const text = answerer.asked[0];
    assert.match(text, /^You are a reward engineer/);
    assert.match(text, /# The task: MountainCar-v0/);
    assert.match(text, /# The answer's format\nAnswer with one JSON object and nothing else .* with 4 candidates, matching this JSON schema:/);
    assert.match(text, /"candidates": \{\s*"type": "array"/);
  });

  it('keeps what it answered, at no cost, each reply billed at $0 before it is checked', async () => {
    const ledger = memoryLedger();
    const answer = await textProposer(scripted([ONE])).propose(GEN1, ledger);
    assert.deepEqual([answer.proposer, answer.model, answer.costUsd, answer.usage], ['command', 'scripted', 0, null]);
    assert.deepEqual(answer.candidates.map((c) => c.name), ['c1']);
    assert.deepEqual(ledger.bills, [{ step: 1, costUsd: 0 }]);
  });

  it('asks nothing again for a step it was already answered (a retried, redriven or resumed request)', async () => {
    const ledger = memoryLedger();
    await textProposer(scripted(['not json', ONE])).propose(GEN1, ledger);
    const again = scripted([]);
    const answer = await textProposer(again).propose(GEN1, ledger);
    assert.deepEqual(again.asked, []);
    assert.match(answer.notes.join(' '), /a repair request fixed it/);
  });
});

describe('Proposer: a bad local answer', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['empty', '', /the answer is empty/],
    ['not JSON', 'I could not think of anything', /the answer is not valid JSON/],
    ['the wrong shape', JSON.stringify({ candidates: [{ name: 'x', idea: 'y' }] }), /candidates\[0\]\.code: /],
    ['no candidates', JSON.stringify({ candidates: [] }), /candidates: /],
  ];
  for (const [what, text, reason] of cases) {
    it(`${what}: gets ONE repair request saying what was wrong, then fails with both reasons`, async () => {
      const answerer = scripted([text, text]);
      await assert.rejects(textProposer(answerer).propose(GEN1), (error: Error) => {
        assert.ok(error instanceof ProposerError);
        assert.match(error.message, /^The answer of command "scripted" did not match the schema, also after a repair request: /);
        assert.match(error.message, reason);
        return true;
      });
      assert.equal(answerer.asked.length, 2);
      assert.match(answerer.asked[1], /# Your first answer\n/);
      assert.match(answerer.asked[1], new RegExp(`# It could not be used\n.*${reason.source}`));
    });
  }

  it('reads the JSON object out of the words around it, and says so', () => {
    const checked = checkText(`Sure! Here they are:\n\n\`\`\`json\n${ONE}\n\`\`\`\nGood luck.`);
    assert.ok(checked.ok);
    assert.match(checked.notes?.join(' ') ?? '', /text around its JSON object/);
    assert.ok(checkText(`The answer is ${ONE} as asked.`).ok);
  });
});

describe('Proposer: command:CMD', () => {
  it('gives the request on standard input and reads the answer on standard output', async () => {
    const text = await commandAnswerer('tr a-z A-Z').ask(request('hello'));
    assert.equal(text, 'HELLO');
  });

  it('fails with the exit code and the end of its standard error', async () => {
    await assert.rejects(commandAnswerer('echo "model not found" >&2; exit 3').ask(request('x')),
      /^ProposerError: The command "echo \\"model not found\\" >&2; exit 3" failed with exit code 3; its standard error ended: model not found$/);
  });

  it('is killed past its time cap, with what it started', async () => {
    const dir = await tempDir();
    const marker = join(dir, 'still-running');
    await assert.rejects(commandAnswerer(`(sleep 3; touch ${marker}) & wait`, { timeoutSeconds: 1 }).ask(request('x')), /did not answer within 1 s \(Propose's time cap\)/);
    await new Promise((r) => setTimeout(r, 3500));
    assert.deepEqual(await readdir(dir), [], 'the sleeping child was killed with its shell');
  });

  it('answers once its shell exits, killing what it left in the background holding its output', async () => {
    const dir = await tempDir();
    const pid = join(dir, 'pid');
    const text = await commandAnswerer(`sh -c 'echo $$ > ${pid}; exec sleep 60' & ${until(pid)} echo '{"candidates": []}'`, { timeoutSeconds: 10 }).ask(request('x'));
    assert.equal(text.trim(), '{"candidates": []}');
    assert.equal(await gone(Number(await readFile(pid, 'utf8'))), true, 'the background sleep was killed');
  });

  it('kills a grandchild that left its process group (setsid), at the answer and at the time cap', async () => {
    const dir = await tempDir();
    const answered = join(dir, 'answered');
    const text = await commandAnswerer(`setsid sh -c 'echo $$ > ${answered}; exec sleep 30' & ${until(answered)} echo done`, { timeoutSeconds: 10 }).ask(request('x'));
    assert.equal(text.trim(), 'done');
    assert.equal(await gone(Number(await readFile(answered, 'utf8'))), true);
    const capped = join(dir, 'capped');
    const marker = join(dir, 'outlived');
    await assert.rejects(commandAnswerer(`setsid sh -c 'echo $$ > ${capped}; sleep 8; touch ${marker}' & ${until(capped)} sleep 8`, { timeoutSeconds: 1 }).ask(request('x')),
      /did not answer within 1 s \(Propose's time cap\)/);
    assert.equal(await gone(Number(await readFile(capped, 'utf8'))), true, 'the setsid grandchild was killed at the cap');
    assert.ok(!(await readdir(dir)).includes('outlived'));
  });

  it('has Propose\'s time cap less a minute, so its Lambda stops first', () => {
    assert.equal(ANSWER_WAIT_SLICE_SECONDS, FUNCTION_CAPS.propose.timeoutSeconds - 60);
    assert.ok(ANSWER_WAIT_SLICE_SECONDS < taskTimeoutSeconds('propose'));
  });

  it('answers a whole request from a script of canned candidates', async () => {
    const log = join(await tempDir(), 'asked.log');
    const answer = await textProposer(commandAnswerer(`node ${join(FIXTURES, 'command-answerer.mjs')} ${log}`)).propose({ ...GEN1, k: 2 });
    assert.deepEqual(answer.candidates.map((c) => c.name), ['canned-g1-1', 'canned-g1-2']);
    assert.equal((await readFile(log, 'utf8')).trim(), 'g1 step 1');
  });
});

/**
 * The answerer's pauses between looks, held until the test lets the next look happen: `waiting()`
 * resolves once the answerer has looked and paused, `next()` lets it look once more and waits for
 * its next pause, `open()` lets every later look through.
 */
function lookGate() {
  let opened = false;
  let release: (() => void) | null = null;
  let paused: (() => void) | null = null;
  let pausedNow = new Promise<void>((resolve) => { paused = resolve; });
  return {
    pause: () => {
      if (opened) return new Promise<void>((resolve) => setTimeout(resolve, 1));
      paused?.();
      return new Promise<void>((resolve) => { release = resolve; });
    },
    waiting: () => pausedNow,
    async next() {
      pausedNow = new Promise<void>((resolve) => { paused = resolve; });
      release?.();
      await pausedNow;
    },
    open() {
      opened = true;
      release?.();
    },
  };
}

describe('Proposer: files:DIR', () => {
  it('writes request-N.md and takes answer-N.json once it stops changing', async () => {
    const dir = join(await tempDir(), 'answers');
    // The test decides when the answerer looks again, so a loaded machine cannot reorder the writes and the looks.
    const looks = lookGate();
    const asked = filesAnswerer(dir, { timeoutMinutes: 1, pause: looks.pause }).ask(request('the first request'));
    await looks.waiting();
    assert.equal(await readFile(join(dir, 'request-1.md'), 'utf8'), 'the first request');
    await writeFile(join(dir, 'answer-1.json'), '{"candidates": [');
    await looks.next();
    await writeFile(join(dir, 'answer-1.json'), '{"candidates": [], "written": "in two goes"}');
    await looks.next();
    looks.open();
    assert.equal(await asked, '{"candidates": [], "written": "in two goes"}', 'the half-written answer seen on one look was not taken');
    // Another request gets the next number; the same request again gets its own answer at once.
    const second = filesAnswerer(dir, { timeoutMinutes: 1, pollMs: 50 }).ask(request('the second request'));
    await writeFile(join(dir, 'answer-2.json'), 'two');
    assert.equal(await second, 'two');
    assert.equal(await filesAnswerer(dir, { timeoutMinutes: 1, pollMs: 50 }).ask(request('the first request')), '{"candidates": [], "written": "in two goes"}');
    assert.deepEqual((await readdir(dir)).sort(), ['answer-1.json', 'answer-2.json', 'request-1.md', 'request-2.md']);
  });

  it('waits in slices: past its share it fails with AnswerPending, and the next invocation waits for the same file', async () => {
    const dir = await tempDir();
    const slice = { timeoutMinutes: 1, sliceSeconds: 0.2, pollMs: 50 };
    await assert.rejects(filesAnswerer(dir, slice).ask(request('slow')), (error: Error) => error.name === ANSWER_PENDING_ERROR && /answer-1\.json/.test(error.message));
    const again = filesAnswerer(dir, slice).ask(request('slow'));
    await writeFile(join(dir, 'answer-1.json'), 'late but here');
    assert.equal(await again, 'late but here');
    assert.deepEqual((await readdir(dir)).sort(), ['answer-1.json', 'request-1.md']);
  });

  it('gives up at the pause\'s timeout, counted from when the request was written', async () => {
    const dir = await tempDir();
    await assert.rejects(filesAnswerer(dir, { timeoutMinutes: 0.005, pollMs: 50 }).ask(request('nobody answers')),
      /^ProposerError: No answer: .*answer-1\.json was not written within 0\.005 min of .*request-1\.md \(feedbackTimeoutMinutes\)$/);
  });

  it('takes an answer already written after the pause\'s deadline passed (a search resumed after the hour, a folder reused)', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'request-1.md'), 'asked long ago');
    await writeFile(join(dir, 'answer-1.json'), 'written meanwhile');
    const hourAgo = new Date(Date.now() - 2 * 3600_000);
    await utimes(join(dir, 'request-1.md'), hourAgo, hourAgo);
    assert.equal(await filesAnswerer(dir, { timeoutMinutes: 60, pollMs: 20 }).ask(request('asked long ago')), 'written meanwhile');
  });

  it('fails for good, past the deadline, on an answer that keeps changing for the stated seconds more (a file rewritten in a loop)', async () => {
    const dir = await tempDir();
    const answer = join(dir, 'answer-1.json');
    // The deadline passed as the request was written; between any two looks the file grows by a character.
    let written = '';
    const rewrite = async () => {
      written += 'x';
      await writeFile(answer, written);
    };
    await rewrite();
    const options = { timeoutMinutes: 0, sliceSeconds: 1, changingSeconds: 0.2, pause: rewrite };
    await assert.rejects(filesAnswerer(dir, options).ask(request('never done')),
      /^ProposerError: No answer: .*answer-1\.json was still changing 0\.2 s past its deadline, 0 min after .*request-1\.md \(feedbackTimeoutMinutes\): write it whole/);
    assert.ok(written.length > 2, 'it looked at the file more than twice');
    // The slice and these seconds more end before Propose's Lambda is stopped.
    assert.ok(ANSWER_WAIT_SLICE_SECONDS + CHANGING_ANSWER_SECONDS < FUNCTION_CAPS.propose.timeoutSeconds);
  });

  it('is awaited past Propose\'s timeout: the definition retries Propose and Repair on AnswerPending for the whole execution', () => {
    const asl = definitionAsl();
    for (const name of [STATE.propose, STATE.repair]) {
      const retry = (asl.States[name].Retry as Array<{ ErrorEquals: string[]; MaxAttempts: number; BackoffRate: number; MaxDelaySeconds: number }>)
        .find((r) => r.ErrorEquals.includes(ANSWER_PENDING_ERROR));
      assert.ok(retry, `${name} retries ${ANSWER_PENDING_ERROR}`);
      assert.deepEqual([retry.ErrorEquals, retry.BackoffRate], [[ANSWER_PENDING_ERROR], 2]);
      assert.equal(retry.MaxDelaySeconds, 10, "a slice is the wait, not the delay");
      assert.ok(retry.MaxAttempts * ANSWER_WAIT_SLICE_SECONDS >= 24 * 3600, 'as long as an execution lasts');
      assert.equal(retry.MaxAttempts, ANSWER_PENDING_RETRIES);
    }
  });
});

describe('Input: proposer command:CMD and files:DIR', () => {
  const local = { proposer: 'offline' as const, local: true };

  it('runs them locally, the command line or the directory (made absolute) as the search\'s model', () => {
    const command = parseSearchInput({ proposer: 'command:ollama run qwen2.5-coder:7b' }, local);
    assert.deepEqual([command.proposer, command.model], ['command', 'ollama run qwen2.5-coder:7b']);
    const files = parseSearchInput({ proposer: 'files:test/fixtures' }, local);
    assert.deepEqual([files.proposer, files.model], ['files', resolve('test/fixtures')]);
  });

  it('refuses them on AWS, saying where they run', () => {
    for (const proposer of ['command:llm -m mistral', 'files:/tmp/answers']) {
      assert.throws(() => parseSearchInput({ proposer }, { proposer: 'anthropic' }),
        /"proposer" ".*": command: and files: answer only in the local runtime \(eureka search\); on AWS use offline, anthropic or bedrock/);
    }
  });

  it('refuses an empty command or directory, an unknown proposer, and a model beside them', () => {
    for (const proposer of ['command:', 'files:  ', 'claude']) {
      assert.throws(() => parseSearchInput({ proposer }, local), /"proposer" must be offline, anthropic, bedrock, command:CMD or files:DIR/);
    }
    assert.throws(() => parseSearchInput({ proposer: 'command:ollama run x', model: 'x' }, local), /"model" must not be given with "proposer" command:/);
  });
});
