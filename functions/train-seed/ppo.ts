/**
 * PPO after CleanRL's ppo.py (discrete actions) and ppo_continuous_action.py (a diagonal Gaussian
 * with a state-independent log-std): the hyperparameters in one place, then the algorithm top to
 * bottom (rollout, GAE, epochs of shuffled minibatches with the clipped losses). The rollout and
 * the reward run in plain JS; the networks' passes (network-passes.ts) and Adam run on the
 * project's own WebAssembly kernel (mlp-kernel.ts), the loss (ppo-loss.ts) in JS; on tfjs-node the
 * passes go through TensorFlow.js (mlp-gradient.ts) and Adam runs in JS (adam.ts). The
 * candidate's reward is called once per rollout, for all its transitions at once, with the actions
 * the environment applied (clipped, for continuous tasks); the policy's log-probabilities are of
 * the sampled ones. The hyperparameters are in core/ppo-config.ts (the prompt states them).
 */
import { Random } from '../../core/random.ts';
import type { CurvePoint } from '../shared/search/types.ts';
import type { EnvSnapshot, Task, VecEnv } from '../../tasks/contract.ts';
import { EpisodeTracker, type TrackerSnapshot } from './episodes.ts';
import { EndingCounter, type RolloutEndings } from './episode-stats.ts';
import type { PpoConfig } from '../../core/ppo-config.ts';
import { RewardNormalizer } from './reward-normalizer.ts';
import { ObsNormalizer } from './obs-normalizer.ts';
import { Adam, clipGradNorm, type AdamState } from './adam.ts';
import { ownKernel } from './matrix-ops.ts';
import { MlpKernel } from './mlp-kernel.ts';
import { criticValues, kernelLossAndGradient, lossAndGradient } from './network-passes.ts';
import { forwardJs, initialParameters, networkFor, prepareJs, scaleObservations, type Network } from './network.ts';
import type { Minibatch } from './ppo-loss.ts';
import type { RewardBatch, TransitionBatch } from './sandbox.ts';

/** Anything that turns a rollout's transitions into rewards: the sandbox, in production. */
export interface RewardModel {
  evaluate(batch: TransitionBatch, stepOffset: number): RewardBatch;
}

export interface UpdateStats extends CurvePoint {
  /** Mean value per step of each reward term in this rollout. */
  terms: Record<string, number>;
  /** Mean absolute value per step of each term (a potential difference averages near 0, not its size); absent in older checkpoints. */
  termsAbs?: Record<string, number>;
  /** Training episodes that ended in this rollout, and how many passed the task's success test. */
  episodesEnded: number;
  episodesSucceeded: number;
  /** How the others ended, and the environment's return of all of them (episode-stats.ts); absent in older checkpoints. */
  endings?: RolloutEndings;
}

export interface TrainOutput {
  /** The parameters where training stopped (see network.ts for the layout). */
  theta: Float32Array;
  network: Network;
  /** Every update's statistics since the start of the seed-run, the resumed ones included. */
  updates: UpdateStats[];
  /** Updates of the whole seed-run (its budget); `checkpoint.update` of them are done. */
  numUpdates: number;
  /** Everything needed to go on exactly from here (a seed-run trained in chunks). */
  checkpoint: TrainerCheckpoint;
}

/**
 * The trainer's whole state between two updates. Resumed from it, a seed-run goes on bit for bit
 * as if it had never stopped, where the environment can save itself (`env`); where it cannot
 * (null), fresh copies start at the chunk and the running episodes are dropped.
 */
export interface TrainerCheckpoint {
  /** Updates done. */
  update: number;
  theta: Float32Array;
  adam: AdamState;
  /** The trainer's generator: action sampling and minibatch shuffling. */
  rng: Uint32Array;
  env: EnvSnapshot | null;
  tracker: TrackerSnapshot | null;
  normalizer: Float64Array | null;
  /** The running observation statistic (config.normObs), or null. */
  obsNormalizer: Float64Array | null;
  updates: UpdateStats[];
}

export interface TrainOptions {
  /** Go on from a checkpoint of the same seed-run. */
  resume?: TrainerCheckpoint;
  /** Stop once this many updates of the seed-run are done. @default all of them */
  stopAfterUpdate?: number;
  onUpdate?: (stats: UpdateStats, update: number, numUpdates: number) => void;
}

/** Updates of a seed-run of `totalTimesteps`: whole rollouts, at least one. */
export function updatesOf(config: Pick<PpoConfig, 'totalTimesteps' | 'numEnvs' | 'numSteps'>): number {
  return Math.max(1, Math.floor(config.totalTimesteps / (config.numEnvs * config.numSteps)));
}

export async function train(config: PpoConfig, task: Task, reward: RewardModel, options: TrainOptions = {}): Promise<TrainOutput> {
  const { numEnvs, numSteps } = config;
  const batchSize = numEnvs * numSteps;
  const minibatchSize = Math.floor(batchSize / config.numMinibatches);
  const numUpdates = updatesOf(config);
  const { resume, onUpdate } = options;
  const stopAfter = Math.min(numUpdates, options.stopAfterUpdate ?? numUpdates);
  const rng = new Random(config.seed);
  const net = networkFor(task);
  const { obsSize: d, actions: k } = net;
  const a = task.actionSize;

  // Agent and optimizer. On the trainer's own kernel instance, the parameters, their gradient and
  // Adam's moments stay in its memory between steps (the same arithmetic as adam.ts).
  const theta = resume ? Float32Array.from(resume.theta) : initialParameters(net, config.init, rng);
  const adamSettings = { learningRate: config.learningRate, epsilon: config.adamEpsilon };
  const kernel = ownKernel() ? new MlpKernel() : null;
  const optimizer = kernel ? null : new Adam(net.paramCount, adamSettings, resume?.adam);
  kernel?.load(theta, d, batchSize, [net.actor, net.critic]);
  kernel?.initAdam(resume?.adam ?? { step: 0, m: new Float64Array(net.paramCount), v: new Float64Array(net.paramCount) });
  const grad = new Float64Array(net.paramCount);
  let policy = preparePolicy(net, theta, numEnvs, kernel);

  // Rollout storage, (steps, envs) flattened
  const obs = new Float32Array(batchSize * d);
  const rawObs = new Float32Array(batchSize * d);
  const finalObs = new Float32Array(batchSize * d);
  // The task's recorded state before and after each step, for a reward that reads it (empty where none).
  const r = task.recordSize;
  const rawRecord = new Float64Array(batchSize * r);
  const finalRecord = new Float64Array(batchSize * r);
  const actions = new Float32Array(batchSize * a);
  const applied = new Float64Array(batchSize * a);
  const logprobs = new Float32Array(batchSize);
  const values = new Float32Array(batchSize);
  const dones = new Uint8Array(batchSize);
  const terminated = new Uint8Array(batchSize);
  const advantages = new Float32Array(batchSize);
  const returns = new Float32Array(batchSize);

  const first = resume ? resume.update + 1 : 1;
  await task.prepare?.();
  // environments() frees the copies itself when a restore throws; from here the finally does.
  const { envs, tracker } = environments(task, config, d, resume);
  // The loop below, in a function of its own, so that the copies are freed (an engine's
  // WebAssembly objects) however it ends.
  try {
    return await trainWith(envs, tracker);
  } finally {
    envs.dispose?.();
  }

  async function trainWith(envs: VecEnv, tracker: EpisodeTracker): Promise<TrainOutput> {
    const normalizer = config.normReward ? new RewardNormalizer(numEnvs, config.gamma) : null;
    // Observations are counted as they arrive (the first ones at the start, then after every step).
    const obsNormalizer = config.normObs ? new ObsNormalizer(net) : null;
    if (resume) {
      rng.restore(resume.rng);
      if (normalizer && resume.normalizer) normalizer.restore(resume.normalizer);
      if (obsNormalizer && resume.obsNormalizer) obsNormalizer.restore(resume.obsNormalizer);
    } else {
      obsNormalizer?.update(envs.obs, numEnvs);
    }
    const scratch = { obs: new Float32Array(numEnvs * d), out: new Float32Array(numEnvs * k), action: new Float32Array(numEnvs * a), final: new Float32Array(numEnvs * d) };
    const updates: UpdateStats[] = resume ? [...resume.updates] : [];
    const endings = new EndingCounter();

    for (let update = first; update <= stopAfter; update++) {
      // Rollout: act with the current policy, remember what the reward needs.
      let ended = 0, succeeded = 0, endedLength = 0;
      for (let step = 0; step < numSteps; step++) {
        const base = step * numEnvs;
        scaleObservations(net, envs.obs, numEnvs, scratch.obs);
        policy.act(scratch.obs, scratch.out);
        for (let e = 0; e < numEnvs; e++) logprobs[base + e] = sampleAction(net, policy, scratch.out, e, rng, scratch.action);
        obs.set(scratch.obs, base * d);
        rawObs.set(envs.obs, base * d);
        rawRecord.set(envs.record, base * r);
        actions.set(scratch.action, base * a);
        envs.step(scratch.action);
        obsNormalizer?.update(envs.obs, numEnvs);
        if (obsNormalizer && config.normObsTerminal) countFinalObservations(obsNormalizer, envs, d, scratch.final);
        applied.set(envs.applied, base * a);
        finalObs.set(envs.finalObs, base * d);
        finalRecord.set(envs.finalRecord, base * r);
        for (let e = 0; e < numEnvs; e++) {
          terminated[base + e] = envs.terminated[e];
          dones[base + e] = envs.terminated[e] | envs.truncated[e];
        }
        for (const { episode } of tracker.afterStep()) {
          const success = task.success.test(episode);
          ended += 1;
          succeeded += success ? 1 : 0;
          endedLength += episode.length;
          endings.add(episode, success);
        }
      }

      // The candidate's reward, once for the whole rollout.
      const stepOffset = (update - 1) * batchSize;
      const rewardBatch = reward.evaluate({ count: batchSize, obs: rawObs, actions: applied, nextObs: finalObs, terminated, state: rawRecord, nextState: finalRecord }, stepOffset);
      const rewards = normalizer ? normalizer.normalize(rewardBatch.rewards, terminated, numSteps) : rewardBatch.rewards;

      // The critic's values of the rollout (one pass: the policy did not change during it), the
      // bootstrap value, and GAE (truncation counts as done, as in CleanRL and the reference).
      values.set(criticValues(net, theta, obs, batchSize, kernel));
      scaleObservations(net, envs.obs, numEnvs, scratch.obs);
      const nextValues = criticValues(net, theta, scratch.obs, numEnvs, kernel);
      gae({ rewards, values, dones, nextValues, numSteps, numEnvs, gamma: config.gamma, gaeLambda: config.gaeLambda }, advantages, returns);

      // Optimize the policy and value network: epochs of shuffled minibatches.
      const b_inds = Int32Array.from({ length: batchSize }, (_, i) => i);
      for (let epoch = 0; epoch < config.updateEpochs; epoch++) {
        rng.shuffle(b_inds);
        for (let start = 0; start + minibatchSize <= batchSize; start += minibatchSize) {
          const mb_inds = b_inds.subarray(start, start + minibatchSize);
          const mb = gatherMinibatch(net, mb_inds, { obs, actions, logprobs, advantages, returns }, config.normAdv);
          if (kernel) {
            kernelLossAndGradient(net, theta, mb, config, kernel);
            kernel.clipAndStep(theta, adamSettings, config.maxGradNorm);
          } else {
            lossAndGradient(net, theta, mb, config, grad, null);
            clipGradNorm(grad, config.maxGradNorm);
            optimizer?.step(theta, grad);
          }
        }
      }
      policy = preparePolicy(net, theta, numEnvs, kernel);

      const stats: UpdateStats = {
        step: update * batchSize,
        meanReward: mean(rewardBatch.rewards),
        // Nothing measured when no training episode ended in this rollout: a gap, not a 0.
        trainSuccess: ended > 0 ? succeeded / ended : null,
        episodeLength: ended > 0 ? endedLength / ended : null,
        terms: termMeans(rewardBatch.terms, (x) => x),
        termsAbs: termMeans(rewardBatch.terms, Math.abs),
        episodesEnded: ended,
        episodesSucceeded: succeeded,
        endings: endings.take(),
      };
      updates.push(stats);
      onUpdate?.(stats, update, numUpdates);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const env = envs.snapshot?.() ?? null;
    const checkpoint: TrainerCheckpoint = {
      update: Math.max(first - 1, stopAfter), theta: Float32Array.from(theta), adam: kernel ? kernel.adamState() : (optimizer as Adam).exportState(), rng: rng.state(),
      env, tracker: env ? tracker.snapshot() : null, normalizer: normalizer?.snapshot() ?? null, obsNormalizer: obsNormalizer?.snapshot() ?? null, updates,
    };
    return { theta: Float32Array.from(theta), network: net, updates, numUpdates, checkpoint };
  }
}

/**
 * The training copies: the seed-run's own, or where a checkpoint left them. An environment that
 * cannot save itself starts fresh copies at a chunk, seeded by the seed-run and the update, so a
 * resumed run is still reproducible. Copies whose restore throws (a checkpoint of another shape)
 * are freed here: the caller never holds them.
 */
function environments(task: Task, config: PpoConfig, obsSize: number, resume?: TrainerCheckpoint): { envs: VecEnv; tracker: EpisodeTracker } {
  if (!resume) {
    const envs = task.makeEnv(config.numEnvs, config.seed);
    return { envs, tracker: new EpisodeTracker(envs, obsSize) };
  }
  if (!resume.env) {
    const envs = task.makeEnv(config.numEnvs, (config.seed + FRESH_COPIES_SEED_STRIDE * resume.update) >>> 0);
    return { envs, tracker: new EpisodeTracker(envs, obsSize) };
  }
  const envs = task.makeEnv(config.numEnvs, config.seed);
  try {
    if (!envs.restore) throw new Error(`${task.id}: a checkpoint holds its environment, but the environment cannot be restored`);
    envs.restore(resume.env);
    const tracker = new EpisodeTracker(envs, obsSize);
    if (resume.tracker) tracker.restore(resume.tracker);
    return { envs, tracker };
  } catch (error) {
    envs.dispose?.();
    throw error;
  }
}

/** Seeds of fresh copies at a chunk sit past every training and evaluation seed (grade.ts). */
const FRESH_COPIES_SEED_STRIDE = 2 ** 20;

/** The rollout's policy: the actor's outputs for one step of every copy, and the Gaussian's standard deviations. */
interface RolloutPolicy {
  act(obs: Float32Array, out: Float32Array): void;
  logStd: Float64Array;
  std: Float64Array;
}

/** The policy at theta, on the kernel (theta loaded once per update) or in plain JS (prepareJs). */
/** The final observations of the copies whose episode just ended, counted as CleanRL's per-copy wrapper counts them (normObsTerminal). */
function countFinalObservations(normalizer: ObsNormalizer, envs: VecEnv, d: number, rows: Float32Array): void {
  let n = 0;
  for (let e = 0; e < envs.n; e++) {
    if (envs.terminated[e] === 0 && envs.truncated[e] === 0) continue;
    rows.set(envs.finalObs.subarray(e * d, (e + 1) * d), n * d);
    n += 1;
  }
  if (n > 0) normalizer.update(rows, n);
}

function preparePolicy(net: Network, theta: Float32Array, numEnvs: number, kernel: MlpKernel | null): RolloutPolicy {
  const logStd = net.continuous ? Float64Array.from(theta.subarray(net.logStd, net.logStd + net.actions)) : new Float64Array(0);
  const std = logStd.map(Math.exp);
  if (kernel === null) {
    const actor = prepareJs(theta, net.actor);
    return { act: (obs, out) => forwardJs(actor, obs, numEnvs, out), logStd, std };
  }
  kernel.load(theta, net.obsSize, numEnvs, [net.actor, net.critic]);
  return {
    act: (obs, out) => {
      kernel.input(obs);
      out.set(kernel.forward(net.actor));
    },
    logStd, std,
  };
}

const LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);

/** Samples env e's action into out; returns its log-probability under the current policy. */
function sampleAction(net: Network, policy: RolloutPolicy, actorOut: Float32Array, e: number, rng: Random, out: Float32Array): number {
  const k = net.actions;
  if (!net.continuous) {
    const [action, logprob] = sampleCategorical(actorOut, e * k, k, rng);
    out[e] = action;
    return logprob;
  }
  let logprob = 0;
  for (let j = 0; j < k; j++) {
    const noise = rng.normal();
    out[e * k + j] = actorOut[e * k + j] + policy.std[j] * noise;
    logprob += -0.5 * noise * noise - policy.logStd[j] - LOG_SQRT_2PI;
  }
  return logprob;
}

/** Sample from the softmax of n logits at base; returns [action, log-probability]. */
function sampleCategorical(logits: Float32Array, base: number, n: number, rng: Random): [number, number] {
  let max = -Infinity;
  for (let a = 0; a < n; a++) max = Math.max(max, logits[base + a]);
  let total = 0;
  for (let a = 0; a < n; a++) total += Math.exp(logits[base + a] - max);
  const logZ = max + Math.log(total);
  let u = rng.next();
  for (let a = 0; a < n - 1; a++) {
    const p = Math.exp(logits[base + a] - logZ);
    if (u < p) return [a, logits[base + a] - logZ];
    u -= p;
  }
  return [n - 1, logits[base + n - 1] - logZ];
}

/**
 * Generalized advantage estimation over a (steps, envs) rollout, one reverse loop per env.
 * dones[t] marks that transition t ended its episode; nextValues bootstraps the last step.
 */
export function gae(
  r: { rewards: ArrayLike<number>; values: Float32Array; dones: Uint8Array; nextValues: Float32Array; numSteps: number; numEnvs: number; gamma: number; gaeLambda: number },
  advantages: Float32Array,
  returns: Float32Array,
): void {
  for (let e = 0; e < r.numEnvs; e++) {
    let lastgaelam = 0;
    for (let t = r.numSteps - 1; t >= 0; t--) {
      const i = t * r.numEnvs + e;
      const nextvalues = t === r.numSteps - 1 ? r.nextValues[e] : r.values[i + r.numEnvs];
      const nextnonterminal = 1 - r.dones[i];
      const delta = r.rewards[i] + r.gamma * nextvalues * nextnonterminal - r.values[i];
      lastgaelam = delta + r.gamma * r.gaeLambda * nextnonterminal * lastgaelam;
      advantages[i] = lastgaelam;
      returns[i] = lastgaelam + r.values[i];
    }
  }
}

function gatherMinibatch(
  net: Network,
  inds: Int32Array,
  b: { obs: Float32Array; actions: Float32Array; logprobs: Float32Array; advantages: Float32Array; returns: Float32Array },
  normAdv: boolean,
): Minibatch {
  const n = inds.length;
  const { obsSize: d } = net;
  const a = net.continuous ? net.actions : 1;
  const mb: Minibatch = {
    n, obs: new Float32Array(n * d), actions: new Float32Array(n * a),
    logprobs: new Float32Array(n), advantages: new Float32Array(n), returns: new Float32Array(n),
  };
  for (let m = 0; m < n; m++) {
    const i = inds[m];
    mb.obs.set(b.obs.subarray(i * d, (i + 1) * d), m * d);
    mb.actions.set(b.actions.subarray(i * a, (i + 1) * a), m * a);
    mb.logprobs[m] = b.logprobs[i];
    mb.advantages[m] = b.advantages[i];
    mb.returns[m] = b.returns[i];
  }
  if (normAdv) {
    const adv = mb.advantages;
    const mu = mean(adv);
    let variance = 0;
    for (let m = 0; m < n; m++) variance += (adv[m] - mu) ** 2;
    const std = Math.sqrt(variance / (n - 1));
    for (let m = 0; m < n; m++) adv[m] = (adv[m] - mu) / (std + 1e-8);
  }
  return mb;
}

function termMeans(terms: Map<string, Float64Array>, of: (x: number) => number): Record<string, number> {
  const out: Record<string, number> = Object.create(null);
  for (const [name, values] of terms) out[name] = mean(values.map(of));
  return out;
}

function mean(xs: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < xs.length; i++) sum += xs[i];
  return xs.length > 0 ? sum / xs.length : 0;
}
