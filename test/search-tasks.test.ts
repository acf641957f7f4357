/**
 * Offline smoke searches of two other tasks end to end through the CLI and the local runtime (the
 * same state machine as AWS): CartPole-v1 (discrete) and Pendulum-v1 (continuous). Short seed-runs
 * keep CI quick; what is checked is that every part speaks the task: the records, the seed
 * results, the card, summary.json and the event.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, describe, it } from 'node:test';
import { getTask } from '../tasks/registry.ts';
import { withLocalStore } from '../local/runtime.ts';

const run = promisify(execFile);
const CLI = new URL('../bin/eureka.js', import.meta.url).pathname;

for (const id of ['CartPole-v1', 'Pendulum-v1']) {
  const task = getTask(id);
  describe(`Search: an offline smoke search of ${id}`, () => {
    const searchId = `smoke-${task.folder}`;
    let dataDir = '';
    let output: { searchId: string; winner: { candidateId: string; freshSuccess: number }; cardPath: string };
    after(() => rm(dataDir, { recursive: true, force: true }));

    it('runs end to end and prints the winner', async () => {
      dataDir = await mkdtemp(join(tmpdir(), `eureka-${task.folder}-`));
      const { stdout } = await run(process.execPath, [CLI, 'search', '--smoke', '--task', id, '--seeds', '1', '--steps', '8192', '--json',
        '--data-dir', dataDir, '--search-id', searchId], { timeout: 10 * 60_000, maxBuffer: 1 << 24, env: { ...process.env, ANTHROPIC_API_KEY: '' } });
      output = JSON.parse(stdout);
      assert.equal(output.searchId, searchId);
      assert.ok(output.winner.candidateId.length > 0);
    });

    it('records the task in the search, its seed-runs and its summary.json, in the task\'s words', async () => {
      await withLocalStore(dataDir, async (store) => {
        const meta = await store.meta(searchId);
        assert.equal(meta.config.task, id);
        assert.equal(meta.status, 'finished');
        const [first] = await store.candidates(searchId, 1);
        const terms = Object.keys(first.terms);
        assert.ok(terms.some((t) => task.features.some((f) => t.startsWith(f.name))), `terms of ${id}'s features: ${terms.join(', ')}`);
      });
      const bucket = join(dataDir, 'bucket', 'searches', searchId);
      const summary = JSON.parse(await readFile(join(bucket, 'winner', 'summary.json'), 'utf8'));
      assert.equal(summary.schema, 'eureka-serverless/summary@5');
      assert.equal(summary.task, id);
      assert.equal(summary.winner.freshSuccess, output.winner.freshSuccess);
      const result = JSON.parse(await readFile(join(bucket, 'generations', '0', 'candidates', 'environment_reward', 'seeds', '0', 'result.json'), 'utf8'));
      assert.equal(result.task, id);
      assert.equal(result.outcome, 'trained');
      assert.equal(result.episode.observations[0].length, task.obsSize);
      if (task.action.kind === 'box') assert.ok(result.episode.actions.every((a: unknown) => Array.isArray(a) && a.length === task.actionSize));
    });

    it('publishes a card that speaks the task, with its own animation', async () => {
      const html = await readFile(output.cardPath, 'utf8');
      assert.ok(html.includes(`Eureka reward search · ${id}`));
      assert.ok(html.includes(task.success.clause.replace(/'/g, '&#39;')));
      assert.ok(html.includes(`data-chart="${task.folder}-animation"`), `the ${task.folder} animation`);
      assert.doesNotMatch(html, /the flag|car-animation/);
      const events = (await readFile(join(dataDir, 'events.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
      assert.ok(events.some((e) => e.DetailType === 'Reward search finished'));
    });
  });
}
