/**
 * Acrobot on the card: the two links swinging about the fixed joint, along one greedy episode's
 * observations, animated with SMIL (no script), under the target line at height 1; beside it the
 * free end's height and the joints' angular velocities over time, and a sentence on the swing.
 */
import { lineChart, r, svgOpen } from '../../core/svg.ts';
import type { CardRenderer, EpisodeRecord } from '../contract.ts';
import { DT, LINK_LENGTH_1, LINK_LENGTH_2, MAX_EPISODE_STEPS, TARGET_HEIGHT } from './environment.ts';

const TARGET_COLOR = '#16a34a';
const WIDTH = 940;
const HEIGHT = 340;
const PIVOT_Y = 170;
/** Pixels per metre: both links (2 m) fit above and below the fixed joint. */
const SCALE = 64;

/** The free end's height above the fixed joint, -cos(th1) - cos(th1 + th2), from the cos/sin observation. */
export function tipHeight(o: readonly number[] | Float32Array, at = 0): number {
  const [c1, s1, c2, s2] = [o[at], o[at + 1], o[at + 2], o[at + 3]];
  return -c1 - (c1 * c2 - s1 * s2);
}

function valid(e: EpisodeRecord): number[][] {
  return e.observations.filter((o) => o.length >= 6 && o.every(Number.isFinite));
}

/** Angles from cos/sin, unwrapped so the animation turns the short way across ±pi. */
function unwrapped(angles: number[]): number[] {
  const out: number[] = [];
  for (const a of angles) {
    if (out.length === 0) { out.push(a); continue; }
    const prev = out[out.length - 1];
    let d = a - prev;
    d -= 2 * Math.PI * Math.round(d / (2 * Math.PI));
    out.push(prev + d);
  }
  return out;
}

const degrees = (rad: number): number => (rad * 180) / Math.PI;

function animation(episode: EpisodeRecord, color: string): string {
  const obs = valid(episode);
  const cx = WIDTH / 2;
  const targetY = PIVOT_Y - TARGET_HEIGHT * SCALE;
  let targetFill = '';
  let body: string;
  let progress = '';
  if (obs.length > 0) {
    // Gymnasium's own rendering speed, 15 frames a second (a step is DT = 0.2 s of physics).
    const perSecond = 15;
    const hold = 1.5;
    const run = Math.max(obs.length - 1, 1) / perSecond;
    const total = run + hold;
    const times = obs.map((_, i) => i / perSecond / total);
    const keyTimes = [...times, 1].map((t) => t.toFixed(4)).join(';');
    const anim = `dur="${total.toFixed(2)}s" repeatCount="indefinite" calcMode="linear" keyTimes="${keyTimes}"`;
    // theta = 0 hangs straight down; a positive theta swings the end to the right, which on
    // screen (y down) is rotate(-theta) of a link drawn downwards.
    const rotation = (angles: number[]): string => [...angles, angles[angles.length - 1]].map((a) => r(-degrees(a))).join(';');
    const th1 = unwrapped(obs.map((o) => Math.atan2(o[1], o[0])));
    const th2 = unwrapped(obs.map((o) => Math.atan2(o[3], o[2])));
    const l1 = LINK_LENGTH_1 * SCALE;
    const l2 = LINK_LENGTH_2 * SCALE;
    const link = (len: number): string =>
      `<rect x="-7" y="-7" width="14" height="${r(len + 14)}" rx="7" fill="${color}" opacity="0.9"/>`;
    body = `<g transform="translate(${cx} ${PIVOT_Y})"><g><animateTransform attributeName="transform" type="rotate" ${anim} values="${rotation(th1)}"/>` +
      `${link(l1)}<g transform="translate(0 ${r(l1)})"><g><animateTransform attributeName="transform" type="rotate" ${anim} values="${rotation(th2)}"/>` +
      `${link(l2)}<circle cx="0" cy="${r(l2)}" r="5" fill="#1f2430"/></g><circle cx="0" cy="0" r="7" fill="#e8a317"/></g></g>` +
      `<circle cx="0" cy="0" r="8" fill="#e8a317" stroke="#1f2430" stroke-width="2"/></g>`;
    const reachedAt = episode.rewards.findIndex((reward) => reward === 0);
    if (reachedAt >= 0 && reachedAt + 1 < times.length) {
      const arrive = times[reachedAt + 1].toFixed(4);
      targetFill = `<animate attributeName="stroke" values="#1f2430;${TARGET_COLOR};${TARGET_COLOR}" keyTimes="0;${arrive};1" calcMode="discrete" ` +
        `dur="${total.toFixed(2)}s" repeatCount="indefinite"/>`;
    }
    const pad = 24;
    const barW = WIDTH - 2 * pad;
    const runEnd = (run / total).toFixed(4);
    progress = `<rect x="${pad}" y="${HEIGHT - 16}" width="${r(barW)}" height="6" rx="3" fill="#e6e9ef"/>` +
      `<rect x="${pad}" y="${HEIGHT - 16}" width="0" height="6" rx="3" fill="${color}">` +
      `<animate attributeName="width" values="0;${r(barW)};${r(barW)}" keyTimes="0;${runEnd};1" dur="${total.toFixed(2)}s" repeatCount="indefinite"/></rect>` +
      `<text class="tick" x="${pad}" y="${HEIGHT - 22}">step 0</text>` +
      `<text class="tick" x="${r(pad + barW)}" y="${HEIGHT - 22}" text-anchor="end">step ${obs.length - 1}</text>`;
  } else {
    body = `<text class="empty" x="${cx}" y="${PIVOT_Y + 40}" text-anchor="middle">no episode recorded</text>`;
  }
  return `${svgOpen('acrobot-animation', 'The winner\'s greedy episode, animated', WIDTH, HEIGHT)}` +
    `<rect x="0" y="0" width="${WIDTH}" height="${HEIGHT - 30}" fill="#f4f7fc"/>` +
    `<line x1="${r(cx - 2.2 * SCALE)}" y1="${r(targetY)}" x2="${r(cx + 2.2 * SCALE)}" y2="${r(targetY)}" stroke="#1f2430" stroke-width="2" stroke-dasharray="6 4">${targetFill}</line>` +
    `<text class="ref" x="${r(cx + 2.2 * SCALE + 8)}" y="${r(targetY + 4)}">target height ${TARGET_HEIGHT.toFixed(1)}</text>${body}${progress}</svg>`;
}

function plots(episode: EpisodeRecord, color: string): string[] {
  const obs = valid(episode);
  const height = lineChart({
    chart: 'acrobot-tip-height', title: 'Height of the free end over time', width: 470, height: 280, xLabel: 'step', yLabel: 'tip height',
    series: [{ label: 'tip height', color, points: obs.map((o, i) => [i, tipHeight(o)] as [number, number]) }],
    y: [-2, 2], refs: [{ axis: 'y', at: TARGET_HEIGHT, label: 'target', color: TARGET_COLOR }],
  });
  const velocities = lineChart({
    chart: 'acrobot-velocities', title: 'Angular velocities over time', width: 470, height: 280, xLabel: 'step', yLabel: 'rad/s',
    series: [
      { label: 'joint 1', color, points: obs.map((o, i) => [i, o[4]] as [number, number]) },
      { label: 'joint 2', color: '#6b7280', dashed: true, points: obs.map((o, i) => [i, o[5]] as [number, number]) },
    ],
  });
  return [height, velocities];
}

function story(episode: EpisodeRecord): string {
  const obs = valid(episode);
  if (obs.length === 0) return 'No evaluation episode was recorded.';
  const heights = obs.map((o) => tipHeight(o));
  const highest = Math.max(...heights);
  // A swing is a reversal of the first link's direction.
  const w1 = obs.map((o) => o[4]);
  const swings = w1.slice(1).filter((w, i) => w !== 0 && w1[i] !== 0 && Math.sign(w) !== Math.sign(w1[i])).length;
  const reachedAt = episode.rewards.findIndex((reward) => reward === 0);
  const pumping = `swings back and forth ${swings} time${swings === 1 ? '' : 's'}`;
  if (reachedAt >= 0) {
    const step = reachedAt + 1;
    return `Pumps energy into the links, ${pumping}, and lifts the free end above the target line at step ${step} (${(step * DT).toFixed(1)} s).`;
  }
  const limit = obs.length - 1 >= MAX_EPISODE_STEPS ? ` in ${MAX_EPISODE_STEPS} steps` : '';
  return `The free end does not reach the target line${limit}: it ${pumping} and gets as high as ${highest.toFixed(2)}.`;
}

export const ACROBOT_RENDERER: CardRenderer = { animation, plots, story };
