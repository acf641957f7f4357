/**
 * A MuJoCo robot on the card: the greedy episode drawn from the model's own geometry, seen from the
 * side (physics/mujoco/side-view.ts), the camera following the robot over a floor marked every metre,
 * animated with SMIL in real time (no script); beside it two plots and a sentence. A task gives the
 * qpos of each observation (what the observation leaves out, it rebuilds from the episode) and
 * which numbers to plot.
 */
import type { ModelSource } from '../../physics/mujoco/model-files.ts';
import { sideView } from '../../physics/mujoco/side-view.ts';
import { escapeHtml } from '../../core/escape.ts';
import { lineChart, r, svgOpen } from '../../core/svg.ts';
import type { CardRenderer, EpisodeRecord } from '../contract.ts';

export interface MujocoRendererOptions {
  /** The model's XML (read when drawing), or its files (a declared robot's, with its meshes). */
  xml: () => ModelSource;
  /** Seconds per environment step. */
  dt: number;
  /** The qpos of each of the episode's observations. */
  qpos: (episode: EpisodeRecord) => number[][];
  /** What the robot achieves along x (the camera follows it), in words and from a qpos. */
  progress: { label: string; of: (qpos: number[]) => number };
  /** A height to plot, with the floor below which the episode ends, if any. */
  height: { label: string; of: (qpos: number[]) => number; floor?: number };
  /** "hopper". */
  noun: string;
  /** How an episode the time limit ended is told, after "The hopper" (a robot that cannot fall). @default 'stays up to the time limit' */
  timeLimitWords?: string;
}

const [WIDTH, HEIGHT, GROUND, PX_PER_M] = [940, 300, 262, 150];
/** At most this many animation frames (a 1,000-step episode at 125 steps a second is drawn at ~30 frames a second). */
const MAX_FRAMES = 250;
const HOLD_SECONDS = 1.5;

export function mujocoRenderer(o: MujocoRendererOptions): CardRenderer {
  return {
    animation: (episode, color) => animation(o, episode, color),
    plots(episode, color) {
      const qposes = o.qpos(episode);
      const at = (f: (q: number[]) => number) => qposes.map((q, t) => [t, f(q)] as [number, number]);
      const height = lineChart({
        chart: `${o.noun}-height`, title: `${o.height.label} over time`, width: 470, height: 280, xLabel: 'step', yLabel: o.height.label,
        series: [{ label: o.height.label, color, points: at(o.height.of) }],
        refs: o.height.floor === undefined ? [] : [{ axis: 'y', at: o.height.floor, label: `ends below ${o.height.floor}`, color: '#dc2626' }],
      });
      const progress = lineChart({
        chart: `${o.noun}-progress`, title: `${o.progress.label} over time`, width: 470, height: 280, xLabel: 'step', yLabel: o.progress.label,
        series: [{ label: o.progress.label, color, points: at(o.progress.of) }],
      });
      return [height, progress];
    },
    story(episode) {
      const qposes = o.qpos(episode);
      const steps = episode.actions.length;
      if (steps === 0) return 'No evaluation episode was recorded.';
      const moved = o.progress.of(qposes[qposes.length - 1]) - o.progress.of(qposes[0]);
      const ending = episode.terminated ? `falls (the episode ends) at step ${steps}` : `${o.timeLimitWords ?? 'stays up to the time limit'}, ${steps} steps`;
      return `The ${o.noun} ${ending}, ${moved.toFixed(2)} ${o.progress.label} (${(moved / (steps * o.dt)).toFixed(2)} per second).`;
    },
  };
}

function animation(o: MujocoRendererOptions, episode: EpisodeRecord, color: string): string {
  const qposes = o.qpos(episode);
  const every = Math.max(1, Math.ceil(qposes.length / MAX_FRAMES));
  const shown = qposes.filter((_, t) => t % every === 0 || t === qposes.length - 1);
  const head = svgOpen(`${o.noun}-animation`, 'The winner\'s greedy episode, animated', WIDTH, HEIGHT) +
    `<rect x="0" y="0" width="${WIDTH}" height="${HEIGHT}" fill="#f7f9fc"/>`;
  if (shown.length === 0) return `${head}<text class="empty" x="${WIDTH / 2}" y="${HEIGHT / 2}" text-anchor="middle">no episode recorded</text></svg>`;
  const view = sideView(o.xml(), shown);
  const xs = shown.map(o.progress.of);
  const total = (qposes.length - 1) * o.dt + HOLD_SECONDS;
  const keyTimes = [...shown.map((_, i) => Math.min(i * every, qposes.length - 1) * o.dt / total), 1].map((t) => t.toFixed(4)).join(';');
  const anim = `dur="${total.toFixed(2)}s" repeatCount="indefinite" keyTimes="${keyTimes}" calcMode="linear"`;
  const hold = <T,>(values: T[]): T[] => [...values, values[values.length - 1]];
  const px = (x: number): number => x * PX_PER_M;
  const pz = (z: number): number => GROUND - z * PX_PER_M;
  // The floor, marked every metre over the ground the robot covers.
  const [lo, hi] = [Math.floor(Math.min(...xs)) - 4, Math.ceil(Math.max(...xs)) + 4];
  const marks = Array.from({ length: hi - lo + 1 }, (_, k) => lo + k).map((m) =>
    `<line x1="${r(px(m))}" y1="${GROUND}" x2="${r(px(m))}" y2="${GROUND + 8}" stroke="#94a3b8"/>` +
    `<text class="tick" x="${r(px(m))}" y="${GROUND + 22}" text-anchor="middle">${m} m</text>`).join('');
  const floor = `<line x1="${r(px(lo))}" y1="${GROUND}" x2="${r(px(hi))}" y2="${GROUND}" stroke="#475569" stroke-width="2"/>${marks}`;
  const bodies = view.geoms.map((g, k) => {
    const values = (c: number, f: (v: number) => number) => hold(view.frames.map((fr) => r(f(fr[4 * k + c])))).join(';');
    const attr = ['x1', 'y1', 'x2', 'y2'].map((name, c) => `<animate attributeName="${name}" ${anim} values="${values(c, c % 2 === 0 ? px : pz)}"/>`).join('');
    const first = view.frames[0];
    return `<line x1="${r(px(first[4 * k]))}" y1="${r(pz(first[4 * k + 1]))}" x2="${r(px(first[4 * k + 2]))}" y2="${r(pz(first[4 * k + 3]))}" ` +
      `stroke="${k === 0 ? color : g.color}" stroke-width="${r(2 * g.radius * PX_PER_M)}" stroke-linecap="round" opacity="0.92"><title>${escapeHtml(g.name)}</title>${attr}</line>`;
  }).join('');
  const follow = hold(xs.map((x) => `${r(WIDTH / 2 - px(x))} 0`)).join(';');
  const camera = `<animateTransform attributeName="transform" type="translate" ${anim} values="${follow}"/>`;
  const caption = `<text class="tick" x="24" y="20">${qposes.length - 1} steps, ${Math.round(1 / o.dt)} per second (real time), seen from the side</text>`;
  return `${head}<g transform="translate(${r(WIDTH / 2 - px(xs[0]))} 0)">${camera}${floor}${bodies}</g>${caption}</svg>`;
}
