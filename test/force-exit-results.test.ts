/**
 * `npm test` runs each file with `--test-force-exit`, which on Linux can drop a file's last results
 * (node#64833: the forced exit quits with them still in the pipe, and the runner counts fewer tests,
 * exit 0). test/support/blocking-stdout.ts prevents it; this runs a file of 2,000 empty tests five
 * times under `npm test`'s own flags and preloads, and counts every test each time. Without the
 * preload, 5 of 12 such runs lost 11-31 tests on the 2-core machine.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

const ROOT = new URL('..', import.meta.url).pathname;
const TESTS = 2000;

/** The flags of package.json's test script, without its file list. */
function npmTestFlags(): string[] {
  const script = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { test: string } }).scripts.test;
  const words = script.split(/\s+/);
  assert.equal(words[0], 'node');
  return words.slice(1).filter((w) => !w.endsWith('.test.ts')).map((w) => (w.startsWith('./') ? join(ROOT, w) : w));
}

describe('npm test: every result of a file reaches the runner under --test-force-exit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'force-exit-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it(`counts all ${TESTS} tests of a file in each of five runs`, () => {
    const file = join(dir, 'many.test.cjs');
    writeFileSync(file, ["const { test } = require('node:test');", ...Array.from({ length: TESTS }, (_, i) => `test('t${i}', () => {});`)].join('\n'));
    const flags = npmTestFlags();
    assert.ok(flags.includes('--test-force-exit'), 'the flag this guards against is in npm test');
    // Without NODE_TEST_CONTEXT the inner runner reports as `npm test` does, not to this one.
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    for (let run = 1; run <= 5; run++) {
      const out = execFileSync(process.execPath, [...flags, '--test-reporter=tap', file], { cwd: ROOT, encoding: 'utf8', env, maxBuffer: 1 << 26 });
      assert.match(out, new RegExp(`^# tests ${TESTS}$`, 'm'), `run ${run}: ${out.match(/^# tests \d+$/m)?.[0]}`);
    }
  });
});
