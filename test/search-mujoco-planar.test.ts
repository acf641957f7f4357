/**
 * An offline search of each planar MuJoCo task (Walker2d-v5, HalfCheetah-v5, Swimmer-v5) end to end
 * through the CLI and the local runtime (the same state machine as AWS), at a tiny budget so that
 * CI stays short: one generation of one candidate, one seed, one 2,048-step update per seed-run,
 * graded on 2 episodes (`--eval-episodes`; the task's 20 of 1,000 steps were most of the time). What
 * is checked is that every part speaks the task: the seed results, summary.json and the card with
 * the robot's own animation. `eureka search --smoke` at the task's smoke budget is in docs/mujoco.md.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, describe, it } from 'node:test';
import { getTask } from '../tasks/registry.ts';

const run = promisify(execFile);
const CLI = new URL('../bin/eureka.js', import.meta.url).pathname;
const ANIMATION: Record<string, string> = { 'Walker2d-v5': 'walker', 'HalfCheetah-v5': 'cheetah', 'Swimmer-v5': 'swimmer' };

describe('Search: a tiny offline search of each planar MuJoCo task', () => {
  const dirs: string[] = [];
  after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  for (const id of Object.keys(ANIMATION)) {
    it(`${id}: runs end to end, stores the task's seed results and publishes a card that draws the robot`, async () => {
      const task = getTask(id);
      const dataDir = await mkdtemp(join(tmpdir(), `eureka-${task.folder}-`));
      dirs.push(dataDir);
      const searchId = `tiny-${task.folder}`;
      const { stdout } = await run(process.execPath, [CLI, 'search', '--smoke', '--task', id, '--generations', '1', '--candidates', '1', '--seeds', '1',
        '--fresh-seeds', '1', '--steps', '2048', '--eval-episodes', '2', '--no-hostile', '--json', '--data-dir', dataDir, '--search-id', searchId],
      { timeout: 10 * 60_000, maxBuffer: 1 << 24, env: { ...process.env, ANTHROPIC_API_KEY: '' } });
      const output = JSON.parse(stdout) as { winner: { candidateId: string }; cardPath: string };
      assert.ok(output.winner.candidateId.length > 0);
      const bucket = join(dataDir, 'bucket', 'searches', searchId);
      const summary = JSON.parse(await readFile(join(bucket, 'winner', 'summary.json'), 'utf8'));
      assert.equal(summary.task, id);
      const result = JSON.parse(await readFile(join(bucket, 'generations', '0', 'candidates', 'environment_reward', 'seeds', '0', 'result.json'), 'utf8'));
      assert.deepEqual([result.task, result.outcome], [id, 'trained']);
      assert.equal(result.episodes.evaluation.episodes, 2, 'graded on the episodes --eval-episodes asked for');
      assert.equal(result.episode.observations[0].length, task.obsSize);
      assert.ok(result.episode.actions.every((a: unknown) => Array.isArray(a) && a.length === task.actionSize));
      const html = await readFile(output.cardPath, 'utf8');
      assert.ok(html.includes(`Eureka reward search · ${id}`));
      assert.ok(html.includes(`data-chart="${ANIMATION[id]}-animation"`), `the ${ANIMATION[id]} animation`);
      assert.match(html, id === 'Swimmer-v5' ? /seen from above/ : /seen from the side/);
    });
  }
});
