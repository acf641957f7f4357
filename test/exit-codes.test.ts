/**
 * The exit codes of docs/cli.md, row by row: the table is read from the page, every row has a case
 * here that runs the command as a user would (from a directory outside the repository), and every
 * case is a row of the table. Cheap cases only: seed-runs of one rollout, a search of one
 * candidate on one seed.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eureka, start, type Ran } from './support/eureka-cli.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const EXAMPLES = join(ROOT, 'examples');
const GOLDEN = join(ROOT, 'test', 'fixtures', 'golden');

/** `command exit` for each row of the table under "## Exit codes" in docs/cli.md. */
function documentedRows(): string[] {
  const page = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');
  const section = page.slice(page.indexOf('## Exit codes'), page.indexOf('\n## ', page.indexOf('## Exit codes') + 1));
  return [...section.matchAll(/^\| `?([a-z -]+?)`? \| (\d) \|/gm)].map((m) => `${m[1]} ${m[2]}`);
}

describe('CLI: the exit codes of docs/cli.md', () => {
  let cwd = '';
  const dirs: string[] = [];
  const run = (args: string[], env: NodeJS.ProcessEnv = {}) => eureka(args, { ANTHROPIC_API_KEY: '', ...env }, cwd);
  before(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'eureka-exit-codes-'));
    dirs.push(cwd);
  });
  after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  // A search that pauses after generation 1, answered, then finished: search 0, feedback 0, show 0 in one.
  const tiny = ['--smoke', '--generations', '2', '--candidates', '1', '--seeds', '1', '--fresh-seeds', '1', '--steps', '2048', '--no-hostile'];
  let paused: { search: Ran; feedback: Ran; show: Ran } | undefined;
  async function pausedSearch(): Promise<NonNullable<typeof paused>> {
    if (paused) return paused;
    const dataDir = join(cwd, 'paused');
    const running = start(['search', ...tiny, '--feedback', 'wait', '--data-dir', dataDir, '--search-id', 'paused'], { ANTHROPIC_API_KEY: '' }, cwd);
    try {
      await running.waitFor(/waiting for your feedback after generation 1/);
      const feedback = await run(['feedback', 'paused', '--continue', '--data-dir', dataDir]);
      const search = await running.done;
      paused = { search, feedback, show: await run(['show', '--data-dir', dataDir]) };
      return paused;
    } finally {
      running.stop();
    }
  }

  const unreachableAws = { AWS_ENDPOINT_URL: 'http://127.0.0.1:9', AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test' };
  const rewardFile = async (name: string, code: string) => {
    const file = join(cwd, name);
    await writeFile(file, code);
    return file;
  };

  /** Each documented row: what to run, and what else its output must show. */
  const cases: Record<string, () => Promise<void>> = {
    'every command 2': async () => {
      const help = await run(['--help']);
      const commands = [...help.stdout.matchAll(/^ {2}([a-z-]+) /gm)].map((m) => m[1]).filter((c) => c !== 'help');
      assert.ok(commands.length >= 10, commands.join(', '));
      for (const command of commands) {
        const ran = await run([command, '--no-such-flag']);
        assert.equal(ran.code, 2, `${command}: ${ran.stderr}`);
        assert.equal(ran.stderr.trim().split('\n').length, 1, `${command}: one line: ${ran.stderr}`);
      }
      assert.match(help.stdout, /Exit codes[\s\S]*5 {2}train: the seed-run did not train/, '--help says what each code means');
    },
    'every command 1': async () => {
      const ran = await run(['start', '--stack', 'Nowhere'], unreachableAws);
      assert.match(ran.stderr, /^eureka: could not start the search: .*ECONNREFUSED.*\n$/);
      assert.equal(ran.code, 1);
    },
    'check-reward 0': async () => {
      const ran = await run(['check-reward', join(EXAMPLES, 'energy.js')]);
      assert.equal(ran.code, 0, ran.stderr);
      assert.match(ran.stdout, /^passed the sandbox check and the screen\n/);
    },
    'check-reward 3': async () => {
      const ran = await run(['check-reward', join(EXAMPLES, 'hostile', 'never-returns.js')]);
      assert.equal(ran.code, 3, ran.stderr);
      assert.match(ran.stdout, /^REJECTED by the sandbox check: timeout \(/);
    },
    'check-reward 4': async () => {
      const ran = await run(['check-reward', join(ROOT, 'test', 'fixtures', 'wrong-rewards', 'MountainCar-v0', 'sign-flipped.js')]);
      assert.equal(ran.code, 4, ran.stderr);
      assert.match(ran.stdout, /^REJECTED by the screen: it ranks every failure above reaching the flag/);
      assert.match(ran.stdout, /\n {2}FAILS: /, 'the screen below says the same');
    },
    'train 0': async () => {
      const ran = await run(['train', '--reward', join(EXAMPLES, 'energy.js'), '--steps', '2048', '--eval-episodes', '1']);
      assert.equal(ran.code, 0, ran.stderr);
      assert.match(ran.stdout, /^outcome: trained$/m);
    },
    'train 5': async () => {
      const ran = await run(['train', '--reward', await rewardFile('unparsed.js', 'function computeReward(obs { return 1 }\n'), '--steps', '2048', '--eval-episodes', '1', '--json']);
      assert.equal(ran.code, 5, ran.stderr);
      assert.equal(JSON.parse(ran.stdout).outcome, 'error', 'the result is printed all the same');
    },
    'search 0': async () => {
      const { search } = await pausedSearch();
      assert.equal(search.code, 0, search.stderr);
      assert.match(search.stdout, /beat the baselines/);
    },
    'search 1': async () => {
      const dataDir = join(cwd, 'failed');
      const ran = await run(['search', ...tiny, '--proposer', 'command:false', '--data-dir', dataDir, '--search-id', 'failed']);
      assert.equal(ran.code, 1, ran.stderr);
      assert.match(ran.stderr, /^eureka: the search failed: The command "false" failed with exit code 1\n$/m);
      const shown = await run(['show', 'failed', '--data-dir', dataDir, '--json']);
      assert.equal(JSON.parse(shown.stdout).status, 'failed', 'show calls it failed, not running');
    },
    'search 6': async () => {
      // The one candidate does not parse, and nothing repairs it: nothing trained, so no winner.
      const answers = join(cwd, 'answers-6');
      await mkdir(answers);
      await writeFile(join(answers, 'answer-1.json'), JSON.stringify({ candidates: [{ name: 'unparsed', idea: 'a typo', code: 'function computeReward(obs { return 1 }' }] }));
      const dataDir = join(cwd, 'no-winner');
      const ran = await run(['search', '--generations', '1', '--candidates', '1', '--seeds', '1', '--steps', '2048', '--no-hostile', '--no-repair',
        '--proposer', `files:${answers}`, '--data-dir', dataDir, '--search-id', 'no-winner']);
      assert.equal(ran.code, 6, ran.stderr);
      assert.match(ran.stderr, /^eureka: no winner: no candidate trained: 1 failed its sandbox check\n$/m);
      assert.match(await readFile(join(dataDir, 'bucket', 'searches', 'no-winner', 'winner', 'card.md'), 'utf8'), /^# No candidate trained/);
    },
    'feedback 0': async () => {
      const { feedback } = await pausedSearch();
      assert.equal(feedback.code, 0, feedback.stderr);
      assert.match(feedback.stdout, /^answered the pause after generation 1 of paused/);
    },
    'show 0': async () => {
      const { show } = await pausedSearch();
      assert.equal(show.code, 0, show.stderr);
      assert.match(show.stdout, /^search paused on MountainCar-v0 \(finished\)\n/);
    },
    'tasks 0': async () => {
      const ran = await run(['tasks', '--json']);
      assert.equal(ran.code, 0, ran.stderr);
      assert.ok(JSON.parse(ran.stdout).tasks.length >= 7);
    },
    'tasks 1': async () => {
      const ran = await run(['tasks', '--strict'], { EUREKA_TASK_PATH: join(cwd, 'no-such-dir') });
      assert.equal(ran.code, 1, ran.stderr);
      assert.match(ran.stderr, /^eureka: EUREKA_TASK_PATH entry .*no-such-dir: no such directory\n$/);
      assert.match(ran.stdout, /^CartPole-v1 /m, 'listed all the same');
      assert.equal((await run(['tasks', '--strict'])).code, 0, 'nothing skipped: 0');
    },
    'conformance 0': async () => {
      const ran = await run(['conformance', '--task', 'MountainCar-v0', join(GOLDEN, 'MountainCar-v0.json')]);
      assert.equal(ran.code, 0, ran.stdout + ran.stderr);
    },
    'conformance 1': async () => {
      const recording = JSON.parse(readFileSync(join(GOLDEN, 'MountainCar-v0.json'), 'utf8'));
      recording.episodes[0].steps[5].obs[0] += 1e-3;
      const file = join(cwd, 'moved.json');
      await writeFile(file, JSON.stringify(recording));
      const ran = await run(['conformance', '--task', 'MountainCar-v0', file]);
      assert.equal(ran.code, 1);
      assert.match(ran.stdout, /MountainCar-v0: NOT within tolerance/);
    },
    'bank 0': async () => {
      // No seed-run of the person's shaping (--seeds 0): the task's own ways to fail, written.
      const ran = await run(['bank', '--task', 'MountainCar-v0', '--seeds', '0', '--out', join(cwd, 'bank.json.gz')]);
      assert.equal(ran.code, 0, ran.stderr);
      assert.doesNotMatch(ran.stdout, /no success/, 'its swing succeeds');
      // Pendulum's own policies never hold it up: a bank of failures only is written, and said to be one.
      const failures = await run(['bank', '--task', 'Pendulum-v1', '--seeds', '0', '--out', join(cwd, 'pendulum.json.gz')]);
      assert.equal(failures.code, 0, failures.stderr);
      assert.match(failures.stdout, /\nno success: no policy played an episode that passes Pendulum-v1's success test from the bank's starts, so the screen can rank only failures/);
    },
    'new-task 0': async () => {
      const ran = await run(['new-task', 'Exit-v0', '--dir', join(cwd, 'tasks')]);
      assert.equal(ran.code, 0, ran.stderr);
    },
    'new-task 2': async () => {
      // A model MuJoCo compiles that gives a declared task nothing to drive: refused as usage, the folder not written.
      const xml = join(cwd, 'idle.xml');
      await writeFile(xml, '<mujoco><worldbody><body name="b"><joint name="j" type="hinge"/><geom size="0.1"/></body></worldbody></mujoco>');
      const ran = await run(['new-task', 'Idle-v0', '--xml', xml, '--dir', join(cwd, 'tasks')]);
      assert.equal(ran.code, 2, ran.stderr);
      assert.match(ran.stderr, /^eureka: --xml: the model has no named actuator: .*\n$/);
      assert.equal(existsSync(join(cwd, 'tasks', 'Idle-v0')), false);
    },
    'start 0': async () => {
      const ran = await run(['start', '--estimate', '--json']);
      assert.equal(ran.code, 0, ran.stderr);
      assert.ok(JSON.parse(ran.stdout));
    },
  };

  it('has a case for every row of the table, and a row for every case', () => {
    assert.deepEqual(documentedRows().sort(), Object.keys(cases).sort());
  });

  for (const row of documentedRows()) {
    it(`${row.replace(/ (\d)$/, ' exits $1')}`, async () => {
      const test = cases[row];
      assert.ok(test, `a case for "${row}"`);
      await test();
    });
  }
});
