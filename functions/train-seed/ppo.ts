/**
 * PPO after CleanRL's ppo.py (discrete actions) and ppo_continuous_action.py (a diagonal Gaussian
 * with a state-independent log-std): the hyperparameters in one place, then the algorithm top to
 * bottom (rollout, GAE, epochs of shuffled minibatches with the clipped losses). The rollout and
 * the reward run in plain JS; the minibatch update runs on TensorFlow.js. The candidate's reward
 * is called once per rollout, for all its transitions at once, with the actions the environment
 * applied (clipped, for continuous tasks); the policy's log-probabilities are of the sampled ones.
 * The hyperparameters are in ppo-config.ts (the prompt states them; it must not load tfjs).
 */
import * as tf from '@tensorflow/tfjs-core';
// tfjs-core's Node bundle registers no gradients; tfjs-layers' bundle registers them all.
import '@tensorflow/tfjs-layers';
import { Random } from '../../core/random.ts';
import type { CurvePoint } from '../shared/types.ts';
import type { EnvSnapshot, Task, VecEnv } from '../../tasks/contract.ts';
import { restoreAdam, saveAdam, type AdamState } from './adam-state.ts';
import { EpisodeTracker, type TrackerSnapshot } from './episodes.ts';
import type { PpoConfig } from '../../core/ppo-config.ts';
import { RewardNormalizer } from './reward-normalizer.ts';
import {
  forwardJs, forwardTf, initialParameters, networkFor, prepareJs, scaleObservations, unpack,
  type Network, type TfLayer,
} from './network.ts';
import type { RewardBatch, TransitionBatch } from './sandbox.ts';

/** Anything that turns a rollout's transitions into rewards: the sandbox, in production. */
export interface RewardModel {
  evaluate(batch: TransitionBatch, stepOffset: number): RewardBatch;
}

export interface UpdateStats extends CurvePoint {
  /** Mean value per step of each reward term in this rollout. */
  terms: Record<string, number>;
  /** Training episodes that ended in this rollout, and how many passed the task's success test. */
  episodesEnded: number;
  episodesSucceeded: number;
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

  // Agent and optimizer
  const theta = tf.variable(tf.tensor1d(resume ? resume.theta : initialParameters(net, config.init, rng)), true);
  const optimizer = tf.train.adam(config.learningRate, 0.9, 0.999, config.adamEpsilon);
  if (resume) restoreAdam(optimizer, [theta], resume.adam);
  let thetaJs = theta.dataSync() as Float32Array;
  let policy = preparePolicy(net, thetaJs);

  // Rollout storage, (steps, envs) flattened
  const obs = new Float32Array(batchSize * d);
  const rawObs = new Float32Array(batchSize * d);
  const finalObs = new Float32Array(batchSize * d);
  const actions = new Float32Array(batchSize * a);
  const applied = new Float64Array(batchSize * a);
  const logprobs = new Float32Array(batchSize);
  const values = new Float32Array(batchSize);
  const dones = new Uint8Array(batchSize);
  const terminated = new Uint8Array(batchSize);
  const advantages = new Float32Array(batchSize);
  const returns = new Float32Array(batchSize);

  const first = resume ? resume.update + 1 : 1;
  const { envs, tracker } = environments(task, config, d, resume);
  const normalizer = config.normReward ? new RewardNormalizer(numEnvs, config.gamma) : null;
  if (resume) {
    rng.restore(resume.rng);
    if (normalizer && resume.normalizer) normalizer.restore(resume.normalizer);
  }
  const scratch = { obs: new Float32Array(numEnvs * d), out: new Float32Array(numEnvs * k), value: new Float32Array(numEnvs), action: new Float32Array(numEnvs * a) };
  const updates: UpdateStats[] = resume ? [...resume.updates] : [];

  try {
    for (let update = first; update <= stopAfter; update++) {
      // Rollout: act with the current policy, remember what the reward needs.
      let ended = 0, succeeded = 0, endedLength = 0;
      for (let step = 0; step < numSteps; step++) {
        const base = step * numEnvs;
        scaleObservations(net, envs.obs, numEnvs, scratch.obs);
        forwardJs(policy.actor, scratch.obs, numEnvs, scratch.out);
        forwardJs(policy.critic, scratch.obs, numEnvs, scratch.value);
        for (let e = 0; e < numEnvs; e++) {
          logprobs[base + e] = sampleAction(net, policy, scratch.out, e, rng, scratch.action);
          values[base + e] = scratch.value[e];
        }
        obs.set(scratch.obs, base * d);
        rawObs.set(envs.obs, base * d);
        actions.set(scratch.action, base * a);
        envs.step(scratch.action);
        applied.set(envs.applied, base * a);
        finalObs.set(envs.finalObs, base * d);
        for (let e = 0; e < numEnvs; e++) {
          terminated[base + e] = envs.terminated[e];
          dones[base + e] = envs.terminated[e] | envs.truncated[e];
        }
        for (const { episode } of tracker.afterStep()) {
          ended += 1;
          succeeded += task.success.test(episode) ? 1 : 0;
          endedLength += episode.length;
        }
      }

      // The candidate's reward, once for the whole rollout.
      const stepOffset = (update - 1) * batchSize;
      const rewardBatch = reward.evaluate({ count: batchSize, obs: rawObs, actions: applied, nextObs: finalObs, terminated }, stepOffset);
      const rewards = normalizer ? normalizer.normalize(rewardBatch.rewards, terminated, numSteps) : rewardBatch.rewards;

      // Bootstrap value and GAE (truncation counts as done, as in CleanRL and the reference).
      scaleObservations(net, envs.obs, numEnvs, scratch.obs);
      forwardJs(policy.critic, scratch.obs, numEnvs, scratch.value);
      gae({ rewards, values, dones, nextValues: scratch.value, numSteps, numEnvs, gamma: config.gamma, gaeLambda: config.gaeLambda }, advantages, returns);

      // Optimize the policy and value network: epochs of shuffled minibatches.
      const b_inds = Int32Array.from({ length: batchSize }, (_, i) => i);
      for (let epoch = 0; epoch < config.updateEpochs; epoch++) {
        rng.shuffle(b_inds);
        for (let start = 0; start + minibatchSize <= batchSize; start += minibatchSize) {
          const mb_inds = b_inds.subarray(start, start + minibatchSize);
          tf.tidy(() => {
            const mb = gatherMinibatch(net, mb_inds, { obs, actions, logprobs, advantages, returns }, config.normAdv);
            const parts = unpack(net, theta);
            const pieces = [...parts.actor, ...parts.critic].flatMap(({ w, b }) => [w, b]);
            if (parts.logStd) pieces.push(parts.logStd);
            const loss = (...p: tf.Tensor[]) => ppoLoss(net, regroup(p, parts.actor.length, parts.critic.length), mb, config);
            const grad = tf.concat(tf.grads(loss)(pieces).map((g) => tf.reshape(g, [-1])));
            optimizer.applyGradients([{ name: theta.name, tensor: clipByGlobalNorm(grad, config.maxGradNorm) }]);
          });
        }
      }
      thetaJs = theta.dataSync() as Float32Array;
      policy = preparePolicy(net, thetaJs);

      const stats: UpdateStats = {
        step: update * batchSize,
        meanReward: mean(rewardBatch.rewards),
        // Nothing measured when no training episode ended in this rollout: a gap, not a 0.
        trainSuccess: ended > 0 ? succeeded / ended : null,
        episodeLength: ended > 0 ? endedLength / ended : null,
        terms: termMeans(rewardBatch.terms),
        episodesEnded: ended,
        episodesSucceeded: succeeded,
      };
      updates.push(stats);
      onUpdate?.(stats, update, numUpdates);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const env = envs.snapshot?.() ?? null;
    const checkpoint: TrainerCheckpoint = {
      update: Math.max(first - 1, stopAfter), theta: Float32Array.from(thetaJs), adam: saveAdam(optimizer), rng: rng.state(),
      env, tracker: env ? tracker.snapshot() : null, normalizer: normalizer?.snapshot() ?? null, updates,
    };
    return { theta: Float32Array.from(thetaJs), network: net, updates, numUpdates, checkpoint };
  } finally {
    theta.dispose();
    optimizer.dispose();
  }
}

/**
 * The training copies: the seed-run's own, or where a checkpoint left them. An environment that
 * cannot save itself starts fresh copies at a chunk, seeded by the seed-run and the update, so a
 * resumed run is still reproducible.
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
  if (!envs.restore) throw new Error(`${task.id}: a checkpoint holds its environment, but the environment cannot be restored`);
  envs.restore(resume.env);
  const tracker = new EpisodeTracker(envs, obsSize);
  if (resume.tracker) tracker.restore(resume.tracker);
  return { envs, tracker };
}

/** Seeds of fresh copies at a chunk sit past every training and evaluation seed (grade.ts). */
const FRESH_COPIES_SEED_STRIDE = 2 ** 20;

/** The actor and critic ready for plain-JS passes, and the Gaussian's standard deviations. */

interface JsPolicy {
  actor: ReturnType<typeof prepareJs>;
  critic: ReturnType<typeof prepareJs>;
  logStd: Float64Array;
  std: Float64Array;
}

function preparePolicy(net: Network, theta: Float32Array): JsPolicy {
  const logStd = net.continuous ? Float64Array.from(theta.subarray(net.logStd, net.logStd + net.actions)) : new Float64Array(0);
  return { actor: prepareJs(theta, net.actor), critic: prepareJs(theta, net.critic), logStd, std: logStd.map(Math.exp) };
}

const LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);

/** Samples env e's action into out; returns its log-probability under the current policy. */
function sampleAction(net: Network, policy: JsPolicy, actorOut: Float32Array, e: number, rng: Random, out: Float32Array): number {
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

interface Minibatch {
  obs: tf.Tensor2D;
  /** Discrete: one-hot [n, actions]; continuous: the sampled actions [n, actions]. */
  actions: tf.Tensor2D;
  logprobs: tf.Tensor1D;
  advantages: tf.Tensor1D;
  returns: tf.Tensor1D;
}

function gatherMinibatch(
  net: Network,
  inds: Int32Array,
  b: { obs: Float32Array; actions: Float32Array; logprobs: Float32Array; advantages: Float32Array; returns: Float32Array },
  normAdv: boolean,
): Minibatch {
  const n = inds.length;
  const { obsSize: d, actions: k } = net;
  const obs = new Float32Array(n * d);
  const acts = new Float32Array(n * k);
  const logprobs = new Float32Array(n);
  const adv = new Float32Array(n);
  const ret = new Float32Array(n);
  for (let m = 0; m < n; m++) {
    const i = inds[m];
    obs.set(b.obs.subarray(i * d, (i + 1) * d), m * d);
    if (net.continuous) acts.set(b.actions.subarray(i * k, (i + 1) * k), m * k);
    else acts[m * k + b.actions[i]] = 1;
    logprobs[m] = b.logprobs[i];
    adv[m] = b.advantages[i];
    ret[m] = b.returns[i];
  }
  if (normAdv) {
    const mu = mean(adv);
    let variance = 0;
    for (let m = 0; m < n; m++) variance += (adv[m] - mu) ** 2;
    const std = Math.sqrt(variance / (n - 1));
    for (let m = 0; m < n; m++) adv[m] = (adv[m] - mu) / (std + 1e-8);
  }
  return {
    obs: tf.tensor2d(obs, [n, d]),
    actions: tf.tensor2d(acts, [n, k]),
    logprobs: tf.tensor1d(logprobs),
    advantages: tf.tensor1d(adv),
    returns: tf.tensor1d(ret),
  };
}

interface TfAgent { actor: TfLayer[]; critic: TfLayer[]; logStd: tf.Tensor1D | null }

/** Regroups the flat [w, b, w, b, ..., logStd?] list into the actor's and the critic's layers. */
function regroup(pieces: tf.Tensor[], actorLayers: number, criticLayers: number): TfAgent {
  const layers = (from: number, count: number): TfLayer[] =>
    Array.from({ length: count }, (_, l) => ({ w: pieces[from + 2 * l] as tf.Tensor2D, b: pieces[from + 2 * l + 1] as tf.Tensor1D }));
  const end = 2 * (actorLayers + criticLayers);
  return { actor: layers(0, actorLayers), critic: layers(2 * actorLayers, criticLayers), logStd: (pieces[end] as tf.Tensor1D | undefined) ?? null };
}

/** The new policy's log-probability of the minibatch's actions [n], and its mean entropy. */
function logprobAndEntropy(net: Network, agent: TfAgent, mb: Minibatch): { newlogprob: tf.Tensor1D; entropy: tf.Scalar } {
  const out = forwardTf(agent.actor, mb.obs);
  if (!net.continuous || agent.logStd === null) {
    const logp = tf.logSoftmax(out);
    return {
      newlogprob: tf.sum(tf.mul(logp, mb.actions), 1) as tf.Tensor1D,
      entropy: tf.mean(tf.neg(tf.sum(tf.mul(tf.exp(logp), logp), 1))) as tf.Scalar,
    };
  }
  const z = tf.div(tf.sub(mb.actions, out), tf.exp(agent.logStd));
  const perDim = tf.sub(tf.mul(-0.5, tf.square(z)), tf.add(agent.logStd, LOG_SQRT_2PI));
  return {
    newlogprob: tf.sum(perDim, 1) as tf.Tensor1D,
    entropy: tf.sum(tf.add(agent.logStd, 0.5 + LOG_SQRT_2PI)) as tf.Scalar,
  };
}

function ppoLoss(net: Network, agent: TfAgent, mb: Minibatch, config: PpoConfig): tf.Scalar {
  const { newlogprob, entropy } = logprobAndEntropy(net, agent, mb);
  const ratio = tf.exp(tf.sub(newlogprob, mb.logprobs));

  const pg_loss1 = tf.mul(tf.neg(mb.advantages), ratio);
  const pg_loss2 = tf.mul(tf.neg(mb.advantages), tf.clipByValue(ratio, 1 - config.clipCoef, 1 + config.clipCoef));
  const pg_loss = tf.mean(tf.maximum(pg_loss1, pg_loss2));

  const newvalue = tf.reshape(forwardTf(agent.critic, mb.obs), [-1]);
  const v_loss = tf.mul(0.5, tf.mean(tf.square(tf.sub(newvalue, mb.returns))));

  return tf.add(tf.sub(pg_loss, tf.mul(config.entCoef, entropy)), tf.mul(config.vfCoef, v_loss)) as tf.Scalar;
}

function clipByGlobalNorm(grad: tf.Tensor, maxNorm: number): tf.Tensor {
  const norm = tf.sqrt(tf.sum(tf.square(grad)));
  return tf.mul(grad, tf.minimum(1, tf.div(maxNorm, tf.add(norm, 1e-6))));
}

function termMeans(terms: Map<string, Float64Array>): Record<string, number> {
  const out: Record<string, number> = Object.create(null);
  for (const [name, values] of terms) out[name] = mean(values);
  return out;
}

function mean(xs: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < xs.length; i++) sum += xs[i];
  return xs.length > 0 ? sum / xs.length : 0;
}
