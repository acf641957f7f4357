/**
 * What the model reads of a declared robot in place of an environment's source (Eureka's
 * environment-as-context): its manual, written from the XML and the declaration as the Gymnasium
 * robots' environment files open (tasks/hopper/environment.ts): the bodies, joints and actuators
 * read from the XML, the physics' time step, then the action, observation and recorded state
 * tables, the starting state and how an episode ends. Made when the task loads, so it is never
 * older than the XML.
 */
import { describeRange } from '../overrides.ts';
import { describeValue } from '../state-values.ts';
import type { MujocoTaskDeclaration } from './declaration.ts';
import type { RobotModel } from './robot-model.ts';

const num = (x: number): string => (Number.isFinite(x) ? Number(x.toPrecision(4)).toString() : x > 0 ? 'inf' : '-inf');
const range = (r: readonly [number, number] | null): string => (r === null ? 'unlimited' : `${num(r[0])} to ${num(r[1])}`);

export function robotManual(d: MujocoTaskDeclaration, robot: RobotModel, xmlName: string): string {
  const dt = robot.timestep * d.frameSkip;
  const noise = d.reset?.noise ?? 0;
  const lines = [
    `${d.id}: a robot declared from its MJCF file (${xmlName} and the ${robot.files.files.size - 1} other files of its folder), simulated by MuJoCo 3.14 (the official WebAssembly build).`,
    'The environment is MuJoCo itself on this XML: the tables below are read from the compiled model.',
    '',
    `## The robot (${robot.bodies.length - 1} bodies, ${robot.joints.length} joints, ${robot.actuators.length} actuators)`,
    '| body | parent | mass (kg) |',
    '|------|--------|-----------|',
    ...robot.bodies.slice(1).map((b) => `| ${b.name} | ${b.parent} | ${num(b.mass)} |`),
    '',
    '| joint | type | moves body | qpos index | qvel index | range |',
    '|-------|------|------------|------------|------------|-------|',
    ...robot.joints.map((j) => `| ${j.name || '(unnamed)'} | ${j.type} | ${j.body} | ${j.qposadr} | ${j.dofadr} | ${j.type === 'free' || j.type === 'ball' ? '-' : range(j.range)} |`),
    '',
    '| actuator | kind | joint | ctrlrange | gear |',
    '|----------|------|-------|-----------|------|',
    ...robot.actuators.map((a) => `| ${a.name || '(unnamed)'} | ${a.kind} | ${a.target} | ${range(a.ctrlrange)} | ${num(a.gear)} |`),
    ...(robot.sensors.length === 0 ? [] : ['', `Sensors: ${robot.sensors.map((s) => `${s.name} (${s.size})`).join(', ')}.`]),
    '',
    `Physics: time step ${num(robot.timestep)} s, frame skip ${d.frameSkip}: one environment step is ${num(dt)} s.`,
    '',
    `## Action space: Box(-1, 1, (${d.actions.length},))`,
    'Each entry drives one actuator: ctrl = offset + scale * action, clipped to the actuator\'s ctrlrange.',
    '| Num | actuator | offset | scale | ctrl clipped to |',
    '|-----|----------|--------|-------|-----------------|',
    ...robot.actions.map((a, k) => `| ${k} | ${robot.actuators[a.actuator].name} | ${num(a.offset)}${d.actions[k].offset === 'keyframe' ? ' (its target at the starting pose)' : ''} | ${num(a.scale)} | ${range([a.low, a.high])} |`),
    '',
    `## Observation: ${d.observation.length} numbers (float32)`,
    'Joint values are qpos and qvel; body values are read from MuJoCo\'s last sub-step (positions in the world frame, z up; roll, pitch and heading in rad).',
    '| Num | observation | value | seen by the policy |',
    '|-----|-------------|-------|--------------------|',
    ...d.observation.map((o, k) => `| ${k} | ${robot.observation[k].name} | ${describeValue(o.value)}${o.clip === undefined ? '' : `, clipped to ±${o.clip}`} | ${o.hidden ? 'no' : 'yes'} |`),
    ...recordedLines(d),
    '',
    '## Starting state',
    `${robot.keyframe < 0 ? 'The model\'s qpos0' : `The keyframe "${d.reset?.keyframe}"`} (qpos ${Array.from(robot.startQpos, num).join(', ')}), qvel 0` +
      (noise > 0 ? `, each qpos and qvel entry plus uniform noise in [-${num(noise)}, ${num(noise)}].` : ', no noise.'),
    '',
    '## Episode end',
    ...endLines(d),
    '',
    '## Reward',
    'The robot has no reward of its own (the environment\'s is 0 every step): your reward is all the policy learns from.',
  ];
  return `/**\n${lines.map((l) => (l === '' ? ' *' : ` * ${l}`)).join('\n')}\n */\n`;
}

function recordedLines(d: MujocoTaskDeclaration): string[] {
  if (!d.recorded?.length) return [];
  return ['', '## Recorded state (beside the observation; the policy never sees it)', '| Num | recorded | value |', '|-----|----------|-------|',
    ...d.recorded.map((r, k) => `| ${k} | ${r.name} | ${describeValue(r.value)} |`)];
}

function endLines(d: MujocoTaskDeclaration): string[] {
  const limit = `Truncation: ${d.maxEpisodeSteps} steps (the time limit).`;
  if (d.termination === undefined || d.termination === 'none') return ['Termination: none; only the time limit ends an episode.', limit];
  const ranges = d.termination.healthy.map(describeRange);
  return [`Termination: as soon as the robot is not healthy. Healthy is every one of: ${ranges.join('; ')}.`, limit];
}
