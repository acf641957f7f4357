/**
 * A behaviour kept outside the repository (examples/behaviours/hopper-backward, copied to a folder
 * of its own with its package.json, on EUREKA_TASK_PATH): it imports the builder and the robot from
 * `eureka-serverless/task` and works as the in-repo behaviours do: listed with the robot's recorded
 * state and its progress in words, its first try checked in the sandbox and trained in a graded
 * seed-run, with its progress measured.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';

const CLI = new URL('../bin/eureka.js', import.meta.url).pathname;
const EXAMPLE = new URL('../examples/behaviours/hopper-backward/', import.meta.url).pathname;

interface Ran { code: number; stdout: string; stderr: string }

describe('Behaviour of your own: Hopper-Backward-v0 outside the repository', () => {
  let dir = '';
  const eureka = async (args: string[]): Promise<Ran> => {
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], {
        env: { ...process.env, EUREKA_TASK_PATH: dir, ANTHROPIC_API_KEY: '' }, timeout: 5 * 60_000, maxBuffer: 1 << 24,
      });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'eureka-behaviours-'));
    await cp(EXAMPLE, join(dir, 'hopper-backward'), { recursive: true });
    await writeFile(join(dir, 'package.json'), '{"type":"module"}\n');
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('is listed with Hopper\'s observation and recorded state, its overridden time limit and its progress in words', async () => {
    const ran = await eureka(['tasks', '--json']);
    assert.equal(ran.code, 0, ran.stderr);
    const task = (JSON.parse(ran.stdout).tasks as Array<{ id: string; folder: string; maxEpisodeSteps: number; observation: unknown[]; recorded: string[]; progress: string }>)
      .find((t) => t.id === 'Hopper-Backward-v0');
    assert.ok(task, ran.stdout.slice(0, 300));
    assert.equal(resolve(task.folder), join(dir, 'hopper-backward'));
    assert.equal(task.maxEpisodeSteps, 500);
    assert.equal(task.observation.length, 11);
    assert.match(task.recorded[0], /^torso x/);
    assert.match(task.progress, /metres the torso moved backwards/);
  });

  it('trains its first try in a graded seed-run and measures its progress', async () => {
    const reward = join(dir, 'hopper-backward', 'first-try.js');
    const saved = join(dir, 'policy');
    const ran = await eureka(['train', '--reward', reward, '--task', 'Hopper-Backward-v0', '--steps', '4096', '--eval-episodes', '2', '--save-policy', saved, '--json']);
    assert.equal(ran.code, 0, ran.stderr);
    const result = JSON.parse(ran.stdout) as { outcome: string; progress: number | null; terms: Record<string, unknown>; episode: { recorded?: number[][] } };
    assert.equal(result.outcome, 'trained');
    assert.equal(typeof result.progress, 'number');
    assert.deepEqual(Object.keys(result.terms).sort(), ['alive', 'backward', 'ctrl'], 'the reward read the recorded state (its backward term)');
    assert.equal(result.episode.recorded?.[0].length, 3, 'the card\'s episode carries the recorded state');
    // --save-policy keeps the trained policy as a search publishes one (what eureka bank --add-policy reads).
    assert.ok(JSON.parse(await readFile(join(saved, 'model.json'), 'utf8')).modelTopology);
    assert.ok((await readFile(join(saved, 'weights.bin'))).length > 0);
  });

  it('fails tasks --strict when its overrides name a body the robot does not have, which loading alone does not read', async () => {
    const folder = join(dir, 'hopper-trunk');
    await cp(EXAMPLE, folder, { recursive: true });
    const task = (await readFile(join(folder, 'task.ts'), 'utf8')).replace("'Hopper-Backward-v0'", "'Hopper-Trunk-v0'")
      .replace('overrides: { maxEpisodeSteps: MAX_EPISODE_STEPS },', "overrides: { maxEpisodeSteps: MAX_EPISODE_STEPS, termination: { healthy: [{ value: { body: 'trunk', of: 'z' }, min: 0.7 }] } },");
    assert.ok(task.includes("body: 'trunk'") && task.includes('Hopper-Trunk-v0'), 'the example\'s task.ts changed');
    await writeFile(join(folder, 'task.ts'), task);
    try {
      const listed = await eureka(['tasks']);
      assert.equal(listed.code, 0, listed.stderr);
      const strict = await eureka(['tasks', '--strict']);
      assert.equal(strict.code, 1, strict.stderr);
      assert.equal(strict.stderr, `eureka: task Hopper-Trunk-v0 (${folder}) does not step: overrides.termination.healthy[0].value: the model has no body named "trunk" (its bodies: world, torso, thigh, leg, foot)\n`);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
