/**
 * Two of the card's sections that tell what happened inside the search: how the winner's episodes
 * ended (card-endings.ts: the training episodes in the first and last tenth of training and over
 * it, seed by seed where the seeds disagree, and the evaluation episodes), and what the proposer
 * wrote before its candidates in each generation (its analysis).
 */
import { escapeHtml as h, mdText } from '../../../core/escape.ts';
import { sparkline } from '../../../core/svg.ts';
import { WINNER_COLOR, type CardData } from './card-data.ts';
import { endingsOf, type Endings } from './card-endings.ts';
import { blocks } from './card-blocks.ts';

const seedsOf = (data: CardData) => (data.interim ? 'the search\'s seeds' : 'the fresh seeds');
const whose = (data: CardData) => (data.interim ? 'best so far\'s' : 'winner\'s');

function lede(data: CardData, endings: Endings): string {
  return `Training episodes on ${seedsOf(data)}, ${endings.over}. Succeeded: ${endings.successMeans}; ended otherwise: the environment ended ` +
    'them another way; ran out of time: the time limit cut them.';
}

const EVALUATION = 'Evaluation episodes (the greedy policy, from start states never used in training):';

export function endingsSection(data: CardData): string {
  const endings = endingsOf(data);
  if (endings === null) return '';
  const rows = endings.rows.map((r) => `<tr><td>${h(r.label)}</td><td class="num">${h(r.first)}</td><td class="num">${h(r.last)}</td>` +
    `<td>${sparkline(r.series.filter((x): x is number => x !== null), WINNER_COLOR)}</td></tr>`).join('');
  return `<section data-section="endings"><h2>How the ${whose(data)} episodes ended</h2><p class="lede">${h(lede(data, endings))}</p>` +
    '<table data-table="endings"><thead><tr><th>Training episodes</th><th class="num">In the first tenth of training</th>' +
    `<th class="num">In the last tenth</th><th>Over training</th></tr></thead><tbody>${rows}</tbody></table>` +
    `<p>${h(EVALUATION)}</p><ul>${endings.evaluation.map((e) => `<li>seed ${e.seed}: ${h(e.text)}</li>`).join('')}</ul></section>`;
}

export function endingsMarkdown(data: CardData): string[] {
  const endings = endingsOf(data);
  if (endings === null) return [];
  return [`## How the ${whose(data)} episodes ended`, '', mdText(lede(data, endings)), '',
    '| Training episodes | In the first tenth of training | In the last tenth | Over training |', '|---|---:|---:|---|',
    ...endings.rows.map((r) => `| ${mdText(r.label)} | ${mdText(r.first)} | ${mdText(r.last)} | ${blocks(r.series.filter((x): x is number => x !== null)) || '—'} |`),
    '', EVALUATION, '', ...endings.evaluation.map((e) => `- seed ${e.seed}: ${mdText(e.text)}`), ''];
}

/** Generations whose proposer wrote an analysis (the offline proposer writes one too). */
function written(data: Pick<CardData, 'analyses'>): NonNullable<CardData['analyses']> {
  return (data.analyses ?? []).filter((a) => a.proposal !== '' || (a.repair ?? '') !== '');
}

export function analysisSection(data: Pick<CardData, 'analyses'>): string {
  const analyses = written(data);
  if (analyses.length === 0) return '';
  const items = analyses.map((a) => `<h3>Generation ${a.generation}</h3><p>${h(a.proposal || '(none written)')}</p>` +
    (a.repair ? `<p><strong>Its repair:</strong> ${h(a.repair)}</p>` : '')).join('');
  return `<section data-section="analysis"><h2>What the proposer said</h2><p class="lede">Written before its candidates in each ` +
    'generation: its reading of the feedback, what it changed and why.</p>' + `${items}</section>`;
}

export function analysisMarkdown(data: Pick<CardData, 'analyses'>): string[] {
  const analyses = written(data);
  if (analyses.length === 0) return [];
  return ['## What the proposer said', '', 'Written before its candidates in each generation: its reading of the feedback, what it changed and why.', '',
    ...analyses.flatMap((a) => [`### Generation ${a.generation}`, '', mdText(a.proposal || '(none written)'), '', ...(a.repair ? [`Its repair: ${mdText(a.repair)}`, ''] : [])])];
}
