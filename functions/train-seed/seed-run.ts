/**
 * One seed-run: open the candidate's reward in the sandbox, train PPO with it on the task, grade
 * the policy on the task's true success test. A fault of the candidate's code ends the run with an
 * outcome and a reason; only faults of our own (a bug, the machine) throw.
 */
import type { Task } from '../../tasks/contract.ts';
import type { Budget, SeedResult } from '../shared/types.ts';
import { initBackend } from './backend.ts';
import { grade } from './grade.ts';
import type { Network } from './network.ts';
import { ppoConfigFor } from '../../core/ppo-config.ts';
import { train, type UpdateStats } from './ppo.ts';
import { layoutOf, openRewardSandbox, RewardFault, type SandboxLimits } from './sandbox.ts';
import { termStatistics, trainSuccessSeries } from './term-stats.ts';

export interface SeedRunInput {
  task: Task;
  candidateId: string;
  source: string;
  seed: number;
  budget: Budget;
  limits?: Partial<SandboxLimits>;
  onUpdate?: (stats: UpdateStats, update: number, numUpdates: number) => void;
}

export interface SeedRunOutput {
  result: SeedResult;
  /** The trained parameters and their layout; absent when the candidate faulted. */
  policy?: { theta: Float32Array; network: Network };
}

export async function runSeed(input: SeedRunInput): Promise<SeedRunOutput> {
  const started = performance.now();
  const backend = await initBackend();
  const { task } = input;
  const base = { task: task.id, candidateId: input.candidateId, seed: input.seed, steps: input.budget.steps, backend };
  const elapsed = () => (performance.now() - started) / 1000;

  let sandbox;
  try {
    sandbox = await openRewardSandbox(input.source, layoutOf(task), input.limits);
  } catch (err) {
    if (err instanceof RewardFault) return { result: faulted(base, err, elapsed(), 0) };
    throw err;
  }
  try {
    const trained = await train(ppoConfigFor(task, input.seed, input.budget.steps), task, sandbox, input.onUpdate);
    const graded = grade(task, trained.network, trained.theta, input.seed, input.budget.evalEpisodes);
    const result: SeedResult = {
      ...base,
      outcome: 'trained',
      reason: '',
      success: graded.success,
      meanSuccessSteps: graded.meanSuccessSteps,
      meanReturn: graded.meanReturn,
      diagnostic: graded.diagnostic,
      terms: termStatistics(trained.updates),
      trainSuccessSeries: trainSuccessSeries(trained.updates),
      curve: trained.updates.map(({ step, meanReward, trainSuccess, episodeLength }) => ({ step, meanReward, trainSuccess, episodeLength })),
      episode: graded.episode,
      wallSeconds: elapsed(),
      sandboxSeconds: sandbox.usedMs / 1000,
    };
    return { result, policy: { theta: trained.theta, network: trained.network } };
  } catch (err) {
    if (err instanceof RewardFault) return { result: faulted(base, err, elapsed(), sandbox.usedMs / 1000) };
    throw err;
  } finally {
    sandbox.dispose();
  }
}

function faulted(
  base: Pick<SeedResult, 'task' | 'candidateId' | 'seed' | 'steps' | 'backend'>,
  fault: RewardFault,
  wallSeconds: number,
  sandboxSeconds: number,
): SeedResult {
  return {
    ...base,
    outcome: fault.outcome,
    reason: fault.message,
    success: 0,
    meanSuccessSteps: null,
    meanReturn: null,
    diagnostic: null,
    terms: {},
    trainSuccessSeries: [],
    curve: [],
    episode: null,
    wallSeconds,
    sandboxSeconds,
  };
}
