/**
 * LunarLander on the card: the lander's flight over the episode's terrain (VecEnv.episodeInfo:
 * the terrain is not in the observation), animated with SMIL (no script): the body moves and
 * turns along the recorded observations, the flame shows when the main engine fires, the feet
 * light up on ground contact, and the flight path is drawn behind it. Beside it: altitude and
 * speed over time, and a sentence on how the episode ended.
 */
import { z } from 'zod';
import { lineChart, r, svgOpen } from '../../core/svg.ts';
import type { CardRenderer, EpisodeRecord } from '../contract.ts';
import { H, HELIPAD_Y, LANDER_POLY, LEG_DOWN, LEG_H, LEG_W, MAX_EPISODE_STEPS, SCALE, W, type LanderEpisodeInfo } from './physics.ts';

const WIDTH = 940;
/** Sky above Gymnasium's viewport: the lander starts at its top edge and may climb higher. */
const HEADROOM = 48;
const HEIGHT = HEADROOM + 400 + 34;
/** Gymnasium's own viewport: 30 px per metre, 600 x 400. */
const PX = SCALE;
const SCENE_W = W * PX;
const SCENE_H = H * PX;
const LEFT = (WIDTH - SCENE_W) / 2;
const TOP = HEADROOM;
const PAD_COLOR = '#e8a317';
const CONTACT_COLOR = '#16a34a';

const InfoSchema = z.object({
  terrain: z.array(z.tuple([z.number(), z.number()])).min(2),
  helipad: z.object({ x1: z.number(), x2: z.number(), y: z.number() }),
});

/** The episode's terrain, or a flat moon at the pad's height when the record has none. */
function terrainOf(episode: EpisodeRecord): LanderEpisodeInfo & { recorded: boolean } {
  const parsed = InfoSchema.safeParse(episode.info);
  if (parsed.success) return { ...parsed.data, world: { width: W, height: H }, recorded: true };
  const y = HELIPAD_Y * 0.99;
  return { terrain: [[0, y], [W, y]], helipad: { x1: W / 2 - 2, x2: W / 2 + 2, y: HELIPAD_Y }, world: { width: W, height: H }, recorded: false };
}

/** Screen coordinates of a world point (metres, y up). */
const sx = (x: number): number => LEFT + x * PX;
const sy = (y: number): number => TOP + SCENE_H - y * PX;

/** The lander body's world position from an observation (the inverse of Gymnasium's normalisation). */
function worldOf(o: readonly number[], helipadY: number): [number, number] {
  return [o[0] * (W / 2) + W / 2, o[1] * (H / 2) + helipadY + LEG_DOWN / SCALE];
}

const degrees = (rad: number): number => (rad * 180) / Math.PI;

function finite(e: EpisodeRecord): number[][] {
  return e.observations.filter((o) => o.length >= 8 && o.every(Number.isFinite));
}

/** Whether step t's action fires the main engine (discrete 2, or a continuous main throttle above 0). */
function firesMain(action: number | number[] | undefined): boolean {
  if (action === undefined) return false;
  return typeof action === 'number' ? action === 2 : action[0] > 0;
}

/** keyTimes/values of a discrete animation that only lists the frames where the value changes. */
function discrete(values: string[], times: number[]): { values: string; keyTimes: string } {
  const vs: string[] = [];
  const ts: string[] = [];
  values.forEach((v, i) => {
    if (i === 0 || v !== values[i - 1]) {
      vs.push(v);
      ts.push(i === 0 ? '0' : times[i].toFixed(4));
    }
  });
  return { values: vs.join(';'), keyTimes: ts.join(';') };
}

function animation(episode: EpisodeRecord, color: string): string {
  const info = terrainOf(episode);
  const obs = finite(episode);
  const ground = `M${r(sx(0))} ${r(sy(0))}` + info.terrain.map(([x, y]) => `L${r(sx(x))} ${r(sy(y))}`).join('') + `L${r(sx(W))} ${r(sy(0))}Z`;
  const flags = [info.helipad.x1, info.helipad.x2].map((x) => {
    const base = sy(info.helipad.y);
    return `<line x1="${r(sx(x))}" y1="${r(base)}" x2="${r(sx(x))}" y2="${r(base - 50)}" stroke="#f5f6f8" stroke-width="1.5"/>` +
      `<path d="M${r(sx(x))} ${r(base - 50)}l25 5l-25 5Z" fill="${PAD_COLOR}"/>`;
  }).join('');
  const scene = `<rect x="${r(LEFT)}" y="0" width="${r(SCENE_W)}" height="${r(TOP + SCENE_H)}" fill="#10131c"/>` +
    `<path d="${ground}" fill="#dfe3ea" stroke="#9aa3b2" stroke-width="1.5"/>${flags}` +
    `<text class="ref" x="${r(sx((info.helipad.x1 + info.helipad.x2) / 2))}" y="${r(sy(info.helipad.y) + 16)}" text-anchor="middle" fill="#1f2430">pad</text>` +
    (info.recorded ? '' : `<text class="ref" x="${r(LEFT + 8)}" y="${TOP + 16}" fill="#f5f6f8">terrain not recorded: a flat moon is drawn</text>`);
  if (obs.length === 0) {
    return `${svgOpen('lunar-lander-animation', 'The winner\'s greedy episode, animated', WIDTH, HEIGHT)}${scene}` +
      `<text class="empty" x="${WIDTH / 2}" y="${r(TOP + SCENE_H / 3)}" text-anchor="middle" fill="#f5f6f8">no episode recorded</text></svg>`;
  }
  const points = obs.map((o) => worldOf(o, info.helipad.y));
  const path = points.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${r(sx(x))} ${r(sy(y))}`).join('');
  // Real time: Gymnasium runs at 50 steps per second.
  const perSecond = 50;
  const hold = 1.5;
  const run = Math.max(obs.length - 1, 1) / perSecond;
  const total = run + hold;
  const times = obs.map((_, i) => i / perSecond / total);
  const keyTimes = [...times, 1].map((t) => t.toFixed(4)).join(';');
  const dur = `dur="${total.toFixed(2)}s" repeatCount="indefinite"`;
  const anim = `${dur} calcMode="linear" keyTimes="${keyTimes}"`;
  const motion = [...points, points[points.length - 1]].map(([x, y]) => `${r(sx(x))},${r(sy(y))}`).join(';');
  // Box2D's angle turns counter-clockwise; SVG's rotate turns clockwise on screen.
  const tilt = [...obs, obs[obs.length - 1]].map((o) => r(-degrees(o[4]))).join(';');
  const flame = discrete(obs.map((_, i) => (firesMain(episode.actions[i]) ? '1' : '0')), times);
  const foot = (k: number): { values: string; keyTimes: string } =>
    discrete(obs.map((o) => (o[k] > 0.5 ? CONTACT_COLOR : '#9aa3b2')), times);
  const body = LANDER_POLY.map(([x, y]) => `${x},${-y}`).join(' ');
  // The legs where their joint limits hold them (legs[0] on the right, +x): centre and tilt.
  const legs = [[0, 1], [1, -1]].map(([k, side]) => {
    const f = foot(6 + k);
    return `<rect x="${-LEG_W}" y="${-LEG_H}" width="${2 * LEG_W}" height="${2 * LEG_H}" transform="translate(${25 * side} 10) rotate(${-20 * side})" fill="#9aa3b2">` +
      `<animate attributeName="fill" calcMode="discrete" ${dur} values="${f.values}" keyTimes="${f.keyTimes}"/></rect>`;
  }).join('');
  const lander = `<g class="lander"><animateMotion ${anim} values="${motion}"/>` +
    `<g><animateTransform attributeName="transform" type="rotate" ${anim} values="${tilt}"/>` +
    `<path d="M-6 8L0 ${8 + 22}L6 8Z" fill="#f97316" opacity="0"><animate attributeName="opacity" calcMode="discrete" ${dur} values="${flame.values}" keyTimes="${flame.keyTimes}"/></path>` +
    `${legs}<polygon points="${body}" fill="${color}" stroke="#f5f6f8" stroke-width="1"/></g></g>`;
  const legend = `<g class="legend" font-size="12">` +
    `<line x1="16" y1="${TOP + 20}" x2="40" y2="${TOP + 20}" stroke="${color}" stroke-width="1.5" stroke-dasharray="4 3"/><text x="46" y="${TOP + 24}">flight path</text>` +
    `<rect x="24" y="${TOP + 36}" width="6" height="14" fill="${CONTACT_COLOR}"/><text x="46" y="${TOP + 48}">leg on the ground</text>` +
    `<path d="M22 ${TOP + 60}L27 ${TOP + 76}L32 ${TOP + 60}Z" fill="#f97316"/><text x="46" y="${TOP + 72}">main engine firing</text></g>`;
  const trail = `<path d="${path}" fill="none" stroke="${color}" stroke-width="1.5" stroke-dasharray="4 3" opacity="0.75"/>`;
  const barW = WIDTH - 2 * LEFT;
  const barY = HEIGHT - 14;
  const runEnd = (run / total).toFixed(4);
  const progress = `<rect x="${r(LEFT)}" y="${barY}" width="${r(barW)}" height="6" rx="3" fill="#e6e9ef"/>` +
    `<rect x="${r(LEFT)}" y="${barY}" width="0" height="6" rx="3" fill="${color}">` +
    `<animate attributeName="width" values="0;${r(barW)};${r(barW)}" keyTimes="0;${runEnd};1" ${dur}/></rect>` +
    `<text class="tick" x="${r(LEFT)}" y="${barY - 5}">step 0</text>` +
    `<text class="tick" x="${r(LEFT + barW)}" y="${barY - 5}" text-anchor="end">step ${obs.length - 1}</text>`;
  return `${svgOpen('lunar-lander-animation', 'The winner\'s greedy episode, animated', WIDTH, HEIGHT)}${scene}${legend}${trail}${lander}${progress}</svg>`;
}

function speedOf(o: readonly number[]): number {
  return Math.sqrt(o[2] * o[2] + o[3] * o[3]);
}

/** How the episode ended: Gymnasium's ending reward tells rest (+100) from a crash or leaving the screen (-100). */
function ending(episode: EpisodeRecord): 'rest' | 'crash' | 'out' | 'limit' | 'running' {
  const last = episode.rewards[episode.rewards.length - 1];
  const o = episode.observations[episode.observations.length - 1];
  if (episode.terminated && last === 100) return 'rest';
  if (episode.terminated) return o !== undefined && Math.abs(o[0]) >= 1 ? 'out' : 'crash';
  return episode.truncated || episode.rewards.length >= MAX_EPISODE_STEPS ? 'limit' : 'running';
}

function story(episode: EpisodeRecord): string {
  const obs = finite(episode);
  if (obs.length === 0 || episode.rewards.length === 0) return 'No evaluation episode was recorded.';
  const steps = episode.rewards.length;
  const last = obs[obs.length - 1];
  const distance = Math.sqrt(last[0] * last[0] + last[1] * last[1]);
  const onPad = Math.abs(last[0]) <= 0.2;
  const main = episode.actions.filter(firesMain).length;
  const burn = `firing the main engine on ${Math.round((100 * main) / steps)}% of the steps`;
  const touch = obs.findIndex((o) => o[6] > 0.5 || o[7] > 0.5);
  const touchdown = touch > 0 ? `touches down at step ${touch} and ` : '';
  switch (ending(episode)) {
    case 'rest':
      return `The lander ${touchdown}comes to rest ${onPad ? 'on the pad' : 'off the pad'} at step ${steps}, ${distance.toFixed(2)} from its centre, ${burn}.`;
    case 'crash':
      return `The lander ${touchdown}crashes at step ${steps}, ${distance.toFixed(2)} from the pad's centre at a speed of ${speedOf(last).toFixed(2)}, ${burn}.`;
    case 'out':
      return `The lander leaves the screen at step ${steps} (x = ${last[0].toFixed(2)}), ${burn}.`;
    case 'limit':
      return `The lander ${touchdown}is still moving at the ${MAX_EPISODE_STEPS}-step limit, ${distance.toFixed(2)} from the pad's centre, ${burn}.`;
    default:
      return `The episode stops after ${steps} steps, ${distance.toFixed(2)} from the pad's centre, ${burn}.`;
  }
}

export const LUNAR_LANDER_RENDERER: CardRenderer = {
  animation,

  plots(episode, color) {
    const obs = finite(episode);
    const altitude = lineChart({
      chart: 'lunar-lander-altitude', title: 'Height above the pad over time', width: 470, height: 280, xLabel: 'step', yLabel: 'height y',
      series: [{ label: 'height', color, points: obs.map((o, i) => [i, o[1]] as [number, number]) }],
      refs: [{ axis: 'y', at: 0, label: 'pad', color: PAD_COLOR }],
    });
    const touch = obs.findIndex((o) => o[6] > 0.5 || o[7] > 0.5);
    const speed = lineChart({
      chart: 'lunar-lander-speed', title: 'Speed over time', width: 470, height: 280, xLabel: 'step', yLabel: 'speed |(vx, vy)|',
      series: [{ label: 'speed', color, points: obs.map((o, i) => [i, speedOf(o)] as [number, number]) }],
      refs: touch > 0 ? [{ axis: 'x', at: touch, label: 'touchdown', color: CONTACT_COLOR }] : [],
    });
    return [altitude, speed];
  },

  story,
};
