/**
 * `eureka bank`: makes a task's bank of episodes for the screen and stores it in the task's folder.
 * The trained successes come from the greedy policy of the person's shaping (or, where the task
 * declares `trainedSuccesses: 'environment'`, of the environment's reward), trained at the task's
 * budget on each of a few seeds (as `eureka train` trains it) and played from several resets each;
 * the rest come from the task's own policies (tasks/bank.ts). Here, not in tasks/, because it trains:
 * the trainer sits above the tasks' floor.
 *
 * Why a stored bank and not one trained on the fly: a check runs once per candidate inside
 * TrainSeed's caps, and a seed-run of the person's shaping is 2-40 s per task (minutes for a
 * user's task); stored, every check of every search screens on the same episodes, which a
 * reviewer can read, and the screen adds milliseconds to a check.
 */
import type { Task } from '../tasks/contract.ts';
import { BANK_SEED, playKind, policyEpisodes, policyInfos, successWords, type Actor, type Bank, type BankEpisode } from '../tasks/bank.ts';
import type { BankMade } from '../tasks/bank-file.ts';
import { runSeed } from '../functions/train-seed/seed-run.ts';
import { greedyActions } from '../functions/train-seed/grade.ts';
import { forwardJs, prepareJs, scaleObservations, type Network } from '../functions/train-seed/network.ts';

export interface MakeBankOptions {
  /** Training seeds of the baseline that gives the successes. @default [0, 1, 2] */
  seeds?: number[];
  /** Episodes wanted from each trained policy (resets it passes the success test from). @default 4 */
  starts?: number;
  /** Told when each seed-run ends, with the baseline it trained in words. */
  onSeed?: (seed: number, result: { outcome: string; reason: string; success: number; wallSeconds: number }, trained: string) => void;
}

/** The bank's trained policy of each baseline: the baseline in words, its policy in the bank, and its candidate id. */
export const TRAINED_POLICIES = {
  human: { label: 'the person\'s shaping', policy: { name: 'human', kind: 'success', words: 'the person\'s shaping\'s trained policy' }, candidateId: 'human_energy_shaping' },
  environment: { label: 'the environment\'s reward', policy: { name: 'environment', kind: 'success', words: 'the environment\'s reward\'s trained policy' }, candidateId: 'environment_reward' },
} as const;

/** The baseline `eureka bank` trains for the task's successes. */
export function trainedBaseline(task: Task): keyof typeof TRAINED_POLICIES {
  return task.bank?.trainedSuccesses ?? 'human';
}

export async function makeBank(task: Task, opts: MakeBankOptions = {}): Promise<{ bank: Bank; made: BankMade }> {
  const seeds = opts.seeds ?? [0, 1, 2];
  await task.prepare?.();
  const starts = opts.starts ?? 4;
  const baseline = trainedBaseline(task);
  const { policy } = TRAINED_POLICIES[baseline];
  const trained: BankEpisode[] = [];
  for (const seed of seeds) {
    const act = await trainedActor(task, baseline, seed, opts);
    if (act !== null) trained.push(...playKind(task, policy.name, 'success', act, starts, BANK_SEED + 100 * (seed + 1)));
  }
  // A behaviour's robot's own gait: its own reward's trained policy, played for failures of their own kind.
  const failing = task.bank?.trainedFailures;
  const gait: BankEpisode[] = [];
  if (failing !== undefined) {
    const act = await trainedActor(task, failing.baseline, seeds[0] ?? 0, opts);
    if (act !== null) gait.push(...playKind(task, OWN_GAIT, 'failure', act, starts, BANK_SEED + 5000));
  }
  const bank: Bank = {
    task: task.id, stored: true, successWords: successWords(task),
    policies: [{ ...policy }, ...(failing === undefined ? [] : [{ name: OWN_GAIT, kind: 'failure' as const, words: failing.words }]), ...policyInfos(task)],
    episodes: [...trained, ...gait, ...policyEpisodes(task)],
  };
  const made: BankMade = {
    by: `eureka bank --task ${task.id}`, [baseline]: { seeds, steps: task.budget.steps, startsPerSeed: starts },
    ...(failing === undefined ? {} : { [OWN_GAIT]: { baseline: failing.baseline, seed: seeds[0] ?? 0, steps: task.budget.steps, starts } }),
  };
  return { bank, made };
}

/** The bank's name for the episodes of the trained policy a task names for failures (bank.trainedFailures). */
export const OWN_GAIT = 'own-gait';

/** A baseline trained on one seed at the task's budget, as `eureka train` trains it; its greedy actor, or null when it did not train. */
async function trainedActor(task: Task, baseline: keyof typeof TRAINED_POLICIES, seed: number, opts: MakeBankOptions): Promise<Actor | null> {
  const run = await runSeed({
    task, candidateId: TRAINED_POLICIES[baseline].candidateId, source: task.baselines[baseline].code, seed,
    budget: { steps: task.budget.steps, evalEpisodes: task.budget.evalEpisodes },
  });
  opts.onSeed?.(seed, run.result, TRAINED_POLICIES[baseline].label);
  return run.policy ? greedyActor(run.policy.network, run.policy.theta) : null;
}

/** A trained policy's greedy action for one observation, as grading plays it. */
function greedyActor(net: Network, theta: Float32Array): Actor {
  const actor = prepareJs(theta, net.actor);
  const x = new Float32Array(net.obsSize);
  const out = new Float32Array(net.actions);
  const action = new Float32Array(net.continuous ? net.actions : 1);
  return (obs) => {
    scaleObservations(net, obs, 1, x);
    forwardJs(actor, x, 1, out);
    greedyActions(net, out, 1, action);
    return net.continuous ? Array.from(action) : action[0];
  };
}
