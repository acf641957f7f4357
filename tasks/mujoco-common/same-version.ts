/**
 * How a task's `sameVersion` tolerances were chosen (conformance.ts): on recordings of Gymnasium's
 * own v5 code on native MuJoCo 3.14.0, our engine's version, where the official native build and
 * the WebAssembly build step alike to rounding, contacts included. The rule, applied to the tuning
 * episodes' largest deviations: 10 times the worst, rounded up to a power of ten, and never below
 * what 10 times float64's epsilon gives (1e-14), since a worst of 0 on some episodes is one
 * rounding away on others (InvertedDoublePendulum's distance penalty: 0 on seeds 100-119, 3.3e-16
 * on seeds 120-139); a float32 observation entry at least 1e-6 (a float32 unit in the last place at
 * 10 is 9.5e-7). test/conformance-mujoco-314.test.ts and bench/mujoco-native/same-version.ts apply it.
 */
import { perStepDeviations, type MujocoConformanceSpec } from './conformance.ts';
import type { MujocoEpisode } from './recording.ts';
import { subStepDeviations } from './sub-step.ts';

/** The rule on a float64 quantity's worst deviation. */
export const sameVersionRule = (worst: number): number => 10 ** Math.ceil(Math.log10(10 * Math.max(worst, Number.EPSILON)));

/** The rule on a float32 observation entry's worst deviation. */
export const sameVersionFloat32Rule = (worst: number): number => Math.max(1e-6, sameVersionRule(worst));

/** The largest deviations of the tuning episodes, and the tolerances the rule makes of them. */
export interface SameVersionTuning {
  worst: { perStep: number; obs?: number; reward?: number; terms?: Record<string, number> };
  tolerance: { perStep: number; obs?: number; reward?: number; terms?: Record<string, number> };
}

/** Applies the rule to the tuning episodes under the spec's sameVersion checks (every deviation its largest). */
export function sameVersionTuning(spec: MujocoConformanceSpec, episodes: MujocoEpisode[]): SameVersionTuning {
  const perStep = perStepDeviations(spec, episodes).worst;
  const subStep = spec.sameVersion?.subStep;
  if (subStep === undefined) return { worst: { perStep }, tolerance: { perStep: sameVersionRule(perStep) } };
  const d = subStepDeviations(spec.make, { ...subStep, obsMeasure: 'max', termsMeasure: 'max' }, episodes);
  const rule = (terms: Record<string, number>) => Object.fromEntries(Object.entries(terms).map(([name, w]) => [name, sameVersionRule(w)]));
  return {
    worst: { perStep, obs: d.obsMax, reward: d.rewardMax, terms: d.termsMax },
    tolerance: { perStep: sameVersionRule(perStep), obs: sameVersionFloat32Rule(d.obsMax), reward: sameVersionRule(d.rewardMax), terms: rule(d.termsMax) },
  };
}
