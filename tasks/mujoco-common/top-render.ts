/**
 * A MuJoCo robot on the card seen from above (the x-y plane: physics/mujoco/side-view.ts with
 * plane 'x-y'), for robots that move in the plane of the floor or table (Reacher's arm, Ant's
 * walk): the greedy episode animated with SMIL in real time (no script) over a grid marked every
 * `grid` metres, a fixed frame or one that follows the robot, the path of a point traced as it
 * goes; beside it two plots and a sentence. A task gives the qpos of each observation.
 */
import type { ModelSource } from '../../physics/mujoco/model-files.ts';
import { sideView } from '../../physics/mujoco/side-view.ts';
import { escapeHtml } from '../../core/escape.ts';
import { lineChart, r, svgOpen } from '../../core/svg.ts';
import type { CardRenderer, EpisodeRecord } from '../contract.ts';

type Point = (qpos: number[]) => [number, number];

export interface TopRendererOptions {
  /** The model's XML, or its files (a declared robot's). */
  xml: () => ModelSource;
  /** Seconds per environment step. */
  dt: number;
  qpos: (episode: EpisodeRecord) => number[][];
  /** Metres across the drawing's height; the frame stays on `centre`, or follows `follow`. */
  frame: { span: number; grid: number; centre?: [number, number]; follow?: Point };
  /** A point whose path is traced (Ant's torso), if any. */
  path?: { label: string; of: Point };
  /** Two numbers to plot over the steps. */
  plots: [{ label: string; of: (qpos: number[]) => number; ref?: number }, { label: string; of: (qpos: number[]) => number; ref?: number }];
  /** The sentence under the card's animation. */
  story: (episode: EpisodeRecord, qposes: number[][]) => string;
  /** "reacher". */
  noun: string;
}

const [WIDTH, HEIGHT] = [940, 400];
const MAX_FRAMES = 250;
const HOLD_SECONDS = 1.5;

export function topRenderer(o: TopRendererOptions): CardRenderer {
  return {
    animation: (episode, color) => animation(o, episode, color),
    plots(episode, color) {
      const qposes = o.qpos(episode);
      return o.plots.map((p, k) => lineChart({
        chart: `${o.noun}-plot-${k + 1}`, title: `${p.label} over time`, width: 470, height: 280, xLabel: 'step', yLabel: p.label,
        series: [{ label: p.label, color, points: qposes.map((q, t) => [t, p.of(q)] as [number, number]) }],
        refs: p.ref === undefined ? [] : [{ axis: 'y', at: p.ref, label: `${p.ref}`, color: '#dc2626' }],
      }));
    },
    story(episode) {
      if (episode.actions.length === 0) return 'No evaluation episode was recorded.';
      return o.story(episode, o.qpos(episode));
    },
  };
}

function animation(o: TopRendererOptions, episode: EpisodeRecord, color: string): string {
  const qposes = o.qpos(episode);
  const every = Math.max(1, Math.ceil(qposes.length / MAX_FRAMES));
  const shown = qposes.filter((_, t) => t % every === 0 || t === qposes.length - 1);
  const head = svgOpen(`${o.noun}-animation`, 'The winner\'s greedy episode, animated, seen from above', WIDTH, HEIGHT) +
    `<rect x="0" y="0" width="${WIDTH}" height="${HEIGHT}" fill="#f7f9fc"/>`;
  if (shown.length === 0) return `${head}<text class="empty" x="${WIDTH / 2}" y="${HEIGHT / 2}" text-anchor="middle">no episode recorded</text></svg>`;
  const scale = HEIGHT / o.frame.span;
  const px = (x: number): number => x * scale;
  const py = (y: number): number => -y * scale;
  const view = sideView(o.xml(), shown, 'x-y');
  const total = (qposes.length - 1) * o.dt + HOLD_SECONDS;
  const keyTimes = [...shown.map((_, i) => Math.min(i * every, qposes.length - 1) * o.dt / total), 1].map((t) => t.toFixed(4)).join(';');
  const anim = `dur="${total.toFixed(2)}s" repeatCount="indefinite" keyTimes="${keyTimes}" calcMode="linear"`;
  const hold = <T,>(values: T[]): T[] => [...values, values[values.length - 1]];
  // Where the frame looks at each shown pose: its fixed centre, or the followed point.
  const centres = shown.map((q) => (o.frame.follow ? o.frame.follow(q) : o.frame.centre ?? [0, 0]));
  const xs = centres.map((c) => c[0]);
  const ys = centres.map((c) => c[1]);
  const reach = o.frame.span;
  const [x0, x1] = [Math.min(...xs) - reach * 1.5, Math.max(...xs) + reach * 1.5];
  const [y0, y1] = [Math.min(...ys) - reach, Math.max(...ys) + reach];
  const lines: string[] = [];
  for (let m = Math.ceil(x0 / o.frame.grid); m * o.frame.grid <= x1; m++) {
    lines.push(`<line x1="${r(px(m * o.frame.grid))}" y1="${r(py(y0))}" x2="${r(px(m * o.frame.grid))}" y2="${r(py(y1))}" stroke="#e2e8f0"/>`);
  }
  for (let m = Math.ceil(y0 / o.frame.grid); m * o.frame.grid <= y1; m++) {
    lines.push(`<line x1="${r(px(x0))}" y1="${r(py(m * o.frame.grid))}" x2="${r(px(x1))}" y2="${r(py(m * o.frame.grid))}" stroke="#e2e8f0"/>`);
  }
  const path = o.path === undefined ? '' :
    `<polyline fill="none" stroke="${color}" stroke-width="2" stroke-dasharray="6 4" opacity="0.6" points="${qposes.map((q) => {
      const [x, y] = o.path!.of(q);
      return `${r(px(x))},${r(py(y))}`;
    }).join(' ')}"><title>${escapeHtml(o.path.label)}</title></polyline>`;
  const bodies = view.geoms.map((g, k) => {
    const values = (c: number, f: (v: number) => number) => hold(view.frames.map((fr) => r(f(fr[4 * k + c])))).join(';');
    const attr = ['x1', 'y1', 'x2', 'y2'].map((name, c) => `<animate attributeName="${name}" ${anim} values="${values(c, c % 2 === 0 ? px : py)}"/>`).join('');
    const first = view.frames[0];
    return `<line x1="${r(px(first[4 * k]))}" y1="${r(py(first[4 * k + 1]))}" x2="${r(px(first[4 * k + 2]))}" y2="${r(py(first[4 * k + 3]))}" ` +
      `stroke="${g.color}" stroke-width="${r(Math.max(2, 2 * g.radius * scale))}" stroke-linecap="round" opacity="0.92"><title>${escapeHtml(g.name)}</title>${attr}</line>`;
  }).join('');
  const camera = o.frame.follow
    ? `<animateTransform attributeName="transform" type="translate" ${anim} values="${hold(centres.map(([x, y]) => `${r(WIDTH / 2 - px(x))} ${r(HEIGHT / 2 - py(y))}`)).join(';')}"/>`
    : '';
  const start = `translate(${r(WIDTH / 2 - px(centres[0][0]))} ${r(HEIGHT / 2 - py(centres[0][1]))})`;
  const caption = `<text class="tick" x="24" y="20">${qposes.length - 1} steps, ${Math.round(1 / o.dt)} per second (real time), seen from above; grid ${o.frame.grid} m</text>`;
  return `${head}<g transform="${start}">${camera}${lines.join('')}${path}${bodies}</g>${caption}</svg>`;
}
