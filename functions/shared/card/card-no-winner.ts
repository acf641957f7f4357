/**
 * The card of a search in which no candidate trained (card.html and card.md): why none did, what
 * the baselines scored on the search's seeds, and then what every card has (every candidate with
 * its outcome and reason, the budget and people, the proposer and the configuration).
 */
import { escapeHtml as h, mdCode, mdText } from '../../../core/escape.ts';
import { ran } from '../results/aggregate.ts';
import { cardTask, pct, rewardLabel, timestamp, type NoWinnerCardData } from './card-data.ts';
import { candidatesSection, CSP, loopSection, runSection, seedChips } from './card-html.ts';
import { runMarkdown, storyMarkdown } from './card-md.ts';
import { analysisMarkdown, analysisSection } from './card-story.ts';
import { CARD_CSS } from './card-style.ts';

/** "No candidate trained: 1 was skipped by the screen (screen: "skip")". */
function title(data: NoWinnerCardData): string {
  return `N${data.nothingTrained.slice(1)}`;
}

/** What the baselines scored, the line the search had to beat; a baseline none of whose seed-runs trained says how they ended. */
function baselinesLede(data: NoWinnerCardData): string {
  if (data.baselines.length === 0) return 'The baselines did not train either.';
  const scores = data.baselines.map((b) => {
    const faults = faultsOf(data.candidates.find((c) => c.generation === 0 && c.candidateId === b.candidateId)?.seeds ?? []);
    return faults === null ? `${rewardLabel(b)} ${pct(b.searchSuccess)}` : `${rewardLabel(b)}: every seed-run ended with ${faults}`;
  }).join(', ');
  return `There is no winner to publish. The baselines, on the search's seeds: ${scores}. Success is the share of greedy evaluation episodes that ` +
    `${cardTask(data).success.clause}.`;
}

/** "timeout" or "timeout or memory" when no seed-run of these trained; null when one did (or there were none). */
function faultsOf(seeds: NoWinnerCardData['candidates'][number]['seeds']): string | null {
  if (seeds.length === 0 || seeds.some(ran)) return null;
  return [...new Set(seeds.map((s) => s.outcome))].join(' or ');
}

export function renderNoWinnerHtml(data: NoWinnerCardData): string {
  const rows = data.baselines.map((b) => `<tr><td><span class="mono">${h(b.name)}</span></td><td>${h(rewardLabel(b))}</td>` +
    `<td class="num strong">${pct(b.searchSuccess)}</td><td class="seeds">${seedChips(data.candidates.find((c) => c.generation === 0 && c.candidateId === b.candidateId)?.seeds ?? [])}</td></tr>`).join('');
  const baselines = `<section><h2>The baselines</h2><table data-table="baselines"><thead><tr><th>Reward</th><th>Whose</th>` +
    `<th class="num">Search score</th><th>Per seed</th></tr></thead><tbody>${rows}</tbody></table></section>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CSP}">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${h(title(data))}</title><style>${CARD_CSS}</style></head><body><main>` +
    `<header><p class="eyebrow">Eureka reward search · ${h(data.task)} · search <span class="mono">${h(data.searchId)}</span></p>` +
    `<h1>${h(title(data))}</h1><p class="versus" data-nothing-trained>${h(baselinesLede(data))}</p></header>` +
    `${baselines}${loopSection(data)}${candidatesSection(data)}${analysisSection(data)}${runSection(data)}` +
    `<footer>eureka-serverless · search <span class="mono">${h(data.searchId)}</span> · ${h(timestamp(data.finishedAt))}</footer></main></body></html>\n`;
}

export function renderNoWinnerMarkdown(data: NoWinnerCardData): string {
  const out = [`# ${mdText(title(data))}`, '', mdText(baselinesLede(data)), '', `Eureka reward search on ${mdText(data.task)}, search ${mdCode(data.searchId)}.`, ''];
  if (data.baselines.length > 0) {
    out.push('## The baselines', '', ...data.baselines.map((b) => `- ${mdText(rewardLabel(b))} (${mdCode(b.name)}): ${pct(b.searchSuccess)} on the search's seeds`), '');
  }
  out.push(...storyMarkdown(data), ...analysisMarkdown(data), ...runMarkdown(data));
  return out.join('\n');
}
