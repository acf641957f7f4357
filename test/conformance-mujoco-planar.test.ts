/**
 * Walker2d-v5, HalfCheetah-v5 and Swimmer-v5 against Gymnasium's own v5 code on native MuJoCo 2.2.2
 * (shared/golden/mujoco/): the logic exactly from every recorded step; the physics per step where
 * the two MuJoCo versions agree (Swimmer: nothing collides; HalfCheetah: to about 1e-8; Walker2d's
 * short random episodes), and by distribution where contacts part them (Walker2d's posture
 * controller, which stays up for hundreds of steps). Recordings: the six golden episodes (seeds 0-5)
 * and more recorded with the same recorder (test/fixtures/recordings/mujoco/): Walker2d
 * `mujoco_golden.py OUT 100 80 Walker2d-v5` (tuning seeds 100-139, held out 140-179: 20 episodes
 * of each policy in each), HalfCheetah and Swimmer `mujoco_golden.py OUT 100 20 HalfCheetah-v5
 * Swimmer-v5` (tuning 100-109, held out 110-119). Each tolerance was chosen on the golden and
 * tuning episodes by the rule below and is only checked on the held-out ones.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { recordingText } from '../tasks/conformance.ts';
import type { ConformanceReport, Task } from '../tasks/contract.ts';
import { prepareTask } from '../tasks/registry.ts';
import { logicCheck, perStepCheck } from '../tasks/mujoco-common/conformance.ts';
import { PER_STEP_POLICY, PER_STEP_TOLERANCE } from '../tasks/walker2d/conformance.ts';
import { policyName } from '../tasks/mujoco-common/recording.ts';
import { mujocoEpisode, type MujocoEpisode } from '../tasks/mujoco-common/recording.ts';
import type { MujocoEnv } from '../tasks/mujoco-common/mujoco-env.ts';
import { Walker2dEnv } from '../tasks/walker2d/environment.ts';
import { HalfCheetahEnv } from '../tasks/half-cheetah/environment.ts';
import { SwimmerEnv } from '../tasks/swimmer/environment.ts';

const IDS = ['Walker2d-v5', 'HalfCheetah-v5', 'Swimmer-v5'] as const;
type Id = typeof IDS[number];
const MAKE: Record<Id, (seed: number) => MujocoEnv> = {
  'Walker2d-v5': (seed) => new Walker2dEnv(1, seed),
  'HalfCheetah-v5': (seed) => new HalfCheetahEnv(1, seed),
  'Swimmer-v5': (seed) => new SwimmerEnv(1, seed),
};
/** Per step: all episodes, or Walker2d's random ones (its posture controller's part ways under contact, 3.7e-6 a step). */
const PER_STEP: Record<Id, { policies?: string[]; tolerance: number }> = {
  'Walker2d-v5': { policies: [PER_STEP_POLICY], tolerance: PER_STEP_TOLERANCE },
  'HalfCheetah-v5': { tolerance: 1e-6 },
  'Swimmer-v5': { tolerance: 1e-13 },
};

const GOLDEN = (id: string): string => new URL(`../../shared/golden/mujoco/${id}.json.gz`, import.meta.url).pathname;
const FIXTURE = (id: string, part: 'tuning' | 'held-out'): string => new URL(`./fixtures/recordings/mujoco/${id}.${part}.json.gz`, import.meta.url).pathname;
const read = (file: string): unknown => JSON.parse(recordingText(readFileSync(file)));
const episodesOf = (file: string): MujocoEpisode[] => (read(file) as { episodes: unknown[] }).episodes.map((e) => mujocoEpisode(e as MujocoEpisode));

/**
 * The rules the tolerances were chosen by, on the golden and tuning episodes: per step, 10x the
 * largest deviation rounded up to a power of ten (as for InvertedPendulum); by distribution, rank
 * tests at a false-alarm rate of 1% over the check (tasks/mujoco-common/distribution.ts; measured on
 * the recordings resampled against themselves by bench/distribution-false-alarm.ts).
 */
const perStepTolerance = (worst: number): number => 10 ** Math.ceil(Math.log10(10 * worst));
const worstOf = (detail: string): number => Number(/deviation of the next qpos and qvel ([\d.e+-]+)/.exec(detail)?.[1]);

function check(report: ConformanceReport, name: string) {
  const found = report.checks.find((c) => c.check === name);
  assert.ok(found, `the ${name} check ran`);
  return found;
}

describe('Conformance: Walker2d, HalfCheetah and Swimmer against Gymnasium\'s own v5 code', () => {
  const tasks: Partial<Record<Id, Task>> = {};
  before(async () => {
    for (const id of IDS) tasks[id] = await prepareTask(id);
  });

  for (const id of IDS) {
    it(`${id}: the observation, reward, reward terms (every v5 info entry) and endings of every recorded step, exactly`, () => {
      for (const file of [GOLDEN(id), FIXTURE(id, 'tuning'), FIXTURE(id, 'held-out')]) {
        const logic = logicCheck({ make: MAKE[id] }, episodesOf(file));
        assert.ok(logic.ok, `${file}: ${logic.detail}`);
        assert.match(logic.detail, /observation \(float32\) 0\.00e\+0, reward 0\.00e\+0, reward terms 0\.00e\+0; terminated\/truncated differ on 0 steps/);
      }
    });

    it(`${id}: each step from the recorded state; the tolerance is the rule on the tuning episodes, and holds on the held-out ones`, () => {
      const { policies, tolerance } = PER_STEP[id];
      const chosen = (file: string) => episodesOf(file).filter((e) => policies?.includes(policyName(e)) ?? true);
      const tuning = Math.max(...[GOLDEN(id), FIXTURE(id, 'tuning')].map((f) => worstOf(perStepCheck({ make: MAKE[id] }, chosen(f), 1).detail)));
      assert.equal(perStepTolerance(tuning), tolerance, `tuning worst ${tuning}`);
      const heldOut = check(tasks[id]!.conformance!(read(FIXTURE(id, 'held-out'))), 'physics per step');
      assert.ok(heldOut.ok, heldOut.detail);
      if (policies) assert.match(heldOut.detail, /^the 20 uniform_random episodes: each step/);
    });
  }

  it('Walker2d-v5: the random and the posture controller\'s episodes, as distributions, no rank test below its level on the held-out recordings', () => {
    const distribution = check(tasks['Walker2d-v5']!.conformance!(read(FIXTURE('Walker2d-v5', 'held-out'))), 'distribution');
    assert.ok(distribution.ok, distribution.detail);
    assert.match(distribution.detail, /uniform_random: ours \(40\)/);
    assert.match(distribution.detail, /pd_posture_torso: ours \(40\) .* \(first 300 steps\)/);
  });
});
