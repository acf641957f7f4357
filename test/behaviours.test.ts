/**
 * The behaviours (tasks/mujoco-common/behaviour.ts): each is one of Gymnasium's robots with its own
 * sentence, overrides, success test and progress on recorded state. For each, the obvious ways to
 * game its success test fail (standing still, falling over, the robot's ordinary gait, and an
 * episode that nearly does it), one that does it succeeds, and its progress ranks them.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { playEpisode, readStoredBankOf, replayEpisode, type BankEpisode } from './support/behaviour-episodes.ts';
import type { Episode, Task, TaskSpec } from '../tasks/contract.ts';
import { prepareTask } from '../tasks/registry.ts';
import { gallop } from '../tasks/half-cheetah-backward/gaits.ts';
import { HopperEnv } from '../tasks/hopper/environment.ts';
import { HOPPER } from '../tasks/hopper/robot.ts';
import { behaviour, type BehaviourSpec } from '../tasks/mujoco-common/behaviour.ts';
import { stateReader } from '../tasks/mujoco-common/state-values.ts';
import { SWIMMER } from '../tasks/swimmer/robot.ts';

const asEpisode = (task: Task, e: Pick<BankEpisode, 'observations' | 'recorded' | 'length' | 'return' | 'terminated' | 'truncated'>): Episode =>
  ({ observations: e.observations, obsSize: task.obsSize, recorded: e.recorded, recordSize: task.recordSize, length: e.length, return: e.return, terminated: e.terminated, truncated: e.truncated });

/** The episode with recorded entry k set by f(t, old value) at every step. */
function withRecorded(e: Episode, k: number, f: (t: number, old: number) => number): Episode {
  const recorded = Float64Array.from(e.recorded);
  for (let t = 0; t <= e.length; t++) recorded[t * e.recordSize + k] = f(t, recorded[t * e.recordSize + k]);
  return { ...e, recorded };
}

/** An episode of a written policy from a seed's reset, in the behaviour's environment. */
const played = (task: Task, act: (obs: Float32Array, t: number) => number[], seed = 3): Episode =>
  asEpisode(task, playEpisode(task, 'test', 'failure', act, seed));

describe('Behaviour: Hopper-FrontFlip-v0', () => {
  let task: Task;
  let stand: Episode;
  before(async () => {
    task = await prepareTask('Hopper-FrontFlip-v0');
    const posture = (obs: Float32Array) => [2, 3, 4].map((k) => Math.min(1, Math.max(-1, -(5 * obs[k] + 0.5 * obs[k + 6]))));
    stand = played(task, posture);
  });

  it('is Hopper-v5 with no termination and a 300-step limit: flailing tilts it past 0.2 rad and the episode goes on', () => {
    const flail = played(task, (_obs, t) => (Math.floor(t / 20) % 2 === 0 ? [1, -1, 1] : [-1, 1, -1]));
    assert.equal(flail.length, 300);
    assert.equal(flail.terminated, false);
    assert.ok(Array.from({ length: 301 }, (_, t) => Math.abs(flail.recorded[3 * t + 2])).some((a) => a > 0.2), 'it tilts past Hopper-v5\'s healthy angle');
    assert.equal(task.observation.length, 11);
    assert.match(task.environmentSource, /===== environment\.ts =====[\s\S]*Hopper-v5[\s\S]*===== behaviour\.ts =====[\s\S]*forward somersault/);
    assert.doesNotMatch(task.environmentSource, /reward_forward = /, 'the robot\'s reward lines stay out of what the model reads');
  });

  it('turns the way its words say: a positive torso angle pitches the hopper forward, toward +x, where its toe points and it hops', () => {
    // MuJoCo's hinge about +y: a positive angle moves the torso's top toward +x (its words once said "back").
    class Posed extends HopperEnv {
      xOf(body: string): number {
        return stateReader(this.copies, { body, of: 'x' })(0, null);
      }
    }
    const env = new Posed(1, 0);
    env.autoReset = false;
    const qpos = Float64Array.from(env.qpos(0));
    qpos[2] = 0.5;
    env.setRecordedState(0, qpos, new Float64Array(env.qvel(0).length));
    env.step(new Float64Array(3));
    assert.ok(env.qpos(0)[2] > 0.45, `still pitched: ${env.qpos(0)[2]}`);
    assert.ok(env.xOf('foot') < env.xOf('torso') - 0.3, `the foot (${env.xOf('foot')}) behind the torso (${env.xOf('torso')}): leaning forward`);
    env.dispose();
    // And what the model reads says the same: the robot's documented environment and its recorded state.
    assert.match(task.environmentSource, /the torso's angle \(rad\), 0 upright, positive leaning forward/);
    assert.match(task.recorded?.[2]?.name ?? '', /positive leans forward, the torso's top toward \+x/);
    assert.doesNotMatch(task.environmentSource, /lean(s|ing)? back/);
  });

  it('fails standing still, falling over, the robot\'s own hop and a flip three quarters of the way; succeeds on a full turn landed', () => {
    const fall = played(task, () => [0, 0, 0]);
    // Hopper-v5's bank's hop (its person's shaping's trained policy), its actions replayed from its seed here.
    const hop = readStoredBankOf('Hopper-v5').episodes.find((e) => e.kind === 'success');
    assert.ok(hop);
    const gait = asEpisode(task, replayEpisode(task, hop.seed, hop.actions.subarray(0, 300 * 3)));
    assert.ok(gait.recorded[3 * 300] - gait.recorded[0] > 1, 'the replayed gait hops forward');
    const turnedTo = (angle: number) => withRecorded(stand, 2, (t, a) => a + angle * Math.min(1, t / 150));
    for (const [words, e] of [['standing still', stand], ['falling over', fall], ['hopping forward', gait], ['three quarters of a turn', turnedTo(0.75 * 2 * Math.PI)],
      ['a flip backwards', turnedTo(-2 * Math.PI)], ['a turn and a quarter', turnedTo(2.5 * Math.PI)]] as const) {
      assert.equal(task.success.test(e), false, words);
    }
    const flip = turnedTo(2 * Math.PI);
    assert.equal(task.success.test(flip), true, 'a full forward turn, standing the last 100 steps');
    // Progress ranks them: standing < three quarters < a full turn unlanded < landed.
    const progress = (e: Episode) => task.progress.measure(e);
    assert.ok(progress(stand) < 0.1);
    assert.ok(Math.abs(progress(turnedTo(0.75 * 2 * Math.PI)) - 0.75) < 0.01);
    assert.ok(Math.abs(progress(flip) - 2) < 0.01, `${progress(flip)}`);
    const fellAfter = withRecorded(flip, 1, (t, z) => (t > 250 ? 0.3 : z));
    assert.equal(task.success.test(fellAfter), false, 'a fall after landing');
    assert.ok(progress(fellAfter) > 1.4 && progress(fellAfter) < progress(flip));
  });

  it('draws a flip on the card as a flip: the torso turns a full turn in the animation, and the sentence says it landed', () => {
    // The stand episode, its torso's angle (observation 1 and recorded entry 2) turned a full turn over steps 0-150.
    const turn = (t: number) => 2 * Math.PI * Math.min(1, t / 150);
    const observations = Array.from({ length: stand.length + 1 }, (_, t) => {
      const o = Array.from(stand.observations.subarray(11 * t, 11 * (t + 1)));
      o[1] += turn(t);
      return o;
    });
    const recorded = Array.from({ length: stand.length + 1 }, (_, t) => [stand.recorded[3 * t], stand.recorded[3 * t + 1], stand.recorded[3 * t + 2] + turn(t)]);
    const record = { observations, recorded, actions: Array.from({ length: stand.length }, () => [0, 0, 0]), rewards: [], success: true, terminated: false, truncated: true };
    const svg = task.render.animation(record, '#2563eb');
    // The torso is the first geom drawn: its ends' x and z, frame by frame.
    const values = (name: string) => (svg.match(new RegExp(`<animate attributeName="${name}"[^>]*values="([^"]+)"`))?.[1] ?? '').split(';').map(Number);
    const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2'].map(values);
    const angles = x1.map((_, k) => Math.atan2(y2[k] - y1[k], x2[k] - x1[k]));
    let [total, before] = [0, angles[0]];
    for (const a of angles.slice(1)) {
      total += Math.atan2(Math.sin(a - before), Math.cos(a - before));
      before = a;
    }
    assert.ok(Math.abs(Math.abs(total) - 2 * Math.PI) < 0.3, `the torso's line turns ${total} rad in the animation`);
    assert.match(task.render.story(record), /turns at most 1\.00 of a turn forwards .*lands on its foot/);
    // Its termination is off: Hopper-v5's "ends below 0.7" line would say what does not happen; a behaviour that keeps Hopper-v5's keeps it.
    assert.doesNotMatch(task.render.plots(record, '#2563eb').join(''), /ends below/);
    const keeps = behaviour({ id: 'Hopper-Test-v0', robot: HOPPER, overrides: {} } as unknown as BehaviourSpec);
    assert.match(keeps.render.plots(record, '#2563eb').join(''), /ends below 0\.7/);
  });
});

describe('Function: behaviour, on a bad declaration', () => {
  const declared = (overrides: unknown): BehaviourSpec => ({ id: 'Hopper-Test-v0', robot: HOPPER, overrides }) as unknown as BehaviourSpec;

  it('names an override that does not exist, and the ones that do', () => {
    assert.throws(() => behaviour(declared({ gravity: 1 })),
      /^InvalidBehaviour: overrides: Unrecognized key: "gravity" \(the overrides are termination, maxEpisodeSteps, reset, recorded: docs\/behaviours\.md\)$/);
  });

  it('tells an episode on the card in its own test\'s and progress\'s words where it writes no story, not the robot\'s', () => {
    const spec = behaviour({
      ...declared({}),
      success: { clause: 'hop 2 m backwards', headline: 'hops 2 m backwards', describe: 'x falls by 2 m', test: () => false },
      progress: { describe: 'metres backwards', label: 'mean metres backwards', measure: (e: { recorded: Float64Array }) => e.recorded[0] - (e.recorded.at(-1) ?? 0), format: (v: number) => `${v.toFixed(2)} m backwards` },
    } as unknown as BehaviourSpec);
    const record = { observations: [[0], [0], [0]], actions: [[0], [0]], rewards: [1, 1], recorded: [[0.5], [0.3], [0.1]], success: false, terminated: true, truncated: false };
    assert.equal(spec.render.story(record), 'It does not hop 2 m backwards: progress 0.40 m backwards; the episode ends at step 2, outside the healthy range.');
    assert.match(spec.render.story({ ...record, success: true, terminated: false, truncated: true }), /^It hops 2 m backwards: .*; the episode runs all 2 steps\.$/);
  });

  it('takes the swimmer too, which has no healthy test of its own: healthy ranges give it one, and more recorded state', async () => {
    const spec = behaviour({
      ...declared({
        termination: { healthy: [{ value: { joint: 'free_body_rot' }, min: -0.3, max: 0.3 }] },
        recorded: [{ name: 'back y (m)', value: { body: 'back', of: 'y' } }],
        maxEpisodeSteps: 200,
      }),
      id: 'Swimmer-Curl-v0', robot: SWIMMER,
    } as unknown as BehaviourSpec);
    await spec.prepare?.();
    assert.deepEqual(spec.recorded?.map((r) => r.name).slice(3), ['back y (m)']);
    const ends = (s: TaskSpec) => {
      const env = s.makeEnv(1, 0);
      let steps = 0;
      for (; steps < 200 && !env.terminated[0]; steps++) env.step(Float64Array.of(1, 1));
      const recorded = Array.from(env.finalRecord);
      env.dispose?.();
      return { steps, recorded };
    };
    const curled = ends(spec);
    assert.ok(curled.steps < 200, `full torque on both hinges turns the torso past 0.3 rad: ended after ${curled.steps} steps`);
    assert.equal(curled.recorded.length, 4, 'the swimmer\'s three recorded values and the override\'s');
    const own = behaviour({ ...declared({}), id: 'Swimmer-Curl-v0', robot: SWIMMER } as unknown as BehaviourSpec);
    assert.equal(ends(own).steps, 200, 'without healthy ranges nothing ends its episode');
  });

  it('tells the model what its overrides change, after the files it reads (it reads no task.ts)', async () => {
    const spec = behaviour(declared({
      maxEpisodeSteps: 200, termination: { healthy: [{ value: { body: 'torso', of: 'z' }, min: 0.2, max: 3 }] },
      reset: { noise: 0.1 }, recorded: [{ name: 'torso roll (rad)', value: { body: 'torso', of: 'roll' } }],
    }));
    assert.equal(spec.environmentNote, [
      '// ===== What this behaviour changes of Hopper-v5 (its overrides, as declared; they replace what the robot\'s file says) =====',
      '// Time limit: 200 steps (Hopper-v5\'s: 1000).',
      '// Termination: an episode ends when a value leaves its open range, in place of Hopper-v5\'s healthy test: body torso z in (0.2, 3).',
      '// Reset: from Hopper-v5\'s starting pose, uniform noise of 0.1 on every qpos and qvel entry.',
      '// Recorded state after Hopper-v5\'s own entries: "torso roll (rad)" = body torso roll.',
    ].join('\n'));
    assert.equal(behaviour(declared({})).environmentNote, undefined, 'nothing changed, nothing said');
    const flip = await prepareTask('Hopper-FrontFlip-v0');
    assert.ok(flip.environmentSource.endsWith('// Termination: none; only the time limit ends an episode (Hopper-v5\'s healthy test is off).\n'), flip.environmentSource.slice(-300));
  });

  it('names a mistyped key inside a healthy range or a recorded entry, where it is', () => {
    const z = { joint: 'rootz' };
    assert.throws(() => behaviour(declared({ termination: { healthy: [{ value: z, min: 0.7 }, { value: z, mn: 0.5 }] } })),
      /^InvalidBehaviour: overrides: termination\.healthy\.1: Unrecognized key: "mn"/);
    assert.throws(() => behaviour(declared({ recorded: [{ name: 'z', value: z, unit: 'm' }] })),
      /^InvalidBehaviour: overrides: recorded\.0: Unrecognized key: "unit"/);
  });

  it('fails a name the robot\'s XML lacks when the task is first used, with its field and the names there are', async () => {
    const spec = behaviour(declared({ recorded: [{ name: 'tail z (m)', value: { body: 'tail', of: 'z' } }] }));
    await assert.rejects(async () => spec.prepare?.(),
      /^InvalidBehaviour: Hopper-Test-v0: overrides\.recorded\[0\] \(tail z \(m\)\): the model has no body named "tail" \(its bodies: world, torso, thigh, leg, foot\)$/);
    // A healthy range is read at a step, not when a copy is made: the first use steps one.
    const healthy = behaviour(declared({ termination: { healthy: [{ value: { body: 'trunk', of: 'z' }, min: 0.7 }] } }));
    await assert.rejects(async () => healthy.prepare?.(),
      /^InvalidBehaviour: Hopper-Test-v0: overrides\.termination\.healthy\[0\]\.value: the model has no body named "trunk"/);
  });
});

describe('Behaviour: HalfCheetah-Backward-v0', () => {
  let task: Task;
  before(async () => {
    task = await prepareTask('HalfCheetah-Backward-v0');
  });

  it('fails lying still, galloping forwards, the written gallop backwards (47 m: nearly) and a run short of 50 m; succeeds at 50 m, whatever the return', () => {
    const still = played(task, () => [0, 0, 0, 0, 0, 0]);
    const forwards = played(task, (_obs, t) => gallop(t, 1));
    assert.ok(task.progress.measure(forwards) < -10, `the cheetah's ordinary gallop goes forwards: ${task.progress.measure(forwards)} m backwards`);
    const nearly = played(task, (_obs, t) => gallop(t, -1));
    assert.ok(task.progress.measure(nearly) > 40, `the written gallop played backwards nearly does it: ${task.progress.measure(nearly)} m`);
    for (const [words, e] of [['lying still', still], ['galloping forwards', forwards], ['the written gallop backwards', nearly]] as const) {
      assert.equal(task.success.test(e), false, words);
    }
    const backwardsBy = (m: number) => withRecorded(still, 0, (t, x) => x - (m * t) / still.length);
    assert.equal(task.success.test(backwardsBy(49.9)), false);
    assert.equal(task.success.test(backwardsBy(50)), true);
    assert.ok(Math.abs(task.progress.measure(backwardsBy(50)) - 50) < 0.2);
    assert.equal(task.success.test({ ...still, return: 1e6 }), false, 'no return makes a success');
  });
});

describe('Behaviour: Ant-TurnInPlace-v0', () => {
  let task: Task;
  let still: Episode;
  before(async () => {
    task = await prepareTask('Ant-TurnInPlace-v0');
    still = played(task, () => [0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('stands still to its 500-step limit and turns nowhere; random actions flip it and end the episode', () => {
    assert.equal(still.length, 500);
    assert.ok(Math.abs(task.progress.measure(still)) < 0.2);
    const random = played(task, (_obs, t) => Array.from({ length: 8 }, (_, k) => Math.sin(7 * t + k)));
    assert.equal(task.success.test(random), false);
  });

  it('fails turning right, walking away, turning after wandering off and turning 95% of the way; succeeds on a full left turn in the circle', () => {
    const turned = (e: Episode, angle: number) => withRecorded(e, 3, (t, h) => h + angle * Math.min(1, t / 300));
    const walked = (e: Episode, metres: number) => withRecorded(e, 0, (t, x) => x + metres * Math.min(1, t / 400));
    for (const [words, e] of [['standing still', still], ['turning right', turned(still, -2 * Math.PI)], ['walking 2 m away, turning', turned(walked(still, 2), 2 * Math.PI)],
      ['95% of a turn', turned(still, 0.95 * 2 * Math.PI)], ['a full turn, then falling', { ...turned(still, 2 * Math.PI), terminated: true }]] as const) {
      assert.equal(task.success.test(e), false, words);
    }
    // A little more than a turn: standing still, the ant's own heading drifts a few hundredths of a radian.
    assert.equal(task.success.test(turned(still, 2 * Math.PI + 0.1)), true);
    assert.equal(task.success.test(turned(walked(still, 0.8), 2 * Math.PI + 0.1)), true, 'a turn that drifts 0.8 m stays in the 1 m circle');
    // Progress stops counting where the torso leaves the circle: its ordinary walk (1.5 m away by step 150) turns little in place.
    const wanders = turned(walked(still, 6), 2 * Math.PI);
    assert.ok(task.progress.measure(wanders) < task.progress.measure(turned(still, Math.PI)));
  });
});

describe('Behaviour: Walker2d-OneLeg-v0', () => {
  let task: Task;
  let stand: Episode;
  before(async () => {
    task = await prepareTask('Walker2d-OneLeg-v0');
    const clip = (x: number) => Math.min(1, Math.max(-1, x));
    stand = played(task, (obs) => {
      const torso = -2 * obs[1] - 0.1 * obs[10];
      return [2, 3, 4, 5, 6, 7].map((k, j) => clip(-(2 * obs[k] + 0.05 * obs[k + 9]) + (j % 3 === 0 ? torso : 0)));
    });
  });

  it('records each foot\'s height beside Walker2d\'s own state: both rest near -0.04 m when it stands', () => {
    assert.equal(task.recordSize, 5);
    assert.equal(stand.length, 500);
    for (const k of [3, 4]) assert.ok(Math.abs(stand.recorded[5 * 250 + k] + 0.04) < 0.03, `foot ${k}: ${stand.recorded[5 * 250 + k]}`);
  });

  it('fails standing on both feet, falling, walking, hopping away on one foot and a hold 10 steps short; succeeds on 250 steps in place', () => {
    const fall = played(task, () => [0, 0, 0, 0, 0, 0]);
    const lift = (e: Episode, k: number, from: number, steps: number) => withRecorded(e, k, (t, z) => (t >= from && t < from + steps ? 0.2 : z));
    const walking = [0, 1, 2, 3].reduce((e, n) => lift(e, 3 + (n % 2), 50 + 100 * n, 100), stand);
    const hopping = withRecorded(lift(stand, 3, 100, 300), 0, (t, x) => x + 0.005 * Math.max(0, t - 100));
    for (const [words, e] of [['standing on both feet', stand], ['falling over', fall], ['walking', walking], ['hopping away on one foot', hopping],
      ['holding 240 steps', lift(stand, 3, 100, 240)], ['holding 250 steps, then falling', { ...lift(stand, 3, 100, 250), terminated: true }]] as const) {
      assert.equal(task.success.test(e), false, words);
    }
    assert.equal(task.success.test(lift(stand, 4, 100, 250)), true);
    assert.equal(task.progress.measure(lift(stand, 4, 100, 250)), 250);
    assert.equal(task.progress.measure(walking), 100);
  });
});
