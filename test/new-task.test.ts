/**
 * `eureka new-task NAME --dir D` as a newcomer meets it: a folder outside this repository that
 * imports only `eureka-serverless/task`, passes `eureka conformance` and runs a smoke search as it
 * stands with D on EUREKA_TASK_PATH, and a message that says what to fill in. With `--xml FILE`, a
 * robot declared from its MJCF file, listed with the XML's joints and actuators, whose smoke search
 * ends with a card. Bad usage exits 2.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TASK_ID_RULE, TaskSpecSchema } from '../tasks/spec-schema.ts';
import { planarXml } from './support/declared-robots.ts';
import { eureka } from './support/eureka-cli.ts';

/** A Menagerie-style model: scene.xml includes crawler.xml, whose chassis is an OBJ mesh in assets/. */
const CRAWLER = fileURLToPath(new URL('../examples/models/crawler/scene.xml', import.meta.url));


/** Every file under a folder, by its relative path. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name))).sort();
}

describe('CLI: eureka new-task', () => {
  const dirs: string[] = [];
  after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
  const tempDir = async (prefix: string) => {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  /** `eureka new-task ID --xml` on the planar robot with these actuators, in a task path of its own. */
  const newPlanarTask = async (id: string, actuators: string) => {
    const models = await tempDir('eureka-new-planar-model-');
    await writeFile(join(models, 'robot.xml'), planarXml(actuators));
    const taskPath = await tempDir('eureka-new-planar-');
    return { ran: await eureka(['new-task', id, '--xml', join(models, 'robot.xml'), '--dir', taskPath]), taskPath };
  };

  it('writes a task folder that passes conformance and runs a smoke search as it stands', async () => {
    const taskPath = await tempDir('eureka-new-task-');
    const made = await eureka(['new-task', 'my-task', '--dir', taskPath]);
    assert.equal(made.code, 0, made.stderr);
    const folder = join(taskPath, 'my-task');
    assert.deepEqual((await readdir(folder)).sort(), ['environment.ts', 'package.json', 'point_goal.py', 'recorded.json', 'task.ts', 'tsconfig.json']);
    assert.match(made.stdout, new RegExp(`export EUREKA_TASK_PATH=${taskPath}\n`));
    assert.match(made.stdout, /To make it yours, fill in:\n {2}1\. environment\.ts: .*\n[\s\S]*docs\/your-own-task\.md/);
    const task = await readFile(join(folder, 'task.ts'), 'utf8');
    assert.match(task, /id: 'my-task'/);
    assert.deepEqual([...task.matchAll(/from '([^']+)'/g)].map((m) => m[1]), ['eureka-serverless/task', './environment.ts']);

    const env = { EUREKA_TASK_PATH: taskPath, ANTHROPIC_API_KEY: '' };
    const conformance = await eureka(['conformance', '--task', 'my-task', join(folder, 'recorded.json')], env);
    assert.equal(conformance.code, 0, conformance.stdout + conformance.stderr);
    assert.match(conformance.stdout, /my-task: within tolerance/);

    const dataDir = await tempDir('eureka-new-task-data-');
    const search = await eureka(['search', '--task', 'my-task', '--smoke', '--seeds', '1', '--json', '--data-dir', dataDir, '--search-id', 'mine'], env);
    assert.equal(search.code, 0, search.stderr);
    assert.equal(search.stderr.includes('skipped task folder'), false, search.stderr);
    const { cardPath } = JSON.parse(search.stdout) as { cardPath: string };
    const card = await readFile(cardPath, 'utf8');
    assert.ok(card.includes('Eureka reward search · my-task'));
    assert.ok(card.includes('data-chart="point-goal-animation"'), 'the card draws with the task\'s own renderer');
    const summary = JSON.parse(await readFile(join(dataDir, 'bucket', 'searches', 'mine', 'winner', 'summary.json'), 'utf8'));
    assert.equal(summary.task, 'my-task');
  });

  it('points the editor\'s tsconfig at plain file paths that exist, in a checkout whose path has a space', async () => {
    // Prepare: what the template reads, copied into ".../with space/checkout" (a copy, not a link:
    // a module's URL is its real path); the types folder linked, as it only has to be there.
    const checkout = join(await tempDir('eureka-new-task-space-'), 'with space', 'checkout');
    const repo = fileURLToPath(new URL('..', import.meta.url));
    for (const part of ['local/task-template.ts', 'tasks/task-entry.ts', 'examples/tasks/point-goal']) await cp(join(repo, part), join(checkout, part), { recursive: true });
    await mkdir(join(checkout, 'node_modules'));
    await symlink(join(repo, 'node_modules', '@types'), join(checkout, 'node_modules', '@types'));
    const template = (await import(pathToFileURL(join(checkout, 'local', 'task-template.ts')).href)) as typeof import('../local/task-template.ts');

    // Act
    const folder = join(checkout, '..', 'my tasks', 'Spaced-v0');
    await template.writeTaskFolder(folder, 'Spaced-v0');

    // Assess
    const { compilerOptions } = JSON.parse(await readFile(join(folder, 'tsconfig.json'), 'utf8')) as { compilerOptions: { paths: Record<string, string[]>; typeRoots: string[] } };
    assert.deepEqual(compilerOptions.paths['eureka-serverless/task'], [join(checkout, 'tasks', 'task-entry.ts')]);
    assert.deepEqual(compilerOptions.typeRoots, [join(checkout, 'node_modules', '@types') + '/']);
    for (const path of [...compilerOptions.paths['eureka-serverless/task'], ...compilerOptions.typeRoots]) assert.ok(existsSync(path), `${path} exists`);
  });

  it('declares a robot from a Menagerie-style XML (an include, a mesh): listed with its joints and actuators, a smoke search ends with a card', async () => {
    const taskPath = await tempDir('eureka-new-robot-');
    const made = await eureka(['new-task', 'MyBot-v0', '--xml', CRAWLER, '--dir', taskPath]);
    assert.equal(made.code, 0, made.stderr);
    const folder = join(taskPath, 'MyBot-v0');
    assert.deepEqual(await filesUnder(folder), ['model/assets/chassis.obj', 'model/crawler.xml', 'model/scene.xml', 'package.json', 'task.ts', 'tsconfig.json']);
    assert.match(made.stdout, new RegExp(`export EUREKA_TASK_PATH=${taskPath}\n`));
    const task = await readFile(join(folder, 'task.ts'), 'utf8');
    assert.deepEqual([...task.matchAll(/from '([^']+)'/g)].map((m) => m[1]), ['eureka-serverless/task']);
    assert.match(task, /xml: new URL\('\.\/model\/scene\.xml', import\.meta\.url\)/);
    assert.ok((task.match(/PLACEHOLDER/g) ?? []).length >= 8, 'the placeholders are marked');

    const env = { EUREKA_TASK_PATH: taskPath, ANTHROPIC_API_KEY: '' };
    const listed = await eureka(['tasks', '--json'], env);
    assert.equal(listed.code, 0, listed.stderr);
    const mine = (JSON.parse(listed.stdout) as { tasks: Array<{ id: string; observation: Array<{ name: string }>; action: { names: string[] } }> }).tasks.find((t) => t.id === 'MyBot-v0');
    assert.ok(mine, listed.stderr);
    const names = mine.observation.map((o) => o.name);
    for (const joint of ['front_hip', 'rear_hip']) {
      assert.ok(names.includes(`joint ${joint} position (rad)`) && names.includes(`joint ${joint} velocity (rad/s)`), names.join(', '));
    }
    assert.ok(names.includes('body chassis z (m)'), 'the unnamed free joint, as its body');
    assert.deepEqual(mine.action.names, ['front_hip (position)', 'rear_hip (position)']);

    const dataDir = await tempDir('eureka-new-robot-data-');
    const search = await eureka(['search', '--task', 'MyBot-v0', '--smoke', '--seeds', '1', '--json', '--data-dir', dataDir, '--search-id', 'bot'], env);
    assert.equal(search.code, 0, search.stderr);
    const card = await readFile((JSON.parse(search.stdout) as { cardPath: string }).cardPath, 'utf8');
    assert.ok(card.includes('Eureka reward search · MyBot-v0'));
    assert.ok(card.includes('data-chart="robot-animation"'), 'the robot drawn from its own geometry');
  });

  it('references the XML where it is with --in-place, and refuses an XML that is not there or MuJoCo does not compile', async () => {
    const models = await tempDir('eureka-new-robot-models-');
    await cp(dirname(CRAWLER), join(models, 'crawler'), { recursive: true });
    const taskPath = await tempDir('eureka-new-robot-in-place-');
    const made = await eureka(['new-task', 'InPlace-v0', '--xml', join(models, 'crawler', 'scene.xml'), '--dir', taskPath, '--in-place', '--json']);
    assert.equal(made.code, 0, made.stderr);
    assert.deepEqual(JSON.parse(made.stdout).files, ['task.ts', 'package.json', 'tsconfig.json']);
    assert.match(await readFile(join(taskPath, 'InPlace-v0', 'task.ts'), 'utf8'), new RegExp(`xml: new URL\\('${pathToFileURL(join(models, 'crawler', 'scene.xml')).href}'\\)`));
    const listed = await eureka(['tasks', '--json'], { EUREKA_TASK_PATH: taskPath });
    assert.ok((JSON.parse(listed.stdout) as { tasks: Array<{ id: string }> }).tasks.some((t) => t.id === 'InPlace-v0'), listed.stderr);

    await writeFile(join(models, 'crawler', 'broken.xml'), '<mujoco><include file="missing.xml"/></mujoco>');
    for (const [xml, message] of [['nowhere.xml', /^eureka: --xml: no file nowhere\.xml\n$/], [join(models, 'crawler', 'broken.xml'), /^eureka: --xml: MuJoCo does not compile .*broken\.xml: .*missing\.xml/]] as const) {
      const ran = await eureka(['new-task', 'Broken-v0', '--xml', xml, '--dir', taskPath]);
      assert.equal(ran.code, 2, ran.stderr);
      assert.match(ran.stderr, message);
    }
  });

  it('declares a planar robot whose motors have no ctrlrange: it loads, its x along the floor hidden, its motors given an offset and a scale, and says so', async () => {
    const { ran: made, taskPath } = await newPlanarTask('Planar-v0', '<actuator><motor name="knee" joint="knee" gear="3"/></actuator>');
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stdout, /\nNo ctrlrange in the XML for knee: each is written offset 0, scale 1, so the policy's \[-1, 1\] is its ctrl \[-1, 1\], unclipped; choose yours/);
    const task = await readFile(join(taskPath, 'Planar-v0', 'task.ts'), 'utf8');
    assert.match(task, /\{ actuator: 'knee', offset: 0, scale: 1 \}, \/\/ no ctrlrange in the XML/);
    assert.match(task, /\/\/ No ctrlrange in the XML for knee: /);
    assert.match(task, /\/\/ Slide joint slide_x moves the root body trunk along x: hidden/);
    // The placeholder feature is the root's forward speed, as a free joint's: slide_x's velocity, the 5th entry.
    assert.match(task, /\{ name: 'forwardSpeed', expression: 'Math\.min\(1, Math\.max\(0, s\[4\]\)\)', describe: 'PLACEHOLDER: the trunk body\\'s forward speed/);

    const listed = await eureka(['tasks', '--json'], { EUREKA_TASK_PATH: taskPath });
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(listed.stderr.includes('skipped'), false, listed.stderr);
    assert.ok((JSON.parse(listed.stdout) as { tasks: Array<{ id: string }> }).tasks.some((t) => t.id === 'Planar-v0'), listed.stderr);
    const hidden = task.split('\n').filter((line) => line.includes('hidden: true')).map((line) => line.trim());
    assert.deepEqual(hidden, ["{ value: { joint: 'slide_x' }, hidden: true },"], 'the slide along x, as a free joint\'s x and y; not the slide along z (the height), nor any velocity');
  });

  it('exits 2 for an XML with no named actuator, and leaves no folder behind (the name stays free)', async () => {
    const { ran, taskPath } = await newPlanarTask('Idle-v0', '');
    assert.equal(ran.code, 2, ran.stderr);
    assert.equal(ran.stderr, 'eureka: --xml: the model has no named actuator: a declared task acts through its actuators (name them in the XML)\n');
    assert.equal(ran.stdout, '');
    assert.equal(existsSync(join(taskPath, 'Idle-v0')), false);
  });

  it('exits 2 for a robot whose simulation goes unstable under a check\'s random actions, with MuJoCo\'s warning, and leaves no folder behind', async () => {
    const { ran, taskPath } = await newPlanarTask('Blowup-v0', '<actuator><motor name="knee" joint="knee" ctrlrange="-1 1" gear="1e300"/></actuator>');
    assert.equal(ran.code, 2, ran.stderr);
    assert.match(ran.stderr, /^eureka: --xml: the robot's simulation went unstable at step \d+ of an episode \(MuJoCo: .*; DOF \d+ is joint \w+\), and MuJoCo reset it: lower the timestep .* \(new-task stepped it under random actions, as a reward's check does: every search would stop at its first check\)\n$/);
    assert.equal(ran.stdout, '');
    assert.equal(existsSync(join(taskPath, 'Blowup-v0')), false);
  });

  it('states the one id rule the registry loads folders by, and accepts every id the registry does', async () => {
    const refused = await eureka(['new-task', 'my task', '--dir', await tempDir('eureka-new-task-id-')]);
    assert.equal(refused.stderr, `eureka: NAME "my task": a task's id ${TASK_ID_RULE}\n`);
    const loaded = TaskSpecSchema.shape.id.safeParse('my task');
    assert.equal(loaded.error?.issues[0].message, `a task's id ${TASK_ID_RULE}`);
    // An id with no version suffix loads (user folders have them): new-task names it too.
    assert.equal(TaskSpecSchema.shape.id.safeParse('PlanarCrawl').success, true);
    const made = await eureka(['new-task', 'PlanarCrawl', '--dir', await tempDir('eureka-new-task-id-'), '--json']);
    assert.equal(made.code, 0, made.stderr);
  });

  const usage: Array<[string, string[], RegExp]> = [
    ['a name that is no task id', ['new-task', 'my task'], /^eureka: NAME "my task": a task's id starts with a letter/],
    ['the id of a task there is', ['new-task', 'CartPole-v1'], /^eureka: NAME CartPole-v1: already the id of a task/],
    ['--in-place without --xml', ['new-task', 'Lost-v0', '--in-place'], /^eureka: --in-place: only with --xml FILE/],
  ];
  for (const [what, args, message] of usage) {
    it(`exits 2 with one line for ${what}`, async () => {
      const ran = await eureka([...args, '--dir', await tempDir('eureka-new-task-usage-')]);
      assert.equal(ran.code, 2, ran.stderr);
      assert.match(ran.stderr, message);
      assert.equal(ran.stdout, '');
    });
  }

  it('exits 2 with one line for a folder that exists', async () => {
    const taskPath = await tempDir('eureka-new-task-twice-');
    assert.equal((await eureka(['new-task', 'Twice-v0', '--dir', taskPath])).code, 0);
    const again = await eureka(['new-task', 'Twice-v0', '--dir', taskPath]);
    assert.equal(again.code, 2);
    assert.equal(again.stderr, `eureka: --dir: ${join(taskPath, 'Twice-v0')} already exists\n`);
  });
});
