/**
 * Offline smoke searches of InvertedDoublePendulum-v5, Reacher-v5 and Ant-v5 end to end through
 * the CLI and the local runtime (the same state machine as AWS), at tiny budgets: one candidate, one
 * seed, 2,048 steps a seed-run, graded on 2 episodes (`--eval-episodes`: grading the task's 20, of up
 * to 1,000 steps each, was most of Ant's two minutes). The loop runs, nothing learns; every part
 * speaks the task, the offline proposer's terms come from the task's named features, and the card
 * draws the robot.
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

/** A geom of each robot's model the card must draw. */
const GEOM: Record<string, string> = { 'InvertedDoublePendulum-v5': 'cpole2', 'Reacher-v5': 'fingertip', 'Ant-v5': 'torso_geom' };

for (const id of Object.keys(GEOM)) {
  const task = getTask(id);
  describe(`Search: an offline smoke search of ${id}`, () => {
    const searchId = `smoke-${task.folder}`;
    let dataDir = '';
    after(() => rm(dataDir, { recursive: true, force: true }));

    it('runs end to end, records the task\'s terms and publishes a card that draws the robot', async () => {
      dataDir = await mkdtemp(join(tmpdir(), `eureka-${task.folder}-`));
      const { stdout } = await run(process.execPath, [CLI, 'search', '--smoke', '--task', id, '--generations', '1', '--candidates', '1', '--seeds', '1',
        '--fresh-seeds', '1', '--steps', '2048', '--eval-episodes', '2', '--no-hostile', '--json',
        '--data-dir', dataDir, '--search-id', searchId], { timeout: 10 * 60_000, maxBuffer: 1 << 24, env: { ...process.env, ANTHROPIC_API_KEY: '' } });
      const output = JSON.parse(stdout) as { searchId: string; winner: { candidateId: string }; cardPath: string };
      assert.equal(output.searchId, searchId);
      await withLocalStore(dataDir, async (store) => {
        const meta = await store.meta(searchId);
        assert.deepEqual([meta.config.task, meta.status], [id, 'finished']);
        const [first] = await store.candidates(searchId, 1);
        const terms = Object.keys(first.terms);
        assert.ok(terms.some((t) => task.features.some((f) => t.startsWith(f.name))), `terms of ${id}'s features: ${terms.join(', ')}`);
      });
      const result = JSON.parse(await readFile(join(dataDir, 'bucket', 'searches', searchId, 'generations', '0', 'candidates', 'environment_reward', 'seeds', '0', 'result.json'), 'utf8'));
      assert.deepEqual([result.task, result.outcome], [id, 'trained']);
      assert.equal(result.episodes.evaluation.episodes, 2, 'graded on the episodes --eval-episodes asked for');
      assert.equal(result.episode.observations[0].length, task.obsSize);
      const html = await readFile(output.cardPath, 'utf8');
      assert.ok(html.includes(`Eureka reward search · ${id}`));
      assert.match(html, /data-chart="[a-z-]+-animation"/);
      assert.ok(html.includes(`<title>${GEOM[id]}</title>`), `the card draws ${id}'s ${GEOM[id]}`);
    });
  });
}
