/**
 * What a behaviour's overrides change of its robot, in words the model reads after the robot's
 * documented environment and the behaviour's file (TaskSpec.environmentNote). The model reads no
 * task.ts: without this, a behaviour whose author did not restate its overrides in its own file
 * leaves the model shaping for the robot's termination as the robot's file gives it.
 */
import { describeRange, type MujocoOverrides } from './overrides.ts';
import { describeValue } from './state-values.ts';

/** The note, or undefined where the overrides change nothing. */
export function overridesNote(robot: { task: string; maxEpisodeSteps: number }, o: MujocoOverrides): string | undefined {
  const lines = [
    ...(o.maxEpisodeSteps === undefined ? [] : [`Time limit: ${o.maxEpisodeSteps} steps (${robot.task}'s: ${robot.maxEpisodeSteps}).`]),
    ...(o.termination === undefined ? []
      : o.termination === 'none' ? [`Termination: none; only the time limit ends an episode (${robot.task}'s healthy test is off).`]
        : [`Termination: an episode ends when a value leaves its open range, in place of ${robot.task}'s healthy test: ${o.termination.healthy.map(describeRange).join('; ')}.`]),
    ...(o.reset === undefined ? [] : [`Reset: from ${o.reset.keyframe === undefined ? `${robot.task}'s starting pose` : `keyframe ${JSON.stringify(o.reset.keyframe)}`}` +
      `${o.reset.noise === undefined ? '' : `, uniform noise of ${o.reset.noise} on every qpos and qvel entry`}.`]),
    ...(o.recorded === undefined || o.recorded.length === 0 ? [] : [`Recorded state after ${robot.task}'s own entries: ${o.recorded.map((e) => `${JSON.stringify(e.name)} = ${describeValue(e.value)}`).join('; ')}.`]),
  ];
  if (lines.length === 0) return undefined;
  return [`// ===== What this behaviour changes of ${robot.task} (its overrides, as declared; they replace what the robot's file says) =====`, ...lines.map((l) => `// ${l}`)].join('\n');
}
