/**
 * The car in MountainCar's valley (hill y = sin(3x)), drawn for the card of either MountainCar
 * (discrete and continuous: the same track, each with its own flag). Not a task folder: both
 * tasks import it, neither imports the other.
 */
import { r, svgOpen } from '../../core/svg.ts';

export interface CarAnimationOptions {
  chart: string;
  title: string;
  positions: number[];
  color: string;
  /** The track's ends, the environment's position bounds. */
  min: number;
  max: number;
  /** Where the flag stands (MountainCar-v0: 0.5, MountainCarContinuous-v0: 0.45). */
  goal: number;
  width: number;
  height: number;
  /** Environment steps shown per second. */
  stepsPerSecond?: number;
  /** Seconds the last frame is held before the loop starts again. */
  hold?: number;
}

/**
 * The car in the valley (hill y = sin(3x), MountainCar's track) driving along the recorded
 * positions: SMIL <animateMotion> with values/keyTimes moves it, <animateTransform> tilts it with the
 * slope, the flag turns green when the car gets there, and a bar below shows the time. Loops.
 */
export function carAnimation(o: CarAnimationOptions): string {
  const [minX, maxX, goal] = [o.min, o.max, o.goal];
  const pad = 24;
  const top = 74;
  const trackBottom = o.height - 46;
  const sx = (x: number): number => pad + ((x - minX) / (maxX - minX)) * (o.width - 2 * pad);
  const sy = (x: number): number => trackBottom - ((Math.sin(3 * x) + 1) / 2) * (trackBottom - top);
  const slope = (x: number): number => {
    const dydx = (-3 * Math.cos(3 * x) / 2) * (trackBottom - top);
    return (Math.atan(dydx / (o.width - 2 * pad) * (maxX - minX)) * 180) / Math.PI;
  };
  const hill = Array.from({ length: 121 }, (_, i) => minX + (i / 120) * (maxX - minX));
  const ground = `M${r(sx(minX))} ${o.height - 30}` + hill.map((x) => `L${r(sx(x))} ${r(sy(x))}`).join('') + `L${r(sx(maxX))} ${o.height - 30}Z`;
  const flagX = sx(goal);
  const flagY = sy(goal);
  const pos = o.positions.filter(Number.isFinite);
  const reached = pos.length > 0 && pos[pos.length - 1] >= goal;
  let car = '';
  let flagFill = '';
  let progress = '';
  if (pos.length > 0) {
    const perSecond = o.stepsPerSecond ?? 30;
    const hold = o.hold ?? 1.5;
    const run = Math.max(pos.length - 1, 1) / perSecond;
    const total = run + hold;
    const times = pos.map((_, i) => (i / perSecond) / total);
    const keyTimes = [...times, 1].map((t) => t.toFixed(4)).join(';');
    const motion = [...pos, pos[pos.length - 1]].map((x) => `${r(sx(x))},${r(sy(x))}`).join(';');
    const tilt = [...pos, pos[pos.length - 1]].map((x) => r(slope(x))).join(';');
    const anim = `dur="${total.toFixed(2)}s" repeatCount="indefinite" calcMode="linear" keyTimes="${keyTimes}"`;
    car = `<g class="car"><animateMotion ${anim} values="${motion}"/>` +
      `<g><animateTransform attributeName="transform" type="rotate" ${anim} values="${tilt}"/>` +
      `<rect x="-21" y="-22" width="42" height="15" rx="4" fill="${o.color}"/>` +
      `<rect x="-11" y="-31" width="20" height="11" rx="3" fill="${o.color}" opacity="0.8"/>` +
      `<circle cx="-12" cy="-6" r="6" fill="#1f2430"/><circle cx="12" cy="-6" r="6" fill="#1f2430"/>` +
      `<circle cx="-12" cy="-6" r="2" fill="#fff"/><circle cx="12" cy="-6" r="2" fill="#fff"/></g></g>`;
    if (reached) {
      const arrive = times[times.length - 1].toFixed(4);
      flagFill = `<animate attributeName="fill" values="#e8a317;#16a34a;#16a34a" keyTimes="0;${arrive};1" calcMode="discrete" ` +
        `dur="${total.toFixed(2)}s" repeatCount="indefinite"/>`;
    }
    const barW = o.width - 2 * pad;
    const runEnd = (run / total).toFixed(4);
    progress = `<rect x="${pad}" y="${o.height - 16}" width="${r(barW)}" height="6" rx="3" fill="#e6e9ef"/>` +
      `<rect x="${pad}" y="${o.height - 16}" width="0" height="6" rx="3" fill="${o.color}">` +
      `<animate attributeName="width" values="0;${r(barW)};${r(barW)}" keyTimes="0;${runEnd};1" dur="${total.toFixed(2)}s" repeatCount="indefinite"/></rect>` +
      `<text class="tick" x="${pad}" y="${o.height - 22}">step 0</text>` +
      `<text class="tick" x="${r(pad + barW)}" y="${o.height - 22}" text-anchor="end">step ${pos.length - 1}</text>`;
  } else {
    car = `<text class="empty" x="${o.width / 2}" y="${top + 20}" text-anchor="middle">no episode recorded</text>`;
  }
  return `${svgOpen(o.chart, o.title, o.width, o.height)}<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">` +
    `<stop offset="0" stop-color="#eef3fb"/><stop offset="1" stop-color="#ffffff"/></linearGradient></defs>` +
    `<rect x="0" y="0" width="${o.width}" height="${o.height - 30}" fill="url(#sky)"/>` +
    `<path d="${ground}" fill="#dfe6d8" stroke="#7c8a6e" stroke-width="2"/>` +
    `<line x1="${r(flagX)}" y1="${r(flagY)}" x2="${r(flagX)}" y2="${r(flagY - 46)}" stroke="#1f2430" stroke-width="2"/>` +
    `<path d="M${r(flagX)} ${r(flagY - 46)}l26 7l-26 7Z" fill="#e8a317">${flagFill}</path>` +
    `<text class="ref" x="${r(flagX - 6)}" y="${r(flagY - 50)}" text-anchor="end">flag, x = ${goal}</text>${car}${progress}</svg>`;
}
