/**
 * The card's race: for each generation that raced its candidates (successive halving), each
 * candidate's score at every rung it reached, drawn as a line from rung to rung that ends in a dot
 * (it trained to the budget) or a cross (the race stopped it there), with what the race saved.
 */
import { escapeHtml as h } from '../../../core/escape.ts';
import { CHAR_WIDTH, r, spreadApart, svgOpen, ticks } from '../../../core/svg.ts';
import type { RaceRecord } from '../store/records.ts';
import { formatValue } from '../words/reflection-format.ts';
import { cardTask, computeSentence, estimateSentence, int, pct, WINNER_COLOR, type CardData } from './card-data.ts';

const WIDTH = 470;
const HEIGHT = 300;
const PLOT = { left: 52, right: WIDTH - 150, top: 20, bottom: HEIGHT - 46 };
/** The width the finishers' names have between the plot and the chart's right edge. */
const LABEL_ROOM = WIDTH - PLOT.right - 12;

/** What the race did at each rung, in the words of race.ts and race-standings.ts. */
const RACE_RULE = 'In each generation every candidate that passed its check trained to the first rung; the best third went on ' +
  'from their checkpoints, and so did every one not clearly behind them (fewer successes beyond chance, or, successes equal, ' +
  'less progress beyond its seeds\' spread); the others stopped there with that rung\'s score (a cross).';

/** "0%, progress 1.12": a rung's success, and the task's progress where it was kept (the rank's second key). */
function rungScore(s: { success: number; progress?: number | null }): string {
  return s.progress === undefined || s.progress === null ? pct(s.success) : `${pct(s.success)}, progress ${formatValue(s.progress)}`;
}

export function raceSection(data: CardData): string {
  const races = data.races ?? [];
  const saved = computeSentence(data);
  if (races.length === 0 && saved === null) return '';
  const charts = races.map((race) => `<figure>${raceChart(data, race)}</figure>`).join('');
  const estimate = estimateSentence(data);
  return `<section data-section="race"><h2>The race</h2><p class="lede">The search ${h(saved ?? 'raced its candidates')}. ` +
    (estimate === null ? '' : `<span data-estimate>${h(estimate)}</span> `) +
    // The card's races are the generations that raced (assembleCard leaves out one-rung records): none, no rule to tell.
    `${races.length > 0 ? `${RACE_RULE} The best of each generation always trains to the full budget (a dot).` : ''}</p>` +
    `${charts === '' ? '' : `<div class="grid2">${charts}</div>`}</section>`;
}

type Standing = RaceRecord['rungs'][number]['standings'][number];

/** What a race's chart draws up the page, with its ticks and, for progress, a caption naming it. */
interface RaceAxis { value(s: Standing): number; lo: number; hi: number; ticks: number[]; tick(v: number): string; caption: string }

/**
 * Success, unless nothing in the race succeeded at any rung and the task measures progress: then
 * progress decided every cut, and a chart of success would be a flat line at 0% (a behaviour's first
 * generations).
 */
function raceAxis(data: CardData, race: RaceRecord): RaceAxis {
  const standings = race.rungs.flatMap((rung) => rung.standings);
  const progress = standings.map((s) => s.progress).filter((p): p is number => typeof p === 'number' && Number.isFinite(p));
  if (standings.some((s) => s.success > 0) || progress.length === 0) {
    return { value: (s) => s.success, lo: 0, hi: 1, ticks: [0, 0.25, 0.5, 0.75, 1], tick: (v) => `${Math.round(v * 100)}%`, caption: '' };
  }
  const lo = Math.min(0, ...progress);
  const top = Math.max(...progress);
  const marks = ticks([lo, top > lo ? top : lo + 1]);
  const step = marks.length > 1 ? marks[1] - marks[0] : 1;
  // Ticks at or beyond the least and the most progress, so every line stays inside the frame.
  if (marks[0] > lo) marks.unshift(Number((marks[0] - step).toPrecision(12)));
  if (marks[marks.length - 1] < top) marks.push(Number((marks[marks.length - 1] + step).toPrecision(12)));
  return {
    value: (s) => s.progress ?? lo, lo: marks[0], hi: marks[marks.length - 1], ticks: marks, tick: formatValue,
    caption: `progress: ${cardTask(data).progress.label} (nothing succeeded in this race)`,
  };
}

/** One generation's race: x is the rung (steps per seed-run), y the success there (or progress, see raceAxis). */
function raceChart(data: CardData, race: RaceRecord): string {
  const names = new Map(data.candidates.filter((c) => c.generation === race.generation).map((c) => [c.candidateId, c.name]));
  const isWinner = (id: string) => race.generation === data.winner.generation && id === data.winner.candidateId;
  const axis = raceAxis(data, race);
  const x = (rung: number) => PLOT.left + ((rung - 1) / Math.max(1, race.schedule.length - 1)) * (PLOT.right - PLOT.left);
  const y = (v: number) => PLOT.bottom - ((v - axis.lo) / (axis.hi - axis.lo)) * (PLOT.bottom - PLOT.top);
  const ids = [...new Set(race.rungs.flatMap((rung) => rung.standings.map((s) => s.candidateId)))];
  const paths = ids.map((id) => {
    const points = race.rungs.flatMap((rung) => rung.standings.filter((s) => s.candidateId === id).map((s) => ({ rung: rung.rung, s })));
    const last = points[points.length - 1];
    const finished = last.rung === race.schedule.length;
    const color = isWinner(id) ? WINNER_COLOR : finished ? '#1b1f29' : '#9aa3b2';
    const d = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${r(x(p.rung))} ${r(y(axis.value(p.s)))}`).join('');
    const lastY = y(axis.value(last.s));
    const end = finished
      ? `<circle cx="${r(x(last.rung))}" cy="${r(lastY)}" r="4.5" fill="${color}"/>`
      : `<path d="M${r(x(last.rung) - 4)} ${r(lastY - 4)}l8 8m0 -8l-8 8" stroke="${color}" stroke-width="2"/>`;
    return { id, color, finished, at: lastY, svg: `<g data-candidate="${h(id)}"><path d="${d}" fill="none" stroke="${color}" stroke-width="2"/>${end}` +
      `<title>${h(names.get(id) ?? id)}: ${points.map((p) => rungScore(p.s)).join(' → ')}${finished ? '' : ' (stopped)'}</title></g>` };
  });
  // The finishers are named at the right edge, spread apart so two equal scores stay readable.
  const named = paths.filter((p) => p.finished);
  const labelY = spreadApart(named.map((p) => p.at), 13);
  const labels = named.map((p, i) => {
    const name = names.get(p.id) ?? p.id;
    // A name wider than the room at the right edge is drawn narrower, whole, rather than cut off by the frame.
    const fit = name.length * CHAR_WIDTH > LABEL_ROOM ? ` textLength="${LABEL_ROOM}" lengthAdjust="spacingAndGlyphs"` : '';
    return `<text class="ref" x="${PLOT.right + 8}" y="${r(labelY[i] + 4)}" fill="${p.color}"${fit}>${h(name)}</text>`;
  }).join('');
  const grid = axis.ticks.map((v) => `<line class="grid" x1="${PLOT.left}" x2="${PLOT.right}" y1="${r(y(v))}" y2="${r(y(v))}"/>` +
    `<text class="tick" x="${PLOT.left - 6}" y="${r(y(v) + 4)}" text-anchor="end">${h(axis.tick(v))}</text>`).join('');
  const caption = axis.caption === '' ? '' : `<text class="axis-label" data-axis="progress" x="${PLOT.left}" y="${PLOT.top - 8}">${h(axis.caption)}</text>`;
  const budget = race.schedule[race.schedule.length - 1];
  const rungs = race.schedule.map((steps, i) => `<text class="tick" x="${r(x(i + 1))}" y="${PLOT.bottom + 16}" text-anchor="middle">` +
    `${i === race.schedule.length - 1 ? 'budget' : `${pct(steps / budget)}`}</text>`).join('');
  return `${svgOpen(`race-${race.generation}`, `The race of generation ${race.generation}`, WIDTH, HEIGHT)}${grid}${caption}${rungs}` +
    `<text class="axis-label" x="${r((PLOT.left + PLOT.right) / 2)}" y="${HEIGHT - 8}" text-anchor="middle">generation ${race.generation}: ` +
    `rungs of ${int(budget)} steps per seed-run</text>${paths.map((p) => p.svg).join('')}${labels}</svg>`;
}

/** The Markdown twin: one table per raced generation, a column per rung. */
export function raceMarkdown(data: CardData, cell: (text: string) => string): string[] {
  const saved = computeSentence(data);
  const races = data.races ?? [];
  if (races.length === 0 && saved === null) return [];
  const estimate = estimateSentence(data);
  const out = ['## The race', '', `The search ${saved ?? 'raced its candidates'}.${estimate === null ? '' : ` ${estimate}`}`, '',
    ...(races.length > 0 ? [RACE_RULE, ''] : [])];
  for (const race of races) {
    const names = new Map(data.candidates.filter((c) => c.generation === race.generation).map((c) => [c.candidateId, c.name]));
    const budget = race.schedule[race.schedule.length - 1];
    const ids = race.rungs[0]?.standings.map((s) => s.candidateId) ?? [];
    const header = ['Candidate', ...race.schedule.map((s, i) => (i === race.schedule.length - 1 ? 'budget' : `rung ${i + 1} (${pct(s / budget)})`))];
    const rows = ids.map((id) => [cell(names.get(id) ?? id), ...race.schedule.map((_, i) => {
      const s = race.rungs.find((rung) => rung.rung === i + 1)?.standings.find((x) => x.candidateId === id);
      if (!s) return '';
      return `${rungScore(s)}${s.promoted || i === race.schedule.length - 1 ? '' : ' (stopped)'}`;
    })]);
    out.push(`Generation ${race.generation}:`, '', `| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`,
      ...rows.map((row) => `| ${row.join(' | ')} |`), '');
  }
  return out;
}
