/**
 * The screen's bank of episodes (issue 24): known successes and known failures of every kind a task
 * has, played by trusted policies in the task's own environment, so that a candidate reward can be
 * run over them before anything trains it. What a reward pays on each is its discounted return;
 * whether it pays more for a success than for a crash is then a question with an answer.
 *
 * Every task gets two failures without declaring anything: random actions, and doing nothing (the
 * neutral action, where there is one) until the episode ends. A task adds its own kinds in
 * `bank.policies` (a crash, hovering to the time limit, a pole let fall) and trusted successes
 * (Gymnasium's heuristic lander). The successes of the person's shaping need a trained policy:
 * `eureka bank` trains it and stores the whole bank as the task folder's bank.json.gz
 * (bank-file.ts); without that file the bank is made here on the fly, without those successes.
 */
import { createHash } from 'node:crypto';
import { Random } from '../core/random.ts';
import type { BankPolicy, Episode, Task } from './contract.ts';

export interface BankEpisode {
  /** The policy that played it ("human", "heuristic", "random", "nothing", "hover", ...). */
  policy: string;
  kind: 'success' | 'failure';
  /** The environment's seed of its reset. */
  seed: number;
  length: number;
  /** (length + 1) × obsSize: the first observation, then each step's (the final one included). */
  observations: Float32Array;
  /** (length + 1) × recordSize: the task's recorded state, likewise (empty where it records none). */
  recorded: Float64Array;
  /** length × actionSize: the action as the environment applied it. */
  actions: Float64Array;
  /** How the last step ended: the environment terminated it, the time limit truncated it (or both). */
  terminated: boolean;
  truncated: boolean;
  /** The environment's own return. */
  return: number;
}

/** What the bank says of one policy: its kind and words, without its code. */
export interface BankPolicyInfo {
  name: string;
  kind: 'success' | 'failure';
  words: string;
}

export interface Bank {
  task: string;
  /** true: read from the task folder's bank.json.gz; false: made on the fly, without trained successes. */
  stored: boolean;
  /** What a success shows, in words: "reaching the flag". */
  successWords: string;
  policies: BankPolicyInfo[];
  episodes: BankEpisode[];
}

/** Where a policy's episodes start: far from training (0..) and evaluation (1,000,003..) seeds. */
export const BANK_SEED = 7_000_000;
/** A policy that keeps missing its kind is given up after this many resets per wanted episode. */
const TRIES_PER_EPISODE = 3;
const DEFAULT_EPISODES = 4;

/** An actor for one episode: the action for an observation at step t. */
export type Actor = (obs: Float32Array, t: number, rng: Random) => number | readonly number[];

/** The task's policies: the two every task has (unless it declares its own of that name), then its own. */
export function bankPolicies(task: Task): BankPolicy[] {
  const own = task.bank?.policies ?? [];
  const defaults = [randomPolicy(task), nothingPolicy(task)].filter((p): p is BankPolicy => p !== null);
  return [...defaults.filter((d) => !own.some((p) => p.name === d.name)), ...own];
}

/** The task's policies as the bank records them: kind and words, without their code. */
export function policyInfos(task: Task): BankPolicyInfo[] {
  return bankPolicies(task).map(({ name, kind, words }) => ({ name, kind, words }));
}

export function successWords(task: Task): string {
  return task.bank?.successWords ?? 'succeeding';
}

/** `count` episodes of `act` that pass (success) or fail (failure) the task's test, from seeds `firstSeed`.. */
export function playKind(task: Task, policy: string, kind: 'success' | 'failure', act: Actor, count: number, firstSeed: number): BankEpisode[] {
  const kept: BankEpisode[] = [];
  for (let i = 0; i < count * TRIES_PER_EPISODE && kept.length < count; i++) {
    const episode = playEpisode(task, policy, kind, act, firstSeed + i);
    if (passes(task, episode) === (kind === 'success')) kept.push(episode);
  }
  return kept;
}

/** The declared and default policies' episodes, each policy from its own block of seeds. */
export function policyEpisodes(task: Task): BankEpisode[] {
  return bankPolicies(task).flatMap((p, k) =>
    playKind(task, p.name, p.kind, (obs, t, rng) => p.act(obs, t, rng), p.episodes ?? DEFAULT_EPISODES, BANK_SEED + 1000 * (k + 1)));
}

/** One episode of `act` from the reset of `seed`, to its end. */
export function playEpisode(task: Task, policy: string, kind: 'success' | 'failure', act: Actor, seed: number): BankEpisode {
  const env = task.makeEnv(1, seed);
  try {
    const rng = new Random(seed ^ 0xba4c);
    const d = task.obsSize;
    const r = task.recordSize;
    const observations: number[] = Array.from(env.obs.subarray(0, d));
    const recorded: number[] = Array.from(env.record.subarray(0, r));
    const actions: number[] = [];
    let total = 0;
    for (let t = 0; ; t++) {
      const action = act(env.obs.subarray(0, d), t, rng);
      // Box actions as float32, as a trained policy's are: the bank then stores them to the last bit.
      env.step(typeof action === 'number' ? [action] : action.map(Math.fround));
      for (let j = 0; j < task.actionSize; j++) actions.push(env.applied[j]);
      for (let j = 0; j < d; j++) observations.push(env.finalObs[j]);
      for (let j = 0; j < r; j++) recorded.push(env.finalRecord[j]);
      total += env.reward[0];
      if (env.terminated[0] === 1 || env.truncated[0] === 1) {
        return {
          policy, kind, seed, length: t + 1, observations: Float32Array.from(observations), recorded: Float64Array.from(recorded),
          actions: Float64Array.from(actions),
          terminated: env.terminated[0] === 1, truncated: env.truncated[0] === 1, return: total,
        };
      }
    }
  } finally {
    env.dispose?.();
  }
}

/** What the environment shows when `actions` are applied one step after another from the reset of `seed`, to the episode's end. */
export function replayEpisode(task: Task, seed: number, actions: Float64Array): Pick<BankEpisode, 'length' | 'observations' | 'recorded' | 'terminated' | 'truncated' | 'return'> {
  const env = task.makeEnv(1, seed);
  try {
    const [d, k, r] = [task.obsSize, task.actionSize, task.recordSize];
    const observations: number[] = Array.from(env.obs.subarray(0, d));
    const recorded: number[] = Array.from(env.record.subarray(0, r));
    let [total, t] = [0, 0];
    while (t * k < actions.length) {
      env.step(actions.subarray(t * k, (t + 1) * k));
      t += 1;
      for (let j = 0; j < d; j++) observations.push(env.finalObs[j]);
      for (let j = 0; j < r; j++) recorded.push(env.finalRecord[j]);
      total += env.reward[0];
      if (env.terminated[0] === 1 || env.truncated[0] === 1) break;
    }
    return {
      length: t, observations: Float32Array.from(observations), recorded: Float64Array.from(recorded),
      terminated: env.terminated[0] === 1, truncated: env.truncated[0] === 1, return: total,
    };
  } finally {
    env.dispose?.();
  }
}

/** SHA-256 of what an episode showed, to the last bit: its observations' float32 bytes, then its recorded state's float64 bytes. */
export function episodeDigest(episode: Pick<BankEpisode, 'observations' | 'recorded'>): string {
  const bytes = (a: Float32Array | Float64Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  return createHash('sha256').update(bytes(episode.observations)).update(bytes(episode.recorded)).digest('hex');
}

/** The task's own success test on a bank episode. */
export function passes(task: Task, episode: BankEpisode): boolean {
  return task.success.test(asEpisode(task, episode));
}

/** A bank episode as the task's success test and progress read one. */
export function asEpisode(task: Task, episode: BankEpisode): Episode {
  const { observations, recorded, length, terminated, truncated } = episode;
  return { observations, obsSize: task.obsSize, recorded, recordSize: task.recordSize, length, return: episode.return, terminated, truncated };
}

function randomPolicy(task: Task): BankPolicy {
  const { action } = task;
  return {
    name: 'random', kind: 'failure', words: 'acting at random', episodes: 6,
    act: (_obs, _t, rng) => (action.kind === 'discrete'
      ? rng.int(action.names.length)
      : action.low.map((lo, j) => rng.uniform(lo, action.high[j]))),
  };
}

/** The neutral action to the episode's end; none where the task has no action that does nothing. */
function nothingPolicy(task: Task): BankPolicy | null {
  const { action } = task;
  let neutral: number | readonly number[];
  if (action.kind === 'discrete') {
    if (action.neutral === undefined) return null;
    neutral = action.neutral;
  } else {
    if (!action.low.every((lo, j) => lo <= 0 && 0 <= action.high[j])) return null;
    neutral = action.low.map(() => 0);
  }
  return { name: 'nothing', kind: 'failure', words: 'doing nothing', act: () => neutral };
}
