/**
 * What a task is (DESIGN §5): one folder under tasks/ whose `task.ts` default-exports
 * `defineTask({...})`, modelled on Gymnasium's `register(id, entry_point, max_episode_steps,
 * reward_threshold)`. The registry (registry.ts) finds the folder; nothing else names a task.
 *
 * A task gives: its id and what solved means, the observation and action spaces, a vectorized
 * environment (`makeEnv`), the trusted success test, the two baselines, named features for the
 * offline proposer, the card's renderer and a measured default budget. Its `environment.ts` is
 * what the model reads (Eureka's environment-as-context), with the reward lines left out.
 */
import type { PpoOverrides } from '../core/ppo-config.ts';
import type { Random } from '../core/random.ts';
import type { RecordedEpisode, Replay } from './conformance.ts';

/** One dimension of the observation, as Gymnasium's Box documents it. */
export interface ObservationDim {
  name: string;
  /** Bounds of the observation space (may be ±Infinity, as CartPole's velocities). */
  low: number;
  high: number;
  /**
   * The range observations usually stay in, finite: the trainer scales it to [-1, 1].
   * @default [low, high]
   */
  typical?: readonly [number, number];
  /**
   * The policy's networks do not see this entry (their input for it is always 0); the reward and
   * the success test still read it. For entries that hinder learning more than they inform, as
   * Ant-v5's contact forces (docs/mujoco.md, "What Ant's policy sees"). @default false
   */
  hidden?: boolean;
}

/**
 * One entry of a task's recorded state: a value its environment records every step beside the
 * observation (the torso's x, which Gymnasium's observation leaves out; an accumulated angle), for
 * the success test and progress. The policy never sees it; a reward may read it, as Eureka's
 * rewards read the simulator's state.
 */
export interface RecordedDim {
  /** With its unit and where it comes from: "torso x (m), qpos[0]". */
  name: string;
}

/** Gymnasium's Discrete(n) or Box(low, high) action space. */
export type ActionSpace =
  | {
      kind: 'discrete';
      /** One name per action, in action order ("push left", "no push", ...). */
      names: readonly string[];
      /** The action that does nothing, if there is one (an action cost spares it). */
      neutral?: number;
    }
  | {
      kind: 'box';
      /** One name per dimension ("torque"). */
      names: readonly string[];
      low: readonly number[];
      high: readonly number[];
    };

/**
 * A vectorized environment: n copies stepped together, each resetting itself when its episode
 * ends (Gymnasium's time limit included). float64 inside, float32 observations out.
 */
export interface VecEnv {
  readonly n: number;
  /** n × obsSize: what to act on; after an auto-reset, the new episode's first observation. */
  readonly obs: Float32Array;
  /** n × obsSize: what the last step produced, before any auto-reset: what the reward sees. */
  readonly finalObs: Float32Array;
  /** n × actionSize: the action each copy applied in the last step (discrete: the index; box: clipped). */
  readonly applied: Float64Array;
  /** n: the environment's own reward of the last step. */
  readonly reward: Float64Array;
  readonly terminated: Uint8Array;
  readonly truncated: Uint8Array;
  /** Steps taken in the running episode of each copy (0 right after a reset). */
  readonly elapsed: Int32Array;
  /** Values per copy of the task's recorded state (TaskSpec.recorded); 0 where it records none. */
  readonly recordSize: number;
  /** n × recordSize: the recorded state now; after an auto-reset, the new episode's first. */
  readonly record: Float64Array;
  /** n × recordSize: the recorded state the last step produced, before any auto-reset (beside finalObs). */
  readonly finalRecord: Float64Array;
  /** discrete: n action indices; box: n × actionSize numbers (clipped by the environment). */
  step(actions: ArrayLike<number>): void;
  /** Task-specific facts about copy i's running episode the card wants (terrain, ...); JSON. */
  episodeInfo?(i: number): unknown;
  /**
   * Everything the copies need to go on exactly where they stand (a seed-run's checkpoint between
   * two chunks), or null when this environment cannot save itself (a physics engine's world): the
   * trainer then starts fresh copies at a chunk.
   */
  snapshot?(): EnvSnapshot | null;
  /** Puts the copies back where a snapshot of an environment of the same shape left them. */
  restore?(snapshot: EnvSnapshot): void;
  /**
   * Frees what the copies hold outside the JavaScript heap (a WebAssembly engine's objects), once;
   * whoever made the environment calls it in a finally. Absent where there is nothing to free.
   */
  dispose?(): void;
}

/** A vectorized environment's saved state: typed arrays only, so it is stored to the last bit. */
export type EnvSnapshot = Record<string, Float64Array | Float32Array | Int32Array | Uint32Array>;

/** One finished evaluation episode, as the trusted success test sees it. */
export interface Episode {
  /** (length + 1) × obsSize: the first observation, then each step's (the final one included). */
  observations: Float32Array;
  obsSize: number;
  /** (length + 1) × recordSize: the recorded state at the start, then after each step (TaskSpec.recorded). */
  recorded: Float64Array;
  recordSize: number;
  /** Steps taken. */
  length: number;
  /** Sum of the environment's own reward. */
  return: number;
  terminated: boolean;
  truncated: boolean;
}

/** The trusted test of one evaluation episode; the candidate's reward never takes part. */
export interface SuccessTest {
  /** For prompts and cards, after "the share of evaluation episodes that …": "reach the flag". */
  clause: string;
  /** After a reward's name: "reaches the flag". */
  headline: string;
  /** One or two sentences, exact: how an episode is judged (the prompt and `eureka tasks` show it). */
  describe: string;
  /**
   * Where `test` reads the episode's return on the environment's own reward: that reward, exactly,
   * in a few lines a model can check a policy against (the prompt shows it as the judge, beside
   * the environment's source, which leaves the reward out). Absent where success is not a return.
   */
  returnFormula?: string;
  test(episode: Episode): boolean;
}

/**
 * Ties between equal success and progress: 'fewer-steps' prefers fewer steps in the successful
 * episodes (reaching the flag sooner); 'none' goes on to how early the candidate learned.
 */
export type TieBreak = 'fewer-steps' | 'none';

/**
 * The task's progress (Eureka's fitness): a continuous measure of the task itself on one greedy
 * episode, higher is better, read from the observations and the recorded state, never from any
 * reward. Candidates are ranked by success, then their mean progress; the race cuts by the same.
 */
export interface Progress {
  /** What it measures, in a sentence: "metres the torso moved forward along x from its start, the episode's last x less its first". */
  describe: string;
  /** "mean metres forward". */
  label: string;
  measure(episode: Episode): number;
  /** The averaged value in words, with its context: "0.43 (the flag is at 0.5)". */
  format(value: number): string;
}

/**
 * A named feature of the state for the offline proposer's grammar: a JavaScript expression over
 * `s` (an observation array) and, where the task records state, `r` (its recorded state) that is
 * about 0 far from solving and about 1 at the goal, so one set of coefficient ranges fits every task.
 */
export interface Feature {
  /** camelCase: becomes the term names `<name>Shaping` and `<name>`. */
  name: string;
  /** JavaScript over `s`, e.g. "Math.sin(3 * s[0]) * 0.5 + 0.5"; may use Math only. */
  expression: string;
  /** "the car's height on the track". */
  describe: string;
}

/** The names of a task's two baselines (`baselines`): the person's shaping, and the environment's own reward. */
export const BASELINE_NAMES = ['human', 'environment'] as const;
export type BaselineName = (typeof BASELINE_NAMES)[number];

/** A reward written as a file: the baselines, and the hostile candidates. */
export interface RewardSource {
  idea: string;
  code: string;
}

/** What an episode's ending means for the offline grammar's goal and failure terms. */
export type Termination = 'success' | 'failure' | 'never' | 'mixed';

/** One greedy evaluation episode as the card replays it (stored in result.json). */
export interface EpisodeRecord {
  /** (length + 1) observations. */
  observations: number[][];
  /** length actions, as applied (an index, or the clipped box action). */
  actions: Array<number | number[]>;
  /** length rewards of the environment. */
  rewards: number[];
  /** (length + 1) recorded states (TaskSpec.recorded), where the task records any. */
  recorded?: number[][];
  success: boolean;
  /** How the episode ended: the environment terminated it, or the time limit did. */
  terminated: boolean;
  truncated: boolean;
  /** VecEnv.episodeInfo of the episode, if the task gives one. */
  info?: unknown;
}

/** The card's picture of a task: an animated SVG of one episode, plots, and a sentence. */
export interface CardRenderer {
  /** Animated SVG (SMIL, no script) of the episode; `color` is the winner's. */
  animation(episode: EpisodeRecord, color: string): string;
  /** Static SVG plots that suit the task (MountainCar: position over time, phase portrait). */
  plots(episode: EpisodeRecord, color: string): string[];
  /** One sentence on what the episode shows ("turns 3 times and reaches the flag at step 110"). */
  story(episode: EpisodeRecord): string;
}

/** Largest deviation per field of a replay against a recording. */
export interface FieldTolerance {
  state: number;
  obs: number;
  reward: number;
}

/**
 * What `eureka conformance` holds a port to (tasks/conformance.ts). Every step's terminated and
 * truncated must match anyway, so every episode ends on the same step and the same way.
 */
export interface ConformanceTolerance extends FieldTolerance {
  /**
   * Where our replay of each step starts. 'start': the recorded initial state, then our own
   * steps (rounding differences carry on through the episode). 'each-step': the recorded state
   * before every step, so that each step is compared on its own: for dynamics that amplify a
   * last-bit difference (a chaotic double pendulum, a pendulum balanced upright), where a free
   * run can only match early on. Needs the array-state replayer (no own `replay`).
   * @default 'start'
   */
  replayFrom?: 'start' | 'each-step';
  /**
   * From the recording's first contact on (the step `Replay.firstContact` names), these replace
   * the fields above, which then hold the free flight before it: an engine that solves contacts
   * otherwise (float64 against Box2D's float32) parts ways there.
   * @default the fields above, for the whole episode
   */
  afterContact?: FieldTolerance;
}

/** One of the checks a task's own conformance ran on a recording, and its verdict. */
export interface ConformanceCheck {
  /** 'logic': observation, reward terms and endings computed from each recorded state, exactly;
   * 'physics per step': each step simulated from the recorded state before it;
   * 'distribution': the same policies' returns, lengths and endings, as distributions;
   * 'last sub-step': what the observation and reward read of MuJoCo's last sub-step (body positions,
   * contact forces), each step simulated from the recorded state, within a tolerance. */
  check: 'logic' | 'physics per step' | 'distribution' | 'last sub-step';
  ok: boolean;
  /** What was compared and the largest deviation, in one or a few lines. */
  detail: string;
}

/** What a task's own conformance says of a recording (`eureka conformance`). */
export interface ConformanceReport {
  episodes: number;
  steps: number;
  checks: ConformanceCheck[];
  /** Which engine the recording ran on, against ours, and what that chose (the MuJoCo tasks). */
  engine?: string;
}

/**
 * A way to play the task for the screen's bank of episodes (tasks/bank.ts): a trusted policy whose
 * episodes are known successes (a heuristic that solves the task) or known failures of one kind
 * (a crash, hovering to the time limit, a pole let fall). The bank keeps only the episodes that
 * pass (success) or fail (failure) the task's own success test.
 */
export interface BankPolicy {
  /** kebab-case, unique in the task: "hover". "random" and "nothing" replace the defaults. */
  name: string;
  kind: 'success' | 'failure';
  /** What its episodes show, as a gerund phrase for sentences: "hovering to the time limit". */
  words: string;
  /** Episodes to record, each from its own reset. @default 4 */
  episodes?: number;
  /** The action for an observation at step t of an episode: an index, or the box's values. */
  act(obs: Float32Array, t: number, rng: Random): number | readonly number[];
}

/** What a task declares for its bank, beyond what every task gets (random actions, doing nothing). */
export interface BankDeclaration {
  /** What a success shows, as a gerund phrase: "reaching the flag". @default 'succeeding' */
  successWords?: string;
  /** The task's own ways to succeed and to fail. @default [] */
  policies?: readonly BankPolicy[];
  /**
   * Which baseline `eureka bank` trains for the bank's successes. The person's shaping by default;
   * the environment's reward where the person's shaping does not reach the success line at the
   * budget and the environment's reward does on some seeds. @default 'human'
   */
  trainedSuccesses?: BaselineName;
  /**
   * A baseline whose trained policy `eureka bank` also plays for failures of one kind (a
   * behaviour's: the robot's own reward's trained policy, its ordinary gait), with their words.
   * @default none
   */
  trainedFailures?: { baseline: BaselineName; words: string };
  /**
   * Why the bank holds no success yet, where it does not: the screen then judges a reward's terms
   * and scale alone, never its ranking (tests hold a bank to it: no success while it is set).
   */
  noSuccessesYet?: string;
}

/** The task's default and smoke budget, from measurements (the README's learning table). */
export interface TaskBudget {
  /** Environment steps per seed-run. */
  steps: number;
  evalEpisodes: number;
  /** Steps per seed-run of `--smoke`. */
  smokeSteps: number;
  /**
   * A seed-run's training speed on one core of the machine it was measured on (`npm run bench`):
   * environment steps per second, grading included. It sizes the chunks a seed-run trains in, one
   * per TrainSeed invocation. @default 2000
   */
  stepsPerSecond?: number;
  /**
   * The share of a generation's candidates still in the race after a rung (racing's defaults): the
   * top third, and those not clearly behind them. Read by the estimate (functions/shared/cost/estimate.ts),
   * fitted to the task's raced searches (README). @default 1 (the race stops nobody: an upper bound)
   */
  raceSurvival?: number;
}

/** Everything a task folder declares. */
export interface TaskSpec {
  /** Gymnasium's id: "MountainCar-v0". */
  id: string;
  /** What the task is and what solved means, in a few sentences. */
  description: string;
  maxEpisodeSteps: number;
  /** Gymnasium's reward_threshold, where it has one. */
  rewardThreshold?: number;
  observation: readonly ObservationDim[];
  /**
   * What the environment records every step beside the observation, for the success test and
   * progress (and any reward that reads it); its VecEnv fills `record` and `finalRecord` in this
   * order. @default [] (the observation says all the task needs)
   */
  recorded?: readonly RecordedDim[];
  action: ActionSpace;
  /** n copies seeded with `seed` (each copy's resets draw from one generator). */
  makeEnv(n: number, seed: number): VecEnv;
  /**
   * Loads what `makeEnv` needs and cannot load synchronously (a WebAssembly engine), once per
   * process; awaited before the first `makeEnv` (registry.ts `prepareTask`). @default nothing to load
   */
  prepare?(): Promise<void>;
  success: SuccessTest;
  /** What decides between equal success and progress, before how early it learned. @default 'none' */
  tieBreak?: TieBreak;
  progress: Progress;
  termination: Termination;
  /** The environment's own reward written as a reward file, and a person's shaping. */
  baselines: Record<BaselineName, RewardSource>;
  features: readonly Feature[];
  render: CardRenderer;
  budget: TaskBudget;
  /** Trainer settings that differ from the defaults for this task (measured; see the README). */
  ppo?: PpoOverrides;
  /**
   * Replays a recorded Gymnasium episode for `eureka conformance`.
   * @default from the recorded `initial_state`, for environments whose state is one Float64Array
   */
  replay?: (episode: RecordedEpisode) => Replay;
  /**
   * What `eureka conformance` accepts by default, chosen on recordings the check is not then run
   * on (test/conformance.test.ts). Each step's terminated and truncated must match anyway.
   * @default { state: 1e-9, obs: 1e-6, reward: 1e-6 }, replayed from the start
   */
  conformanceTolerance?: ConformanceTolerance;
  /**
   * The screen's bank (tasks/bank.ts): the words of a success and the task's own ways to succeed
   * and to fail. @default random actions and the neutral action only, "succeeding"
   */
  bank?: BankDeclaration;
  /**
   * The task's own conformance check of a recording in its own format (a MuJoCo task's: logic
   * exactly, physics per step or by distribution), in place of the replay and tolerance above.
   */
  conformance?: (recording: unknown) => ConformanceReport;
  /** File (in the task's folder) that the model reads. @default 'environment.ts' */
  environmentFile?: string;
  /**
   * Files the model reads, in order, in place of `environmentFile`: relative to the task's folder,
   * or absolute (a behaviour's: its robot's documented environment, then its own overrides and
   * sentence). Each without its reward lines.
   */
  environmentFiles?: readonly string[];
  /**
   * What the model reads, where it is no file of the folder: a declared robot's manual, written
   * from its XML when the task loads (mujoco-common/declared/manual.ts). @default the environmentFile's text
   */
  environmentText?: string;
  /** Words after the files (or environmentText) in what the model reads: a behaviour's overrides, said from its declaration. */
  environmentNote?: string;
}

/** A registered task: the spec plus what the registry adds. */
export interface Task extends TaskSpec {
  /**
   * What training, grading and checks use: the spec's environment, with Box actions clipped to
   * their bounds first (Gymnasium's ClipAction, as CleanRL). `gymnasiumEnv` is the bare one.
   */
  makeEnv(n: number, seed: number): VecEnv;
  /** The spec's environment as Gymnasium defines it, unclipped: conformance replays it. */
  gymnasiumEnv(n: number, seed: number): VecEnv;
  /** The folder's name, and the directory it was loaded from (tasks/<folder>, or one on EUREKA_TASK_PATH). */
  folder: string;
  directory: string;
  obsSize: number;
  /** Entries of the recorded state (spec.recorded's length). */
  recordSize: number;
  tieBreak: TieBreak;
  /** discrete: 1 (the index); box: its dimension. */
  actionSize: number;
  /** The environment's source as the model reads it: `environment.ts` with the reward lines removed. */
  environmentSource: string;
}

/**
 * Identity function that types a task folder's default export. A folder may also default-export a
 * promise of its spec (a declared robot's `defineMujocoTask`, which reads its XML): the registry
 * awaits it.
 */
export function defineTask(spec: TaskSpec): TaskSpec {
  return spec;
}
