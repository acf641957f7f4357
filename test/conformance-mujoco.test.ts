/**
 * The MuJoCo tasks against Gymnasium's own v5 code on native MuJoCo 2.2.2 (shared/golden/mujoco/):
 * the logic exactly from every recorded state, the physics per step where the two MuJoCo versions
 * agree (InvertedPendulum: no contacts) and by distribution where contact handling changed
 * (Hopper). Recordings: the six golden episodes (seeds 0-5) and 60 more per task recorded with the
 * same recorder (`mujoco_golden.py OUT 100 60 Hopper-v5 InvertedPendulum-v5`, test/fixtures/recordings/mujoco/),
 * split as the classic tasks' are: tuning seeds 0-5 and 100-129, held out 130-159. Each tolerance
 * was chosen on the tuning episodes by the rule below and is only checked on the held-out ones.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordingText } from '../tasks/conformance.ts';
import type { ConformanceReport, Task } from '../tasks/contract.ts';
import { prepareTask } from '../tasks/registry.ts';
import { logicCheck } from '../tasks/mujoco-common/conformance.ts';
import { mujocoEpisode, type MujocoEpisode } from '../tasks/mujoco-common/recording.ts';
import { HopperEnv } from '../tasks/hopper/environment.ts';
import { InvertedPendulumEnv } from '../tasks/inverted-pendulum/environment.ts';
import { eureka } from './support/eureka-cli.ts';

const GOLDEN = (id: string): string => new URL(`../../shared/golden/mujoco/${id}.json.gz`, import.meta.url).pathname;
const FIXTURE = (id: string, part: 'tuning' | 'held-out'): string => new URL(`./fixtures/recordings/mujoco/${id}.${part}.json.gz`, import.meta.url).pathname;
const read = (file: string): unknown => JSON.parse(recordingText(readFileSync(file)));

/**
 * The rules the tolerances were chosen by, on the tuning episodes: per step, 10x the largest
 * deviation rounded up to a power of ten (InvertedPendulum: 8.9e-16 gives 1e-14); by distribution,
 * rank tests at a false-alarm rate of 1% over the check (tasks/mujoco-common/distribution.ts;
 * measured on the recordings resampled against themselves by bench/distribution-false-alarm.ts).
 */
const perStepTolerance = (worst: number): number => 10 ** Math.ceil(Math.log10(10 * worst));

function check(report: ConformanceReport, name: string) {
  const found = report.checks.find((c) => c.check === name);
  assert.ok(found, `the ${name} check ran`);
  return found;
}

describe('Conformance: the MuJoCo tasks against Gymnasium\'s own v5 code', () => {
  const tasks: Record<string, Task> = {};
  before(async () => {
    for (const id of ['Hopper-v5', 'InvertedPendulum-v5']) tasks[id] = await prepareTask(id);
  });

  const MAKE = { 'Hopper-v5': (seed: number) => new HopperEnv(1, seed), 'InvertedPendulum-v5': (seed: number) => new InvertedPendulumEnv(1, seed) };
  for (const id of ['Hopper-v5', 'InvertedPendulum-v5'] as const) {
    it(`${id}: the observation, reward, reward terms and endings of every recorded step, exactly`, () => {
      for (const file of [GOLDEN(id), FIXTURE(id, 'tuning'), FIXTURE(id, 'held-out')]) {
        const episodes = (read(file) as { episodes: unknown[] }).episodes.map((e) => mujocoEpisode(e as MujocoEpisode));
        const logic = logicCheck({ make: MAKE[id] }, episodes);
        assert.ok(logic.ok, `${file}: ${logic.detail}`);
        assert.match(logic.detail, /observation \(float32\) 0\.00e\+0, reward 0\.00e\+0, reward terms 0\.00e\+0; terminated\/truncated differ on 0 steps/);
      }
    });
  }

  it('InvertedPendulum-v5: each step from the recorded state; the tolerance is the rule on the tuning episodes, and holds on the held-out ones', () => {
    const task = tasks['InvertedPendulum-v5'];
    const worst = (file: string) => Number(/deviation of the next qpos and qvel ([\d.e+-]+)/.exec(check(task.conformance!(read(file)), 'physics per step').detail)?.[1]);
    const tuning = Math.max(worst(GOLDEN('InvertedPendulum-v5')), worst(FIXTURE('InvertedPendulum-v5', 'tuning')));
    assert.equal(perStepTolerance(tuning), 1e-14, `tuning worst ${tuning}`);
    assert.ok(check(task.conformance!(read(FIXTURE('InvertedPendulum-v5', 'held-out'))), 'physics per step').ok);
  });

  it('Hopper-v5: the random and the posture controller\'s episodes, as distributions, no rank test below its level on the held-out recordings', () => {
    const distribution = check(tasks['Hopper-v5'].conformance!(read(FIXTURE('Hopper-v5', 'held-out'))), 'distribution');
    assert.ok(distribution.ok, distribution.detail);
    assert.match(distribution.detail, /uniform_random: ours \(\d+\)/);
    assert.match(distribution.detail, /pd_posture: ours \(\d+\)/);
  });

  it('`eureka conformance` says which checks it ran, reads plain or gzipped files, and exits 1 on a recording that does not conform', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'eureka-mujoco-conformance-'));
    try {
      const ok = await eureka(['conformance', '--task', 'InvertedPendulum-v5', GOLDEN('InvertedPendulum-v5')]);
      assert.equal(ok.code, 0, ok.stderr);
      assert.match(ok.stdout, /checked: logic, physics per step/);
      assert.match(ok.stdout, /InvertedPendulum-v5: conforms \(logic, physics per step\)/);
      const recording = read(GOLDEN('InvertedPendulum-v5')) as { episodes: Array<{ steps: Array<{ reward: number }> }> };
      recording.episodes[0].steps[2].reward = 0.5;
      const plain = join(dir, 'tampered.json');
      await writeFile(plain, JSON.stringify(recording));
      const bad = await eureka(['conformance', '--task', 'InvertedPendulum-v5', plain]);
      assert.equal(bad.code, 1);
      assert.match(bad.stdout, /logic: DOES NOT CONFORM: .*reward 5\.00e-1/);
      await writeFile(`${plain}.gz`, gzipSync(JSON.stringify(read(GOLDEN('InvertedPendulum-v5')))));
      assert.equal((await eureka(['conformance', '--task', 'InvertedPendulum-v5', `${plain}.gz`])).code, 0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
