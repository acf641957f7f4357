/**
 * Pendulum on the card: the rod swinging about its pivot along one greedy episode's angles, with
 * the upright target (±0.2 rad) marked and the applied torque as a bar, animated with SMIL (no
 * script); beside it the angle and the torque over time, and a sentence on the episode.
 */
import { lineChart, r, svgOpen } from '../../core/svg.ts';
import type { CardRenderer, EpisodeRecord } from '../contract.ts';
import { HOLD_STEPS, MAX_TORQUE, UPRIGHT_ANGLE } from './environment.ts';

const UPRIGHT_COLOR = '#16a34a';
/** Real time: Pendulum's dt is 0.05 s. */
const STEPS_PER_SECOND = 20;
const HOLD_SECONDS = 1.5;

/** The angle from upright of an observation [cos, sin, thdot]; 0 for a malformed one. */
function angleOf(o: readonly number[]): number {
  const a = Math.atan2(o[1], o[0]);
  return Number.isFinite(a) ? a : 0;
}

function angles(e: EpisodeRecord): number[] {
  return e.observations.map(angleOf);
}

function torques(e: EpisodeRecord): number[] {
  return e.actions.map((a) => (typeof a === 'number' ? a : a[0]));
}

/** The angles made continuous (no jump at ±pi), so the animation turns the short way. */
function unwrap(as: number[]): number[] {
  const out = as.slice(0, 1);
  for (let i = 1; i < as.length; i++) {
    const d = as[i] - as[i - 1];
    out.push(out[i - 1] + d - 2 * Math.PI * Math.round(d / (2 * Math.PI)));
  }
  return out;
}

function animation(episode: EpisodeRecord, color: string): string {
  const [w, h] = [940, 300];
  const [cx, cy, rod] = [w / 2, 140, 90];
  const as = angles(episode);
  const us = torques(episode);
  const deg = (a: number): number => (-a * 180) / Math.PI; // counter-clockwise positive, SVG turns clockwise
  const wedge = (a: number): string => `${r(cx - rod * 1.25 * Math.sin(a))} ${r(cy - rod * 1.25 * Math.cos(a))}`;
  const target = `<path d="M${cx} ${cy}L${wedge(UPRIGHT_ANGLE)}A${rod * 1.25} ${rod * 1.25} 0 0 1 ${wedge(-UPRIGHT_ANGLE)}Z" fill="${UPRIGHT_COLOR}" opacity="0.15"/>` +
    `<line x1="${cx}" y1="${cy}" x2="${cx}" y2="${r(cy - rod * 1.3)}" stroke="${UPRIGHT_COLOR}" stroke-dasharray="5 4" stroke-width="1.6"/>` +
    `<text class="ref" x="${cx + 10}" y="${r(cy - rod * 1.3 + 4)}" fill="${UPRIGHT_COLOR}">upright ±${UPRIGHT_ANGLE} rad</text>`;
  const barY = h - 40;
  const half = 150;
  const track = `<rect x="${cx - half}" y="${barY}" width="${2 * half}" height="8" rx="3" fill="#e6e9ef"/>` +
    `<line x1="${cx}" y1="${barY - 3}" x2="${cx}" y2="${barY + 11}" stroke="#1f2430"/>` +
    `<text class="tick" x="${cx - half}" y="${barY - 6}">-${MAX_TORQUE}</text>` +
    `<text class="tick" x="${cx}" y="${barY - 6}" text-anchor="middle">torque</text>` +
    `<text class="tick" x="${cx + half}" y="${barY - 6}" text-anchor="end">+${MAX_TORQUE}</text>`;
  let pendulum = '';
  let torqueBar = '';
  if (as.length > 0) {
    const run = Math.max(as.length - 1, 1) / STEPS_PER_SECOND;
    const total = run + HOLD_SECONDS;
    const keyTimes = [...as.map((_, i) => i / STEPS_PER_SECOND / total), 1].map((t) => t.toFixed(4)).join(';');
    const anim = `dur="${total.toFixed(2)}s" repeatCount="indefinite" keyTimes="${keyTimes}"`;
    const turned = unwrap(as);
    const rotate = [...turned, turned[turned.length - 1]].map((a) => r(deg(a))).join(';');
    const upright = [...as, as[as.length - 1]].map((a) => (Math.abs(a) < UPRIGHT_ANGLE ? UPRIGHT_COLOR : color)).join(';');
    pendulum = `<g transform="translate(${cx} ${cy})"><g><animateTransform attributeName="transform" type="rotate" calcMode="linear" ${anim} values="${rotate}"/>` +
      `<line x1="0" y1="0" x2="0" y2="${-rod}" stroke="${color}" stroke-width="12" stroke-linecap="round"/>` +
      `<circle cx="0" cy="${-rod}" r="13" fill="${color}"><animate attributeName="fill" calcMode="discrete" ${anim} values="${upright}"/></circle></g>` +
      `<circle cx="0" cy="0" r="6" fill="#1f2430"/></g>`;
    // Torque u_t is applied from observation t to t + 1; the held last frame shows none.
    const scaled = [...as.map((_, i) => (i < us.length && Number.isFinite(us[i]) ? (us[i] / MAX_TORQUE) * half : 0)), 0];
    const xs = scaled.map((v) => r(cx + Math.min(v, 0))).join(';');
    const widths = scaled.map((v) => r(Math.abs(v))).join(';');
    torqueBar = `<rect x="${cx}" y="${barY}" width="0" height="8" rx="3" fill="${color}">` +
      `<animate attributeName="x" calcMode="discrete" ${anim} values="${xs}"/><animate attributeName="width" calcMode="discrete" ${anim} values="${widths}"/></rect>` +
      `<text class="tick" x="24" y="${h - 12}">${as.length - 1} steps, ${STEPS_PER_SECOND} per second (real time)</text>`;
  } else {
    pendulum = `<circle cx="${cx}" cy="${cy}" r="6" fill="#1f2430"/>` +
      `<text class="empty" x="${cx}" y="${cy + 40}" text-anchor="middle">no episode recorded</text>`;
  }
  return `${svgOpen('pendulum-animation', 'The winner\'s greedy episode, animated', w, h)}` +
    `<rect x="0" y="0" width="${w}" height="${h}" fill="#f7f9fc"/>${target}${track}${torqueBar}${pendulum}</svg>`;
}

export const PENDULUM_RENDERER: CardRenderer = {
  animation,

  plots(episode, color) {
    const angle = lineChart({
      chart: 'pendulum-angle', title: 'Angle from upright over time', width: 470, height: 280, xLabel: 'step', yLabel: 'angle (rad)',
      series: [{ label: 'angle', color, points: angles(episode).map((a, i) => [i, a] as [number, number]) }],
      y: [-Math.PI, Math.PI],
      refs: [
        { axis: 'y', at: UPRIGHT_ANGLE, label: `±${UPRIGHT_ANGLE}`, color: UPRIGHT_COLOR },
        { axis: 'y', at: -UPRIGHT_ANGLE, label: '', color: UPRIGHT_COLOR },
      ],
    });
    const torque = lineChart({
      chart: 'pendulum-torque', title: 'Torque applied', width: 470, height: 280, xLabel: 'step', yLabel: 'torque (N m)',
      series: [{ label: 'torque', color, points: torques(episode).map((u, i) => [i, u] as [number, number]) }],
      y: [-MAX_TORQUE, MAX_TORQUE],
    });
    return [angle, torque];
  },

  story(episode) {
    const as = angles(episode).slice(1);
    if (as.length === 0) return 'No evaluation episode was recorded.';
    const up = as.map((a) => Math.abs(a) < UPRIGHT_ANGLE);
    const start = Math.abs(angleOf(episode.observations[0])).toFixed(2);
    const last = up.lastIndexOf(false);
    const count = up.filter(Boolean).length;
    if (last < up.length - 1) {
      const held = up.length - 1 - last;
      return `Starts ${start} rad from upright, is within ${UPRIGHT_ANGLE} rad of upright from step ${last + 2} and stays there to the end ` +
        `(${held} steps; success needs the last ${HOLD_STEPS}).`;
    }
    return `Starts ${start} rad from upright and is within ${UPRIGHT_ANGLE} rad of upright on ${count} of ${as.length} steps, ` +
      `but ends ${Math.abs(as[as.length - 1]).toFixed(2)} rad away.`;
  },
};
