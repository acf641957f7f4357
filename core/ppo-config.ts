/**
 * PPO's hyperparameters in one place (CleanRL's Args), with a default and a doc for each, apart
 * from the trainer so that what states them (the prompt) does not load TensorFlow.js.
 */

export interface PpoConfig {
  /** Seed of the environments, the initial weights, action sampling and minibatch shuffling. */
  seed: number;
  /** Total environment steps of training. @default 150_000 */
  totalTimesteps: number;
  /** Parallel environments. @default 16 */
  numEnvs: number;
  /** Steps per environment per rollout. @default 128 */
  numSteps: number;
  /**
   * Adam learning rate. Constant by default: measured on the default task with its shaping
   * baseline, CleanRL's annealing to 0 left one of five seeds unsolved at 150k steps.
   * @default 2.5e-4
   */
  learningRate: number;
  /** Discount. @default 0.99 */
  gamma: number;
  /** GAE lambda. @default 0.95 */
  gaeLambda: number;
  /** Minibatches per epoch. @default 4 */
  numMinibatches: number;
  /** Epochs over each rollout. @default 4 */
  updateEpochs: number;
  /** Normalize advantages per minibatch. @default true */
  normAdv: boolean;
  /** Surrogate clipping coefficient. @default 0.2 */
  clipCoef: number;
  /** Entropy bonus coefficient. @default 0.01 */
  entCoef: number;
  /** Value loss coefficient. @default 0.5 */
  vfCoef: number;
  /** Global gradient norm clip. @default 0.5 */
  maxGradNorm: number;
  /**
   * Adam's epsilon. PyTorch's default, as the reference trainer: the value loss dominates the one
   * global gradient norm, so after clipping the actor's gradients are ~1e-5 per weight and
   * CleanRL's 1e-5 would damp them. @default 1e-8
   */
  adamEpsilon: number;
  /**
   * Initial weights: 'orthogonal' (CleanRL's layer_init) or 'uniform' (PyTorch's nn.Linear default,
   * as the reference). On the default task, orthogonal first solved it by update ~15 on all of 5
   * seeds, uniform by updates 15-43. @default 'orthogonal'
   */
  init: 'orthogonal' | 'uniform';
  /**
   * Divide rewards by the running standard deviation of the discounted return and clip them to
   * ±10, as Gymnasium's NormalizeReward and TransformReward in CleanRL's continuous PPO.
   * @default false
   */
  normReward: boolean;
  /**
   * Scale observations by their running mean and standard deviation and clip them to ±10, as
   * Gymnasium's NormalizeObservation and TransformObservation in CleanRL's continuous PPO (for
   * observations with no fixed bounds: MuJoCo's). The statistic is saved in the checkpoint and
   * folded into the exported policy. @default false
   */
  normObs: boolean;
  /**
   * With normObs, also count the final observation of every episode that ends, beside the reset
   * observation that replaces it, as CleanRL's per-copy NormalizeObservation sees both. The MuJoCo
   * tasks set it (tasks/mujoco-common/ppo.ts: it mattered on Ant, docs/mujoco.md). Absent unless
   * set, so the settings, and the checkpoints' fingerprints, of the tasks that do not set it stay
   * as they were.
   */
  normObsTerminal?: boolean;
}

export const DEFAULT_PPO_CONFIG: PpoConfig = {
  seed: 0,
  totalTimesteps: 150_000,
  numEnvs: 16,
  numSteps: 128,
  learningRate: 2.5e-4,
  gamma: 0.99,
  gaeLambda: 0.95,
  numMinibatches: 4,
  updateEpochs: 4,
  normAdv: true,
  clipCoef: 0.2,
  entCoef: 0.01,
  vfCoef: 0.5,
  maxGradNorm: 0.5,
  adamEpsilon: 1e-8,
  init: 'orthogonal',
  normReward: false,
  normObs: false,
};

/** What a task may set (tasks/contract.ts `ppo`): everything but what a seed-run decides. */
export type PpoOverrides = Partial<Omit<PpoConfig, 'seed' | 'totalTimesteps'>>;

/** The defaults, the task's own settings over them, then the seed-run's. */
export function ppoConfigFor(task: { ppo?: PpoOverrides }, seed: number, totalTimesteps: number): PpoConfig {
  return { ...DEFAULT_PPO_CONFIG, ...task.ppo, seed, totalTimesteps };
}

