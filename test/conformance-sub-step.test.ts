/**
 * InvertedDoublePendulum-v5, Reacher-v5 and Ant-v5 against Gymnasium's own v5 code on native
 * MuJoCo 2.2.2 (shared/golden/mujoco/): the logic exactly where it reads qpos and qvel; what
 * reads MuJoCo's last sub-step of a step (tasks/mujoco-common/sub-step.ts: the tip's and the
 * fingertip's positions, Ant's contact forces, contact cost and forward speed) each step
 * simulated, within a tolerance; the physics per step (the pendulum, the arm: no contacts) or by
 * distribution (Ant). Recordings: the six golden episodes and more recorded with the same recorder
 * (`mujoco_golden.py OUT 100 60 Reacher-v5 InvertedDoublePendulum-v5` and `OUT 100 80 Ant-v5`,
 * test/fixtures/recordings/mujoco/): tuning seeds 0-5 and 100-129 (Ant: 100-139), held out 130-159
 * (Ant: 140-179). Each tolerance is the rule below applied to the tuning episodes, and only checked
 * on the held-out ones.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { recordingText } from '../tasks/conformance.ts';
import type { ConformanceReport } from '../tasks/contract.ts';
import { prepareTask } from '../tasks/registry.ts';
import { logicCheck, perStepCheck, type MujocoConformanceSpec } from '../tasks/mujoco-common/conformance.ts';
import { subStepCheck, subStepDeviations, type SubStepSpec } from '../tasks/mujoco-common/sub-step.ts';
import { mujocoEpisode, type MujocoEpisode } from '../tasks/mujoco-common/recording.ts';
import { ANT_CONFORMANCE, ANT_CONFORMANCE_SPEC } from '../tasks/ant/conformance.ts';
import { INVERTED_DOUBLE_PENDULUM_CONFORMANCE, INVERTED_DOUBLE_PENDULUM_CONFORMANCE_SPEC } from '../tasks/inverted-double-pendulum/conformance.ts';
import { REACHER_CONFORMANCE, REACHER_CONFORMANCE_SPEC } from '../tasks/reacher/conformance.ts';

const GOLDEN = (id: string): string => new URL(`../../shared/golden/mujoco/${id}.json.gz`, import.meta.url).pathname;
const FIXTURE = (id: string, part: 'tuning' | 'held-out'): string => new URL(`./fixtures/recordings/mujoco/${id}.${part}.json.gz`, import.meta.url).pathname;
const read = (file: string): unknown => JSON.parse(recordingText(readFileSync(file)));
const episodesOf = (file: string): MujocoEpisode[] => (read(file) as { episodes: unknown[] }).episodes.map((e) => mujocoEpisode(e as MujocoEpisode));
const tuning = (id: string): MujocoEpisode[] => [...episodesOf(GOLDEN(id)), ...episodesOf(FIXTURE(id, 'tuning'))];

/**
 * The rules the tolerances were chosen by, on the tuning episodes. Where the two MuJoCo versions
 * agree to rounding (no contacts): 10x the largest deviation, rounded up to a power of ten (0 stays
 * 0); a float32 observation entry to 1e-6 (a float32 unit in the last place at 10 is 9.5e-7).
 * Ant's contacts: twice the tuning file's mean deviation (of the contact forces, the terms, the
 * reward and each step's next qpos and qvel), rounded up to one significant figure.
 */
const powerOfTen = (worst: number): number => (worst === 0 ? 0 : 10 ** Math.ceil(Math.log10(10 * worst)));
const oneFigure = (worst: number): number => {
  const unit = 10 ** Math.floor(Math.log10(2 * worst));
  return Math.ceil((2 * worst) / unit - 1e-9) * unit;
};

function check(report: ConformanceReport, name: string) {
  const found = report.checks.find((c) => c.check === name);
  assert.ok(found, `the ${name} check ran`);
  return found;
}

function assertRule(spec: MujocoConformanceSpec, worst: ReturnType<typeof subStepDeviations>, rule: (w: number) => number, obsRule: (w: number) => number) {
  const subStep = spec.subStep as SubStepSpec;
  assert.equal(subStep.tolerance.obs, obsRule(worst.obs), `observation: tuning worst ${worst.obs}`);
  assert.equal(subStep.tolerance.reward, rule(worst.reward), `reward: tuning worst ${worst.reward}`);
  for (const [name, value] of Object.entries(worst.terms)) assert.equal(subStep.terms[name], rule(value), `${name}: tuning worst ${value}`);
}

const TASKS = [
  { id: 'InvertedDoublePendulum-v5', spec: INVERTED_DOUBLE_PENDULUM_CONFORMANCE_SPEC, conformance: INVERTED_DOUBLE_PENDULUM_CONFORMANCE },
  { id: 'Reacher-v5', spec: REACHER_CONFORMANCE_SPEC, conformance: REACHER_CONFORMANCE },
  { id: 'Ant-v5', spec: ANT_CONFORMANCE_SPEC, conformance: ANT_CONFORMANCE },
] as const;

describe('Conformance: what reads MuJoCo\'s last sub-step, and the tasks that read it', () => {
  before(async () => {
    for (const { id } of TASKS) await prepareTask(id);
  });

  for (const { id, spec } of TASKS) {
    it(`${id}: what reads qpos and qvel, exactly, on every recorded step (the last sub-step's reads left out)`, () => {
      for (const file of [GOLDEN(id), FIXTURE(id, 'tuning'), FIXTURE(id, 'held-out')]) {
        const logic = logicCheck(spec, episodesOf(file));
        assert.ok(logic.ok, `${file}: ${logic.detail}`);
        assert.match(logic.detail, /observation \(float32\) 0\.00e\+0, reward 0\.00e\+0, reward terms 0\.00e\+0; terminated\/truncated differ on 0 steps \(left to/);
      }
    });
  }

  for (const { id, spec, conformance } of TASKS.slice(0, 2)) {
    it(`${id}: each step from the recorded state, and what reads its last sub-step; the tolerances are the rule on the tuning episodes and hold on the held-out ones`, () => {
      const episodes = tuning(id);
      const physics = spec.physics as { check: 'per-step'; tolerance: number };
      const worstPhysics = Number(/deviation of the next qpos and qvel ([\d.e+-]+)/.exec(perStepCheck(spec, episodes, 0).detail)?.[1]);
      assert.equal(physics.tolerance, powerOfTen(worstPhysics), `tuning worst ${worstPhysics}`);
      const worst = subStepDeviations(spec.make, spec.subStep as SubStepSpec, episodes);
      assert.equal(worst.flags, 0);
      assertRule(spec, worst, powerOfTen, (w) => Math.max(1e-6, powerOfTen(w)));
      const report = conformance(read(FIXTURE(id, 'held-out')));
      for (const name of ['logic', 'physics per step', 'last sub-step']) assert.ok(check(report, name).ok, check(report, name).detail);
    });
  }

  it('Ant-v5: the contact forces, contact cost, forward speed and each step\'s physics (their mean deviations) within the rule\'s tolerance on the held-out episodes, and the physics as distributions, no rank test below its level', () => {
    const episodes = tuning('Ant-v5');
    const worst = subStepDeviations(ANT_CONFORMANCE_SPEC.make, ANT_CONFORMANCE_SPEC.subStep as SubStepSpec, episodes);
    assertRule(ANT_CONFORMANCE_SPEC, worst, oneFigure, oneFigure);
    // Never exactly: the contact forces part ways one sub-step apart, by up to 2 (their clip); the
    // forward speed on a few steps by more than the mean's tolerance, which is why it is a mean.
    assert.ok(worst.obsMax > 1 && worst.terms.reward_contact > 0);
    assert.ok(worst.termsMax.reward_forward > 10 * (ANT_CONFORMANCE_SPEC.subStep as SubStepSpec).terms.reward_forward);
    const perStep = [ANT_CONFORMANCE_SPEC.physics].flat().find((p) => p.check === 'per-step');
    assert.ok(perStep?.check === 'per-step' && perStep.measure === 'mean');
    const physicsMean = Number(/deviation ([\d.e+-]+), tolerance/.exec(perStepCheck(ANT_CONFORMANCE_SPEC, episodes, 0, 'mean').detail)?.[1]);
    assert.equal(perStep.tolerance, oneFigure(physicsMean), `tuning mean ${physicsMean}`);
    const report = ANT_CONFORMANCE(read(FIXTURE('Ant-v5', 'held-out')));
    for (const name of ['logic', 'physics per step', 'distribution', 'last sub-step']) assert.ok(check(report, name).ok, check(report, name).detail);
    assert.match(check(report, 'distribution').detail, /uniform_random: ours \(40\)[\s\S]*zero: ours \(40\)/);
  });

  it('a recording whose last sub-step\'s reads differ does not conform, and says by how much', () => {
    const episodes = episodesOf(GOLDEN('Reacher-v5'));
    episodes[0].steps[3].obs[8] += 0.01;
    const subStep = subStepCheck(REACHER_CONFORMANCE_SPEC.make, REACHER_CONFORMANCE_SPEC.subStep as SubStepSpec, episodes);
    assert.equal(subStep.ok, false);
    assert.match(subStep.detail, /observation 8-9: 1\.00e-2, tolerance 0\.000001/);
    // The logic check leaves that entry to the sub-step's check.
    assert.ok(logicCheck(REACHER_CONFORMANCE_SPEC, episodes).ok);
  });
});
