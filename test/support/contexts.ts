/** Propose contexts the prompt, proposer and reflection tests ask about. */
import { getTask } from '../../tasks/registry.ts';
import type { ProposeContext } from '../../functions/propose/proposer.ts';
import type { ReflectionBest } from '../../functions/shared/words/reflection.ts';
import type { TermStats } from '../../functions/shared/search/types.ts';

const ramp = (a: number, b: number): TermStats => {
  const series = Array.from({ length: 10 }, (_, i) => a + ((b - a) * i) / 9);
  return { early: a, late: b, series };
};

/** MountainCar's person's shaping, as the best so far of a made-up search. */
const HUMAN_SHAPING = { name: 'human_shaping', ...getTask('MountainCar-v0').baselines.human };

export const GEN1: ProposeContext = {
  task: 'MountainCar-v0',
  budget: { steps: 150_000, seeds: 5, evalEpisodes: 20 },
  generation: 1, k: 6, randomSeed: 0, model: 'claude-sonnet-5-5', best: null, scoreboard: [], bestByGeneration: [], feedback: null,
};

export const BEST: ReflectionBest = {
  candidate: { ...HUMAN_SHAPING, name: 'g1-energy-shaping-2' },
  generation: 1,
  success: 0.57,
  seeds: [
    { seed: 1, success: 0.95, progress: 0.5, outcome: 'trained', reason: '' },
    { seed: 2, success: 0.8, progress: 0.3642, outcome: 'trained', reason: '' },
    { seed: 3, success: 0, progress: null, outcome: 'timeout', reason: 'total sandbox budget of 60 s exceeded' },
  ],
  meanSuccessSteps: 121.5,
  meanReturn: -151.4,
  progress: 0.4321,
  terms: { step: ramp(-1, -1), shaping: ramp(0.12, 30), goal: ramp(0, 0.0042) },
  trainSuccessSeries: [0, 0, 0.05, 0.1, 0.2, 0.4, 0.6, 0.7, 0.8, 0.85],
};

export const GEN2: ProposeContext = {
  ...GEN1,
  generation: 2,
  best: BEST,
  scoreboard: [
    { name: 'g1-energy-shaping-2', idea: 'Energy shaping.', success: 0.57, outcome: 'trained', reason: '' },
    { name: 'hostile_exfiltrate', idea: 'Reads process.env.', success: 0, outcome: 'error', reason: 'ReferenceError: process is not defined' },
  ],
  bestByGeneration: [{ generation: 1, name: 'g1-energy-shaping-2', success: 0.57, bestSoFar: 0.57 }],
};
