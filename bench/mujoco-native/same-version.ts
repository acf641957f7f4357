/**
 * The eight MuJoCo tasks against Gymnasium's own v5 code on native MuJoCo 3.14.0, our engine's
 * version, on whole episodes: each task's `sameVersion` tolerances against the rule
 * (tasks/mujoco-common/same-version.ts) applied to the tuning recordings, then the task's own
 * conformance check of the held-out ones. The recordings in test/fixtures/recordings/mujoco-3.14/
 * are these episodes' first steps (kept small for the repository); this reads the whole ones:
 *
 *   python bench/mujoco-native/record-gymnasium.py DIR 100 20 --label tuning
 *   python bench/mujoco-native/record-gymnasium.py DIR 120 20 --label held-out
 *   npx tsx bench/mujoco-native/same-version.ts DIR [--json]
 *
 * (docs/mujoco.md, "On MuJoCo 3.14", says where the Python comes from.) With the fixtures' folder
 * as DIR it checks them the same way.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordingText } from '../../tasks/conformance.ts';
import { prepareTask } from '../../tasks/registry.ts';
import type { MujocoConformanceSpec } from '../../tasks/mujoco-common/conformance.ts';
import { mujocoEpisode, type MujocoEpisode } from '../../tasks/mujoco-common/recording.ts';
import { sameVersionTuning } from '../../tasks/mujoco-common/same-version.ts';
import { SAME_VERSION_SPECS } from './same-version-specs.ts';
import { argError, benchArgs } from '../args.ts';

const { values: args, positionals } = benchArgs(import.meta.url, { options: { json: { type: 'boolean' } }, allowPositionals: true });
const [dir] = positionals;
if (dir === undefined) argError(import.meta.url, 'needs DIR');
if (positionals.length > 1) argError(import.meta.url, `unexpected argument '${positionals[1]}'`);
const json = args.json === true;

const read = (file: string): { episodes: unknown[] } => JSON.parse(recordingText(readFileSync(file))) as { episodes: unknown[] };
const episodesOf = (file: string): MujocoEpisode[] => read(file).episodes.map((e) => mujocoEpisode(e as MujocoEpisode));

/** The tolerances the spec declares, in the shape the rule gives them. */
function declared(spec: MujocoConformanceSpec) {
  const physics = [spec.sameVersion?.physics ?? []].flat().find((p) => p.check === 'per-step');
  const subStep = spec.sameVersion?.subStep;
  return {
    perStep: physics?.check === 'per-step' ? physics.tolerance : null,
    ...(subStep === undefined ? {} : { obs: subStep.tolerance.obs, reward: subStep.tolerance.reward, terms: subStep.terms }),
  };
}

const rows = [];
for (const [id, spec] of Object.entries(SAME_VERSION_SPECS)) {
  const task = await prepareTask(id);
  const tuning = sameVersionTuning(spec, episodesOf(join(dir, `${id}.tuning.json.gz`)));
  const heldOut = task.conformance!(read(join(dir, `${id}.held-out.json.gz`)));
  const row = {
    task: id, tuning, declared: declared(spec), ruleHolds: JSON.stringify(declared(spec)) === JSON.stringify(tuning.tolerance),
    heldOut: heldOut.checks.map((c) => ({ check: c.check, ok: c.ok, detail: c.detail })), engine: heldOut.engine,
  };
  rows.push(row);
  if (!json) {
    const e = (x: number | undefined) => (x === undefined ? '-' : x.toExponential(1));
    process.stdout.write(`${id}: tuning worst per step ${e(tuning.worst.perStep)} -> ${tuning.tolerance.perStep} (declared ${row.declared.perStep})` +
      (tuning.worst.terms === undefined ? '' : `; last sub-step: observation ${e(tuning.worst.obs)}, reward ${e(tuning.worst.reward)}, ` +
        `${Object.entries(tuning.worst.terms).map(([k, v]) => `${k} ${e(v)}`).join(', ')}`) +
      `; the rule gives the declared tolerances: ${row.ruleHolds ? 'yes' : 'NO'}\n`);
    for (const c of heldOut.checks) process.stdout.write(`  held out, ${c.check}: ${c.ok ? 'conforms' : 'DOES NOT CONFORM'}: ${c.detail}\n`);
  }
}
if (json) process.stdout.write(`${JSON.stringify(rows)}\n`);
