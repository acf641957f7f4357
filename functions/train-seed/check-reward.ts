/**
 * `eureka check-reward FILE`: runs a reward in the sandbox over sample transitions of the task's
 * own environment under random actions, batched as the trainer batches them, and says whether it
 * would be accepted. A rejected reward is a successful check: faults come back as a verdict.
 * It then runs on as many steps drawn as the untrained policy acts, and says what it pays there on
 * a step that goes on and on one that ends the episode (`firstSteps`: a reading, not a verdict).
 * A reward that passes is then screened in the same sandbox: run over the task's bank of known
 * successes and failures (screen.ts), which says what it pays for before anything trains it.
 */
import type { Task, VecEnv } from '../../tasks/contract.ts';
import { asEpisode, type Bank } from '../../tasks/bank.ts';
import { loadBank } from '../../tasks/bank-file.ts';
import { Random } from '../../core/random.ts';
import type { Screen } from '../shared/search/screen-types.ts';
import type { FirstStepsPay } from '../shared/search/types.ts';
import { layoutOf, openRewardSandbox, RewardFault } from './sandbox.ts';
import type { FaultOutcome, RewardSandbox, SandboxLimits, TransitionBatch } from './sandbox.ts';
import { faultOnBank, screenOf, transitionsOf } from './screen.ts';

export interface CheckRewardOptions {
  /** Sample transitions to evaluate. @default 4096 */
  samples?: number;
  /** Seed of the environments and the random actions. @default 0 */
  seed?: number;
  /** Transitions per evaluate() call, as in the trainer's rollouts. @default 2048 */
  batchSize?: number;
  /** Sandbox limits. @default DEFAULT_SANDBOX_LIMITS */
  limits?: Partial<SandboxLimits>;
  /** Screen the reward on the task's bank after the samples. @default true */
  screen?: boolean;
  /** The bank to screen on. @default the task's (tasks/bank-file.ts) */
  bank?: Bank;
}

export interface CheckRewardResult {
  verdict: 'ok' | FaultOutcome;
  /** One line: what was checked, or what went wrong. */
  reason: string;
  /** Mean value per transition of each term, in first-seen order (empty on a fault). */
  terms: Record<string, number>;
  /** What it pays on the bank's successes and failures; null on a fault or when not asked for. */
  screen: Screen | null;
  /** What it pays a step as the untrained policy acts (as many steps again, drawn so), going on and ending; null on a fault. */
  firstSteps: FirstStepsPay | null;
}

/** Copies of the environment the samples come from, as the trainer's 16. */
const SAMPLE_COPIES = 16;

export async function checkReward(task: Task, source: string, opts: CheckRewardOptions = {}): Promise<CheckRewardResult> {
  const samples = opts.samples ?? 4096;
  const batchSize = opts.batchSize ?? 2048;
  await task.prepare?.();
  const seed = opts.seed ?? 0;
  const all = samplesFor(task, samples, seed, 'check');
  let sandbox: RewardSandbox | undefined;
  try {
    sandbox = await openRewardSandbox(source, layoutOf(task), opts.limits);
    const sums = new Map<string, number>();
    evaluateAll(task, sandbox, all, batchSize, 0, (_rewards, terms) => {
      for (const [name, values] of terms) sums.set(name, (sums.get(name) ?? 0) + sum(values));
    });
    // fromEntries defines own properties, so a term named "__proto__" stays a plain key.
    const terms = Object.fromEntries([...sums].map(([name, total]) => [name, total / samples]));
    const firstSteps = firstPoliciesPay(task, sandbox, samplesFor(task, samples, seed, 'first-policy'), batchSize, samples);
    const bank = opts.screen === false ? null : opts.bank ?? loadBank(task);
    if (bank !== null) gradeBank(task, bank);
    const screen = bank === null ? null : screenOnBank(task, sandbox, bank, batchSize);
    return { verdict: 'ok', reason: `ok on ${samples} sample transitions of ${task.id}`, terms, screen, firstSteps };
  } catch (error) {
    if (error instanceof RewardFault) return { verdict: error.outcome, reason: error.message, terms: {}, screen: null, firstSteps: null };
    throw error;
  } finally {
    sandbox?.dispose();
  }
}

/**
 * The task's own success test and progress on each of the bank's episodes. A stored bank keeps its
 * episodes' kinds, so the screen calls neither: a test that throws or returns the wrong kind (the
 * registry's wrappers throw InvalidTask) would pass the check and stop only the seed-runs.
 */
function gradeBank(task: Task, bank: Bank): void {
  for (const e of bank.episodes) {
    const episode = asEpisode(task, e);
    task.success.test(episode);
    task.progress.measure(episode);
  }
}

/** The screen, in the check's sandbox: every transition of the bank, batch by batch. */
function screenOnBank(task: Task, sandbox: RewardSandbox, bank: Bank, batchSize: number): Screen {
  const started = performance.now();
  const all = transitionsOf(task, bank);
  const rewards = new Float64Array(all.count);
  const terms = new Map<string, Float64Array>();
  try {
    evaluateAll(task, sandbox, all, batchSize, 0, (batchRewards, batchTerms, start) => {
      rewards.set(batchRewards, start);
      for (const [name, values] of batchTerms) {
        let column = terms.get(name);
        if (!column) terms.set(name, (column = new Float64Array(all.count)));
        column.set(values, start);
      }
    });
  } catch (error) {
    throw error instanceof RewardFault ? faultOnBank(error) : error;
  }
  return screenOf(task, bank, rewards, terms, started);
}

/**
 * What the reward pays on the first policies' steps, going on and ending (its step numbers follow
 * the samples'): a fault there is the check's fault, as anywhere in the samples.
 */
function firstPoliciesPay(task: Task, sandbox: RewardSandbox, steps: TransitionBatch, batchSize: number, stepOffset: number): FirstStepsPay {
  let [goingOn, ending, endings] = [0, 0, 0];
  evaluateAll(task, sandbox, steps, batchSize, stepOffset, (rewards, _terms, start) => {
    rewards.forEach((value, i) => {
      if (steps.terminated[start + i]) [ending, endings] = [ending + value, endings + 1];
      else goingOn += value;
    });
  });
  const goingOnSteps = steps.count - endings;
  return { goingOn: goingOnSteps > 0 ? goingOn / goingOnSteps : null, ending: endings > 0 ? ending / endings : null, endings, steps: steps.count };
}

/** Evaluates a batch of transitions in slices of batchSize, as the trainer's rollouts. */
function evaluateAll(
  task: Task, sandbox: RewardSandbox, all: TransitionBatch, batchSize: number, stepOffset: number,
  onBatch: (rewards: Float64Array, terms: Map<string, Float64Array>, start: number) => void,
): void {
  for (let start = 0; start < all.count; start += batchSize) {
    const { rewards, terms } = sandbox.evaluate(sliceBatch(task, all, start, Math.min(all.count, start + batchSize)), stepOffset + start);
    onBatch(rewards, terms, start);
  }
}

/**
 * How the sample transitions' actions are drawn. 'check': uniformly, box actions up to 1.5x past
 * their bounds, so the reward also sees what the environment's clipping makes of them. 'first-policy':
 * as the untrained policy acts (network.ts: a mean near 0, a standard deviation of 1; a softmax
 * near uniform), for what a reward pays before PPO has learned anything.
 */
export type SampleDraw = 'check' | 'first-policy';

const lastSamples = new WeakMap<Task, Map<SampleDraw, { count: number; seed: number; batch: TransitionBatch }>>();

/**
 * sampleTransitions, kept for the next check of the same task, count and seed: a warm worker (a
 * Lambda container) checks one candidate after another on the same transitions, and making them
 * takes seconds of stepping on the larger robots (3.3 s of CPU for Ant's 4,096). Nothing writes
 * to a batch once made; one a task and draw, so a process never holds more than two a task.
 */
function samplesFor(task: Task, count: number, seed: number, draw: SampleDraw): TransitionBatch {
  const kept = lastSamples.get(task) ?? new Map<SampleDraw, { count: number; seed: number; batch: TransitionBatch }>();
  lastSamples.set(task, kept);
  const known = kept.get(draw);
  if (known?.count === count && known.seed === seed) return known.batch;
  const batch = sampleTransitions(task, count, seed, draw);
  kept.set(draw, { count, seed, batch });
  return batch;
}

/** Transitions of the task's environment under random actions, drawn as `draw` says. */
export function sampleTransitions(task: Task, count: number, seed: number, draw: SampleDraw = 'check'): TransitionBatch {
  const env = task.makeEnv(SAMPLE_COPIES, seed);
  const rng = new Random(seed ^ (draw === 'check' ? 0x5eed : 0xf1257));
  const { action } = task;
  const pick = (j: number): number => {
    if (action.kind === 'discrete') return rng.int(action.names.length);
    return draw === 'check' ? rng.uniform(1.5 * action.low[j], 1.5 * action.high[j]) : rng.normal();
  };
  try {
    return randomTransitions(task, env, count, pick);
  } finally {
    env.dispose?.();
  }
}

function randomTransitions(task: Task, env: VecEnv, count: number, pick: (j: number) => number): TransitionBatch {
  const { obsSize: d, actionSize: k, recordSize: r } = task;
  const batch: TransitionBatch = {
    count,
    obs: new Float32Array(count * d),
    actions: new Float64Array(count * k),
    nextObs: new Float32Array(count * d),
    terminated: new Uint8Array(count),
    state: new Float64Array(count * r),
    nextState: new Float64Array(count * r),
  };
  const chosen = new Float64Array(SAMPLE_COPIES * k);
  for (let start = 0; start < count; start += SAMPLE_COPIES) {
    const n = Math.min(SAMPLE_COPIES, count - start);
    for (let e = 0; e < SAMPLE_COPIES; e++) {
      for (let j = 0; j < k; j++) chosen[e * k + j] = pick(j);
    }
    batch.obs.set(env.obs.subarray(0, n * d), start * d);
    batch.state?.set(env.record.subarray(0, n * r), start * r);
    env.step(chosen);
    batch.nextState?.set(env.finalRecord.subarray(0, n * r), start * r);
    batch.actions.set(env.applied.subarray(0, n * k), start * k);
    batch.nextObs.set(env.finalObs.subarray(0, n * d), start * d);
    batch.terminated.set(env.terminated.subarray(0, n), start);
  }
  return batch;
}

/** A view of transitions [start, end) without copying. */
export function sliceBatch(task: Pick<Task, 'obsSize' | 'actionSize' | 'recordSize'>, batch: TransitionBatch, start: number, end: number): TransitionBatch {
  const { obsSize: d, actionSize: k, recordSize: r } = task;
  return {
    count: end - start,
    obs: batch.obs.subarray(d * start, d * end),
    actions: batch.actions.subarray(k * start, k * end),
    nextObs: batch.nextObs.subarray(d * start, d * end),
    terminated: batch.terminated.subarray(start, end),
    state: batch.state?.subarray(r * start, r * end),
    nextState: batch.nextState?.subarray(r * start, r * end),
  };
}

function sum(values: Float64Array): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}
