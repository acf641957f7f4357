/**
 * A search whose runtime is killed (SIGKILL, children included) in the middle of a generation
 * and then resumed finishes without training a finished seed again and without a second
 * proposer call for any generation. Killed, `eureka show` calls it stopped, not running, and a
 * bare `eureka show` shows the latest search that finished rather than a later one killed. Stopped
 * with Ctrl-C, it says how to resume and leaves nothing running.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { after, describe, it } from 'node:test';
import { FsBlobStore } from '../functions/shared/store/blob-fs.ts';
import { start } from './support/eureka-cli.ts';

const CLI = new URL('../bin/eureka.js', import.meta.url).pathname;
const SEARCH_ID = 'killed';

async function resultFiles(dir: string): Promise<Map<string, number>> {
  // The local bucket's own listing: whole objects only, never a write still in progress.
  const store = new FsBlobStore(dir);
  const out = new Map<string, number>();
  for (const key of await store.list('')) {
    const name = key.slice(key.lastIndexOf('/') + 1);
    // A seed-run's result: at its budget (result.json) or at a rung of the race (rungs/<steps>.json).
    if (name === 'result.json' || /(^|\/)rungs\/\d+\.json$/.test(key) || name.startsWith('proposal-')) {
      const path = store.pathOf(key);
      out.set(path, (await stat(path)).mtimeMs);
    }
  }
  return out;
}

const isSeedResult = (path: string): boolean => !/proposal-[^/]*$/.test(path);

async function show(args: string[]): Promise<{ report: { searchId: string; status: string; statusDetail: string | null }; stderr: string }> {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, 'show', ...args, '--json'], { timeout: 60_000, maxBuffer: 1 << 24 });
  return { report: JSON.parse(stdout), stderr };
}

/** Starts a search in a process group of its own, and kills the group once `ready` holds. */
async function killWhen(args: string[], ready: () => Promise<boolean>): Promise<void> {
  const child = spawn(process.execPath, [CLI, ...args], { detached: true, stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const deadline = Date.now() + 5 * 60_000;
    while (Date.now() < deadline && !(await ready())) await sleep(100);
  } finally {
    process.kill(-child.pid!, 'SIGKILL');
    await exited;
    await sleep(500);
  }
}

describe('Search: killed and resumed', () => {
  const dirs: string[] = [];
  after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('finishes without re-training a finished seed or asking for a generation twice', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'eureka-kill-'));
    dirs.push(dataDir);
    const bucket = join(dataDir, 'bucket', 'searches', SEARCH_ID);
    const args = ['search', '--smoke', '--steps', '8192', '--json', '--data-dir', dataDir];

    // Run until a few seed-runs of generation 1 have finished, then kill the whole process group.
    await killWhen([...args, '--search-id', SEARCH_ID], async () =>
      [...(await resultFiles(join(bucket, 'generations', '1'))).keys()].filter(isSeedResult).length >= 3);
    const beforeResume = await resultFiles(bucket);
    assert.ok([...beforeResume.keys()].filter(isSeedResult).length >= 3, 'killed mid-search');
    assert.deepEqual(await readdir(join(bucket, 'winner')).catch(() => []), [], 'not finished when killed: nothing published');
    assert.deepEqual(await readdir(join(bucket, 'generations', '2')).catch(() => []), [], 'generation 2 had not started');

    const killed = await show(['--data-dir', dataDir]);
    assert.equal(killed.report.searchId, SEARCH_ID, 'the only search there is');
    assert.equal(killed.report.status, 'stopped', 'a search whose process is gone is not running');
    assert.match(killed.report.statusDetail ?? '', /the process that ran it is gone .*eureka search --resume killed --data-dir .* continues it/);

    // Resume: it must finish.
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'search', '--resume', SEARCH_ID, '--json', '--data-dir', dataDir], { timeout: 10 * 60_000, maxBuffer: 1 << 24 });
    assert.equal(JSON.parse(stdout).searchId, SEARCH_ID);

    const afterResume = await resultFiles(bucket);
    const retrained = [...beforeResume].filter(([path, mtime]) => afterResume.get(path) !== mtime);
    assert.deepEqual(retrained, [], 'no finished seed-run or stored answer was written again');
    for (const g of [1, 2]) {
      const answers = [...afterResume.keys()].filter((p) => p.includes(`/generations/${g}/proposal-`));
      assert.equal(answers.length, 1, `one proposer answer for generation ${g}`);
    }

    // A later search, killed once its first proposal is stored: a bare show passes over it and says so.
    await killWhen([...args, '--search-id', 'later'], async () =>
      (await readdir(join(dataDir, 'bucket', 'searches', 'later', 'generations', '1')).catch(() => [] as string[])).some((f) => f.startsWith('proposal-')));
    const bare = await show(['--data-dir', dataDir]);
    assert.equal(bare.report.searchId, SEARCH_ID);
    assert.equal(bare.report.status, 'finished');
    assert.match(bare.stderr, /^eureka: showing killed, the latest search that finished; later, started later, stopped: the process that ran it is gone/);
    assert.equal((await show(['later', '--data-dir', dataDir])).report.status, 'stopped');
  });

  it('stopped with Ctrl-C, says how to resume, exits 130 with nothing it started left running, and is stopped', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'eureka-interrupt-'));
    dirs.push(dataDir);
    const tiny = ['--smoke', '--generations', '1', '--candidates', '2', '--seeds', '1', '--fresh-seeds', '1', '--steps', '8192', '--no-hostile', '--data-dir', dataDir];
    const running = start(['search', ...tiny, '--search-id', 'interrupted']);
    try {
      // A log's line while a seed-run trains (not a terminal: a line a quarter of its updates), then Ctrl-C.
      await running.waitFor(/^ {2}\S+ seed 0: 25% of its [\d,]+ updates$/m);
      running.interrupt();
      // `done` resolves once every holder of the command's stdout and stderr has closed them: its workers too.
      const stopped = await running.done;
      assert.equal(stopped.code, 130, stopped.stderr);
      assert.match(stopped.stderr, new RegExp(`\\neureka: stopped; \`eureka search --resume interrupted --data-dir ${dataDir}\` continues it\\n$`));
    } finally {
      running.stop();
    }
    // Stopped as a kill stops it, so it resumes as the test above shows.
    assert.equal((await show(['interrupted', '--data-dir', dataDir])).report.status, 'stopped');
  });
});
