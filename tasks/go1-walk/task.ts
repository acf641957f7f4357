/**
 * Go1-Walk-v0: Unitree's Go1 quadruped from MuJoCo Menagerie (model/: its XML as Menagerie keeps it,
 * but for the visual meshes, model/NOTICE.md), declared from its MJCF file, asked to walk forward
 * (walk.ts: the sentence, the success test and progress, fixed before any search).
 *
 * The policy drives the 12 position servos about the standing keyframe: each action moves its
 * joint's target ±0.5 rad from the pose it stands in, clipped to the actuator's ctrlrange. It sees
 * the trunk's height, tilt, heading and velocities and every leg joint's angle and speed; the
 * trunk's x and y are hidden (the reward reads them).
 */
import { join } from 'node:path';
import type { EpisodeRecord, RewardSource } from '../contract.ts';
import type { MujocoTaskDeclaration } from '../mujoco-common/declared/declaration.ts';
import { defineMujocoTask } from '../mujoco-common/declared/define.ts';
import { BUILT_IN_DIR } from '../task-files.ts';
import { FIRST_TRY } from './first-try.ts';
import { GO1_GAITS } from './gaits.ts';
import { DT, FRAME_SKIP, MAX_EPISODE_STEPS, MAX_TILT, MIN_HEIGHT, RECORDED, SENTENCE, SPEED, SUCCESS_METRES, metresWalked, walked } from './walk.ts';

const LEGS = ['FR', 'FL', 'RR', 'RL'] as const;
const PARTS = ['hip', 'thigh', 'calf'] as const;
/** Each leg's abduction (hip), hip (thigh) and knee (calf) joints, in the XML's actuator order. */
const JOINTS = LEGS.flatMap((leg) => PARTS.map((part) => `${leg}_${part}`));
/** How far (rad) an action of ±1 moves a joint's target from the standing pose. */
const ACTION_SCALE = 0.5;

/** The plain reward a user starts from: the trunk's forward speed (the environment's baseline). */
const FORWARD_SPEED: RewardSource = {
  idea: 'The trunk\'s forward speed along +x, from the recorded x.',
  code: `// idea: the trunk's forward speed along +x, from the recorded x.
function computeReward(obs, action, nextObs, terminated, state, nextState) {
  const forward = (nextState[0] - state[0]) / ${DT};
  return [forward, { forward }];
}
`,
};

/** The card's sentence: how far and how fast it walked, and whether it stayed up. */
function story(episode: EpisodeRecord): string {
  const rows = episode.recorded ?? [];
  const steps = episode.actions.length;
  if (rows.length < 2) return 'No evaluation episode was recorded.';
  const metres = rows[rows.length - 1][RECORDED.x] - rows[0][RECORDED.x];
  const ending = episode.terminated ? `falls at step ${steps} (${(steps * DT).toFixed(1)} s)` : `stays up all ${steps} steps (${(steps * DT).toFixed(0)} s)`;
  return `The quadruped ${ending} and walks ${metres.toFixed(2)} m along +x (${(metres / (steps * DT)).toFixed(2)} m/s; success needs ${SUCCESS_METRES} m in ${MAX_EPISODE_STEPS} steps without falling).`;
}

const trunk = (of: 'x' | 'y' | 'z' | 'roll' | 'pitch' | 'heading' | 'vx' | 'vy' | 'vz' | 'wx' | 'wy' | 'wz') => ({ body: 'trunk', of }) as const;

/** The declaration (scripts/robot-facts.ts writes robot-facts.json from it). */
export const declaration: MujocoTaskDeclaration = {
  id: 'Go1-Walk-v0',
  description: `${SENTENCE} The robot is Unitree's Go1 quadruped (MuJoCo Menagerie's model, 12.7 kg): four legs, each with an ` +
    'abduction joint (hip, about x), a hip joint (thigh, about y) and a knee (calf), each driven by a position servo (kp 100, ' +
    'torque limited to 23.7 N·m, 35.55 at the knees). It stands with its trunk at about 0.26 m, level. Each action entry moves ' +
    `one servo's target ±${ACTION_SCALE} rad about its angle in the standing pose; one step is ${DT} s. ` +
    `An episode succeeds when it runs all ${MAX_EPISODE_STEPS} steps (10 s) upright and the trunk ends at least ${SUCCESS_METRES} m further along +x than it started.`,
  xml: join(BUILT_IN_DIR, 'go1-walk', 'model', 'scene.xml'),
  facts: join(BUILT_IN_DIR, 'go1-walk', 'robot-facts.json'),
  observation: [
    { value: trunk('x'), hidden: true },
    { value: trunk('y'), hidden: true },
    { value: trunk('z'), typical: [0.15, 0.35] },
    { value: trunk('roll'), typical: [-0.5, 0.5] },
    { value: trunk('pitch'), typical: [-0.5, 0.5] },
    { value: trunk('heading') },
    { value: trunk('vx'), typical: [-1, 1] },
    { value: trunk('vy'), typical: [-1, 1] },
    { value: trunk('vz'), typical: [-1, 1] },
    { value: trunk('wx'), typical: [-5, 5] },
    { value: trunk('wy'), typical: [-5, 5] },
    { value: trunk('wz'), typical: [-5, 5] },
    ...JOINTS.map((name) => ({ value: { joint: `${name}_joint` } })),
    ...JOINTS.map((name) => ({ value: { joint: `${name}_joint`, of: 'velocity' as const }, typical: [-20, 20] as const })),
  ],
  actions: JOINTS.map((actuator) => ({ actuator, offset: 'keyframe' as const, scale: ACTION_SCALE })),
  frameSkip: FRAME_SKIP,
  maxEpisodeSteps: MAX_EPISODE_STEPS,
  reset: { keyframe: 'home', noise: 0.02 },
  // A fall: the trunk down to 0.2 m, or tilted 0.5 rad (walk.ts: the same ranges the success test reads).
  termination: { healthy: [{ value: trunk('z'), min: MIN_HEIGHT }, { value: trunk('roll'), min: -MAX_TILT, max: MAX_TILT }, { value: trunk('pitch'), min: -MAX_TILT, max: MAX_TILT }] },
  recorded: [
    { name: 'trunk x (m)', value: trunk('x') },
    { name: 'trunk y (m)', value: trunk('y') },
    { name: 'trunk height z (m)', value: trunk('z') },
    { name: 'trunk roll (rad)', value: trunk('roll') },
    { name: 'trunk pitch (rad)', value: trunk('pitch') },
    { name: 'trunk heading (rad, counting turns)', value: trunk('heading') },
  ],
  success: {
    clause: `walk ${SUCCESS_METRES} m forward in 10 s without falling`,
    headline: `walks ${SPEED} m/s for 10 s`,
    describe: `An episode succeeds when it runs all ${MAX_EPISODE_STEPS} steps (10 s), at every step the trunk's recorded height is above ${MIN_HEIGHT} m ` +
      `and its recorded roll and pitch within ±${MAX_TILT} rad, and its recorded x at the end is at least ${SUCCESS_METRES} m beyond its x at the start (${SPEED} m/s on average).`,
    test: walked,
  },
  progress: {
    describe: 'metres the trunk moved along +x over the episode: its recorded x at the end less at the start (a fall ends the episode, so these are metres made upright)',
    label: 'mean metres forward',
    measure: metresWalked,
    format: (value) => `${value.toFixed(2)} m forward (success needs ${SUCCESS_METRES} m and all ${MAX_EPISODE_STEPS} steps)`,
  },
  baselines: { environment: FORWARD_SPEED, human: FIRST_TRY },
  features: [
    { name: 'forwardSpeed', expression: 'Math.min(1, Math.max(-1, s[6] / 0.5))', describe: 'the trunk\'s speed along +x, 1 at the 0.5 m/s asked for' },
    { name: 'upright', expression: 'Math.max(0, 1 - (Math.abs(s[3]) + Math.abs(s[4])) / 0.5)', describe: 'how level the trunk is, 1 level, 0 at 0.5 rad of roll plus pitch' },
    { name: 'height', expression: 'Math.min(1, Math.max(0, (s[2] - 0.2) / 0.06))', describe: 'the trunk\'s height, 0 at the 0.2 m fall line, 1 at the standing 0.26 m' },
    { name: 'straight', expression: 'Math.max(0, 1 - Math.abs(s[5]))', describe: 'facing +x, 1 straight ahead, 0 at 1 rad of heading' },
  ],
  bank: {
    successWords: `walking ${SUCCESS_METRES} m forward in 10 s`,
    policies: GO1_GAITS,
  },
  // steps: where the person's first try walks on some seeds and not others (docs/mujoco.md, "A Menagerie quadruped"), measured on
  // seeds 0-4 (`npx eureka train --task Go1-Walk-v0 --reward FIRST-TRY --seed S --steps N`, greedy success over 20 episodes): at
  // 153,600 on none (0.15, 0.05, 0.45, 0, 0), at 204,800 on three (1.00, 0.15, 0.70, 0.35, 0.80), at 307,200 on all five (0.70-1.00)
  // and at 1M on all five (0.80-0.95); held-out seeds 5-9 at 204,800 walk on two (0, 0, 1.00, 1.00, 0).
  // stepsPerSecond, as every task's (docs/estimate-and-costs.md, "Each task's speed"): no search ran, so the bench, one core,
  // grading included (`npx tsx bench/seed-speed.ts --task Go1-Walk-v0 --steps 102400`): 1,506 steps per CPU-second on seed 0,
  // rounded down. The environment alone runs 1,738 (bench/mujoco-speed.ts).
  budget: { steps: 204_800, evalEpisodes: 20, smokeSteps: 8_192, stepsPerSecond: 1_500 },
  tieBreak: 'none',
};

/** The declared card (the side view of the collision shapes), its sentence this task's. */
export default defineMujocoTask(declaration).then((spec) => ({ ...spec, render: { ...spec.render, story } }));
