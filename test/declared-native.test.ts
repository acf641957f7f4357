/**
 * A declared robot's physics against native MuJoCo in C on the same XML (the crawler of
 * test/fixtures/declared/Crawler-v0, recorded by bench/declared-native.ts; native's outputs are in
 * the recordings, ours are made again here from the same seeds): per step where contacts do not
 * part the engines, by distribution where they do.
 *
 * Tolerances, chosen on a run of other seeds (`--seed 100 --per-step-episodes 40`: 6,000 steps,
 * 194 without contact) and checked here on the recorded ones (seed 500), each 10x the tuning run's
 * worst rounded up to a power of ten:
 * - Debian's 2.2.2, steps without contact: worst 2.9e-15, so 1e-13. Steps with contact part the
 *   versions (up to 2.3 in qvel where a contact appears a sub-step apart), but not most of them: the
 *   median contact step's deviation was 3.9e-9, so at most 1e-7.
 * - The official 3.14.0 build (the Python wheel's libmujoco), every step: worst 2.6e-14, so 1e-12.
 * - By distribution, both: five rank tests (root x, y, z, upright, mean speed) of 40 native runs
 *   against 40 of ours, each at p >= 0.01 / 5 (a false alarm in at most 1% of conforming runs).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import crawlerTask from './fixtures/declared/Crawler-v0/task.ts';
import type { RobotSpec } from '../tasks/mujoco-common/mujoco-env.ts';
import {
  compareStats, episodeStats, freeRuns, inputDigest, nativeCommands, perStep, robotOf, rootQposOf,
  type EnvMaker, type EpisodeStats, type FreeRun, type RunPlan, type StepEnd,
} from '../tasks/mujoco-common/declared/native-check.ts';

interface Recording { task: string; native: string; plan: RunPlan; inputs: string; perStep: StepEnd[]; theirStats: EpisodeStats[] }

const read = (version: string): Recording =>
  JSON.parse(gunzipSync(readFileSync(new URL(`./fixtures/declared/crawler-native-${version}.json.gz`, import.meta.url))).toString('utf8')) as Recording;

const FALSE_ALARM = 0.01;
const crawler = await crawlerTask;

describe('Declared robot: the crawler against native MuJoCo in C', () => {
  const task: EnvMaker = { id: crawler.id, gymnasiumEnv: (n, seed) => crawler.makeEnv(n, seed) };
  let robot: RobotSpec;
  let ours: FreeRun[];
  let commands: string;
  const recordings = { '2.2.2': read('2.2.2'), '3.14.0': read('3.14.0') };
  const plan = recordings['2.2.2'].plan;

  before(() => {
    robot = robotOf(task);
    ours = freeRuns(task, robot, plan.seed, plan, true);
    commands = nativeCommands(ours.slice(0, plan.perStepEpisodes), freeRuns(task, robot, plan.seed + plan.episodes, plan, false));
  });

  it('gives native the inputs the recordings were made of (else: record again, bench/declared-native.ts)', () => {
    for (const [version, recording] of Object.entries(recordings)) {
      assert.equal(recording.native, version);
      assert.deepEqual(recording.plan, plan);
      assert.equal(recording.inputs, inputDigest(commands), `${version}: our runs or the native inputs changed since the recording`);
    }
  });

  it('steps as Debian\'s native 2.2.2 does to rounding where no contact is made, and most contact steps to 1e-7', () => {
    const { noContact, contact } = perStep(ours.slice(0, plan.perStepEpisodes), recordings['2.2.2'].perStep);
    assert.ok(noContact.steps >= 10, `only ${noContact.steps} steps without contact`);
    assert.ok(noContact.worst <= 1e-13, `worst step without contact ${noContact.worst} (${noContact.where})`);
    assert.ok(contact.median <= 1e-7, `median step with contact ${contact.median}`);
    // The versions do part on some contact steps: the reason for the distribution below.
    assert.ok(contact.worst > 1e-3, `worst step with contact ${contact.worst}`);
  });

  it('steps as the official native 3.14.0 does on every step, contacts included', () => {
    const { noContact, contact } = perStep(ours.slice(0, plan.perStepEpisodes), recordings['3.14.0'].perStep);
    assert.equal(noContact.steps + contact.steps, plan.perStepEpisodes * plan.steps);
    assert.ok(Math.max(noContact.worst, contact.worst) <= 1e-12, `worst step ${Math.max(noContact.worst, contact.worst)} (${contact.where})`);
  });

  it('ends its episodes as both natives\' own runs do, by distribution', () => {
    const mine = episodeStats(ours, rootQposOf(robot));
    for (const [version, recording] of Object.entries(recordings)) {
      assert.equal(recording.theirStats.length, plan.episodes);
      for (const r of compareStats(mine, recording.theirStats)) {
        assert.ok(r.p >= FALSE_ALARM / 5, `${version}: ${r.quantity}: ours ${r.ours}, native ${r.theirs}, p ${r.p}`);
      }
    }
  });
});
