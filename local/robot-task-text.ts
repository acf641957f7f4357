/**
 * The `task.ts` that `eureka new-task NAME --xml FILE` writes: a declared robot
 * (`defineMujocoTask`, tasks/mujoco-common/declared/) that runs as it stands, with every joint of
 * the XML observed, every actuator an action, and a success test, progress, baselines, features and
 * budget that are placeholders, marked so, to be made the user's own (docs/your-own-task.md).
 */
import type { MjModel } from '../physics/mujoco/engine.ts';
import { objectName } from '../physics/mujoco/names.ts';

/** What the template needs of the compiled model. */
export interface RobotOutline {
  timestep: number;
  joints: Array<{ name: string; type: 'free' | 'ball' | 'slide' | 'hinge'; body: string }>;
  actuators: Array<{ name: string; position: boolean }>;
  sensors: Array<{ name: string; size: number }>;
  /** The first keyframe's name, '' where it has none or the model none (then qpos0). */
  keyframe: string;
  /** The body that moves the robot about (the first free joint's), or the first body under the world. */
  root: { body: string; free: boolean };
}

const TYPES = ['free', 'ball', 'slide', 'hinge'] as const;

export function outline(model: MjModel): RobotOutline {
  const i32 = (a: unknown) => a as Int32Array;
  const f64 = (a: unknown) => a as Float64Array;
  const joints = Array.from({ length: model.njnt }, (_, j) => ({ name: objectName(model, 'jnt', j), type: TYPES[i32(model.jnt_type)[j]], body: objectName(model, 'body', i32(model.jnt_bodyid)[j]) }));
  const actuators = Array.from({ length: model.nu }, (_, u) => {
    // A <position> servo: affine bias of -kp on its length, gain kp.
    const gain = f64(model.actuator_gainprm)[10 * u];
    const position = i32(model.actuator_biastype)[u] === 1 && f64(model.actuator_biasprm)[10 * u + 1] === -gain;
    return { name: objectName(model, 'actuator', u), position };
  });
  const sensors = Array.from({ length: model.nsensor }, (_, s) => ({ name: objectName(model, 'sensor', s), size: i32(model.sensor_dim)[s] })).filter((s) => s.name !== '');
  const free = joints.find((j) => j.type === 'free');
  const firstBody = Array.from({ length: model.nbody }, (_, b) => b).find((b) => b > 0 && i32(model.body_parentid)[b] === 0);
  const root = free ? { body: free.body, free: true } : { body: firstBody === undefined ? '' : objectName(model, 'body', firstBody), free: false };
  return { timestep: model.opt.timestep, joints, actuators, sensors, keyframe: model.nkey > 0 ? objectName(model, 'key', 0) : '', root };
}

/** Seconds per environment step the template aims at: 50 steps a second, as most locomotion tasks. */
const STEP_SECONDS = 0.02;
const MAX_EPISODE_STEPS = 500;

const q = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export function robotTaskText(id: string, xmlUrl: string, xmlLabel: string, robot: RobotOutline): string {
  const frameSkip = Math.max(1, Math.round(STEP_SECONDS / robot.timestep));
  const dt = Number((robot.timestep * frameSkip).toPrecision(6));
  // As Gymnasium's robots order theirs: every position first, then every velocity.
  const positions: string[] = [];
  const velocities: string[] = [];
  const notes: string[] = [];
  /** The root's forward velocity among the velocities, for the offline proposer's feature. */
  let forwardAt = -1;
  for (const j of robot.joints) {
    const index = (k: number) => (k === 0 ? '' : `, index: ${k}`);
    if (j.name === '' && j.type !== 'free') {
      notes.push(`A ${j.type} joint of body ${j.body} has no name in the XML: name it there to observe it.`);
      continue;
    }
    if (j.type === 'free') notes.push(`${j.name === '' ? `The free joint of body ${j.body} has no name in the XML: its body's place, turn and velocities stand for it` : `Free joint ${j.name}: x, y, z, then its quaternion`}; x and y are hidden (where the robot is on the floor is for your reward and success test, not the policy).`);
    if (j.type === 'free' && j.name === '') {
      for (const of of ['x', 'y', 'z', 'roll', 'pitch', 'heading']) positions.push(`    { value: { body: ${q(j.body)}, of: '${of}' }${of === 'x' || of === 'y' ? ', hidden: true' : ''} },`);
      if (j.body === robot.root.body) forwardAt = velocities.length;
      for (const of of ['vx', 'vy', 'vz', 'wx', 'wy', 'wz']) velocities.push(`    { value: { body: ${q(j.body)}, of: '${of}' } },`);
      continue;
    }
    const [np, nv] = { free: [7, 6], ball: [4, 3], slide: [1, 1], hinge: [1, 1] }[j.type];
    for (let k = 0; k < np; k++) positions.push(`    { value: { joint: ${q(j.name)}${index(k)} }${j.type === 'free' && k < 2 ? ', hidden: true' : ''} },`);
    if (j.type === 'free' && j.body === robot.root.body) forwardAt = velocities.length;
    for (let k = 0; k < nv; k++) velocities.push(`    { value: { joint: ${q(j.name)}, of: 'velocity'${index(k)} } },`);
  }
  const obs = [...notes.map((n) => `    // ${n}`), ...positions, ...velocities];
  const forward = forwardAt < 0 ? -1 : positions.length + forwardAt;
  const note = (line: string) => obs.push(`    // ${line}`);
  if (robot.sensors.length > 0) note(`The XML's sensors, to add if the policy should read them: ${robot.sensors.map((s) => `{ value: { sensor: ${q(s.name)}${s.size > 1 ? `, index: 0-${s.size - 1}` : ''} } }`).join(', ')}.`);
  const named = robot.actuators.filter((a) => a.name !== '');
  if (named.length === 0) throw new Error('the model has no named actuator: a declared task acts through its actuators (name them in the XML)');
  const actions = named.map((a) => (a.position && robot.keyframe !== ''
    ? `    { actuator: ${q(a.name)}, offset: 'keyframe', scale: 0.5 }, // a position servo: its target at keyframe ${robot.keyframe}, ±0.5 of the joint's unit`
    : `    { actuator: ${q(a.name)} }, // [-1, 1] spans its ctrlrange`));
  const skipped = robot.actuators.length - named.length;
  const rootName = robot.root.body;
  const features = forward >= 0
    ? `    { name: 'forwardSpeed', expression: 'Math.min(1, Math.max(0, s[${forward}]))', describe: 'PLACEHOLDER: the ${rootName} body\\'s forward speed, 0 standing or backwards, 1 at 1 m/s or more' },`
    : `    { name: 'still', expression: '1 - Math.min(1, Math.abs(s[${positions.length}]) / 10)', describe: 'PLACEHOLDER: how still the first joint is, 1 at rest, 0 at 10 a second' },`;
  return `/**
 * ${id}: a robot declared from its MJCF file (${xmlLabel}), written by \`eureka new-task --xml\`.
 * It runs as it stands; what says PLACEHOLDER is there to make it run, not to mean anything yet:
 * docs/your-own-task.md ("Your own robot") walks through making it a real task.
 */
import { defineMujocoTask, metresForward } from 'eureka-serverless/task';

/** The time limit (steps); one step is ${dt} s (the XML's time step ${robot.timestep} s × frame skip ${frameSkip}). */
const MAX_EPISODE_STEPS = ${MAX_EPISODE_STEPS};
const DT = ${dt};
/** PLACEHOLDER: metres the ${rootName} body must end forward (+x) of where it started for a success. */
const SUCCESS_METRES = 1;

export default defineMujocoTask({
  id: ${q(id)},
  description: 'PLACEHOLDER: the robot of ${xmlLabel.replace(/'/g, '')} moves its ${rootName} body forward along +x. Say what the task is and what solved means.',
  xml: new URL(${q(xmlUrl)}${xmlUrl.startsWith('file:') ? '' : ', import.meta.url'}),
  // Every joint of the XML, by its name. What is hidden is in obs for the reward, not shown to the policy.
  observation: [
${obs.join('\n')}
  ],
  // Every actuator: ctrl = offset + scale × action (each action in [-1, 1]), clipped to its ctrlrange.${skipped > 0 ? `\n  // ${skipped} unnamed actuator(s) of the XML hold their keyframe's ctrl: name them there to drive them.` : ''}
  actions: [
${actions.join('\n')}
  ],
  frameSkip: ${frameSkip},
  maxEpisodeSteps: MAX_EPISODE_STEPS,
  ${robot.keyframe !== '' ? `reset: { keyframe: ${q(robot.keyframe)}, noise: 0.01 },` : `// The XML has no named keyframe: episodes start at its qpos0.\n  reset: { noise: 0.01 },`}
  // Only the time limit ends an episode. To end it when the robot falls:
  // termination: { healthy: [{ value: { body: ${q(rootName)}, of: 'z' }, min: 0.1 }] },
  termination: 'none',
  // What the success test and progress read, beside the observation (the policy never sees it).
  recorded: [
    { name: '${rootName} x (m): forward from the origin', value: { body: ${q(rootName)}, of: 'x' } },
    { name: '${rootName} y (m): to the left of the origin', value: { body: ${q(rootName)}, of: 'y' } },
    { name: '${rootName} z (m): height', value: { body: ${q(rootName)}, of: 'z' } },
  ],
  success: {
    clause: \`move the ${rootName} body \${SUCCESS_METRES} m forward (PLACEHOLDER)\`,
    headline: \`moves \${SUCCESS_METRES} m forward (PLACEHOLDER)\`,
    describe: \`PLACEHOLDER: an episode succeeds when the ${rootName} body's recorded x at the end is at least \${SUCCESS_METRES} m beyond its x at the start.\`,
    test: (episode) => metresForward(episode) >= SUCCESS_METRES,
  },
  progress: {
    describe: 'PLACEHOLDER: metres the ${rootName} body moved forward over the episode, its recorded x at the end less at the start',
    label: 'mean metres forward',
    measure: (episode) => metresForward(episode),
    format: (value) => \`\${value.toFixed(2)} m forward (success needs \${SUCCESS_METRES} m)\`,
  },
  baselines: {
    environment: {
      idea: 'PLACEHOLDER: the ${rootName} body\\'s forward speed (the robot has no reward of its own).',
      code: \`// idea: PLACEHOLDER: the ${rootName} body's forward speed (the robot has no reward of its own).
function computeReward(obs, action, nextObs, terminated, state, nextState) {
  const forward = (nextState[0] - state[0]) / \${DT};
  return [forward, { forward }];
}
\`,
    },
    human: {
      idea: 'PLACEHOLDER: forward speed, less a small cost on the actions.',
      code: \`// idea: PLACEHOLDER: forward speed, less a small cost on the actions.
function computeReward(obs, action, nextObs, terminated, state, nextState) {
  const forward = (nextState[0] - state[0]) / \${DT};
  let effort = 0;
  for (const a of action) effort -= 0.01 * a * a;
  return [forward + effort, { forward, effort }];
}
\`,
    },
  },
  features: [
${features}
  ],
  // PLACEHOLDER: measure your budget (docs/your-own-task.md): the steps at which your shaping succeeds.
  budget: { steps: 200_000, evalEpisodes: 10, smokeSteps: 2048 },
});
`;
}
