/**
 * `eureka check-reward FILE`: runs a reward in the sandbox over sample transitions made with the
 * real MountainCar dynamics, batched as the trainer batches them, and says whether it would be
 * accepted. A rejected reward is a successful check: faults come back as a verdict, not a throw.
 */
import { dynamics, isTerminal, MOUNTAIN_CAR } from './mountain-car.ts';
import { Random } from '../shared/random.ts';
import { openRewardSandbox, RewardFault } from './sandbox.ts';
import type { FaultOutcome, RewardSandbox, SandboxLimits, TransitionBatch } from './sandbox.ts';

export interface CheckRewardOptions {
  /** Sample transitions to evaluate. @default 4096 */
  samples?: number;
  /** Seed of the sample states and actions. @default 0 */
  seed?: number;
  /** Transitions per evaluate() call, as in the trainer's rollouts. @default 2048 */
  batchSize?: number;
  /** Sandbox limits. @default DEFAULT_SANDBOX_LIMITS */
  limits?: Partial<SandboxLimits>;
}

export interface CheckRewardResult {
  verdict: 'ok' | FaultOutcome;
  /** One line: what was checked, or what went wrong. */
  reason: string;
  /** Mean value per transition of each term, in first-seen order (empty on a fault). */
  terms: Record<string, number>;
}

export async function checkReward(source: string, opts: CheckRewardOptions = {}): Promise<CheckRewardResult> {
  const samples = opts.samples ?? 4096;
  const batchSize = opts.batchSize ?? 2048;
  const all = sampleTransitions(samples, opts.seed ?? 0);
  let sandbox: RewardSandbox | undefined;
  try {
    sandbox = await openRewardSandbox(source, opts.limits);
    const sums = new Map<string, number>();
    for (let start = 0; start < samples; start += batchSize) {
      const { terms } = sandbox.evaluate(sliceBatch(all, start, Math.min(samples, start + batchSize)), start);
      for (const [name, values] of terms) sums.set(name, (sums.get(name) ?? 0) + sum(values));
    }
    // fromEntries defines own properties, so a term named "__proto__" stays a plain key.
    const terms = Object.fromEntries([...sums].map(([name, total]) => [name, total / samples]));
    return { verdict: 'ok', reason: `ok on ${samples} sample transitions`, terms };
  } catch (error) {
    if (error instanceof RewardFault) return { verdict: error.outcome, reason: error.message, terms: {} };
    throw error;
  } finally {
    sandbox?.dispose();
  }
}

/**
 * Transitions from states across the valley, one in eight started just below the flag (many of
 * them terminal), one in eight against the left wall, one in eight at a reset state.
 */
export function sampleTransitions(count: number, seed: number): TransitionBatch {
  const c = MOUNTAIN_CAR;
  const rng = new Random(seed);
  const batch: TransitionBatch = {
    count,
    obs: new Float32Array(2 * count),
    actions: new Int32Array(count),
    nextObs: new Float32Array(2 * count),
    terminated: new Uint8Array(count),
  };
  for (let i = 0; i < count; i++) {
    let position = rng.uniform(c.minPosition, c.goalPosition);
    let velocity = rng.uniform(-c.maxSpeed, c.maxSpeed);
    if (i % 8 === 0) [position, velocity] = [rng.uniform(0.42, c.goalPosition), rng.uniform(0, c.maxSpeed)];
    if (i % 8 === 1) [position, velocity] = [rng.uniform(c.minPosition, -1.1), rng.uniform(-c.maxSpeed, 0)];
    if (i % 8 === 2) [position, velocity] = [rng.uniform(c.resetLow, c.resetHigh), 0];
    const action = rng.int(3);
    const [nextPosition, nextVelocity] = dynamics(position, velocity, action);
    batch.obs[2 * i] = position;
    batch.obs[2 * i + 1] = velocity;
    batch.actions[i] = action;
    batch.nextObs[2 * i] = nextPosition;
    batch.nextObs[2 * i + 1] = nextVelocity;
    batch.terminated[i] = isTerminal(nextPosition, nextVelocity) ? 1 : 0;
  }
  return batch;
}

/** A view of transitions [start, end) without copying. */
export function sliceBatch(batch: TransitionBatch, start: number, end: number): TransitionBatch {
  return {
    count: end - start,
    obs: batch.obs.subarray(2 * start, 2 * end),
    actions: batch.actions.subarray(start, end),
    nextObs: batch.nextObs.subarray(2 * start, 2 * end),
    terminated: batch.terminated.subarray(start, end),
  };
}

function sum(values: Float64Array): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}
