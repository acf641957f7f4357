/**
 * The card's race: for each generation that raced its candidates (successive halving), each
 * candidate's score at every rung it reached, drawn as a line from rung to rung that ends in a dot
 * (it trained to the budget) or a cross (the race stopped it there), with what the race saved.
 */
import { escapeHtml as h } from '../../../core/escape.ts';
import { r, spreadApart, svgOpen } from '../../../core/svg.ts';
import type { RaceRecord } from '../store/records.ts';
import { formatValue } from '../words/reflection-format.ts';
import { computeSentence, estimateSentence, int, pct, WINNER_COLOR, type CardData } from './card-data.ts';

const WIDTH = 470;
const HEIGHT = 300;
const PLOT = { left: 52, right: WIDTH - 150, top: 20, bottom: HEIGHT - 46 };

/** What the race did at each rung, in the words of race.ts and race-standings.ts. */
const RACE_RULE = 'In each generation every candidate that passed its check trained to the first rung; the best third went on ' +
  'from their checkpoints, and so did every one not clearly behind them (fewer successes beyond chance, or, successes equal, ' +
  'less progress beyond its seeds\' spread); the others stopped there with that rung\'s score (a cross).';

/** Whether some generation raced (more than one rung): a search that did not race has no rule to tell. */
const raced = (races: RaceRecord[]): boolean => races.some((race) => race.schedule.length > 1);

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
    `${raced(races) ? `${RACE_RULE} The best of each generation always trains to the full budget (a dot).` : ''}</p>` +
    `${charts === '' ? '' : `<div class="grid2">${charts}</div>`}</section>`;
}

/** One generation's race: x is the rung (steps per seed-run), y the success there. */
function raceChart(data: CardData, race: RaceRecord): string {
  const names = new Map(data.candidates.filter((c) => c.generation === race.generation).map((c) => [c.candidateId, c.name]));
  const isWinner = (id: string) => race.generation === data.winner.generation && id === data.winner.candidateId;
  const x = (rung: number) => PLOT.left + ((rung - 1) / Math.max(1, race.schedule.length - 1)) * (PLOT.right - PLOT.left);
  const y = (success: number) => PLOT.bottom - success * (PLOT.bottom - PLOT.top);
  const ids = [...new Set(race.rungs.flatMap((rung) => rung.standings.map((s) => s.candidateId)))];
  const paths = ids.map((id) => {
    const points = race.rungs.flatMap((rung) => rung.standings.filter((s) => s.candidateId === id).map((s) => ({ rung: rung.rung, s })));
    const last = points[points.length - 1];
    const finished = last.rung === race.schedule.length;
    const color = isWinner(id) ? WINNER_COLOR : finished ? '#1b1f29' : '#9aa3b2';
    const d = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${r(x(p.rung))} ${r(y(p.s.success))}`).join('');
    const end = finished
      ? `<circle cx="${r(x(last.rung))}" cy="${r(y(last.s.success))}" r="4.5" fill="${color}"/>`
      : `<path d="M${r(x(last.rung) - 4)} ${r(y(last.s.success) - 4)}l8 8m0 -8l-8 8" stroke="${color}" stroke-width="2"/>`;
    return { id, color, finished, at: y(last.s.success), svg: `<g data-candidate="${h(id)}"><path d="${d}" fill="none" stroke="${color}" stroke-width="2"/>${end}` +
      `<title>${h(names.get(id) ?? id)}: ${points.map((p) => rungScore(p.s)).join(' → ')}${finished ? '' : ' (stopped)'}</title></g>` };
  });
  // The finishers are named at the right edge, spread apart so two equal scores stay readable.
  const named = paths.filter((p) => p.finished);
  const labelY = spreadApart(named.map((p) => p.at), 13);
  const labels = named.map((p, i) => `<text class="ref" x="${PLOT.right + 8}" y="${r(labelY[i] + 4)}" fill="${p.color}">${h(names.get(p.id) ?? p.id)}</text>`).join('');
  const grid = [0, 0.25, 0.5, 0.75, 1].map((v) => `<line class="grid" x1="${PLOT.left}" x2="${PLOT.right}" y1="${r(y(v))}" y2="${r(y(v))}"/>` +
    `<text class="tick" x="${PLOT.left - 6}" y="${r(y(v) + 4)}" text-anchor="end">${Math.round(v * 100)}%</text>`).join('');
  const budget = race.schedule[race.schedule.length - 1];
  const rungs = race.schedule.map((steps, i) => `<text class="tick" x="${r(x(i + 1))}" y="${PLOT.bottom + 16}" text-anchor="middle">` +
    `${i === race.schedule.length - 1 ? 'budget' : `${pct(steps / budget)}`}</text>`).join('');
  return `${svgOpen(`race-${race.generation}`, `The race of generation ${race.generation}`, WIDTH, HEIGHT)}${grid}${rungs}` +
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
    ...(raced(races) ? [RACE_RULE, ''] : [])];
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
