/**
 * Two of the card's sections that tell what happened inside the search: how the winner's episodes
 * ended (the reflection's own account, episodes-text.ts: length, endings and the environment's
 * return at the 10 checkpoints, seed by seed where the seeds disagree), and what the proposer
 * wrote before its candidates in each generation (its analysis).
 */
import { escapeHtml as h, mdText } from '../../../core/escape.ts';
import { episodesLines } from '../episodes-text.ts';
import { cardTask, type CardData } from './card-data.ts';

/** The reflection's lines on the winner's episodes; none when its results hold no such statistics (an older search). */
function endingLines(data: CardData): string[] {
  return episodesLines(cardTask(data).success.clause, data.winner.episodes ?? []);
}

const seedsOf = (data: CardData) => (data.interim ? 'the search\'s seeds' : 'the fresh seeds');

export function endingsSection(data: CardData): string {
  const lines = endingLines(data);
  if (lines.length === 0) return '';
  const [lede, ...rest] = lines;
  return `<section data-section="endings"><h2>How the ${data.interim ? 'best so far\'s' : 'winner\'s'} episodes ended</h2>` +
    `<p class="lede">On ${seedsOf(data)}. ${h(lede)}</p><pre class="endings">${rest.map(h).join('\n')}</pre></section>`;
}

export function endingsMarkdown(data: CardData): string[] {
  const lines = endingLines(data);
  if (lines.length === 0) return [];
  const [lede, ...rest] = lines;
  return [`## How the ${data.interim ? 'best so far\'s' : 'winner\'s'} episodes ended`, '', `On ${seedsOf(data)}. ${mdText(lede)}`, '', '```', ...rest, '```', ''];
}

/** Generations whose proposer wrote an analysis (the offline proposer writes one too). */
function written(data: CardData): NonNullable<CardData['analyses']> {
  return (data.analyses ?? []).filter((a) => a.proposal !== '' || (a.repair ?? '') !== '');
}

export function analysisSection(data: CardData): string {
  const analyses = written(data);
  if (analyses.length === 0) return '';
  const items = analyses.map((a) => `<h3>Generation ${a.generation}</h3><p>${h(a.proposal || '(none written)')}</p>` +
    (a.repair ? `<p><strong>Its repair:</strong> ${h(a.repair)}</p>` : '')).join('');
  return `<section data-section="analysis"><h2>What the proposer said</h2><p class="lede">Written before its candidates in each ` +
    'generation: its reading of the feedback, what it changed and why.</p>' + `${items}</section>`;
}

export function analysisMarkdown(data: CardData): string[] {
  const analyses = written(data);
  if (analyses.length === 0) return [];
  return ['## What the proposer said', '', 'Written before its candidates in each generation: its reading of the feedback, what it changed and why.', '',
    ...analyses.flatMap((a) => [`### Generation ${a.generation}`, '', mdText(a.proposal || '(none written)'), '', ...(a.repair ? [`Its repair: ${mdText(a.repair)}`, ''] : [])])];
}
