/**
 * Small inline-SVG charts for the card: a line chart with several series and a legend, a bar chart
 * with dots and a best-so-far line, a sparkline (the animated car is in svg-car.ts). Labels are
 * escaped here; numbers are checked, so no NaN reaches an attribute.
 */
import { escapeHtml } from './escape.ts';

export type Point = [number, number];
export type Domain = [number, number];

export interface Series {
  label: string;
  color: string;
  points: Point[];
  dashed?: boolean;
}

/** A labelled reference line at x = at (vertical) or y = at (horizontal). */
export interface RefLine {
  axis: 'x' | 'y';
  at: number;
  label: string;
  color: string;
}

export interface Marker {
  at: Point;
  label: string;
  color: string;
}

export interface LineChartOptions {
  /** The data-chart attribute tests and readers find the chart by. */
  chart: string;
  title: string;
  width: number;
  height: number;
  series: Series[];
  xLabel: string;
  yLabel: string;
  x?: Domain;
  y?: Domain;
  xFormat?: (v: number) => string;
  yFormat?: (v: number) => string;
  refs?: RefLine[];
  markers?: Marker[];
}

export interface LegendEntry {
  label: string;
  color: string;
  dashed?: boolean;
  shape?: 'line' | 'bar' | 'dot';
}

/** About how wide one character of a chart's small text is, in pixels: enough to make room for a label. */
export const CHAR_WIDTH = 6.6;

/** The plot area inside a chart: the legend sits above it, axis labels around it. */
interface Frame {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** A number for an SVG attribute: one decimal, and 0 for anything not finite. */
export const r = (v: number): string => (Number.isFinite(v) ? String(Math.round(v * 10) / 10) : '0');

function extent(values: number[], fallback: Domain): Domain {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return fallback;
  const lo = Math.min(...finite);
  const hi = Math.max(...finite);
  if (lo === hi) return [lo - (Math.abs(lo) || 1) * 0.5, hi + (Math.abs(hi) || 1) * 0.5];
  return [lo, hi];
}

/** About `count` round ticks (1, 2, 2.5, 5 × 10^k) inside the domain. */
export function ticks([lo, hi]: Domain, count = 5): number[] {
  const span = hi - lo;
  if (!(span > 0) || !Number.isFinite(span)) return [lo];
  const mag = 10 ** Math.floor(Math.log10(span / count));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((st) => span / st <= count + 1) ?? 10 * mag;
  const out: number[] = [];
  for (let t = Math.ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-9; t += step) out.push(Number(t.toPrecision(12)));
  return out;
}

const defaultFormat = (v: number): string => String(Number(v.toPrecision(3)));

export function svgOpen(chart: string, title: string, width: number, height: number): string {
  return `<svg data-chart="${escapeHtml(chart)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" ` +
    `role="img" aria-label="${escapeHtml(title)}" xmlns="http://www.w3.org/2000/svg"><title>${escapeHtml(title)}</title>`;
}

/** Legend entries in rows across the top, wrapped to the width; returns the markup and its height. */
function legend(entries: LegendEntry[], x0: number, x1: number): { svg: string; height: number } {
  let x = x0;
  let y = 14;
  const svg = entries.map((e) => {
    const w = 28 + e.label.length * CHAR_WIDTH + 18;
    if (x + w > x1 && x > x0) { x = x0; y += 17; }
    const dash = e.dashed === true ? ' stroke-dasharray="5 4"' : '';
    const swatch = e.shape === 'bar' ? `<rect x="${r(x + 4)}" y="${y - 10}" width="14" height="11" rx="2" fill="${e.color}"/>`
      : e.shape === 'dot' ? `<circle cx="${r(x + 11)}" cy="${y - 4}" r="4" fill="${e.color}"/>`
      : `<line x1="${r(x)}" y1="${y - 4}" x2="${r(x + 22)}" y2="${y - 4}" stroke="${e.color}" stroke-width="3"${dash}/>`;
    const out = `<g class="legend">${swatch}<text x="${r(x + 28)}" y="${y}">${escapeHtml(e.label)}</text></g>`;
    x += w;
    return out;
  }).join('');
  return { svg, height: entries.length === 0 ? 0 : y + 4 };
}

function frame(width: number, height: number, legendHeight: number, right = 18): Frame {
  return { width, height, left: 58, right: width - right, top: Math.max(16, legendHeight + 14), bottom: height - 40 };
}

function scale(domain: Domain, from: number, to: number): (v: number) => number {
  return (v) => from + ((v - domain[0]) / (domain[1] - domain[0])) * (to - from);
}

function yAxis(f: Frame, ys: Domain, sy: (v: number) => number, format: (v: number) => string, label: string): string {
  const grid = ticks(ys, 5).map((t) =>
    `<line class="grid" x1="${f.left}" x2="${f.right}" y1="${r(sy(t))}" y2="${r(sy(t))}"/>` +
    `<text class="tick" x="${f.left - 6}" y="${r(sy(t) + 4)}" text-anchor="end">${escapeHtml(format(t))}</text>`).join('');
  return `${grid}<line class="axis" x1="${f.left}" x2="${f.right}" y1="${f.bottom}" y2="${f.bottom}"/>` +
    `<text class="axis-label" transform="translate(13 ${r((f.top + f.bottom) / 2)}) rotate(-90)" text-anchor="middle">${escapeHtml(label)}</text>`;
}

function xAxis(f: Frame, xs: Domain, sx: (v: number) => number, format: (v: number) => string, label: string): string {
  const marks = ticks(xs, Math.max(2, Math.floor((f.right - f.left) / 90))).map((t) =>
    `<line class="axis" x1="${r(sx(t))}" x2="${r(sx(t))}" y1="${f.bottom}" y2="${f.bottom + 4}"/>` +
    `<text class="tick" x="${r(sx(t))}" y="${f.bottom + 16}" text-anchor="middle">${escapeHtml(format(t))}</text>`).join('');
  return `${marks}<text class="axis-label" x="${r((f.left + f.right) / 2)}" y="${f.height - 6}" text-anchor="middle">${escapeHtml(label)}</text>`;
}

/** Dashed reference lines; a horizontal one's label goes right of the plot when there is room. */
function refLines(f: Frame, refs: RefLine[], sx: (v: number) => number, sy: (v: number) => number): string {
  const outside = f.width - f.right > 60;
  const shown = refs.filter((ref) => Number.isFinite(ref.at));
  const labelY = spreadApart(shown.map((ref) => (ref.axis === 'y' ? sy(ref.at) : Number.NaN)), LABEL_GAP);
  return shown.map((ref, i) => {
    const line = ref.axis === 'y'
      ? `<line x1="${f.left}" x2="${f.right}" y1="${r(sy(ref.at))}" y2="${r(sy(ref.at))}"`
      : `<line x1="${r(sx(ref.at))}" x2="${r(sx(ref.at))}" y1="${f.top}" y2="${f.bottom}"`;
    const text = ref.axis === 'x' ? `x="${r(sx(ref.at) - 5)}" y="${f.top + 12}" text-anchor="end"`
      : outside ? `x="${f.right + 6}" y="${r(labelY[i] + 4)}"` : `x="${f.right - 4}" y="${r(labelY[i] - 5)}" text-anchor="end"`;
    return `${line} stroke="${ref.color}" stroke-dasharray="5 4" stroke-width="1.6"/>` +
      `<text class="ref" ${text} fill="${ref.color}">${escapeHtml(ref.label)}</text>`;
  }).join('');
}

/** Vertical room of one reference label, in px. */
const LABEL_GAP = 13;

/**
 * Positions moved apart, upward, so no two are closer than gap: two baselines at the same value
 * keep readable labels. NaN positions are left out.
 */
export function spreadApart(positions: number[], gap: number): number[] {
  const order = positions.map((_, i) => i).filter((i) => !Number.isNaN(positions[i])).sort((a, b) => positions[b] - positions[a]);
  const out = [...positions];
  for (let k = 1; k < order.length; k += 1) {
    const below = out[order[k - 1]];
    if (below - out[order[k]] < gap) out[order[k]] = below - gap;
  }
  return out;
}

export function lineChart(o: LineChartOptions): string {
  const all = o.series.flatMap((s) => s.points);
  // A reference line is always on the chart: where the data stays away from it, the axis reaches it.
  const refsOn = (axis: RefLine['axis']) => (o.refs ?? []).filter((ref) => ref.axis === axis).map((ref) => ref.at);
  const xs = o.x ?? extent([...all.map((p) => p[0]), ...refsOn('x')], [0, 1]);
  const ys = o.y ?? extent([...all.map((p) => p[1]), ...refsOn('y')], [0, 1]);
  const f0 = frame(o.width, o.height, 0);
  const lg = legend(o.series, f0.left, f0.right);
  const f = frame(o.width, o.height, lg.height);
  const sx = scale(xs, f.left, f.right);
  const sy = scale(ys, f.bottom, f.top);
  const lines = o.series.map((s) => {
    const pts = s.points.filter((p) => Number.isFinite(p[0]) && Number.isFinite(p[1]));
    if (pts.length === 0) return '';
    const d = pts.map((p, i) => `${i === 0 ? 'M' : 'L'}${r(sx(p[0]))} ${r(sy(p[1]))}`).join('');
    const dash = s.dashed === true ? ' stroke-dasharray="6 4"' : '';
    return `<path class="series" d="${d}" fill="none" stroke="${s.color}" stroke-width="2.25" stroke-linejoin="round"${dash}>` +
      `<title>${escapeHtml(s.label)}</title></path>`;
  }).join('');
  const markers = (o.markers ?? []).filter((m) => m.at.every(Number.isFinite)).map((m) =>
    `<circle cx="${r(sx(m.at[0]))}" cy="${r(sy(m.at[1]))}" r="4.5" fill="${m.color}" stroke="#fff" stroke-width="1.5"/>` +
    `<text class="ref" x="${r(sx(m.at[0]) + 8)}" y="${r(sy(m.at[1]) + 4)}" fill="${m.color}">${escapeHtml(m.label)}</text>`).join('');
  const empty = all.length === 0
    ? `<text class="empty" x="${r((f.left + f.right) / 2)}" y="${r((f.top + f.bottom) / 2)}" text-anchor="middle">no data</text>` : '';
  return `${svgOpen(o.chart, o.title, o.width, o.height)}${yAxis(f, ys, sy, o.yFormat ?? defaultFormat, o.yLabel)}` +
    `${xAxis(f, xs, sx, o.xFormat ?? defaultFormat, o.xLabel)}${refLines(f, o.refs ?? [], sx, sy)}${lines}${markers}${empty}${lg.svg}</svg>`;
}

export interface Bar {
  label: string;
  value: number;
  color: string;
  /** Shown above the bar. */
  text: string;
  tooltip: string;
}

export interface BarChartOptions {
  chart: string;
  title: string;
  width: number;
  height: number;
  bars: Bar[];
  /** Extra points per bar (e.g. every candidate of a generation), drawn as dots over the bar. */
  dots?: Array<{ bar: number; value: number; color: string; tooltip: string; ring?: boolean }>;
  /** A step line across the bars (e.g. best so far). */
  line?: { label: string; color: string; values: number[] };
  /** Horizontal reference lines, labelled right of the plot. */
  refs?: RefLine[];
  legend?: LegendEntry[];
  xLabel: string;
  yLabel: string;
  y: Domain;
  yFormat?: (v: number) => string;
}

export function barChart(o: BarChartOptions): string {
  const n = Math.max(1, o.bars.length);
  const rightRoom = (o.refs ?? []).length > 0 ? 24 + Math.max(...(o.refs ?? []).map((x) => x.label.length)) * CHAR_WIDTH : 18;
  const lg = legend(o.legend ?? [], 58, o.width - 18);
  const f = frame(o.width, o.height, lg.height, rightRoom);
  const sy = scale(o.y, f.bottom, f.top);
  const slot = (f.right - f.left) / n;
  const cx = (i: number): number => f.left + slot * (i + 0.5);
  const hasDots = (o.dots ?? []).length > 0;
  const barW = Math.min(hasDots ? 64 : 90, slot * (hasDots ? 0.4 : 0.56));
  /** With dots, the bar sits left of centre and the dots in a strip to its right. */
  const bx = (i: number): number => cx(i) - (hasDots ? barW * 0.45 : 0);
  const dx = (i: number): number => cx(i) + barW * 0.75;
  const val = (v: number): number => sy(Number.isFinite(v) ? v : 0);
  const bars = o.bars.map((b, i) => {
    const y = Math.min(val(b.value), f.bottom - 1);
    return `<rect class="bar" x="${r(bx(i) - barW / 2)}" y="${r(y)}" width="${r(barW)}" height="${r(f.bottom - y)}" ` +
      `rx="3" fill="${b.color}"><title>${escapeHtml(b.tooltip)}</title></rect>` +
      `<text class="bar-value" x="${r(bx(i))}" y="${r(y - 7)}" text-anchor="middle">${escapeHtml(b.text)}</text>` +
      `<text class="tick" x="${r(cx(i))}" y="${f.bottom + 16}" text-anchor="middle">${escapeHtml(b.label)}</text>`;
  }).join('');
  const dots = (o.dots ?? []).map((d, k) => {
    const jitter = (((k * 0.618034) % 1) - 0.5) * barW * 0.5;
    const ring = d.ring === true ? ` r="6" fill="#fff" stroke="${d.color}" stroke-width="3"` : ` r="3.5" fill="${d.color}" fill-opacity="0.6" stroke="#fff" stroke-width="0.8"`;
    return `<circle class="dot" cx="${r(dx(d.bar) + (d.ring === true ? 0 : jitter))}" cy="${r(val(d.value))}"${ring}><title>${escapeHtml(d.tooltip)}</title></circle>`;
  }).join('');
  let line = '';
  if (o.line !== undefined && o.line.values.length > 0) {
    const ys = o.line.values.map((v) => r(val(v)));
    const d = `M${r(f.left + 4)} ${ys[0]}` + ys.map((y, i) => `${i === 0 ? '' : `V${y}`}H${r(i === ys.length - 1 ? f.right - 4 : f.left + slot * (i + 1))}`).join('');
    line = `<path class="series" d="${d}" fill="none" stroke="${o.line.color}" stroke-width="2.5"><title>${escapeHtml(o.line.label)}</title></path>`;
  }
  const empty = o.bars.length === 0
    ? `<text class="empty" x="${r((f.left + f.right) / 2)}" y="${r((f.top + f.bottom) / 2)}" text-anchor="middle">no data</text>` : '';
  return `${svgOpen(o.chart, o.title, o.width, o.height)}${yAxis(f, o.y, sy, o.yFormat ?? defaultFormat, o.yLabel)}` +
    `<text class="axis-label" x="${r((f.left + f.right) / 2)}" y="${f.height - 6}" text-anchor="middle">${escapeHtml(o.xLabel)}</text>` +
    `${refLines(f, o.refs ?? [], (v) => v, sy)}${bars}${line}${dots}${empty}${lg.svg}</svg>`;
}

/** A tiny trend line with its last point marked; flat when the values do not move. */
export function sparkline(values: number[], color: string, width = 132, height = 30): string {
  const v = values.filter(Number.isFinite);
  const open = `<svg class="spark" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" aria-hidden="true" xmlns="http://www.w3.org/2000/svg">`;
  if (v.length === 0) return `${open}<line x1="2" x2="${width - 2}" y1="${height / 2}" y2="${height / 2}" stroke="#c8ccd4" stroke-dasharray="3 3"/></svg>`;
  const [lo, hi] = extent(v, [0, 1]);
  const x = (i: number): number => 3 + (v.length === 1 ? 0.5 : i / (v.length - 1)) * (width - 6);
  const y = (u: number): number => height - 4 - ((u - lo) / (hi - lo)) * (height - 8);
  const zero = lo < 0 && hi > 0 ? `<line x1="2" x2="${width - 2}" y1="${r(y(0))}" y2="${r(y(0))}" stroke="#d5d9e0"/>` : '';
  const d = v.map((u, i) => `${i === 0 ? 'M' : 'L'}${r(x(i))} ${r(y(u))}`).join('');
  return `${open}${zero}<path d="${d}" fill="none" stroke="${color}" stroke-width="1.8" stroke-linejoin="round"/>` +
    `<circle cx="${r(x(v.length - 1))}" cy="${r(y(v[v.length - 1]))}" r="2.6" fill="${color}"/></svg>`;
}
