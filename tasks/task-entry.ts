/**
 * `eureka-serverless/task`: everything a task folder imports, under one stable name. A folder
 * anywhere on disk imports it by that name (`import { defineTask, VectorEnv } from
 * 'eureka-serverless/task'`): package.json's `exports` names this file, and the registry
 * (registry.ts) registers a resolve hook (entry-hook.ts) that resolves the name for folders on
 * EUREKA_TASK_PATH, which have no node_modules of their own (docs/your-own-task.md).
 *
 * What is here is the contract a task folder is held to; a name removed here breaks users' tasks.
 */
export { defineTask } from './contract.ts';
export type {
  ActionSpace, BankDeclaration, BankPolicy, CardRenderer, ConformanceTolerance, EnvSnapshot, Episode,
  EpisodeRecord, Feature, FieldTolerance, ObservationDim, Progress, RecordedDim, RewardSource, SuccessTest, TaskBudget, TaskSpec, Termination,
  TieBreak, VecEnv,
} from './contract.ts';
export { VectorEnv, type StepOutcome, type VectorEnvShape } from './vector-env.ts';
export type { RecordedEpisode, RecordedStep, Replay } from './conformance.ts';
export type { PpoOverrides } from '../core/ppo-config.ts';
/** The seeded generator every reset draws from (sfc32): the same episodes in every process. */
export { Random } from '../core/random.ts';
/** The card's SVG primitives: a task's `render` draws with them. */
export {
  barChart, lineChart, r, sparkline, spreadApart, svgOpen, ticks,
  type Bar, type BarChartOptions, type Domain, type LegendEntry, type LineChartOptions, type Marker, type Point, type RefLine, type Series,
} from '../core/svg.ts';
export { escapeHtml } from '../core/escape.ts';
/**
 * A MuJoCo robot declared from its MJCF file (docs/your-own-task.md, "Your own robot"): the
 * declaration, the vocabulary its values are named in (as the XML names them), and what success
 * tests and progress read off an episode's recorded state.
 */
export { defineMujocoTask, InvalidDeclaration } from './mujoco-common/declared/define.ts';
export type { ActuatorAction, MujocoTaskDeclaration, ObservedValue } from './mujoco-common/declared/declaration.ts';
export type { BodyQuantity, StateValue } from './mujoco-common/state-values.ts';
export type { HealthyRange, MujocoOverrides, RecordedEntry } from './mujoco-common/overrides.ts';
export { metresForward, stayedHealthy } from './mujoco-common/healthy-episode.ts';
/**
 * Behaviours (docs/behaviours.md): one of Gymnasium's robots, reused with a task's own sentence,
 * overrides, success test and progress: the builder, and the robots as a behaviour sees them.
 */
export { behaviour, type BehaviourSpec, type GymnasiumRobot } from './mujoco-common/behaviour.ts';
export { HOPPER } from './hopper/robot.ts';
export { WALKER2D } from './walker2d/robot.ts';
export { HALF_CHEETAH } from './half-cheetah/robot.ts';
export { ANT } from './ant/robot.ts';
export { SWIMMER } from './swimmer/robot.ts';
