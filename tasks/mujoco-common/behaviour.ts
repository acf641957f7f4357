/**
 * A behaviour: a task folder that reuses one of Gymnasium's robots (its XML, engine room,
 * environment code and observation, no copy of any) with a sentence the model reads, a success
 * test and progress on recorded state, and, where the behaviour needs it, its own termination,
 * time limit, reset and recorded state (overrides.ts). No reward anyone wrote for it comes with
 * it: the baselines are the robot's own Gymnasium reward (it pays for something else) and a
 * person's first try, written from the description alone.
 *
 * The model reads the robot's documented environment and the behaviour's own file (its sentence,
 * overrides, success test and progress), in that order.
 */
import type { PpoOverrides } from '../../core/ppo-config.ts';
import type {
  ActionSpace, BankDeclaration, BankPolicy, CardRenderer, Episode, EpisodeRecord, Feature, ObservationDim, Progress, RecordedDim, RewardSource, SuccessTest, TaskBudget,
  TaskSpec, Termination, TieBreak,
} from '../contract.ts';
import { prepareMujoco, type MujocoEnv } from './mujoco-env.ts';
import { overridden, type MujocoEnvClass } from './overridden.ts';
import { MujocoOverridesSchema, type MujocoOverrides } from './overrides.ts';
import { overridesNote } from './overrides-note.ts';
import { UnknownName } from './state-values.ts';

/** One of Gymnasium's robots, as its task folder gives it to a behaviour. */
export interface GymnasiumRobot {
  /** "Hopper": the first part of a behaviour's id. */
  name: string;
  /** Its Gymnasium task, whose reward is the behaviour's "robot's own reward": "Hopper-v5". */
  task: string;
  /** What the robot is, in a sentence or two (its bodies, joints, motors). */
  describe: string;
  env: MujocoEnvClass;
  /** Its documented environment, the file the model reads (absolute). */
  environmentFile: string;
  observation: readonly ObservationDim[];
  recorded: readonly RecordedDim[];
  action: ActionSpace;
  maxEpisodeSteps: number;
  ppo: PpoOverrides;
  render: CardRenderer;
  /** The card without the line where the robot's own termination ends an episode (absent: it draws none), for a behaviour whose overrides change the termination. */
  renderAnyEnding?: CardRenderer;
  /** Gymnasium's reward for the robot's own task, as a reward file. */
  environmentReward: RewardSource;
  /** The robot's written ways to fail for a bank (its task's: standing still, flailing, ...). */
  bankPolicies: readonly BankPolicy[];
}

export interface BehaviourSpec {
  /** `<Robot>-<Behaviour>-v0`: letters, digits and hyphens. */
  id: string;
  robot: GymnasiumRobot;
  /** What the robot is asked to do, in a sentence: the task, as the model reads it. */
  sentence: string;
  overrides: MujocoOverrides;
  success: SuccessTest;
  progress: Progress;
  tieBreak?: TieBreak;
  /** What an episode's ending means for the offline proposer's goal and failure terms. */
  termination: Termination;
  /** The person's first try: a plain shaping written from the description alone. */
  firstTry: RewardSource;
  features: readonly Feature[];
  bank?: BankDeclaration;
  budget: TaskBudget;
  /** The behaviour's own file the model reads beside the robot's (absolute): its sentence, overrides, success test and progress. */
  behaviourFile: string;
  /** The card's sentence on an episode, in the behaviour's words; without it, its success test's and progress's. */
  story?: (episode: EpisodeRecord) => string;
}

const ID = /^[A-Z][A-Za-z0-9]*-[A-Z][A-Za-z0-9]*-v\d+$/;

export class InvalidBehaviour extends Error {
  override readonly name = 'InvalidBehaviour';
}

/** The task folder's spec: the robot with the behaviour's overrides, judged by the behaviour's own test. */
export function behaviour(spec: BehaviourSpec): TaskSpec {
  if (!ID.test(spec.id) || !spec.id.startsWith(`${spec.robot.name}-`)) {
    throw new InvalidBehaviour(`id: ${JSON.stringify(spec.id)} must read <Robot>-<Behaviour>-v<N>, letters and digits, starting with ${spec.robot.name}-`);
  }
  const checked = MujocoOverridesSchema.safeParse(spec.overrides);
  if (!checked.success) {
    const issues = checked.error.issues.map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message));
    throw new InvalidBehaviour(`overrides: ${issues.join('; ')} (the overrides are ${Object.keys(MujocoOverridesSchema.shape).join(', ')}: docs/behaviours.md)`);
  }
  const { robot, overrides } = spec;
  const Env = overridden(robot.env, overrides);
  let namesChecked: Promise<void> | undefined;
  const note = overridesNote(robot, overrides);
  return {
    id: spec.id,
    description: `${spec.sentence} The robot is Gymnasium's ${robot.task} robot: ${robot.describe} ` +
      `Nothing here rewards the behaviour: its success test and progress are below, and the robot's own reward (${robot.task}'s) pays for something else.`,
    maxEpisodeSteps: overrides.maxEpisodeSteps ?? robot.maxEpisodeSteps,
    observation: robot.observation,
    recorded: [...robot.recorded, ...(overrides.recorded ?? []).map((e) => ({ name: e.name }))],
    action: robot.action,
    makeEnv: (n, seed) => new Env(n, seed),
    // The overrides name the XML's joints, bodies and keyframes: a wrong name fails here, when the
    // task is first used, with its field and the names there are, not at a seed-run's first step.
    // A healthy range is read at a step, so the copy steps once. Once a process (a copy made and
    // stepped costs about 20 ms, and prepare runs for every check and chunk).
    prepare: () => (namesChecked ??= (async () => {
      await prepareMujoco();
      let env: MujocoEnv | undefined;
      try {
        env = new Env(1, 0);
        // Every robot of Gymnasium's here acts in a box: one value per actuator, 0 for this step.
        env.step(new Float64Array(robot.action.names.length));
      } catch (error) {
        if (error instanceof UnknownName) throw new InvalidBehaviour(`${spec.id}: ${error.message}`);
        throw error;
      } finally {
        env?.dispose();
      }
    })()),
    success: spec.success,
    ...(spec.tieBreak === undefined ? {} : { tieBreak: spec.tieBreak }),
    progress: spec.progress,
    termination: spec.termination,
    baselines: { environment: robot.environmentReward, human: spec.firstTry },
    features: spec.features,
    // The robot's "ends below" line is its own termination's: not drawn where the overrides change it.
    render: { ...(overrides.termination === undefined ? robot.render : robot.renderAnyEnding ?? robot.render), story: spec.story ?? ownWords(spec, robot.render.story) },
    ...(spec.bank === undefined ? {} : { bank: spec.bank }),
    budget: spec.budget,
    ppo: robot.ppo,
    environmentFiles: [robot.environmentFile, spec.behaviourFile],
    ...(note === undefined ? {} : { environmentNote: note }),
  };
}

/**
 * The card's sentence on an episode where a behaviour writes none: its own success test and
 * progress, since the robot's own story is in the robot's terms ("-0.11 metres forward" of a
 * walker asked to walk backwards). The robot's story stands in if the progress cannot be read.
 */
function ownWords(spec: BehaviourSpec, robotStory: (episode: EpisodeRecord) => string): (episode: EpisodeRecord) => string {
  return (record) => {
    const length = record.actions.length;
    const episode: Episode = {
      observations: Float32Array.from(record.observations.flat()), obsSize: record.observations[0]?.length ?? 0,
      recorded: Float64Array.from((record.recorded ?? []).flat()), recordSize: record.recorded?.[0]?.length ?? 0,
      length, return: record.rewards.reduce((a, b) => a + b, 0), terminated: record.terminated, truncated: record.truncated,
    };
    let progress: string;
    try {
      progress = spec.progress.format(spec.progress.measure(episode));
    } catch {
      return robotStory(record);
    }
    const ending = record.terminated ? `ends at step ${length}, outside the healthy range` : `runs all ${length} steps`;
    return `${record.success ? `It ${spec.success.headline}` : `It does not ${spec.success.clause}`}: progress ${progress}; the episode ${ending}.`;
  };
}
