/**
 * `eureka train --reward FILE` (or `--baseline human|environment`, one of the task's own two): one
 * graded seed-run of a reward, on this machine or (--remote) on the deployed TrainSeed. Exits 5 when
 * the seed-run did not train (exit-codes.ts).
 */
import cliProgress from 'cli-progress';
import { z } from 'zod';
import { BASELINE_NAMES, type BaselineName, type Task } from '../../tasks/contract.ts';
import { getTask } from '../../tasks/registry.ts';
import { runSeedChunk, type SeedCheckpoint } from '../../functions/train-seed/seed-run.ts';
import { decodeTyped, encodeTyped } from '../../functions/train-seed/typed-container.ts';
import type { Budget, SeedResult } from '../../functions/shared/search/types.ts';
import { DEFAULT_STACK_NAME, MAX_SEED_RUN_STEPS } from '../../infra/config.ts';
import { trainRemotely } from '../remote-seed-run.ts';
import { intFlag, parseFlags, UsageError } from '../flags.ts';
import { taskFlag } from '../task-flag.ts';
import { readUserFile } from '../read-file.ts';
import { EXIT } from '../exit-codes.ts';
import { noteRoundedSteps } from '../steps-note.ts';
import { basename, dirname, resolve } from 'node:path';
import { FsBlobStore } from '../../functions/shared/store/blob-fs.ts';
import { savePolicy } from '../../functions/train-seed/policy-io.ts';
import type { Network } from '../../functions/train-seed/network.ts';

type TrainedPolicy = { theta: Float32Array; network: Network };

const TrainFlags = z.object({
  reward: z.string().min(1).optional(),
  /** One of the task's two baselines instead of a file: a search's fresh check of them, seed for seed. */
  baseline: z.enum(BASELINE_NAMES, { error: `must be ${BASELINE_NAMES.join(' or ')}` }).optional(),
  task: taskFlag(),
  seed: intFlag(0, 2 ** 31 - 1).default(0),
  /** Default: the task's measured budget. */
  steps: intFlag(2048, MAX_SEED_RUN_STEPS).optional(),
  evalEpisodes: intFlag(1, 1000).optional(),
  chunkSteps: intFlag(1, MAX_SEED_RUN_STEPS).optional(),
  /** Run on the deployed TrainSeed function of --stack instead of here. */
  remote: z.boolean().default(false),
  stack: z.string().min(1).default(DEFAULT_STACK_NAME),
  /** A folder to save the trained policy in, as a search publishes one (for `eureka bank --add-policy`). */
  savePolicy: z.string().min(1).optional(),
  json: z.boolean().default(false),
});

export async function trainCommand(raw: unknown): Promise<void> {
  const flags = parseFlags(TrainFlags, raw);
  const task = getTask(flags.task);
  const { candidateId, source } = await rewardToTrain(task, flags.reward, flags.baseline);
  const budget = { steps: flags.steps ?? task.budget.steps, evalEpisodes: flags.evalEpisodes ?? task.budget.evalEpisodes };
  noteRoundedSteps(task, flags.steps, '--steps');
  if (flags.remote && flags.savePolicy !== undefined) throw new UsageError('--save-policy saves a policy trained here: it does not go with --remote');
  const { result, policy } = flags.remote
    ? { result: await trainRemotely(flags.stack, task.id, source, flags.seed, budget, flags.chunkSteps), policy: undefined }
    : await trainHere(task, candidateId, source, flags.seed, budget, flags.chunkSteps);
  if (flags.savePolicy !== undefined && policy !== undefined) {
    const dir = resolve(flags.savePolicy);
    await savePolicy(policy.network, policy.theta, new FsBlobStore(dirname(dir)), basename(dir));
  }
  if (result.outcome !== 'trained') process.exitCode = EXIT.notTrained;
  if (flags.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else process.stdout.write(describe(task, result));
}

/** The reward's file, or the baseline's code as the task declares it: exactly one of the two. */
async function rewardToTrain(task: Task, file?: string, baseline?: BaselineName): Promise<{ candidateId: string; source: string }> {
  if (baseline !== undefined && file === undefined) return { candidateId: baseline, source: task.baselines[baseline].code };
  if (file !== undefined && baseline === undefined) return { candidateId: file, source: await readUserFile(file) };
  throw new UsageError('--reward or --baseline: give exactly one (a JavaScript file defining computeReward, or human or environment, the task\'s own)');
}

/**
 * Here, in one piece, or with --chunk-steps chunk after chunk as TrainSeed trains them: each
 * chunk a fresh sandbox, its checkpoint encoded and decoded as the bucket would hold it.
 */
async function trainHere(task: Task, candidateId: string, source: string, seed: number, budget: Budget, chunkSteps?: number): Promise<{ result: SeedResult; policy?: TrainedPolicy }> {
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: 'training [{bar}] {percentage}% | update {value}/{total} | train success {success}', hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  const onUpdate = (stats: { trainSuccess: number | null }, update: number, total: number) => {
    if (!started) bar.start(total, update - 1, { success: '—' });
    started = true;
    bar.update(update, { success: stats.trainSuccess === null ? '—' : stats.trainSuccess.toFixed(2) });
  };
  let resume: SeedCheckpoint | undefined;
  try {
    for (;;) {
      const out = await runSeedChunk({ task, candidateId, source, seed, budget, chunkSteps, resume, onUpdate });
      if (out.done) return { result: out.result, policy: out.policy };
      resume = decodeTyped<SeedCheckpoint>(encodeTyped(out.checkpoint));
    }
  } finally {
    bar.stop();
  }
}

function describe(task: Task, r: SeedResult): string {
  const lines = [
    `task: ${task.id}`,
    `outcome: ${r.outcome}${r.reason ? ` (${r.reason})` : ''}`,
    `success: ${(r.success * 100).toFixed(0)}% of greedy evaluation episodes ${task.success.clause}`,
    `mean steps of the successful episodes: ${r.meanSuccessSteps === null ? '-' : r.meanSuccessSteps.toFixed(1)}`,
    `mean return on the environment's reward: ${r.meanReturn === null ? '-' : r.meanReturn.toFixed(2)}`,
    `progress, ${task.progress.label}: ${r.progress === null ? '-' : task.progress.format(r.progress)}`,
    `training: ${r.stepsTrained} steps in ${r.wallSeconds.toFixed(1)} s on ${r.backend} (sandbox ${r.sandboxSeconds.toFixed(2)} s), ${r.chunks} chunk${r.chunks === 1 ? '' : 's'}`,
    `parameters: sha256 ${r.thetaSha256 ?? '-'}`,
    ...Object.entries(r.terms).map(([name, t]) => `term ${name}: early ${t.early.toFixed(4)}, late ${t.late.toFixed(4)}`),
  ];
  return `${lines.join('\n')}\n`;
}
