/**
 * One seed-run: open the candidate's reward in the sandbox, train PPO with it, grade the policy on
 * the true task. A fault of the candidate's code ends the run with an outcome and a reason; only
 * faults of our own (a bug, the machine) throw.
 */
import type { Budget, SeedResult } from '../shared/types.ts';
import { initBackend } from './backend.ts';
import { grade } from './grade.ts';
import { DEFAULT_PPO_CONFIG, train, type UpdateStats } from './ppo.ts';
import { RewardFault, openRewardSandbox, type SandboxLimits } from './sandbox.ts';
import { termStatistics, trainSuccessSeries } from './term-stats.ts';

export interface SeedRunInput {
  candidateId: string;
  source: string;
  seed: number;
  budget: Budget;
  limits?: Partial<SandboxLimits>;
  onUpdate?: (stats: UpdateStats, update: number, numUpdates: number) => void;
}

export interface SeedRunOutput {
  result: SeedResult;
  /** The trained parameters; absent when the candidate faulted. */
  theta?: Float32Array;
}

export async function runSeed(input: SeedRunInput): Promise<SeedRunOutput> {
  const started = performance.now();
  const backend = await initBackend();
  const base = { candidateId: input.candidateId, seed: input.seed, steps: input.budget.steps, backend };
  const elapsed = () => (performance.now() - started) / 1000;

  let sandbox;
  try {
    sandbox = await openRewardSandbox(input.source, input.limits);
  } catch (err) {
    if (err instanceof RewardFault) return { result: faulted(base, err, elapsed(), 0) };
    throw err;
  }
  try {
    const config = { ...DEFAULT_PPO_CONFIG, seed: input.seed, totalTimesteps: input.budget.steps };
    const trained = await train(config, sandbox, input.onUpdate);
    const graded = grade(trained.theta, input.seed, input.budget.evalEpisodes);
    const result: SeedResult = {
      ...base,
      outcome: 'trained',
      reason: '',
      success: graded.success,
      meanStepsToFlag: graded.meanStepsToFlag,
      meanMaxPosition: graded.meanMaxPosition,
      terms: termStatistics(trained.updates),
      trainSuccessSeries: trainSuccessSeries(trained.updates),
      curve: trained.updates.map(({ step, meanReward, trainSuccess, episodeLength }) => ({ step, meanReward, trainSuccess, episodeLength })),
      episode: graded.episode,
      wallSeconds: elapsed(),
      sandboxSeconds: sandbox.usedMs / 1000,
    };
    return { result, theta: trained.theta };
  } catch (err) {
    if (err instanceof RewardFault) return { result: faulted(base, err, elapsed(), sandbox.usedMs / 1000) };
    throw err;
  } finally {
    sandbox.dispose();
  }
}

function faulted(
  base: Pick<SeedResult, 'candidateId' | 'seed' | 'steps' | 'backend'>,
  fault: RewardFault,
  wallSeconds: number,
  sandboxSeconds: number,
): SeedResult {
  return {
    ...base,
    outcome: fault.outcome,
    reason: fault.message,
    success: 0,
    meanStepsToFlag: null,
    meanMaxPosition: 0,
    terms: {},
    trainSuccessSeries: [],
    curve: [],
    episode: { positions: [], velocities: [] },
    wallSeconds,
    sandboxSeconds,
  };
}
