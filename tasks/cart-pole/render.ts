/**
 * CartPole on the card: the cart sliding along its track with the pole rotating on it, along one
 * greedy episode's observations, animated with SMIL (no script); beside it the pole's angle and
 * the cart's position over time with the failure limits, and a sentence on how the episode ended.
 */
import { lineChart, r, svgOpen } from '../../core/svg.ts';
import type { CardRenderer, EpisodeRecord } from '../contract.ts';
import { LENGTH, MAX_EPISODE_STEPS, TAU, THETA_THRESHOLD_RADIANS, X_THRESHOLD } from './environment.ts';

const LIMIT_COLOR = '#dc2626';
const WIDTH = 940;
const HEIGHT = 300;
const PAD = 24;
/** The track shown: a little past the limits, so a cart that leaves is still seen. */
const TRACK_HALF = X_THRESHOLD + 0.4;

const degrees = (rad: number): number => (rad * 180) / Math.PI;

function column(e: EpisodeRecord, k: number): number[] {
  return e.observations.map((o) => o[k]).filter(Number.isFinite);
}

function animation(episode: EpisodeRecord, color: string): string {
  const xs = column(episode, 0);
  const thetas = column(episode, 2);
  const trackY = HEIGHT - 70;
  const sx = (x: number): number => PAD + ((x + TRACK_HALF) / (2 * TRACK_HALF)) * (WIDTH - 2 * PAD);
  const metre = (WIDTH - 2 * PAD) / (2 * TRACK_HALF);
  const poleLength = 2 * LENGTH * metre; // LENGTH is half the pole
  const track = `<line x1="${PAD}" y1="${trackY}" x2="${WIDTH - PAD}" y2="${trackY}" stroke="#7c8a6e" stroke-width="3"/>` +
    [-X_THRESHOLD, X_THRESHOLD].map((x) =>
      `<line x1="${r(sx(x))}" y1="${trackY - 40}" x2="${r(sx(x))}" y2="${trackY + 8}" stroke="${LIMIT_COLOR}" stroke-width="2" stroke-dasharray="5 4"/>`).join('') +
    `<text class="ref" x="${r(sx(X_THRESHOLD) - 6)}" y="${trackY - 44}" text-anchor="end" fill="${LIMIT_COLOR}">track limit ±${X_THRESHOLD}</text>`;
  let body: string;
  let progress = '';
  const frames = Math.min(xs.length, thetas.length);
  if (frames > 0) {
    // Real time: one step is TAU seconds.
    const perSecond = 1 / TAU;
    const hold = 1.5;
    const run = Math.max(frames - 1, 1) / perSecond;
    const total = run + hold;
    const keyTimes = [...xs.slice(0, frames).map((_, i) => i / perSecond / total), 1].map((t) => t.toFixed(4)).join(';');
    const anim = `dur="${total.toFixed(2)}s" repeatCount="indefinite" calcMode="linear" keyTimes="${keyTimes}"`;
    // The group's origin is the pole's pivot on top of the cart; rotations turn about it.
    const motion = [...xs.slice(0, frames), xs[frames - 1]].map((x) => `${r(sx(x))},${trackY - 34}`).join(';');
    // Positive theta leans the pole to the right: a clockwise rotation on screen.
    const tilt = [...thetas.slice(0, frames), thetas[frames - 1]].map((t) => r(degrees(t))).join(';');
    const limit = degrees(THETA_THRESHOLD_RADIANS);
    const wedge = [-limit, limit].map((a) =>
      `<line x1="0" y1="0" x2="0" y2="${r(-poleLength)}" transform="rotate(${r(a)})" stroke="${LIMIT_COLOR}" stroke-width="1.4" stroke-dasharray="4 4" opacity="0.7"/>`).join('');
    body = `<g class="cart"><animateMotion ${anim} values="${motion}"/>${wedge}` +
      `<rect x="-34" y="0" width="68" height="26" rx="4" fill="#1f2430"/>` +
      `<circle cx="-20" cy="28" r="5" fill="#1f2430"/><circle cx="20" cy="28" r="5" fill="#1f2430"/>` +
      `<g><animateTransform attributeName="transform" type="rotate" ${anim} values="${tilt}"/>` +
      `<rect x="-5" y="${r(-poleLength)}" width="10" height="${r(poleLength)}" rx="4" fill="${color}"/></g>` +
      `<circle cx="0" cy="0" r="5" fill="#e8a317"/></g>`;
    const barW = WIDTH - 2 * PAD;
    const runEnd = (run / total).toFixed(4);
    progress = `<rect x="${PAD}" y="${HEIGHT - 16}" width="${r(barW)}" height="6" rx="3" fill="#e6e9ef"/>` +
      `<rect x="${PAD}" y="${HEIGHT - 16}" width="0" height="6" rx="3" fill="${color}">` +
      `<animate attributeName="width" values="0;${r(barW)};${r(barW)}" keyTimes="0;${runEnd};1" dur="${total.toFixed(2)}s" repeatCount="indefinite"/></rect>` +
      `<text class="tick" x="${PAD}" y="${HEIGHT - 22}">step 0</text>` +
      `<text class="tick" x="${r(PAD + barW)}" y="${HEIGHT - 22}" text-anchor="end">step ${frames - 1}</text>`;
  } else {
    body = `<text class="empty" x="${WIDTH / 2}" y="${trackY - 100}" text-anchor="middle">no episode recorded</text>`;
  }
  return `${svgOpen('cart-pole-animation', 'The winner\'s greedy episode, animated', WIDTH, HEIGHT)}` +
    `<rect x="0" y="0" width="${WIDTH}" height="${trackY + 10}" fill="#f4f7fc"/>${track}${body}${progress}</svg>`;
}

/** A domain that holds the limits and every value (a terminating step ends a little past a limit). */
function around(values: number[], limit: number): [number, number] {
  const reach = Math.max(limit * 1.15, ...values.map(Math.abs));
  return [-reach, reach];
}

function plots(episode: EpisodeRecord, color: string): string[] {
  const xs = column(episode, 0);
  const thetas = column(episode, 2);
  const angle = lineChart({
    chart: 'cart-pole-angle', title: 'Pole angle over time', width: 470, height: 280, xLabel: 'step', yLabel: 'pole angle (rad)',
    series: [{ label: 'pole angle', color, points: thetas.map((t, i) => [i, t] as [number, number]) }],
    y: around(thetas, THETA_THRESHOLD_RADIANS),
    refs: [
      { axis: 'y', at: THETA_THRESHOLD_RADIANS, label: '+12°', color: LIMIT_COLOR },
      { axis: 'y', at: -THETA_THRESHOLD_RADIANS, label: '-12°', color: LIMIT_COLOR },
    ],
  });
  const position = lineChart({
    chart: 'cart-pole-position', title: 'Cart position over time', width: 470, height: 280, xLabel: 'step', yLabel: 'cart position x',
    series: [{ label: 'cart position', color, points: xs.map((x, i) => [i, x] as [number, number]) }],
    y: around(xs, X_THRESHOLD),
    refs: [
      { axis: 'y', at: X_THRESHOLD, label: `+${X_THRESHOLD}`, color: LIMIT_COLOR },
      { axis: 'y', at: -X_THRESHOLD, label: `-${X_THRESHOLD}`, color: LIMIT_COLOR },
    ],
  });
  return [angle, position];
}

function story(episode: EpisodeRecord): string {
  const xs = column(episode, 0);
  const thetas = column(episode, 2);
  if (xs.length === 0 || thetas.length === 0) return 'No evaluation episode was recorded.';
  const steps = xs.length - 1;
  const drift = `the cart drifts at most ${Math.max(...xs.map(Math.abs)).toFixed(2)} from the centre`;
  const last = xs.length - 1;
  if (Math.abs(thetas[last]) > THETA_THRESHOLD_RADIANS) return `The pole falls past 12° at step ${steps}; ${drift}.`;
  if (Math.abs(xs[last]) > X_THRESHOLD) return `The cart leaves the track at step ${steps} with the pole still up.`;
  const whole = steps >= MAX_EPISODE_STEPS ? ` (the whole ${MAX_EPISODE_STEPS}-step limit)` : '';
  return `Keeps the pole up for ${steps} step${steps === 1 ? '' : 's'}${whole}; ${drift}.`;
}

export const CART_POLE_RENDERER: CardRenderer = { animation, plots, story };
