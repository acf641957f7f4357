/**
 * The floors (STYLE.md): a folder imports only folders beneath it. core/ stands under physics/,
 * physics/ under tasks/, tasks/ under functions/, so a task folder can be read, tested and copied
 * with only the folders beneath it. Beside that, two rooms on one floor never import each other:
 * a task folder (one with a task.ts) never another task's folder (but a robot's robot.ts, which a
 * behaviour reuses), and a state machine's step
 * (functions/propose, train-seed, reflect, publish) never another step: steps meet only through
 * the store and what functions/shared holds for both. functions/shared is itself in rooms by
 * subject, one floor each, from ops/ at the bottom to card/ at the top (SHARED_ROOMS).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..');

/** Folders above each floor: what code on that floor may not import. */
const FORBIDDEN: Record<string, string[]> = {
  core: ['physics', 'tasks', 'functions', 'infra', 'local', 'bench', 'test'],
  physics: ['tasks', 'functions', 'infra', 'local', 'bench', 'test'],
  tasks: ['functions', 'infra', 'local', 'bench', 'test'],
};

/** The example task folders import only `eureka-serverless/task` and their own files, as a folder anywhere on disk must. */
const EXAMPLE_TASKS = 'examples/tasks';

const STEPS = ['propose', 'train-seed', 'reflect', 'publish'];

/**
 * functions/shared's rooms, lowest first: a room imports only rooms before it (and itself). ops:
 * a handler's surroundings (environment, logs and metrics, events, test hooks); search: what a
 * search is (its types, the steps' contracts, the baselines, its schedule); cost: prices, the
 * estimate and the quotas' bounds; input: the execution input, validated; store: the table, the
 * bucket and the records in them; results: from seed-runs to scores; words: what the proposer
 * and a person read (the reflection, the screen's words); card: the published card.
 */
const SHARED_ROOMS = ['ops', 'search', 'cost', 'input', 'store', 'results', 'words', 'card'];

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** The project-relative paths a file imports (relative specifiers only: packages are not floors). */
function importsOf(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const specs = [...source.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]);
  return specs.map((spec) => relative(ROOT, resolve(dirname(file), spec)));
}

/** `from -> to` for every import of a file under `dir` that lands in one of `targets` (folders). */
function crossings(dir: string, targets: string[]): string[] {
  const inside = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);
  return tsFiles(join(ROOT, dir)).flatMap((file) =>
    importsOf(file).filter((target) => targets.some((folder) => inside(target, folder)))
      .map((target) => `${relative(ROOT, file)} -> ${target}`));
}

/** The folders under tasks/ that are tasks (a task.ts), and those that are not (code variants share). */
function taskDirs(): { tasks: string[]; shared: string[] } {
  const dirs = readdirSync(join(ROOT, 'tasks')).filter((name) => statSync(join(ROOT, 'tasks', name)).isDirectory());
  const isTask = (name: string) => existsSync(join(ROOT, 'tasks', name, 'task.ts'));
  return { tasks: dirs.filter(isTask).map((d) => `tasks/${d}`), shared: dirs.filter((d) => !isTask(d)).map((d) => `tasks/${d}`) };
}

describe('Floors', () => {
  it('keeps every file of functions/shared in a room, and each room imports only the rooms beneath it', () => {
    const shared = join(ROOT, 'functions', 'shared');
    const loose = readdirSync(shared).filter((name) => name.endsWith('.ts'));
    assert.deepEqual(loose, [], 'code outside a room');
    const rooms = readdirSync(shared).filter((name) => statSync(join(shared, name)).isDirectory());
    assert.deepEqual(rooms.sort(), [...SHARED_ROOMS].sort(), 'the rooms are the ones listed');
    const upward = SHARED_ROOMS.flatMap((room, floor) =>
      crossings(`functions/shared/${room}`, SHARED_ROOMS.slice(floor + 1).map((r) => `functions/shared/${r}`)));
    assert.deepEqual(upward, []);
  });

  for (const [floor, above] of Object.entries(FORBIDDEN)) {
    it(`${floor}/ imports nothing from ${above.join(', ')}`, () => {
      assert.deepEqual(crossings(floor, above), []);
    });
  }

  it('an example task folder imports only eureka-serverless/task and files of its own folder', () => {
    const folders = readdirSync(join(ROOT, EXAMPLE_TASKS));
    assert.ok(folders.includes('point-goal'));
    const imports = folders.flatMap((folder) => tsFiles(join(ROOT, EXAMPLE_TASKS, folder)).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)].map((m) => `${relative(ROOT, file)} -> ${m[1]}`)));
    assert.ok(imports.some((i) => i.endsWith(' -> eureka-serverless/task')), imports.join(', '));
    assert.deepEqual(imports.filter((i) => !/ -> (eureka-serverless\/task|\.\/[^/]+)$/.test(i)), []);
  });

  it('a task folder imports no other task folder but a robot\'s robot.ts; what two variants share imports none', () => {
    const { tasks, shared } = taskDirs();
    assert.ok(tasks.length >= 7 && shared.length >= 1, `found the task folders (${tasks.join(', ')}) and the shared ones (${shared.join(', ')})`);
    // A behaviour reuses one of Gymnasium's robots through the robot's public face, its robot.ts, and nothing else of its folder.
    const robotFace = (crossing: string) => /-> tasks\/[^/]+\/robot\.ts$/.test(crossing);
    const offending = [
      ...tasks.flatMap((dir) => crossings(dir, tasks.filter((other) => other !== dir))).filter((c) => !robotFace(c)),
      ...shared.flatMap((dir) => crossings(dir, tasks)),
    ];
    assert.deepEqual(offending, []);
    assert.ok(tasks.flatMap((dir) => crossings(dir, tasks.filter((other) => other !== dir))).some(robotFace), 'the behaviours reach their robots (the rule is checked on something)');
  });

  it('no step of the state machine imports another; functions/shared imports none of them', () => {
    const steps = STEPS.map((s) => `functions/${s}`);
    const offending = [
      ...steps.flatMap((dir) => crossings(dir, steps.filter((other) => other !== dir))),
      ...crossings('functions/shared', steps),
    ];
    assert.deepEqual(offending, []);
  });

  it('the import reader finds what a step imports', () => {
    // The rule above would pass on a regex that matched nothing: it must find this one.
    const file = join(ROOT, 'functions', 'reflect', 'reflect.ts');
    const found = importsOf(file);
    assert.ok(found.includes('functions/shared/results/aggregate.ts'), found.join(', '));
  });
});
