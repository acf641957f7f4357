/**
 * The `task.ts` that `eureka new-task NAME --xml FILE` writes: a declared robot
 * (`defineMujocoTask`, tasks/mujoco-common/declared/) that runs as it stands, with every joint of
 * the XML observed, every actuator an action, and a success test, progress, baselines, features and
 * budget that are placeholders, marked so, to be made the user's own (docs/your-own-task.md).
 */
import type { MjModel } from '../physics/mujoco/engine.ts';
import { objectName } from '../physics/mujoco/names.ts';
import { rootBodyOf } from '../tasks/mujoco-common/declared/root-body.ts';

/** What the template needs of the compiled model. */
export interface RobotOutline {
  timestep: number;
  /** `along`: the world axis a slide joint at the root body moves it along, '' for any other joint. */
  joints: Array<{ name: string; type: 'free' | 'ball' | 'slide' | 'hinge'; body: string; along: 'x' | 'y' | 'z' | '' }>;
  /** `ranged`: the XML gives it a ctrlrange, which [-1, 1] can span. */
  actuators: Array<{ name: string; position: boolean; ranged: boolean }>;
  sensors: Array<{ name: string; size: number }>;
  /** The first keyframe's name, '' where it has none or the model none (then qpos0). */
  keyframe: string;
  /**
   * The body that moves the robot about: the first free joint's, else the first body under the world
   * that has joints (a planar robot's, moved by slide joints and a hinge), else the first body under it.
   */
  root: { body: string; free: boolean };
}

/** Refused: the model gives a declared task nothing to work with. */
export class RobotRefused extends Error {
  override readonly name = 'RobotRefused';
}

const TYPES = ['free', 'ball', 'slide', 'hinge'] as const;
const i32 = (a: unknown) => a as Int32Array;
const f64 = (a: unknown) => a as Float64Array;

export function outline(model: MjModel): RobotOutline {
  const rootId = rootBody(model);
  const floor = rootSlides(model, rootId);
  const joints = Array.from({ length: model.njnt }, (_, j) => ({ name: objectName(model, 'jnt', j), type: TYPES[i32(model.jnt_type)[j]], body: objectName(model, 'body', i32(model.jnt_bodyid)[j]), along: floor.get(j) ?? ('' as const) }));
  const ranges = f64(model.actuator_ctrlrange);
  const actuators = Array.from({ length: model.nu }, (_, u) => {
    // A <position> servo: affine bias of -kp on its length, gain kp.
    const gain = f64(model.actuator_gainprm)[10 * u];
    const position = i32(model.actuator_biastype)[u] === 1 && f64(model.actuator_biasprm)[10 * u + 1] === -gain;
    // A ctrlrange left unlimited compiles to [0, 0] (as robot-model.ts reads it).
    return { name: objectName(model, 'actuator', u), position, ranged: ranges[2 * u] < ranges[2 * u + 1] };
  });
  const sensors = Array.from({ length: model.nsensor }, (_, s) => ({ name: objectName(model, 'sensor', s), size: i32(model.sensor_dim)[s] })).filter((s) => s.name !== '');
  const root = { body: rootId < 0 ? '' : objectName(model, 'body', rootId), free: joints.some((j) => j.type === 'free') };
  return { timestep: model.opt.timestep, joints, actuators, sensors, keyframe: model.nkey > 0 ? objectName(model, 'key', 0) : '', root };
}

/** The root body's id (RobotOutline.root), -1 for a model with no body. */
function rootBody(model: MjModel): number {
  const parents = i32(model.body_parentid);
  const joints = Array.from({ length: model.njnt }, (_, j) => ({ body: i32(model.jnt_bodyid)[j], free: TYPES[i32(model.jnt_type)[j]] === 'free' }));
  const root = rootBodyOf(parents, joints);
  // A robot with no joint under the world (fixed in place): the template still names a body, the first under it.
  return root >= 0 ? root : Array.from(parents).findIndex((p, b) => b > 0 && p === 0);
}

/**
 * The slide joints that move a root body under the world along a world axis, as a planar robot's
 * root is moved (a slide along x, one along z, a hinge): the joint's axis turned by the body's
 * frame. Only the slides before the body's first turning joint, whose axes that joint cannot turn.
 */
function rootSlides(model: MjModel, body: number): Map<number, 'x' | 'y' | 'z'> {
  const found = new Map<number, 'x' | 'y' | 'z'>();
  if (body < 0 || i32(model.body_parentid)[body] !== 0) return found;
  const [w, x, y, z] = f64(model.body_quat).subarray(4 * body, 4 * body + 4);
  const start = i32(model.body_jntadr)[body];
  for (let j = start; j < start + i32(model.body_jntnum)[body] && TYPES[i32(model.jnt_type)[j]] === 'slide'; j++) {
    const a = f64(model.jnt_axis).subarray(3 * j, 3 * j + 3);
    const world = rotate([w, x, y, z], [a[0], a[1], a[2]]);
    const k = world.findIndex((c) => Math.abs(Math.abs(c) - 1) < 1e-9);
    if (k >= 0) found.set(j, (['x', 'y', 'z'] as const)[k]);
  }
  return found;
}

/** v turned by the unit quaternion q (w, x, y, z). */
function rotate([w, x, y, z]: number[], [vx, vy, vz]: number[]): number[] {
  // v + 2w (u × v) + 2 u × (u × v), u the quaternion's vector part.
  const c = [y * vz - z * vy, z * vx - x * vz, x * vy - y * vx];
  return [vx + 2 * (w * c[0] + y * c[2] - z * c[1]), vy + 2 * (w * c[1] + z * c[0] - x * c[2]), vz + 2 * (w * c[2] + x * c[1] - y * c[0])];
}

/** Seconds per environment step the template aims at: 50 steps a second, as most locomotion tasks. */
const STEP_SECONDS = 0.02;
const MAX_EPISODE_STEPS = 500;

const q = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** Where the robot is on the floor, hidden as the free joint's x and y are. */
const FLOOR_HIDDEN = 'where the robot is on the floor is for your reward and success test, not the policy';

export function robotTaskText(id: string, xmlUrl: string, xmlLabel: string, robot: RobotOutline): string {
  const frameSkip = Math.max(1, Math.round(STEP_SECONDS / robot.timestep));
  const dt = Number((robot.timestep * frameSkip).toPrecision(6));
  const { obs, positions, forward } = observationLines(robot);
  const note = (line: string) => obs.push(`    // ${line}`);
  if (robot.sensors.length > 0) note(`The XML's sensors, to add if the policy should read them: ${robot.sensors.map((s) => `{ value: { sensor: ${q(s.name)}${s.size > 1 ? `, index: 0-${s.size - 1}` : ''} } }`).join(', ')}.`);
  const { actions } = actionLines(robot);
  const skipped = robot.actuators.length - actions.length;
  const actionNotes = [
    ...templateNotes(robot),
    ...(skipped > 0 ? [`${skipped} unnamed actuator(s) of the XML hold their keyframe's ctrl: name them there to drive them.`] : []),
  ].map((line) => `\n  // ${line}`).join('');
  const rootName = robot.root.body;
  const features = forward >= 0
    ? `    { name: 'forwardSpeed', expression: 'Math.min(1, Math.max(0, s[${forward}]))', describe: 'PLACEHOLDER: the ${rootName} body\\'s forward speed, 0 standing or backwards, 1 at 1 m/s or more' },`
    : `    { name: 'still', expression: '1 - Math.min(1, Math.abs(s[${positions}]) / 10)', describe: 'PLACEHOLDER: how still the first joint is, 1 at rest, 0 at 10 a second' },`;
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
  // Every actuator: ctrl = offset + scale × action (each action in [-1, 1]), clipped to its ctrlrange.${actionNotes}
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

/**
 * Every joint of the outline as observation lines, as Gymnasium's robots order theirs: every position
 * first, then every velocity; `positions` counts the positions, `forward` is the root's forward
 * velocity's index (for the offline proposer's feature), -1 where it has none.
 */
function observationLines(robot: RobotOutline): { obs: string[]; positions: number; forward: number } {
  const positions: string[] = [];
  const velocities: string[] = [];
  const notes: string[] = [];
  let forwardAt = -1;
  const index = (k: number) => (k === 0 ? '' : `, index: ${k}`);
  for (const j of robot.joints) {
    if (j.name === '' && j.type !== 'free') {
      notes.push(`A ${j.type} joint of body ${j.body} has no name in the XML: name it there to observe it.`);
      continue;
    }
    if (j.type === 'free') notes.push(`${j.name === '' ? `The free joint of body ${j.body} has no name in the XML: its body's place, turn and velocities stand for it` : `Free joint ${j.name}: x, y, z, then its quaternion`}; x and y are hidden (${FLOOR_HIDDEN}).`);
    if (j.type === 'free' && j.name === '') {
      for (const of of ['x', 'y', 'z', 'roll', 'pitch', 'heading']) positions.push(`    { value: { body: ${q(j.body)}, of: '${of}' }${of === 'x' || of === 'y' ? ', hidden: true' : ''} },`);
      if (j.body === robot.root.body) forwardAt = velocities.length;
      for (const of of ['vx', 'vy', 'vz', 'wx', 'wy', 'wz']) velocities.push(`    { value: { body: ${q(j.body)}, of: '${of}' } },`);
      continue;
    }
    // A planar root's slide along x or y places it on the floor, as a free joint's x and y do.
    const floor = j.along === 'x' || j.along === 'y';
    if (floor) notes.push(`Slide joint ${j.name} moves the root body ${j.body} along ${j.along}: hidden (${FLOOR_HIDDEN}); its velocity is shown.`);
    const [np, nv] = { free: [7, 6], ball: [4, 3], slide: [1, 1], hinge: [1, 1] }[j.type];
    for (let k = 0; k < np; k++) positions.push(`    { value: { joint: ${q(j.name)}${index(k)} }${(j.type === 'free' && k < 2) || floor ? ', hidden: true' : ''} },`);
    // The root's forward speed: a free joint's first velocity, or a planar root's slide along x.
    if (forwardAt < 0 && (j.type === 'free' || j.along === 'x') && j.body === robot.root.body) forwardAt = velocities.length;
    for (let k = 0; k < nv; k++) velocities.push(`    { value: { joint: ${q(j.name)}, of: 'velocity'${index(k)} } },`);
  }
  return { obs: [...notes.map((n) => `    // ${n}`), ...positions, ...velocities], positions: positions.length, forward: forwardAt < 0 ? -1 : positions.length + forwardAt };
}

/** Offset and scale written for an actuator the XML gives no ctrlrange: [-1, 1] spans none, so ctrl is the action. */
const UNRANGED = { offset: 0, scale: 1 } as const;
function unrangedWords(names: string[]): string {
  return `No ctrlrange in the XML for ${names.join(', ')}: each is written offset ${UNRANGED.offset}, scale ${UNRANGED.scale}, so the policy's [-1, 1] is its ctrl [-1, 1], unclipped; choose yours (a motor's force is ctrl × gear)`;
}

/** What the template chose where the XML left it open: said in task.ts and, by new-task, on the console. */
export function templateNotes(robot: RobotOutline): string[] {
  const { unranged } = actionLines(robot);
  return unranged.length > 0 ? [`${unrangedWords(unranged)}.`] : [];
}

/**
 * One action per named actuator: a position servo about its keyframe target; one with a ctrlrange
 * spanning it (robot-model.ts's default); one without, an explicit offset and scale, as the
 * loader asks of it. `unranged` names those.
 */
function actionLines(robot: RobotOutline): { actions: string[]; unranged: string[] } {
  const named = robot.actuators.filter((a) => a.name !== '');
  if (named.length === 0) throw new RobotRefused('the model has no named actuator: a declared task acts through its actuators (name them in the XML)');
  const kind = (a: RobotOutline['actuators'][number]) => (a.position && robot.keyframe !== '' ? 'servo' : a.ranged ? 'ranged' : 'unranged');
  const actions = named.map((a) => ({
    servo: `    { actuator: ${q(a.name)}, offset: 'keyframe', scale: 0.5 }, // a position servo: its target at keyframe ${robot.keyframe}, ±0.5 of the joint's unit`,
    ranged: `    { actuator: ${q(a.name)} }, // [-1, 1] spans its ctrlrange`,
    unranged: `    { actuator: ${q(a.name)}, offset: ${UNRANGED.offset}, scale: ${UNRANGED.scale} }, // no ctrlrange in the XML: ctrl = action, unclipped`,
  })[kind(a)]);
  return { actions, unranged: named.filter((a) => kind(a) === 'unranged').map((a) => a.name) };
}
