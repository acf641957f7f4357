/**
 * A task of your own, in one folder (docs/your-own-task.md): examples/tasks/point-goal is found
 * through EUREKA_TASK_PATH with nothing listed anywhere else, `eureka tasks` shows it, `eureka
 * conformance` checks it against episodes recorded from its Python original (point_goal.py, by
 * tasks/record-gymnasium.py), and its person's shaping learns at its default budget (a copy of it
 * anywhere on disk runs a smoke search: test/new-task.test.ts). A broken folder is skipped with one line naming the folder and the field,
 * and the commands that need other tasks go on. A folder's code runs with the command's full
 * rights, in every command that loads the tasks (docs/cli.md).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { after, describe, it } from 'node:test';
import pointGoal from '../examples/tasks/point-goal/task.ts';

const CLI = new URL('../bin/eureka.js', import.meta.url).pathname;
const EXAMPLES = new URL('../examples/tasks/', import.meta.url).pathname;

interface Ran { code: number; stdout: string; stderr: string }

async function eureka(args: string[], taskPath = EXAMPLES): Promise<Ran> {
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

/** A copy of the example as `dir/folder`, its task.ts edited by `edit`, its environment.ts as it is. */
async function pointGoalAs(dir: string, folder: string, edit: (taskTs: string) => string): Promise<void> {
  await mkdir(join(dir, folder));
  await writeFile(join(dir, folder, 'task.ts'), edit(await readFile(join(EXAMPLES, 'point-goal', 'task.ts'), 'utf8')));
  await copyFile(join(EXAMPLES, 'point-goal', 'environment.ts'), join(dir, folder, 'environment.ts'));
}

describe('Task of your own: PointGoal-v0 in one folder', () => {
  const dirs: string[] = [];
  after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('is listed by eureka tasks, from its folder', async () => {
    const ran = await eureka(['tasks', '--json']);
    assert.equal(ran.code, 0, ran.stderr);
    const task = (JSON.parse(ran.stdout).tasks as Array<{ id: string; folder: string; success: string }>).find((t) => t.id === 'PointGoal-v0');
    assert.ok(task, 'PointGoal-v0 is listed');
    assert.match(task.folder, /examples\/tasks\/point-goal$/);
    assert.match(task.success, /within 0\.05 of x = 0\.6/);
  });

  it('matches the episodes recorded from its Python original', async () => {
    const ran = await eureka(['conformance', '--task', 'PointGoal-v0', join(EXAMPLES, 'point-goal', 'recorded.json'), '--json']);
    assert.equal(ran.code, 0, ran.stderr);
    const report = JSON.parse(ran.stdout);
    assert.equal(report.ok, true);
    assert.equal(report.files[0].episodes, 6);
    assert.equal(report.files[0].flagMismatches, 0);
  });

  it('learns with the person\'s shaping at its default budget, and its bank holds that shaping\'s successes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'eureka-own-task-human-'));
    dirs.push(dir);
    const reward = join(dir, 'human.js');
    await writeFile(reward, pointGoal.baselines.human.code);
    // Seed 0 is one of the bank's (eureka bank trains seeds 0-2); the budget was chosen on seeds 3-7 (docs/your-own-task.md).
    const ran = await eureka(['train', '--task', 'PointGoal-v0', '--reward', reward, '--seed', '0', '--json']);
    assert.equal(ran.code, 0, ran.stderr);
    const result = JSON.parse(ran.stdout) as { steps: number; success: number };
    assert.equal(result.steps, pointGoal.budget.steps);
    assert.ok(result.success >= 0.9, `the person's shaping reached ${result.success}`);
    const bank = JSON.parse(gunzipSync(await readFile(join(EXAMPLES, 'point-goal', 'bank.json.gz'))).toString('utf8')) as {
      task: string; made: { human: { steps: number } }; episodes: Array<{ policy: string; kind: string }>;
    };
    assert.equal(bank.task, 'PointGoal-v0');
    assert.equal(bank.made.human.steps, pointGoal.budget.steps, 'the bank was made at the task\'s budget');
    assert.ok(bank.episodes.filter((e) => e.policy === 'human' && e.kind === 'success').length >= 8);
  });

  it('skips a broken folder with one line naming the folder and the field, and runs the tasks that are fine', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'eureka-broken-task-'));
    dirs.push(dir);
    // Outside this repository, a folder says its TypeScript is ES modules (eureka new-task writes it).
    await writeFile(join(dir, 'package.json'), '{"type":"module"}\n');
    await pointGoalAs(dir, 'broken', (task) => task.replace("id: 'PointGoal-v0'", "id: 'Broken-v0'").replace('  progress: {', '  diagnostic: {'));
    // A copy of the example under its own id: the first folder on the path with the id keeps it.
    await mkdir(join(dir, 'twin'));
    for (const file of ['task.ts', 'environment.ts']) await copyFile(join(EXAMPLES, 'point-goal', file), join(dir, 'twin', file));
    const taskPath = `${EXAMPLES}:${dir}`;
    // A folder written before progress (it declares the old diagnostic): both fields are named.
    const skipped = new RegExp(`^eureka: skipped task folder ${join(dir, 'broken')}: progress: must say how far an episode got.*; diagnostic: is now progress.*\n` +
      `eureka: skipped task folder ${join(dir, 'twin')}: id: PointGoal-v0 is already the id of ${join(EXAMPLES, 'point-goal')}\n$`);

    const tasks = await eureka(['tasks'], taskPath);
    assert.equal(tasks.code, 0, tasks.stderr);
    assert.match(tasks.stderr, skipped);
    assert.match(tasks.stdout, /^PointGoal-v0 /m);
    assert.match(tasks.stdout, /^MountainCar-v0 /m);

    const estimate = await eureka(['search', '--task', 'MountainCar-v0', '--estimate', '--json'], taskPath);
    assert.equal(estimate.code, 0, estimate.stderr);
    assert.match(estimate.stderr, skipped);
    assert.ok(JSON.parse(estimate.stdout), 'the estimate, as one JSON object');

    const asked = await eureka(['train', '--task', 'Broken-v0', '--reward', 'examples/energy.js'], taskPath);
    assert.equal(asked.code, 2);
    assert.match(asked.stderr, new RegExp(`unknown task "Broken-v0": .*\\(skipped on EUREKA_TASK_PATH: ${join(dir, 'broken')}, ${join(dir, 'twin')}\\)`));
  });

  it('says which EUREKA_TASK_PATH entries yield no task folder, and why, and still runs', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'eureka-path-entries-'));
    dirs.push(dir);
    const taskFolder = join(EXAMPLES, 'point-goal');
    const ran = await eureka(['tasks'], [taskFolder, join(dir, 'missing'), dir, EXAMPLES].join(':'));
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(ran.stderr,
      `eureka: EUREKA_TASK_PATH entry ${taskFolder}: this is a task folder (it holds task.ts): name the directory that holds it, ${dirname(taskFolder)}\n` +
      `eureka: EUREKA_TASK_PATH entry ${join(dir, 'missing')}: no such directory\n` +
      `eureka: EUREKA_TASK_PATH entry ${dir}: holds no task folder (a directory with a task.ts)\n`);
    assert.match(ran.stdout, /^PointGoal-v0 /m, 'the entry that names a directory of task folders still counts');
  });

  it('says what a folder\'s success test throws as that folder\'s, not as a bare message', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'eureka-throwing-task-'));
    dirs.push(dir);
    await writeFile(join(dir, 'package.json'), '{"type":"module"}\n');
    await pointGoalAs(dir, 'thrower', (task) => {
      const throwing = task.replace("id: 'PointGoal-v0'", "id: 'Thrower-v0'").replace('test: (episode) => episode.terminated,', "test: () => { throw new Error('oops in my test'); },");
      assert.notEqual(throwing, task);
      return throwing;
    });
    const ran = await eureka(['train', '--task', 'Thrower-v0', '--baseline', 'human', '--steps', '2048', '--eval-episodes', '1'], dir);
    assert.equal(ran.code, 1, ran.stderr);
    assert.equal(ran.stderr, `eureka: task folder ${join(dir, 'thrower')}: its success test threw: oops in my test\n`);

    // A search says it too, as the task's fault and not every reward's.
    const data = join(dir, 'data');
    const searched = await eureka(['search', '--task', 'Thrower-v0', '--generations', '1', '--candidates', '1', '--seeds', '1', '--steps', '2048', '--eval-episodes', '1', '--no-hostile', '--data-dir', data, '--search-id', 'thrown'], dir);
    assert.equal(searched.code, 6, searched.stderr);
    assert.match(searched.stderr, new RegExp(`^eureka: no winner: no candidate trained: 1 failed its sandbox check; the task's own code failed, not the reward: task folder ${join(dir, 'thrower')}: its success test threw: oops in my test$`, 'm'));
    // The baselines' seed-runs, which no check precedes, say it as theirs too.
    const shown = await eureka(['show', 'thrown', '--data-dir', data], dir);
    assert.match(shown.stdout, /the task's own code failed, not the reward: task folder .*: its success test threw: oops in my test/);
  });

  // A test without its `return` would grade every episode a failure, a progress of NaN rank a search on NaN: both silently.
  for (const [what, folder, from, to, said] of [
    ['a success test that returns nothing', 'forgetful', 'test: (episode) => episode.terminated,', 'test: (episode) => { episode.terminated; },', 'its success test returned undefined, not true or false'],
    ['a progress of NaN', 'notanumber', 'return -closest;', 'return -closest * Number.NaN;', 'its progress returned NaN, not a finite number'],
  ]) {
    it(`says, as that folder's, that ${what} is wrong, rather than grading with it`, async () => {
      const dir = await mkdtemp(join(tmpdir(), `eureka-${folder}-task-`));
      dirs.push(dir);
      await writeFile(join(dir, 'package.json'), '{"type":"module"}\n');
      await pointGoalAs(dir, folder, (task) => {
        const wrong = task.replace("id: 'PointGoal-v0'", "id: 'Wrong-v0'").replace(from, to);
        assert.ok(wrong.includes(to), `the example's task.ts no longer has ${from}`);
        return wrong;
      });
      const ran = await eureka(['train', '--task', 'Wrong-v0', '--baseline', 'human', '--steps', '2048', '--eval-episodes', '1'], dir);
      assert.equal(ran.code, 1, ran.stderr);
      assert.equal(ran.stderr, `eureka: task folder ${join(dir, folder)}: ${said}\n`);
      // The check says it too, with a stored bank (the example's, under this id), whose kinds the screen reads without calling the test.
      const bank = JSON.parse(gunzipSync(await readFile(join(EXAMPLES, 'point-goal', 'bank.json.gz'))).toString('utf8')) as { task: string };
      await writeFile(join(dir, folder, 'bank.json.gz'), gzipSync(JSON.stringify({ ...bank, task: 'Wrong-v0' })));
      await writeFile(join(dir, 'zero.js'), 'function computeReward() { return [0, {}]; }\n');
      const checked = await eureka(['check-reward', join(dir, 'zero.js'), '--task', 'Wrong-v0'], dir);
      assert.equal(checked.code, 1, checked.stderr);
      assert.equal(checked.stderr, `eureka: task folder ${join(dir, folder)}: ${said}\n`);
    });
  }

  it('skips a folder whose TypeScript would load as CommonJS, and says why', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'eureka-cjs-task-'));
    dirs.push(dir);
    await mkdir(join(dir, 'point-goal'));
    for (const file of ['task.ts', 'environment.ts']) await copyFile(join(EXAMPLES, 'point-goal', file), join(dir, 'point-goal', file));
    const ran = await eureka(['tasks', '--json'], dir);
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stderr, /^eureka: skipped task folder .*point-goal: no package\.json with "type": "module" .*\n$/);
    assert.equal(JSON.parse(ran.stdout).tasks.some((t: { id: string }) => t.id === 'PointGoal-v0'), false);
  });

  it('runs a folder\'s own code, unsandboxed, in every command that loads the tasks: even tasks and show (docs/cli.md says so)', async () => {
    // A task folder whose task.ts, once imported, writes a line of its own beside itself.
    const dir = await mkdtemp(join(tmpdir(), 'eureka-trusted-task-'));
    dirs.push(dir);
    await writeFile(join(dir, 'package.json'), '{"type":"module"}\n');
    await mkdir(join(dir, 'marked'));
    await copyFile(join(EXAMPLES, 'point-goal', 'environment.ts'), join(dir, 'marked', 'environment.ts'));
    const task = (await readFile(join(EXAMPLES, 'point-goal', 'task.ts'), 'utf8')).replace("id: 'PointGoal-v0'", "id: 'Marked-v0'");
    await writeFile(join(dir, 'marked', 'task.ts'), `${task}\nimport { appendFileSync } from 'node:fs';\nappendFileSync(new URL('./ran.log', import.meta.url), process.argv[2] + '\\n');\n`);
    const listed = await eureka(['tasks', '--json'], dir);
    assert.equal(listed.code, 0, listed.stderr);
    const shown = await eureka(['show', 'no-such-search', '--data-dir', dir], dir);
    assert.equal(shown.code, 2, shown.stderr);
    assert.equal(await readFile(join(dir, 'marked', 'ran.log'), 'utf8'), 'tasks\nshow\n');
  });
});
