/**
 * A task of your own, in one folder (the README's "Add a task"): test/fixtures/tasks/point-goal
 * is found through EUREKA_TASK_PATH with nothing listed anywhere else, `eureka tasks` shows it,
 * the prompt shows its source, `eureka conformance` checks it against episodes recorded from its
 * Python original (point_goal.py, by tasks/record-gymnasium.py), and a smoke search runs on it end
 * to end. A broken folder is one clear message naming the folder and the field.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, describe, it } from 'node:test';

const CLI = new URL('../bin/eureka.js', import.meta.url).pathname;
const FIXTURES = new URL('./fixtures/tasks/', import.meta.url).pathname;

interface Ran { code: number; stdout: string; stderr: string }

async function eureka(args: string[], taskPath = FIXTURES): Promise<Ran> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], {
      env: { ...process.env, EUREKA_TASK_PATH: taskPath, ANTHROPIC_API_KEY: '' }, timeout: 10 * 60_000, maxBuffer: 1 << 24,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('Task of your own: PointGoal-v0 in one folder', () => {
  const dirs: string[] = [];
  after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('is listed by eureka tasks, from its folder', async () => {
    const ran = await eureka(['tasks', '--json']);
    assert.equal(ran.code, 0, ran.stderr);
    const task = (JSON.parse(ran.stdout).tasks as Array<{ id: string; folder: string; success: string }>).find((t) => t.id === 'PointGoal-v0');
    assert.ok(task, 'PointGoal-v0 is listed');
    assert.match(task.folder, /test\/fixtures\/tasks\/point-goal$/);
    assert.match(task.success, /within 0\.05 of x = 0\.6/);
  });

  it('matches the episodes recorded from its Python original', async () => {
    const ran = await eureka(['conformance', '--task', 'PointGoal-v0', join(FIXTURES, 'point-goal', 'recorded.json'), '--json']);
    assert.equal(ran.code, 0, ran.stderr);
    const report = JSON.parse(ran.stdout);
    assert.equal(report.ok, true);
    assert.equal(report.files[0].episodes, 6);
    assert.equal(report.files[0].flagMismatches, 0);
  });

  it('runs a smoke search end to end, whose card and prompt speak the task', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'eureka-own-task-'));
    dirs.push(dataDir);
    const ran = await eureka(['search', '--smoke', '--task', 'PointGoal-v0', '--seeds', '1', '--json', '--data-dir', dataDir, '--search-id', 'own']);
    assert.equal(ran.code, 0, ran.stderr);
    const { cardPath } = JSON.parse(ran.stdout) as { cardPath: string };
    const card = await readFile(cardPath, 'utf8');
    assert.ok(card.includes('Eureka reward search · PointGoal-v0'));
    assert.ok(card.includes('data-chart="point-goal-animation"'));
    const summary = JSON.parse(await readFile(join(dataDir, 'bucket', 'searches', 'own', 'winner', 'summary.json'), 'utf8'));
    assert.equal(summary.task, 'PointGoal-v0');
  });

  it('says which folder and which field are wrong when a task is broken', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'eureka-broken-task-'));
    dirs.push(dir);
    await mkdir(join(dir, 'broken'));
    // Outside this repository, a directory of task folders says its TypeScript is ES modules.
    await writeFile(join(dir, 'package.json'), '{"type":"module"}\n');
    const good = await readFile(join(FIXTURES, 'point-goal', 'task.ts'), 'utf8');
    const broken = good.replace(/\.\.\/\.\.\/\.\.\/\.\.\//g, `${new URL('..', import.meta.url).pathname}`)
      .replace("from './environment.ts'", `from '${join(FIXTURES, 'point-goal', 'environment.ts')}'`)
      .replace("id: 'PointGoal-v0'", "id: 'Broken-v0'").replace("tieBreak: 'fewer-steps'", "tieBreak: 'fastest'");
    await writeFile(join(dir, 'broken', 'task.ts'), broken);
    await writeFile(join(dir, 'broken', 'environment.ts'), '// the environment\n');
    const ran = await eureka(['tasks'], dir);
    assert.equal(ran.code, 1);
    assert.match(ran.stderr, new RegExp(`task folder ${join(dir, 'broken')}: tieBreak: .*fewer-steps.*higher-return`));
  });
});
