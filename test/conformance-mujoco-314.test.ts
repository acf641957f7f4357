/**
 * The eight MuJoCo tasks against Gymnasium's own v5 code on native MuJoCo 3.14.0, the version of
 * our WebAssembly build (bench/mujoco-native/record-gymnasium.py over the official `mujoco` wheel:
 * test/fixtures/recordings/mujoco-3.14/README.md). The two builds step alike to rounding, contacts
 * included, so every task's physics is checked per step here, Hopper's, Walker2d's and Ant's too
 * (on the 2.2.2 recordings they are checked by distribution), and Ant's contact forces and contact
 * cost per step. Each tolerance is the rule of tasks/mujoco-common/same-version.ts on the whole
 * tuning episodes (seeds 100-119; bench/mujoco-native/same-version.ts reads them); the fixtures are
 * those episodes' first steps (tuning) and the held-out seeds 120-139's.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { recordingText } from '../tasks/conformance.ts';
import type { Task } from '../tasks/contract.ts';
import { prepareTask } from '../tasks/registry.ts';
import { mujocoConformance, recordedVersion, type MujocoConformanceSpec } from '../tasks/mujoco-common/conformance.ts';
import { mujocoEpisode, type MujocoEpisode } from '../tasks/mujoco-common/recording.ts';
import { sameVersionRule, sameVersionTuning } from '../tasks/mujoco-common/same-version.ts';
import { subStepCheck } from '../tasks/mujoco-common/sub-step.ts';
import { ANT_CONFORMANCE_SPEC } from '../tasks/ant/conformance.ts';
import { HOPPER_CONFORMANCE_SPEC } from '../tasks/hopper/conformance.ts';
import { REACHER_CONFORMANCE_SPEC } from '../tasks/reacher/conformance.ts';
import { SAME_VERSION_SPECS } from '../bench/mujoco-native/same-version-specs.ts';
import { eureka } from './support/eureka-cli.ts';

const SPECS = SAME_VERSION_SPECS;
/** What the whole tuning episodes (seeds 100-119) gave per step, as bench/mujoco-native/same-version.ts printed it. */
const WHOLE_TUNING_WORST: Record<string, number> = {
  'Hopper-v5': 8.9e-16, 'Walker2d-v5': 2.7e-13, 'Ant-v5': 1.7e-14, 'HalfCheetah-v5': 1.9e-12,
  'Swimmer-v5': 4.7e-15, 'InvertedPendulum-v5': 0, 'InvertedDoublePendulum-v5': 8.9e-16, 'Reacher-v5': 0,
};

const FIXTURE = (id: string, part: 'tuning' | 'held-out'): string => new URL(`./fixtures/recordings/mujoco-3.14/${id}.${part}.json.gz`, import.meta.url).pathname;
const GOLDEN = (id: string): string => new URL(`../../shared/golden/mujoco/${id}.json.gz`, import.meta.url).pathname;
const read = (file: string): { source?: Record<string, unknown>; episodes: unknown[] } => JSON.parse(recordingText(readFileSync(file))) as { episodes: unknown[] };
const episodesOf = (file: string): MujocoEpisode[] => read(file).episodes.map((e) => mujocoEpisode(e as MujocoEpisode));
const perStepTolerance = (spec: MujocoConformanceSpec): number => {
  const physics = [spec.sameVersion?.physics ?? []].flat();
  assert.equal(physics.length, 1, 'one physics check on the same version');
  assert.ok(physics[0].check === 'per-step' && (physics[0].measure ?? 'max') === 'max', 'each step held to its largest deviation');
  return physics[0].tolerance;
};

describe('Conformance on MuJoCo 3.14.0: Gymnasium\'s own v5 code on the official native build of our engine\'s version', () => {
  const tasks: Record<string, Task> = {};
  before(async () => {
    for (const id of Object.keys(SPECS)) tasks[id] = await prepareTask(id);
  });

  for (const [id, spec] of Object.entries(SPECS)) {
    it(`${id}: the held-out episodes (seeds 120-139) conform per step, with the tolerances the rule gave on the tuning ones`, () => {
      const recording = read(FIXTURE(id, 'held-out'));
      assert.equal(recordedVersion(recording), '3.14.0');
      const report = tasks[id].conformance!(recording);
      assert.match(report.engine ?? '', /recorded on MuJoCo 3\.14\.0, ours is 3\.14\.0: the checks for the same version/);
      const names = report.checks.map((c) => c.check);
      assert.deepEqual(names, spec.sameVersion?.subStep ? ['logic', 'physics per step', 'last sub-step'] : ['logic', 'physics per step']);
      for (const check of report.checks) assert.ok(check.ok, `${check.check}: ${check.detail}`);
      assert.match(report.checks[0].detail, /observation \(float32\) 0\.00e\+0, reward 0\.00e\+0, reward terms 0\.00e\+0; terminated\/truncated differ on 0 steps/);
      assert.match(report.checks[1].detail, new RegExp(`tolerance ${perStepTolerance(spec)}$`));

      // The tolerance is the rule on the whole tuning episodes; the fixture holds their first steps,
      // whose worst can only be smaller.
      assert.equal(perStepTolerance(spec), sameVersionRule(WHOLE_TUNING_WORST[id]));
      const tuning = sameVersionTuning(spec, episodesOf(FIXTURE(id, 'tuning')));
      assert.ok(tuning.worst.perStep <= WHOLE_TUNING_WORST[id] * 1.05, `tuning fixture worst ${tuning.worst.perStep}`);
      const subStep = spec.sameVersion?.subStep;
      if (subStep) {
        assert.ok((tuning.tolerance.obs ?? Infinity) <= subStep.tolerance.obs && (tuning.tolerance.reward ?? Infinity) <= subStep.tolerance.reward);
        for (const [name, value] of Object.entries(tuning.tolerance.terms ?? {})) assert.ok(value <= subStep.terms[name], `${name}: the rule gives ${value}`);
      }
    });
  }

  it('Ant-v5: the contact forces, contact cost and forward speed per step need the torso\'s "before" from our previous step, as Gymnasium\'s reads MuJoCo\'s', () => {
    const episodes = episodesOf(FIXTURE('Ant-v5', 'tuning'));
    const subStep = ANT_CONFORMANCE_SPEC.sameVersion!.subStep!;
    assert.ok(subStepCheck(ANT_CONFORMANCE_SPEC.make, subStep, episodes).ok);
    // Recomputed from the recorded qpos, the torso's position is where the step ended, not where its
    // last sub-step began: the speed is off by up to 0.04 m/s, the contact forces are not.
    const recomputed = subStepCheck(ANT_CONFORMANCE_SPEC.make, { ...subStep, continues: false }, episodes);
    assert.equal(recomputed.ok, false);
    assert.match(recomputed.detail, /observation 27-104: 0\.00e\+0, .*reward_contact [\d.]+e-1[4-7] .*reward_forward [\d.]+e-2/);
  });

  it('a 3.14 recording one step of which is off by 1e-9 does not conform; a 2.2.2 recording still gets the checks for 2.2.2', () => {
    const recording = read(FIXTURE('Hopper-v5', 'held-out')) as { episodes: Array<{ steps: Array<{ qvel: number[] }> }> };
    recording.episodes[0].steps[5].qvel[3] += 1e-9;
    const physics = mujocoConformance(HOPPER_CONFORMANCE_SPEC)(recording).checks.find((c) => c.check === 'physics per step');
    assert.equal(physics?.ok, false, physics?.detail);
    assert.match(physics?.detail ?? '', /1\.00e-9 \(seed 120 step [67]\), tolerance 1e-14/);

    const old = mujocoConformance(REACHER_CONFORMANCE_SPEC)(read(GOLDEN('Reacher-v5')));
    assert.match(old.engine ?? '', /^recorded on MuJoCo 2\.2\.2, ours is 3\.14\.0$/);
    assert.match(old.checks.find((c) => c.check === 'physics per step')?.detail ?? '', /tolerance 0\.000001$/);
  });

  it('`eureka conformance --task Hopper-v5` passes a 3.14 recording on its "physics per step" check', async () => {
    const run = await eureka(['conformance', '--task', 'Hopper-v5', FIXTURE('Hopper-v5', 'held-out')]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /recorded on MuJoCo 3\.14\.0, ours is 3\.14\.0: the checks for the same version; checked: logic, physics per step/);
    assert.match(run.stdout, /physics per step: conforms: .* tolerance 1e-14/);
    assert.match(run.stdout, /Hopper-v5: conforms \(logic, physics per step\)/);
  });
});
