/**
 * One seed-run, or one chunk of it: open the candidate's reward in the sandbox, train PPO with it
 * on the task (from a checkpoint, when an earlier chunk stopped), and once the run reaches its
 * target (the budget, or a rung of a race), grade the policy on the task's true success test. A
 * fault of the candidate's code ends the run with an outcome and a reason; only faults of our own
 * (a bug, the machine) throw.
 *
 * Chunks are whole PPO updates; a run resumed from its checkpoint goes on bit for bit where the
 * environment can save itself (the classic-control tasks). The sandbox is opened afresh in every
 * chunk, with the operations the earlier chunks did counted against its budget (QuickJS's start-up
 * is not the reward's work and counts nowhere): a reward that keeps state of its own between calls
 * starts over at a chunk.
 */
import { createHash } from 'node:crypto';
import type { Task } from '../../tasks/contract.ts';
import { ppoConfigFor } from '../../core/ppo-config.ts';
import type { Budget, SeedResult } from '../shared/search/types.ts';
import { initBackend } from './backend.ts';
import { checkpointVersion, type CheckpointVersion } from './checkpoint.ts';
import { grade } from './grade.ts';
import type { Network } from './network.ts';
import { train, updatesOf, type TrainerCheckpoint, type UpdateStats } from './ppo.ts';
import { layoutOf, openRewardSandbox, RewardFault, type SandboxLimits, type SandboxUsage } from './sandbox.ts';
import { sandboxOperationsFor } from './sandbox-budget.ts';
import { stepsToHalfSuccess, termStatistics, trainSuccessArea, trainSuccessSeries } from './term-stats.ts';
import { trainingEndings } from './episode-stats.ts';

export interface SeedRunInput {
  task: Task;
  candidateId: string;
  source: string;
  seed: number;
  budget: Budget;
  /** Grade once this many steps are trained (a rung of a race). @default budget.steps */
  targetSteps?: number;
  /** Train at most this many steps in this call (whole updates, at least one). @default no limit */
  chunkSteps?: number;
  /** Where the previous chunk of this seed-run stopped (a checkpoint of this trainer: checkpoint.ts). */
  resume?: SeedCheckpoint;
  limits?: Partial<SandboxLimits>;
  onUpdate?: (stats: UpdateStats, update: number, numUpdates: number) => void;
}

/** What a chunk leaves for the next: the trainer's state and the time spent so far. */
export interface SeedCheckpoint {
  /** Which trainer wrote it: only the same one goes on from it (checkpoint.ts). */
  version: CheckpointVersion;
  trainer: TrainerCheckpoint;
  /** Environment steps trained. */
  steps: number;
  wallSeconds: number;
  sandboxSeconds: number;
  /** QuickJS operations the reward did so far: what its budget counts. */
  sandboxOperations: number;
  chunks: number;
}

export type SeedRunOutput =
  | {
      done: true;
      result: SeedResult;
      /** The trained parameters and their layout; absent when the candidate faulted. */
      policy?: { theta: Float32Array; network: Network };
      /** Where training stood when graded, to go on past a rung; absent after a fault. */
      checkpoint?: SeedCheckpoint;
    }
  | { done: false; checkpoint: SeedCheckpoint };

/** A whole seed-run in one call: what `eureka train` and the benchmarks run. */
export async function runSeed(input: SeedRunInput): Promise<Extract<SeedRunOutput, { done: true }>> {
  const out = await runSeedChunk({ ...input, chunkSteps: undefined });
  if (!out.done) throw new Error('a seed-run without a chunk limit stopped before its target');
  return out;
}

export async function runSeedChunk(input: SeedRunInput): Promise<SeedRunOutput> {
  const started = performance.now();
  const backend = await initBackend();
  const { task, resume } = input;
  const config = ppoConfigFor(task, input.seed, input.budget.steps);
  const batchSize = config.numEnvs * config.numSteps;
  const targetUpdate = Math.min(updatesOf(config), Math.max(1, Math.floor((input.targetSteps ?? input.budget.steps) / batchSize)));
  const doneBefore = resume?.trainer.update ?? 0;
  if (doneBefore > targetUpdate) throw new Error(`the checkpoint is at update ${doneBefore}, past the target's ${targetUpdate}`);
  const chunkUpdates = input.chunkSteps === undefined ? Infinity : Math.max(1, Math.floor(input.chunkSteps / batchSize));
  const stopAfterUpdate = Math.min(targetUpdate, doneBefore + chunkUpdates);

  const before = { wall: resume?.wallSeconds ?? 0, chunks: (resume?.chunks ?? 0) + 1 };
  const usedBefore: SandboxUsage = { ms: (resume?.sandboxSeconds ?? 0) * 1000, operations: resume?.sandboxOperations ?? 0 };
  const elapsed = () => before.wall + (performance.now() - started) / 1000;
  let updatesDone = doneBefore;
  const base = { task: task.id, candidateId: input.candidateId, seed: input.seed, steps: input.budget.steps, backend, chunks: before.chunks };
  const fault = (err: RewardFault, used: SandboxUsage) =>
    ({ done: true as const, result: faulted(base, updatesDone * batchSize, err, elapsed(), used) });

  let sandbox;
  try {
    // The seed-run's operations grow with its steps and its observation (sandbox-budget.ts), so a benign reward never runs out.
    const limits = { totalOperations: sandboxOperationsFor(input.budget.steps, task.obsSize + task.recordSize), ...input.limits };
    sandbox = await openRewardSandbox(input.source, layoutOf(task), limits, usedBefore);
  } catch (err) {
    if (err instanceof RewardFault) return fault(err, usedBefore);
    throw err;
  }
  try {
    const onUpdate = (stats: UpdateStats, update: number, total: number) => {
      updatesDone = update;
      input.onUpdate?.(stats, update, total);
    };
    const trained = await train(config, task, sandbox, { resume: resume?.trainer, stopAfterUpdate, onUpdate });
    const checkpoint: SeedCheckpoint = {
      version: checkpointVersion(task, input.seed, input.budget.steps, backend), trainer: trained.checkpoint, steps: trained.checkpoint.update * batchSize,
      wallSeconds: elapsed(), sandboxSeconds: sandbox.usedMs / 1000, sandboxOperations: sandbox.usedOperations, chunks: before.chunks,
    };
    if (trained.checkpoint.update < targetUpdate) return { done: false, checkpoint };
    const graded = grade(task, trained.network, trained.theta, input.seed, input.budget.evalEpisodes);
    const result: SeedResult = {
      ...base,
      stepsTrained: checkpoint.steps,
      outcome: 'trained',
      reason: '',
      success: graded.success,
      meanSuccessSteps: graded.meanSuccessSteps,
      meanReturn: graded.meanReturn,
      progress: graded.progress,
      terms: termStatistics(trained.updates),
      trainSuccessSeries: trainSuccessSeries(trained.updates),
      trainSuccessArea: trainSuccessArea(trained.updates),
      stepsToHalfSuccess: stepsToHalfSuccess(trained.updates),
      curve: trained.updates.map(({ step, meanReward, trainSuccess, episodeLength }) => ({ step, meanReward, trainSuccess, episodeLength })),
      episode: graded.episode,
      episodes: { training: trainingEndings(trained.updates), evaluation: graded.endings },
      thetaSha256: thetaSha256(trained.theta),
      wallSeconds: elapsed(),
      sandboxSeconds: sandbox.usedMs / 1000,
      sandboxOperations: sandbox.usedOperations,
    };
    return { done: true, result, policy: { theta: trained.theta, network: trained.network }, checkpoint: { ...checkpoint, wallSeconds: result.wallSeconds } };
  } catch (err) {
    if (err instanceof RewardFault) return fault(err, { ms: sandbox.usedMs, operations: sandbox.usedOperations });
    throw err;
  } finally {
    sandbox.dispose();
  }
}

/** SHA-256 of the parameters' float32 bytes: two seed-runs that end the same end with the same hash. */
export function thetaSha256(theta: Float32Array): string {
  return createHash('sha256').update(new Uint8Array(theta.buffer, theta.byteOffset, theta.byteLength)).digest('hex');
}

function faulted(
  base: Pick<SeedResult, 'task' | 'candidateId' | 'seed' | 'steps' | 'backend' | 'chunks'>,
  stepsTrained: number,
  fault: RewardFault,
  wallSeconds: number,
  used: SandboxUsage,
): SeedResult {
  return {
    ...base,
    stepsTrained,
    outcome: fault.outcome,
    reason: fault.message,
    success: 0,
    meanSuccessSteps: null,
    meanReturn: null,
    progress: null,
    terms: {},
    trainSuccessSeries: [],
    trainSuccessArea: null,
    stepsToHalfSuccess: null,
    curve: [],
    episode: null,
    episodes: null,
    thetaSha256: null,
    wallSeconds,
    sandboxSeconds: used.ms / 1000,
    sandboxOperations: used.operations,
  };
}
