/**
 * Any model, or a person, answers a whole search (through the CLI and the local runtime, the same
 * state machine as AWS): `--proposer command:CMD` with a script that answers from canned
 * candidates (and fails once, as a model that was not loaded), `--proposer files:DIR` with a
 * program that writes the answers (and slips once, so the search asks it to repair); a resumed
 * search asks nothing it was answered again.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { access, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { withLocalStore } from '../local/runtime.ts';
import { eureka } from './support/eureka-cli.ts';

const FIXTURES = new URL('./fixtures/answerers/', import.meta.url).pathname;
/** The loop is under test, not learning: two generations of two candidates, one seed, short runs. */
const SMALL = ['--smoke', '--candidates', '2', '--seeds', '1', '--steps', '4096', '--no-racing', '--no-hostile'];
const NO_KEY = { ANTHROPIC_API_KEY: '' };

const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'eureka-answerers-search-'));
  dirs.push(dir);
  return dir;
}

describe('Search: --proposer command:CMD', () => {
  let dir = '';
  let log = '';
  let command = '';
  let first = { code: 0, stderr: '' };
  let resumed = { code: 0, stdout: '', stderr: '' };

  before(async () => {
    dir = await tempDir();
    log = join(dir, 'asked.log');
    command = `node ${join(FIXTURES, 'command-answerer.mjs')} ${log} --fail-once-at 2`;
    first = await eureka(['search', ...SMALL, '--proposer', `command:${command}`, '--search-id', 'by-command', '--data-dir', dir, '--json'], NO_KEY);
    resumed = await eureka(['search', '--resume', 'by-command', '--data-dir', dir, '--json'], NO_KEY);
  });

  it('fails the search with the command\'s exit code and its words when the command fails', () => {
    assert.notEqual(first.code, 0);
    assert.match(first.stderr, /failed with exit code 3; its standard error ended: error: model "canned" not found/);
  });

  it('resumed, asks generation 1 nothing again and generation 2 once more, and finishes', async () => {
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.deepEqual((await readFile(log, 'utf8')).trim().split('\n'), ['g1 step 1', 'g2 step 1', 'g2 step 1']);
    // Run with --no-racing: its card draws no race and tells no race's rule.
    const card = await readFile((JSON.parse(resumed.stdout) as { cardPath: string }).cardPath.replace(/card\.html$/, 'card.md'), 'utf8');
    assert.match(card, /## The race\n\nThe search trained [\d,]+ environment steps, every candidate to the full budget\./);
    assert.doesNotMatch(card, /best third|Generation 1:/);
  });

  it('keeps the command\'s answers like a model\'s, at no cost: the command is the model', async () => {
    await withLocalStore(dir, async (store) => {
      for (const generation of [1, 2]) {
        const proposal = await store.answer('by-command', generation, 'proposal');
        assert.deepEqual([proposal?.proposer, proposal?.model, proposal?.costUsd], ['command', command, 0]);
        assert.deepEqual((await store.candidates('by-command', generation)).map((c) => c.name), [`canned-g${generation}-1`, `canned-g${generation}-2`]);
        assert.ok((await store.candidates('by-command', generation)).every((c) => c.outcome === 'trained'), 'its rewards trained');
      }
      assert.match((await store.answer('by-command', 1, 'proposal'))?.notes.join(' ') ?? '', /text around its JSON object/);
      const bills = await store.bills('by-command');
      assert.ok(bills.length >= 2 && bills.every((b) => b.costUsd === 0), 'every reply billed at $0');
    });
    const shown = await eureka(['show', 'by-command', '--data-dir', dir]);
    assert.ok(shown.stdout.includes(`proposer: command ${JSON.stringify(command)}, 2 requests, no cost`), shown.stdout);
  });

  it('resumed again, finished, asks nothing at all', async () => {
    const again = await eureka(['search', '--resume', 'by-command', '--data-dir', dir, '--json'], NO_KEY);
    assert.equal(again.code, 0, again.stderr);
    assert.equal((await readFile(log, 'utf8')).trim().split('\n').length, 3);
  });
});

describe('Search: --proposer files:DIR', () => {
  let dir = '';
  let answers = '';
  let ran = { code: 0, stderr: '' };

  before(async () => {
    dir = await tempDir();
    answers = join(dir, 'answers');
    await mkdir(answers);
    const writer = spawn(process.execPath, [join(FIXTURES, 'files-writer.mjs'), answers], { stdio: 'ignore' });
    try {
      ran = await eureka(['search', ...SMALL, '--proposer', `files:${answers}`, '--feedback-timeout', '5', '--search-id', 'by-files', '--data-dir', dir, '--json'], NO_KEY);
    } finally {
      writer.kill();
    }
  });

  it('writes each request to request-N.md and finishes on the answers written to answer-N.json', async () => {
    assert.equal(ran.code, 0, ran.stderr);
    assert.deepEqual((await readdir(answers)).sort(), ['answer-1.json', 'answer-2.json', 'answer-3.json', 'request-1.md', 'request-2.md', 'request-3.md']);
    assert.match(await readFile(join(answers, 'request-1.md'), 'utf8'), /# The task: MountainCar-v0[\s\S]*# The answer's format/);
    assert.match(await readFile(join(answers, 'request-2.md'), 'utf8'), /# Feedback from the search so far \(before generation 2\)/);
    assert.match(ran.stderr, /waiting until .* for .*answer-1\.json/);
  });

  it('answers a slip with a repair request that says what was wrong, and goes on with the fixed answer', async () => {
    const repair = await readFile(join(answers, 'request-3.md'), 'utf8');
    assert.match(repair, /# Your first answer\n\nthe rewards are in my notebook, sorry\n\n# It could not be used\nthe answer is not valid JSON/);
    await withLocalStore(dir, async (store) => {
      const proposal = await store.answer('by-files', 2, 'proposal');
      assert.deepEqual([proposal?.proposer, proposal?.model, proposal?.costUsd], ['files', answers, 0]);
      assert.match(proposal?.notes.join(' ') ?? '', /The first answer could not be used \(the answer is not valid JSON.*\); a repair request fixed it/);
      assert.deepEqual((await store.candidates('by-files', 2)).map((c) => c.name), ['canned-g2-1', 'canned-g2-2']);
    });
  });

  it('resumed, with nobody writing any more, asks nothing again', async () => {
    const again = await eureka(['search', '--resume', 'by-files', '--data-dir', dir, '--json'], NO_KEY);
    assert.equal(again.code, 0, again.stderr);
    assert.equal((await readdir(answers)).length, 6, 'no new request');
  });
});

describe('Search: --proposer files:DIR with a directory that does not exist', () => {
  it('is refused at its start with exit 2 and one line, creating nothing and training nothing (issue 35)', async () => {
    const dir = await tempDir();
    const mistyped = join(dir, 'answrs');
    const ran = await eureka(['search', ...SMALL, '--proposer', `files:${mistyped}`, '--feedback-timeout', '0.05', '--data-dir', join(dir, 'data')], NO_KEY);
    assert.equal(ran.code, 2, ran.stderr);
    assert.match(ran.stderr, /^eureka: Invalid search input: "proposer" "files:.*answrs": the directory .*answrs does not exist: create it, or give the one the answers are written in\n$/);
    await assert.rejects(access(mistyped), 'the directory was not created');
    await assert.rejects(access(join(dir, 'data', 'bucket', 'searches')), 'nothing trained');
  });
});
