/**
 * Issue 42, item 2: conformance catches a broken port. Each MuJoCo task's port is broken on
 * purpose (test/support/broken-ports.ts: the forward term's sign, `dt` doubled, a healthy range off
 * by 10%, two observation entries swapped, the frame skip one more; each where the task has it),
 * and the checks `eureka conformance` runs (the task's conformance spec, with the broken port as
 * its `make`) fail on recorded episodes, where the same checks pass the port as it is.
 *
 * The episodes are the cheapest that show every fault of a task: one recorded episode each (the
 * shortest found among the golden, tuning and held-out recordings). A file of one episode is too
 * few for the distribution check, which fails it whatever the port: the tests name the checks
 * that tell the broken port from the true one.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { recordingText } from '../tasks/conformance.ts';
import type { ConformanceReport } from '../tasks/contract.ts';
import { prepareTask } from '../tasks/registry.ts';
import { mujocoConformance, type MujocoConformanceSpec } from '../tasks/mujoco-common/conformance.ts';
import { ANT_CONFORMANCE_SPEC } from '../tasks/ant/conformance.ts';
import { HALF_CHEETAH_CONFORMANCE_SPEC } from '../tasks/half-cheetah/conformance.ts';
import { HOPPER_CONFORMANCE_SPEC } from '../tasks/hopper/conformance.ts';
import { INVERTED_DOUBLE_PENDULUM_CONFORMANCE_SPEC } from '../tasks/inverted-double-pendulum/conformance.ts';
import { INVERTED_PENDULUM_CONFORMANCE_SPEC } from '../tasks/inverted-pendulum/conformance.ts';
import { REACHER_CONFORMANCE_SPEC } from '../tasks/reacher/conformance.ts';
import { SWIMMER_CONFORMANCE_SPEC } from '../tasks/swimmer/conformance.ts';
import { WALKER2D_CONFORMANCE_SPEC } from '../tasks/walker2d/conformance.ts';
import { BROKEN, type Fault } from './support/broken-ports.ts';

type Check = 'logic' | 'physics per step' | 'last sub-step';
interface Case {
  spec: MujocoConformanceSpec;
  /** The recording (golden, tuning or held-out) and the seed of its episode. */
  file: string;
  seed: number;
  /** The checks each fault fails. */
  caught: Partial<Record<Fault, Check[]>>;
}

const FILE = (id: string, part?: 'tuning' | 'held-out'): string => part === undefined
  ? new URL(`../../shared/golden/mujoco/${id}.json.gz`, import.meta.url).pathname
  : new URL(`./fixtures/recordings/mujoco/${id}.${part}.json.gz`, import.meta.url).pathname;

// Where the port reads `dt` (the forward speed) the logic check catches a frame skip through it
// too; the per-step check catches it wherever the physics is checked step by step.
const CASES: Record<string, Case> = {
  'Hopper-v5': {
    spec: HOPPER_CONFORMANCE_SPEC, file: FILE('Hopper-v5', 'held-out'), seed: 134,
    caught: { 'forward sign': ['logic'], 'dt doubled': ['logic'], 'healthy range +10%': ['logic'], 'observation swapped': ['logic'], 'frame skip +1': ['logic'] },
  },
  'Walker2d-v5': {
    spec: WALKER2D_CONFORMANCE_SPEC, file: FILE('Walker2d-v5', 'tuning'), seed: 114,
    caught: { 'forward sign': ['logic'], 'dt doubled': ['logic'], 'healthy range +10%': ['logic'], 'observation swapped': ['logic'], 'frame skip +1': ['logic', 'physics per step'] },
  },
  'HalfCheetah-v5': {
    spec: HALF_CHEETAH_CONFORMANCE_SPEC, file: FILE('HalfCheetah-v5', 'tuning'), seed: 100,
    caught: { 'forward sign': ['logic'], 'dt doubled': ['logic'], 'observation swapped': ['logic'], 'frame skip +1': ['logic', 'physics per step'] },
  },
  'Swimmer-v5': {
    spec: SWIMMER_CONFORMANCE_SPEC, file: FILE('Swimmer-v5', 'tuning'), seed: 101,
    caught: { 'forward sign': ['logic'], 'dt doubled': ['logic'], 'observation swapped': ['logic'], 'frame skip +1': ['logic', 'physics per step'] },
  },
  // Ant's forward speed reads the last sub-step: its sign and dt are the last sub-step check's, on the mean deviation.
  'Ant-v5': {
    spec: ANT_CONFORMANCE_SPEC, file: FILE('Ant-v5', 'tuning'), seed: 102,
    caught: {
      'forward sign': ['last sub-step'], 'dt doubled': ['last sub-step'], 'healthy range +10%': ['logic', 'last sub-step'],
      'observation swapped': ['logic'], 'frame skip +1': ['physics per step', 'last sub-step'],
    },
  },
  'InvertedPendulum-v5': {
    spec: INVERTED_PENDULUM_CONFORMANCE_SPEC, file: FILE('InvertedPendulum-v5', 'tuning'), seed: 110,
    caught: { 'healthy range +10%': ['logic'], 'observation swapped': ['logic'], 'frame skip +1': ['physics per step'] },
  },
  // Its ending reads the tip's height at the last sub-step: the sub-step check compares the endings.
  'InvertedDoublePendulum-v5': {
    spec: INVERTED_DOUBLE_PENDULUM_CONFORMANCE_SPEC, file: FILE('InvertedDoublePendulum-v5'), seed: 4,
    caught: { 'healthy range +10%': ['last sub-step'], 'observation swapped': ['logic'], 'frame skip +1': ['physics per step', 'last sub-step'] },
  },
  'Reacher-v5': {
    spec: REACHER_CONFORMANCE_SPEC, file: FILE('Reacher-v5'), seed: 0,
    caught: { 'observation swapped': ['logic'], 'frame skip +1': ['physics per step', 'last sub-step'] },
  },
};

/** The recording with only the chosen episode. */
function oneEpisode(file: string, seed: number): unknown {
  const recording = JSON.parse(recordingText(readFileSync(file))) as { episodes: Array<{ seed?: number }> };
  const episodes = recording.episodes.filter((e) => e.seed === seed);
  assert.equal(episodes.length, 1, `${file} has seed ${seed}`);
  return { ...recording, episodes };
}

const failing = (report: ConformanceReport): string[] => report.checks.filter((c) => !c.ok).map((c) => c.check);
const verdicts = (report: ConformanceReport): string => report.checks.map((c) => `${c.check}: ${c.ok ? 'conforms' : 'DOES NOT CONFORM'}: ${c.detail}`).join('\n');

describe('Conformance catches a broken port', () => {
  before(async () => {
    for (const id of Object.keys(CASES)) await prepareTask(id);
  });

  it('covers every fault each task can have, and says which it cannot', () => {
    assert.deepEqual(Object.keys(BROKEN).sort(), Object.keys(CASES).sort());
    for (const [id, { caught }] of Object.entries(CASES)) assert.deepEqual(Object.keys(caught).sort(), Object.keys(BROKEN[id]).sort(), id);
  });

  for (const [id, { spec, file, seed, caught }] of Object.entries(CASES)) {
    describe(id, () => {
      let recording: unknown;
      let honest: ConformanceReport;
      before(() => {
        recording = oneEpisode(file, seed);
        honest = mujocoConformance(spec)(recording);
      });

      for (const [fault, checks] of Object.entries(caught) as Array<[Fault, Check[]]>) {
        it(`${fault}: ${checks.join(' and ')} fail${checks.length === 1 ? 's' : ''} on seed ${seed}, where the port as it is passes`, () => {
          const report = mujocoConformance({ ...spec, make: BROKEN[id][fault]! })(recording);
          for (const check of checks) {
            assert.ok(failing(report).includes(check), `${check} should fail:\n${verdicts(report)}`);
            assert.ok(!failing(honest).includes(check), `${check} should pass the port as it is:\n${verdicts(honest)}`);
          }
        });
      }
    });
  }
});
