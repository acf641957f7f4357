/**
 * The `eureka` command line as a user meets it: one JSON object on stdout with --json, one clear
 * line and a non-zero exit on bad usage, exit 0 when the command did its job; and a search with
 * the anthropic proposer against a loopback Messages API that a resume never asks again.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { withLocalStore } from '../local/runtime.ts';
import { getTask } from '../tasks/registry.ts';
import { answer, startMessagesApiServer } from './support/messages-api-server.ts';
import { energyReward } from './support/energy-reward.ts';
import { CLI, eureka } from './support/eureka-cli.ts';

const EXAMPLES = new URL('../examples/', import.meta.url).pathname;
const GOLDEN = new URL('./fixtures/golden/', import.meta.url).pathname;

describe('CLI: eureka', () => {
  const dirs: string[] = [];
  after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  const usage: Array<[string, string[], RegExp]> = [
    ['a missing reward file', ['train', '--reward', '/nonexistent/reward.js'], /^eureka: cannot read \/nonexistent\/reward\.js: no such file\n$/],
    ['a flag that is not a number', ['train', '--reward', `${EXAMPLES}energy.js`, '--steps', 'many'], /^eureka: --steps: must be a number\n$/],
    ['a flag out of range', ['search', '--candidates', '40'], /^eureka: --candidates: must be at most 16\n$/],
    ['evaluation episodes out of range', ['search', '--eval-episodes', '101'], /^eureka: --eval-episodes: must be at most 100\n$/],
    ['a thinking budget out of range', ['search', '--thinking-budget', '100'], /^eureka: --thinking-budget: must be at least 1024\n$/],
    ['an unknown flag', ['search', '--candidate', '3'], /unknown option '--candidate'/],
    ['resuming a search that does not exist', ['search', '--resume', 'nope', '--data-dir', join(tmpdir(), 'eureka-empty')], /^eureka: --resume: no search nope in .*\n$/],
    ['an execution input for AWS that does not validate', ['start', '--input', '{"seeds":11}'], /^eureka: --input: Invalid search input: "seeds" must be at most 10 \(got 11\)\n$/],
    ['train with neither a reward nor a baseline', ['train'], /^eureka: --reward or --baseline: give exactly one .*\n$/],
    ['train with both a reward and a baseline', ['train', '--reward', `${EXAMPLES}energy.js`, '--baseline', 'human'], /^eureka: --reward or --baseline: give exactly one .*\n$/],
    ['a baseline that is not one', ['train', '--baseline', 'expert'], /^eureka: --baseline: must be human or environment\n$/],
    ['an unknown task', ['train', '--reward', `${EXAMPLES}energy.js`, '--task', 'Pong-v5'], /^eureka: --task: unknown task "Pong-v5": the known tasks are .*CartPole-v1.*MountainCar-v0.*\n$/],
    ['an id in another case', ['train', '--reward', `${EXAMPLES}energy.js`, '--task', 'cartpole-v1'], /^eureka: --task: unknown task "cartpole-v1": did you mean CartPole-v1\? \(ids are case-sensitive\)\n$/],
    ['a task renamed since', ['train', '--reward', `${EXAMPLES}energy.js`, '--task', 'Hopper-BackFlip-v0'], /^eureka: --task: unknown task "Hopper-BackFlip-v0": it was renamed Hopper-FrontFlip-v0, as .*forward turn/],
    ['a conformance file of another task', ['conformance', '--task', 'CartPole-v1', `${GOLDEN}MountainCar-v0.json`], /^eureka: .*records MountainCar-v0, not CartPole-v1 \(--task\)\n$/],
    ['a conformance file that is not recorded episodes', ['conformance', '--task', 'CartPole-v1', `${EXAMPLES}energy.js`], /^eureka: .*energy\.js is not JSON/],
  ];
  for (const [what, args, message] of usage) {
    it(`exits 2 with one line for ${what}`, async () => {
      const ran = await eureka(args);
      assert.equal(ran.code, 2, ran.stderr);
      assert.match(ran.stderr, message);
      assert.equal(ran.stdout, '');
    });
  }

  it('check-reward --json prints one verdict, and exits 3 when the check rejects the reward, 4 when the screen does', async () => {
    const bad = await eureka(['check-reward', `${EXAMPLES}hostile/never-returns.js`, '--json']);
    assert.equal(bad.code, 3);
    assert.equal(JSON.parse(bad.stdout).verdict, 'timeout');
    assert.equal(JSON.parse(bad.stdout).rejectedBy, 'check');
    const good = await eureka(['check-reward', `${EXAMPLES}energy.js`, '--json']);
    assert.equal(good.code, 0, good.stderr);
    const report = JSON.parse(good.stdout);
    assert.equal(report.verdict, 'ok');
    assert.equal(report.rejectedBy, null);
    assert.deepEqual(Object.keys(report.terms).sort(), ['goal', 'shaping', 'step']);
    assert.equal(report.screen.auc, 1, 'the screen, as a screen object');
    assert.deepEqual(report.screen.findings.filter((f: { severity: string }) => f.severity === 'fails'), []);
    assert.deepEqual(Object.keys(report.firstSteps).sort(), ['ending', 'endings', 'goingOn', 'steps']);
    const flipped = await eureka(['check-reward', 'test/fixtures/wrong-rewards/MountainCar-v0/sign-flipped.js', '--json']);
    assert.equal(flipped.code, 4);
    assert.equal(JSON.parse(flipped.stdout).rejectedBy, 'screen');
    const screen = JSON.parse(flipped.stdout).screen;
    assert.equal(screen.auc, 0);
    assert.deepEqual(screen.findings.filter((f: { severity: string }) => f.severity === 'fails').map((f: { code: string }) => f.code), ['sign']);
    assert.match(screen.findings[0].text, /ranks every failure above reaching the flag/);
  });

  it('train --json prints exactly one JSON object on stdout, the seed-run result', async () => {
    const ran = await eureka(['train', '--reward', `${EXAMPLES}energy.js`, '--steps', '4096', '--seed', '3', '--json']);
    assert.equal(ran.code, 0, ran.stderr);
    const lines = ran.stdout.trim().split('\n');
    assert.equal(lines.length, 1);
    const result = JSON.parse(lines[0]);
    assert.equal(result.outcome, 'trained');
    assert.equal(result.seed, 3);
    assert.equal(result.steps, 4096);
  });

  it('train --baseline trains the task\'s own baseline, as the same code from a file trains', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'eureka-baseline-'));
    dirs.push(dir);
    const file = join(dir, 'environment.js');
    await writeFile(file, getTask('CartPole-v1').baselines.environment.code);
    const args = ['--task', 'CartPole-v1', '--steps', '4096', '--eval-episodes', '2', '--seed', '5', '--json'];
    const [baseline, fromFile] = await Promise.all([eureka(['train', '--baseline', 'environment', ...args]), eureka(['train', '--reward', file, ...args])]);
    assert.equal(baseline.code, 0, baseline.stderr);
    assert.equal(fromFile.code, 0, fromFile.stderr);
    const [a, b] = [JSON.parse(baseline.stdout), JSON.parse(fromFile.stdout)];
    assert.equal(a.candidateId, 'environment');
    assert.equal(a.outcome, 'trained');
    assert.equal(a.thetaSha256, b.thetaSha256, 'the same parameters, trained from the same code');
  });

  it('a reader that closes the pipe early ends the command quietly with 141, as on SIGPIPE, no stack', async () => {
    const child = spawn(process.execPath, [CLI, 'tasks', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy(); // before the command has loaded and written anything
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(stderr, '');
    assert.equal(code, 141);
  });

  it('tasks --json lists every task with its spaces, success test, progress in words and budget', async () => {
    const ran = await eureka(['tasks', '--json']);
    assert.equal(ran.code, 0, ran.stderr);
    const { tasks } = JSON.parse(ran.stdout) as { tasks: Array<{ id: string; action: { kind: string }; success: string; progress: string; recorded: string[]; budget: { steps: number } }> };
    for (const t of tasks) assert.ok(t.progress.length > 20, `${t.id}: its progress in words`);
    const hopper = tasks.find((t) => t.id === 'Hopper-v5');
    assert.match(hopper?.progress ?? '', /recorded x at the end less at the start/);
    assert.match(hopper?.recorded[0] ?? '', /^torso x \(m\), qpos\[0\]/);
    const ids = tasks.map((t) => t.id);
    for (const id of ['MountainCar-v0', 'MountainCarContinuous-v0', 'CartPole-v1', 'Acrobot-v1', 'Pendulum-v1', 'LunarLander-v3', 'LunarLanderContinuous-v3']) {
      assert.ok(ids.includes(id), id);
    }
    const pendulum = tasks.find((t) => t.id === 'Pendulum-v1');
    assert.equal(pendulum?.action.kind, 'box');
    assert.match(pendulum?.success ?? '', /0\.2 rad of upright/);
    assert.ok((pendulum?.budget.steps ?? 0) >= 2048);
    const text = await eureka(['tasks']);
    assert.match(text.stdout, /^CartPole-v1 {2}\(tasks\/cart-pole\)$/m);
  });

  it('conformance replays recorded Gymnasium episodes, prints the largest deviations and exits 0 within tolerance', async () => {
    const ran = await eureka(['conformance', '--task', 'Acrobot-v1', `${GOLDEN}Acrobot-v1.json`, '--json']);
    assert.equal(ran.code, 0, ran.stderr);
    const report = JSON.parse(ran.stdout);
    assert.equal(report.ok, true);
    assert.equal(report.files[0].episodes, 6);
    assert.ok(report.files[0].state > 0 && report.files[0].state < 1e-9, `Acrobot's RK4 deviates by ${report.files[0].state}`);
    const text = await eureka(['conformance', '--task', 'MountainCar-v0', `${GOLDEN}MountainCar-v0.json`]);
    assert.match(text.stdout, /MountainCar-v0: within tolerance/);
  });

  it('conformance holds a task to the tolerance it declares unless a flag says otherwise', async () => {
    // The LunarLanders declare Gymnasium's numbers to rounding (they replay the golden episodes bit for
    // bit); a lander state moved by 1e-7 fails that, and a looser flag lets it through.
    const declared = await eureka(['conformance', '--task', 'LunarLander-v3', `${GOLDEN}LunarLander-v3.json`]);
    assert.equal(declared.code, 0, declared.stdout + declared.stderr);
    assert.match(declared.stdout, /LunarLander-v3: within tolerance \(state 1e-9, observation 0\.000001, reward 0\.000001\)/);
    const recording = JSON.parse(await readFile(`${GOLDEN}LunarLander-v3.json`, 'utf8'));
    recording.episodes[0].steps[10].lander.x += 1e-7;
    const dir = await mkdtemp(join(tmpdir(), 'eureka-conformance-'));
    const file = join(dir, 'moved.json');
    await writeFile(file, JSON.stringify(recording));
    const strict = await eureka(['conformance', '--task', 'LunarLander-v3', file]);
    const loose = await eureka(['conformance', '--task', 'LunarLander-v3', file, '--state-tolerance', '1e-6']);
    await rm(dir, { recursive: true, force: true });
    assert.equal(strict.code, 1);
    assert.match(strict.stdout, /NOT within tolerance \(state 1e-9, observation 0\.000001/);
    assert.equal(loose.code, 0, loose.stdout);
    // CartPole's own, chosen on its tuning recordings (test/conformance.test.ts checks an undeclared task gets the default).
    const cartPole = await eureka(['conformance', '--task', 'CartPole-v1', `${GOLDEN}CartPole-v1.json`, '--json']);
    assert.deepEqual(JSON.parse(cartPole.stdout).tolerance, { state: 1e-14, obs: 1e-6, reward: 1e-15 });
  });

  it('conformance exits 1 and says so when a port deviates from the recording', async () => {
    const recording = JSON.parse(await readFile(`${GOLDEN}CartPole-v1.json`, 'utf8'));
    recording.episodes[1].steps[40].obs[2] += 1e-3;
    recording.episodes[1].steps[60].terminated = true;
    const dir = await mkdtemp(join(tmpdir(), 'eureka-conformance-'));
    const file = join(dir, 'tampered.json');
    await writeFile(file, JSON.stringify(recording));
    const ran = await eureka(['conformance', '--task', 'CartPole-v1', file]);
    await rm(dir, { recursive: true, force: true });
    assert.equal(ran.code, 1);
    assert.match(ran.stdout, /observation 1\.00e-3/);
    assert.match(ran.stdout, /terminated\/truncated differ on 1 steps \(first at step 61\)/);
    assert.match(ran.stdout, /CartPole-v1: NOT within tolerance/);
  });

  it('check-reward says when going on pays below zero where failing ends the episode: ending pays the first policies', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'eureka-cartpole-'));
    const file = join(dir, 'cost.js');
    await writeFile(file, 'function computeReward(obs, action, nextObs, terminated) { const cost = -1; return [cost, { cost }]; }');
    const ran = await eureka(['check-reward', file, '--task', 'CartPole-v1']);
    await rm(dir, { recursive: true, force: true });
    assert.match(ran.stdout, /^the untrained policy's steps: -1\.000 a step that goes on, -1\.000 on a step that ends the episode \(\d+ of 4096\); going on pays below zero and failing ends the episode, so ending it pays the first policies$/m);
  });

  it('check-reward and train take --task: a continuous task\'s reward and seed-run', async () => {
    const reward = 'function computeReward(obs, action) { const upright = obs[0] - 0.001 * action[0] * action[0]; return [upright, { upright }]; }';
    const dir = await mkdtemp(join(tmpdir(), 'eureka-pendulum-'));
    const file = join(dir, 'upright.js');
    await writeFile(file, reward);
    const checked = await eureka(['check-reward', file, '--task', 'Pendulum-v1', '--json']);
    assert.equal(JSON.parse(checked.stdout).verdict, 'ok', checked.stdout);
    const trained = await eureka(['train', '--reward', file, '--task', 'Pendulum-v1', '--steps', '4096', '--eval-episodes', '2', '--json']);
    await rm(dir, { recursive: true, force: true });
    assert.equal(trained.code, 0, trained.stderr);
    const result = JSON.parse(trained.stdout);
    assert.equal(result.task, 'Pendulum-v1');
    assert.equal(result.outcome, 'trained');
    assert.ok(result.episode.actions.every((a: number[]) => a.length === 1 && a[0] >= -2 && a[0] <= 2));
  });

  it('start without AWS credentials says so in one line and exits 1', async () => {
    const ran = await eureka(['start', '--input', '{"smoke":true}'], {
      AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', AWS_SESSION_TOKEN: '', AWS_PROFILE: '', AWS_REGION: 'us-east-1',
      AWS_EC2_METADATA_DISABLED: 'true', AWS_CONFIG_FILE: '/nonexistent', AWS_SHARED_CREDENTIALS_FILE: '/nonexistent', HOME: '/nonexistent',
    });
    assert.equal(ran.code, 1);
    assert.match(ran.stderr, /^eureka: no AWS credentials: .*\n$/);
  });

  it('a search with the anthropic proposer and no key fails at its first Propose, before anything trains', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'eureka-nokey-'));
    dirs.push(dataDir);
    const ran = await eureka(['search', '--smoke', '--seeds', '1', '--steps', '4096', '--proposer', 'anthropic', '--data-dir', dataDir, '--search-id', 'nokey'], { ANTHROPIC_API_KEY: '' });
    assert.equal(ran.code, 1);
    assert.match(ran.stderr, /^eureka: the search failed: No Anthropic API key: set ANTHROPIC_API_KEY, or choose --proposer offline$/m);
    const stored = await readdir(join(dataDir, 'bucket', 'searches', 'nokey'), { recursive: true });
    assert.ok(stored.some((p) => p.endsWith('reward.js')), 'the search was recorded');
    assert.deepEqual(stored.filter((p) => p.includes('seeds') || p.includes('generations/1')), [], 'nothing trained, nothing proposed');
  });

  it('refuses at its start, with exit 2, a search whose worst case passes a quota, and a new search under an id the data directory holds', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'eureka-refused-'));
    dirs.push(dataDir);
    const ran = await eureka(['search', '--steps', '10000000', '--chunk-steps', '2048', '--data-dir', dataDir, '--search-id', 'too-long']);
    assert.equal(ran.code, 2);
    assert.match(ran.stderr, /^eureka: Invalid search input: "steps" 10,000,000 in chunks of 2,048 \("chunkSteps"\) is 4,882 TrainSeed invocations a seed-run, 34,178 history events .* "chunkSteps" of at least 4,096 fit these steps/);
    assert.deepEqual(await readdir(join(dataDir, 'bucket')).catch(() => []), [], 'nothing was recorded');
    const day = await eureka(['search', '--task', 'LunarLander-v3', '--generations', '8', '--candidates', '16', '--seeds', '10', '--steps', '10000000', '--data-dir', dataDir, '--search-id', 'too-slow']);
    assert.equal(day.code, 2);
    assert.match(day.stderr, /^eureka: Invalid search input: the search's worst case is about \d+ h \d+ min: \d+ h \d+ min of seed-runs on AWS at "maxConcurrency" 160 .* of the other states at their timeouts .* more than the execution's 24 h: .*would fit\n$/);
    assert.deepEqual(await readdir(join(dataDir, 'bucket')).catch(() => []), [], 'nothing was recorded');
    const smoke = ['search', '--generations', '1', '--candidates', '1', '--seeds', '1', '--steps', '2048', '--eval-episodes', '1', '--no-hostile', '--data-dir', dataDir, '--search-id', 'once'];
    assert.equal((await eureka(smoke)).code, 0);
    const twice = await eureka(smoke);
    assert.equal(twice.code, 2);
    assert.match(twice.stderr, /^eureka: Invalid search input: "searchId" once names a search .* holds already: eureka search --resume once continues it/);
  });

  it('runs a smoke search with --proposer anthropic end to end, and a resume makes no new request', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'eureka-claude-'));
    dirs.push(dataDir);
    const code = energyReward;
    const reply = (g: number) => answer(JSON.stringify({ candidates: [1, 2, 3].map((i) => ({ name: `g${g}-energy-${i}`, idea: `energy shaping at scale ${i * 200}`, code: code(i * 200 * 400) })) }));
    const server = await startMessagesApiServer([reply(1), reply(2)]);
    try {
      const env = { ANTHROPIC_API_KEY: 'test-key-not-real', ANTHROPIC_BASE_URL: server.url };
      const args = ['search', '--smoke', '--steps', '8192', '--proposer', 'anthropic', '--model', 'claude-sonnet-5-5', '--human-init', `${EXAMPLES}energy.js`, '--json', '--data-dir', dataDir, '--search-id', 'claude'];
      const ran = await eureka(args, env);
      assert.equal(ran.code, 0, ran.stderr);
      assert.equal(JSON.parse(ran.stdout).searchId, 'claude');
      assert.equal(server.requests.length, 2, 'one request per generation');
      const second = JSON.stringify(server.requests[1].body);
      assert.match(second, /energy shaping at scale/, 'generation 2 reflects on the best so far');
      assert.doesNotMatch(second, /hostile_never_returns|hostile_exfiltrate/, 'but not on the search\'s own hostile probes');
      await withLocalStore(dataDir, async (store) => {
        const human = (await store.candidates('claude', 1)).find((c) => c.origin === 'human');
        assert.equal(human?.name, 'energy', '--human-init joins generation 1');
        assert.ok(human?.outcome === 'trained' || human?.outcome === 'stopped', `it trained (to the budget, or to where the race stopped it): ${human?.outcome}`);
      });

      const resumed = await eureka(['search', '--resume', 'claude', '--json', '--data-dir', dataDir], env);
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.equal(server.requests.length, 2, 'a resume asks nothing again');

      const shown = JSON.parse((await eureka(['show', 'claude', '--json', '--data-dir', dataDir])).stdout);
      assert.equal(shown.proposer.requests, 2);
      assert.ok(shown.proposer.inputTokens > 0 && shown.proposer.costUsd > 0, 'usage and cost are recorded');
    } finally {
      await server.close();
    }
  });
});
