/**
 * The Lambda bundles as `cdk deploy` would upload them: synthesized offline with the local esbuild,
 * copied away from this repository's node_modules, and run. TrainSeed does a real seed-run from its
 * bundle (TensorFlow.js and QuickJS wasm files included); the other three load.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { checkKey, rewardKey, seedResultKey } from '../functions/shared/store/keys.ts';
import { S3BlobStore } from '../functions/shared/store/blob-s3.ts';
import { REGION, S3RVER_CREDENTIALS, startS3Server } from './support/s3-server.ts';

const run = promisify(execFile);
const ROOT = new URL('..', import.meta.url).pathname;

interface LambdaResource { Type: string; Properties: { MemorySize?: number; Code?: { S3Key?: string } } }

describe('Bundles: the Lambda artifacts', () => {
  let work: string;
  const bundles: Record<string, string> = {};

  before(async () => {
    work = await mkdtemp(join(tmpdir(), 'eureka-bundles-'));
    const out = join(work, 'cdk.out');
    await run('npx', ['cdk', 'synth', '--quiet', '--no-notices', '--output', out], {
      cwd: ROOT, timeout: 5 * 60_000, maxBuffer: 1 << 24, env: { ...process.env, CDK_DISABLE_CLI_TELEMETRY: 'true' },
    });
    const template = JSON.parse(await readFile(join(out, 'EurekaServerless.template.json'), 'utf8')) as { Resources: Record<string, LambdaResource> };
    for (const [id, resource] of Object.entries(template.Resources)) {
      const key = resource.Properties.Code?.S3Key;
      const role = /^(Propose|TrainSeed|Reflect|Publish)Function/.exec(id)?.[1];
      if (resource.Type !== 'AWS::Lambda::Function' || !key || !role) continue;
      // Away from the repository, so nothing can resolve from its node_modules.
      bundles[role] = join(work, role);
      await cp(join(out, `asset.${key.replace(/\.zip$/, '')}`), bundles[role], { recursive: true });
    }
  });
  after(() => rm(work, { recursive: true, force: true }));

  it('synthesizes one bundle per function, with the wasm files next to TrainSeed', async () => {
    assert.deepEqual(Object.keys(bundles).sort(), ['Propose', 'Publish', 'Reflect', 'TrainSeed']);
    const files = await readdir(bundles.TrainSeed);
    assert.ok(files.includes('index.mjs'));
    assert.ok(files.filter((f) => f.endsWith('.wasm')).length >= 2, files.join(', '));
  });

  // A budget within one chunk: TrainSeed answers {done: true, summary} at once.
  it('TrainSeed runs a real seed-run from its bundle', async () => {
    const dataDir = join(work, 'data');
    const reward = join(dataDir, 'bucket', rewardKey('bundle', 1, 'energy'));
    await mkdir(dirname(reward), { recursive: true });
    await writeFile(reward, await readFile(join(ROOT, 'examples', 'energy.js'), 'utf8'));
    const task = { searchId: 'bundle', task: 'MountainCar-v0', generation: 1, candidateId: 'energy', seed: 0, budget: { steps: 4096, evalEpisodes: 5 } };
    const script = `const { handler } = await import(${JSON.stringify(join(bundles.TrainSeed, 'index.mjs'))}); process.stdout.write(JSON.stringify((await handler(${JSON.stringify(task)})).summary));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: work, timeout: 2 * 60_000, env: { PATH: process.env.PATH, EUREKA_DATA_DIR: dataDir, EUREKA_TFJS_BACKEND: 'wasm' },
    });
    const summary = JSON.parse(stdout);
    assert.equal(summary.outcome, 'trained', summary.reason);
    const result = JSON.parse(await readFile(join(dataDir, 'bucket', seedResultKey('bundle', 1, 'energy', 0)), 'utf8'));
    assert.equal(result.backend, 'wasm');
  });

  it('TrainSeed runs a seed-run and a check from its bundle against an S3 API, EUREKA_BUCKET set as deployed', async () => {
    const s3 = await startS3Server();
    const saved = { ...process.env };
    try {
      const aws = { AWS_ENDPOINT_URL_S3: s3.endpoint, AWS_REGION: REGION, AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey };
      Object.assign(process.env, aws);
      const blobs = new S3BlobStore(s3.bucket);
      await blobs.put(rewardKey('bundle-s3', 1, 'energy'), await readFile(join(ROOT, 'examples', 'energy.js'), 'utf8'), 'text/javascript');
      const task = { searchId: 'bundle-s3', task: 'MountainCar-v0', generation: 1, candidateId: 'energy', seed: 0, budget: { steps: 4096, evalEpisodes: 5 } };
      const check = { kind: 'check', searchId: 'bundle-s3', task: 'MountainCar-v0', generation: 1, candidateId: 'energy' };
      const script = `const { handler } = await import(${JSON.stringify(join(bundles.TrainSeed, 'index.mjs'))});
        const checked = await handler(${JSON.stringify(check)});
        const trained = (await handler(${JSON.stringify(task)})).summary;
        process.stdout.write(JSON.stringify({ checked, trained }));`;
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
        cwd: work, timeout: 2 * 60_000, env: { PATH: process.env.PATH, EUREKA_BUCKET: s3.bucket, EUREKA_TFJS_BACKEND: 'wasm', ...aws },
      });
      const { checked, trained } = JSON.parse(stdout) as { checked: { verdict: string }; trained: { outcome: string; reason: string } };
      assert.equal(checked.verdict, 'ok');
      assert.equal(trained.outcome, 'trained', trained.reason);
      const keys = await blobs.list('searches/bundle-s3/');
      assert.ok(keys.includes(seedResultKey('bundle-s3', 1, 'energy', 0)), keys.join(', '));
      assert.ok(keys.includes(checkKey('bundle-s3', 1, 'energy')));
      assert.ok(keys.some((k) => k.endsWith('/policy/model.json')) && keys.some((k) => k.endsWith('/policy/weights.bin')));
      const puts = s3.requests.filter((r) => r.method === 'PUT' && r.url.includes('/policy/'));
      assert.ok(puts.length >= 2 && puts.every((r) => r.headers['x-amz-tagging'] === 'eureka-artifact=seed-policy'), 'the policies are tagged for expiry');
    } finally {
      process.env = saved;
      await s3.close();
    }
  });

  it('TrainSeed finds every task folder in its bundle and trains a continuous one', async () => {
    const dataDir = join(work, 'data-continuous');
    const reward = join(dataDir, 'bucket', rewardKey('bundle', 1, 'pendulum'));
    await mkdir(dirname(reward), { recursive: true });
    await writeFile(reward, 'function computeReward(obs, action) { const upright = obs[0]; return [upright, { upright }]; }');
    const task = { searchId: 'bundle', task: 'Pendulum-v1', generation: 1, candidateId: 'pendulum', seed: 0, budget: { steps: 4096, evalEpisodes: 2 } };
    const unknown = { ...task, task: 'Pong-v5', candidateId: 'nobody' };
    const script = `const { handler } = await import(${JSON.stringify(join(bundles.TrainSeed, 'index.mjs'))});
      const trained = (await handler(${JSON.stringify(task)})).summary;
      let message = '';
      try { await handler(${JSON.stringify(unknown)}); } catch (error) { message = error.message; }
      process.stdout.write(JSON.stringify({ trained, message }));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: work, timeout: 2 * 60_000, env: { PATH: process.env.PATH, EUREKA_DATA_DIR: dataDir, EUREKA_TFJS_BACKEND: 'wasm' },
    });
    const { trained, message } = JSON.parse(stdout) as { trained: { outcome: string; reason: string }; message: string };
    assert.equal(trained.outcome, 'trained', trained.reason);
    for (const folder of await readdir(join(ROOT, 'tasks'), { withFileTypes: true })) {
      // A folder without task.ts (the code two variants of one environment share) is not a task.
      if (!folder.isDirectory() || !existsSync(join(ROOT, 'tasks', folder.name, 'task.ts'))) continue;
      const id = /id: '([^']+)'/.exec(await readFile(join(ROOT, 'tasks', folder.name, 'task.ts'), 'utf8'))?.[1];
      assert.ok(id !== undefined && message.includes(id), `the bundle's registry knows ${id} (${message})`);
    }
  });

  it('TrainSeed trains and grades Hopper-v5 from its bundle, MuJoCo\'s mujoco.wasm beside the code; Propose, Publish and Reflect carry it too (the registry compiles a declared robot without stored facts as it loads)', async () => {
    for (const role of ['TrainSeed', 'Propose', 'Publish', 'Reflect']) assert.ok((await readdir(bundles[role])).includes('mujoco.wasm'), `${role} has mujoco.wasm`);
    const dataDir = join(work, 'data-hopper');
    const reward = join(dataDir, 'bucket', rewardKey('bundle', 1, 'hop'));
    await mkdir(dirname(reward), { recursive: true });
    await writeFile(reward, 'function computeReward(obs, action, nextObs, terminated) { const alive = terminated ? 0 : 1; return [alive + nextObs[5], { alive }]; }');
    const task = { searchId: 'bundle', task: 'Hopper-v5', generation: 1, candidateId: 'hop', seed: 0, budget: { steps: 4096, evalEpisodes: 2 } };
    const script = `const { handler } = await import(${JSON.stringify(join(bundles.TrainSeed, 'index.mjs'))}); process.stdout.write(JSON.stringify((await handler(${JSON.stringify(task)})).summary));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: work, timeout: 2 * 60_000, env: { PATH: process.env.PATH, EUREKA_DATA_DIR: dataDir, EUREKA_TFJS_BACKEND: 'wasm' },
    });
    const summary = JSON.parse(stdout) as { outcome: string; reason: string; stepsTrained: number };
    assert.equal(summary.outcome, 'trained', summary.reason);
    assert.equal(summary.stepsTrained, 4096);
    const stored = JSON.parse(await readFile(join(dataDir, 'bucket', seedResultKey('bundle', 1, 'hop', 0)), 'utf8')) as { episode: { observations: number[][] } };
    assert.equal(stored.episode.observations[0].length, 11);
  });

  it('TrainSeed ends a process that hosted a sandbox memory fault once its result is stored; the retry returns it, and the next candidate trains', async () => {
    const dataDir = join(work, 'data-memory');
    for (const [id, file] of [['hog', 'hostile/memory-arrays.js'], ['energy', 'energy.js']]) {
      const reward = join(dataDir, 'bucket', rewardKey('bundle', 1, id));
      await mkdir(dirname(reward), { recursive: true });
      await writeFile(reward, await readFile(join(ROOT, 'examples', file), 'utf8'));
    }
    const item = (candidateId: string) => ({ searchId: 'bundle', task: 'MountainCar-v0', generation: 1, candidateId, seed: 0, budget: { steps: 4096, evalEpisodes: 2 } });
    const container = (...candidates: string[]) => run(process.execPath, ['--input-type=module', '-e',
      `const { handler } = await import(${JSON.stringify(join(bundles.TrainSeed, 'index.mjs'))});
      for (const item of ${JSON.stringify(candidates.map(item))}) process.stdout.write(JSON.stringify((await handler(item)).summary) + '\\n');`], {
      cwd: work, timeout: 2 * 60_000, env: { PATH: process.env.PATH, EUREKA_DATA_DIR: dataDir, EUREKA_TFJS_BACKEND: 'wasm' },
    }).then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }), (error: { code: number; stdout: string; stderr: string }) => error);

    // The invocation that hosted the fault never answers: Lambda reports Runtime.ExitError and drops the container.
    const faulted = await container('hog', 'energy');
    assert.equal(faulted.code, 75);
    assert.equal(faulted.stdout, '', 'nothing answered, and the next candidate never ran in that process');
    assert.match(faulted.stderr, /hosted a sandbox memory fault/);
    const stored = JSON.parse(await readFile(join(dataDir, 'bucket', seedResultKey('bundle', 1, 'hog', 0)), 'utf8'));
    assert.equal(stored.outcome, 'memory');

    // The state machine's retry lands on a fresh container: the stored result, and that container stays fit for the next candidate.
    const retried = await container('hog', 'energy');
    assert.equal(retried.code, 0, retried.stderr);
    const [hog, energy] = retried.stdout.trim().split('\n').map((line) => JSON.parse(line));
    assert.equal(hog.outcome, 'memory');
    assert.equal(energy.outcome, 'trained', energy.reason);
  });

  it('Propose, Reflect and Publish load from their bundles', async () => {
    for (const role of ['Propose', 'Reflect', 'Publish']) {
      const script = `const m = await import(${JSON.stringify(join(bundles[role], 'index.mjs'))}); if (typeof m.handler !== 'function') process.exit(3);`;
      await run(process.execPath, ['--input-type=module', '-e', script], {
        cwd: work, timeout: 60_000, env: { PATH: process.env.PATH, EUREKA_TABLE: 'eureka', EUREKA_BUCKET: 'eureka-bucket', AWS_REGION: 'us-east-1' },
      });
    }
  });
});
