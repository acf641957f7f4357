/**
 * card.html: the winner's card, one self-contained page (inline CSS and SVG, no script, no external
 * resource; a Content-Security-Policy that forbids both anyway). Reads top-down as a person asks:
 * who won and by how much, how honest that number is, how the search got there, how the winner
 * learns and drives, what it is, and every candidate the search tried.
 */
import { ENVIRONMENT_REWARD_ID, HUMAN_SHAPING_ID } from '../search/baselines.ts';
import {
  cardTask, duration, int, learnedSoonerSentence, outputTokens, timestamp, num, pct, rewardColor, rewardLabel, shownSeeds, rankColumn, headlineRankCell, headlineRankTitle, proposedCount, usd,
  WINNER_COLOR,
  type AnyCardData, type CardCandidate, type CardData, type CardReward, type CardSeed,
} from './card-data.ts';
import { headline, versusWords } from './card-headline.ts';
import type { EpisodeRecord } from '../../../tasks/contract.ts';
import { compareRecords } from '../results/aggregate.ts';
import { escapeHtml as h } from '../../../core/escape.ts';
import { barChart, lineChart, sparkline, type Series } from '../../../core/svg.ts';
import { CARD_CSS } from './card-style.ts';
import { raceSection } from './card-race.ts';
import { analysisSection, endingsSection } from './card-story.ts';

const FAILED_COLOR = '#b42318';
const STOPPED_COLOR = '#9aa3b2';

export const CSP = 'default-src \'none\'; style-src \'unsafe-inline\'; img-src data:';

const kSteps = (v: number): string => (Math.abs(v) >= 1000 ? `${Number((v / 1000).toPrecision(3))}k` : String(v));
const pctAxis = (v: number): string => `${Math.round(v * 100)}%`;

function rewards(data: AnyCardData): CardReward[] {
  return data.winner === null ? data.baselines : [data.winner, ...data.baselines];
}

function color(data: CardData, reward: CardReward): string {
  return rewardColor(reward, data.baselines.indexOf(reward), data.winner);
}

function author(reward: CardReward): string {
  if (reward.candidateId === HUMAN_SHAPING_ID) return 'a person';
  if (reward.candidateId === ENVIRONMENT_REWARD_ID) return 'the environment';
  return `the search, generation ${reward.generation}`;
}

/** A coloured chip per seed: its success, or its outcome when it did not train. */
export function seedChips(seeds: CardSeed[]): string {
  if (seeds.length === 0) return '<span class="muted">—</span>';
  const first = seeds[0];
  if (seeds.length > 1 && first.outcome !== 'trained' && seeds.every((s) => s.outcome === first.outcome && s.reason === first.reason)) {
    return `<span class="seed failed wide" title="${h(`seeds ${seeds.map((s) => s.seed).join(', ')}: ${first.outcome} — ${first.reason}`)}">` +
      `all ${seeds.length} seeds: ${h(first.outcome)}</span>`;
  }
  return seeds.map((s) => {
    const ok = s.outcome === 'trained';
    const tip = `seed ${s.seed}: ${pct(s.success)} ${s.outcome}${s.reason === '' ? '' : ` — ${s.reason}`}`;
    const light = Number.isFinite(s.success) ? Math.round(96 - 34 * Math.min(1, Math.max(0, s.success))) : 96;
    const style = ok ? ` style="background:hsl(145 55% ${light}%)"` : '';
    return `<span class="seed${ok ? '' : ' failed'}"${style} title="${h(tip)}">${ok ? pct(s.success) : h(s.outcome)}</span>`;
  }).join('');
}

function header(data: CardData): string {
  const head = headline(data);
  const task = cardTask(data);
  const basisText = head.basis === 'fresh' ? 'fresh seeds' : 'the search\'s seeds';
  const tiles = rewards(data).map((r) => {
    const score = head.basis === 'fresh' ? r.freshSuccess : r.searchSuccess;
    const s = Number.isFinite(score) ? Math.max(0, Math.min(1, score ?? 0)) : 0;
    const who = r === data.winner ? 'Winner' : rewardLabel(r).replace(/^the /, 'The ');
    return `<div class="tile" style="--c:${color(data, r)}"><div class="tile-who">${h(who)}</div>` +
      `<div class="tile-name mono">${h(r.name)}</div><div class="tile-score">${pct(score)}</div>` +
      `<div class="meter"><span style="width:${(s * 100).toFixed(1)}%"></span></div>` +
      `<div class="tile-sub">search ${pct(r.searchSuccess)} · fresh ${pct(r.freshSuccess)}</div></div>`;
  }).join('');
  const title = h(head.title).replace(h(data.winner.name), `<span class="winner-name mono">${h(data.winner.name)}</span>`);
  const versus = head.versus.map((v, i) => {
    const { amount, relation, then } = versusWords(v, i === 0);
    const tone = amount.startsWith('level') ? '' : v.delta > 0 ? ' up' : ' down';
    return `<span class="delta${tone}">${h(amount)}</span> ${h(relation)} (${pct(v.score)})${then === '' ? '' : ` ${h(then)}`}`;
  }).join(', ');
  return `<header><p class="eyebrow">Eureka reward search · ${h(task.id)} · search <span class="mono">${h(data.searchId)}</span></p>` +
    `<h1>${title}</h1><p class="versus">${versus}${versus === '' ? '' : '.'} Measured on ${basisText}: success is the share of greedy ` +
    `evaluation episodes that ${h(task.success.clause)}.</p><div class="tiles">${tiles}</div>` +
    `<p class="found">Found in generation ${data.winner.generation} of ${data.bestByGeneration.length} among ` +
    `${proposedCount(data)} candidates written by ${h(data.proposer.kind)}` +
    `${data.proposer.model === '' ? '' : ` (<span class="mono">${h(data.proposer.model)}</span>)`}, each trained on ` +
    `${int(data.config.seeds)} seed${data.config.seeds === 1 ? '' : 's'} × ${int(data.config.steps)} steps.</p></header>`;
}

function headlineTable(data: CardData): string {
  const picked = proposedCount(data);
  const column = rankColumn(cardTask(data));
  const rows = rewards(data).map((r) => {
    const value = h(headlineRankCell(column, r));
    return `<tr${r === data.winner ? ' class="winner-row"' : ''}><td><span class="swatch" style="background:${color(data, r)}"></span>` +
      `<span class="mono">${h(r.name)}</span></td>` +
      `<td>${author(r)}</td><td class="num">${pct(r.searchSuccess)}</td><td class="num strong">${pct(r.freshSuccess)}</td>` +
      `<td class="num">${value}</td><td class="seeds">${seedChips(r.freshSeeds)}</td></tr>`;
  }).join('');
  return `<section><h2>Search score and fresh score</h2>` +
    `<p class="lede">The search score is biased upward: the winner was picked as the best of ${picked} candidates on exactly those seeds. ` +
    `The fresh score re-trains each reward from scratch on seeds the search never saw; it is the honest one.</p>` +
    `<table data-table="headline"><thead><tr><th>Reward</th><th>Written by</th><th class="num">Search score</th>` +
    `<th class="num">Fresh score</th><th class="num">${h(headlineRankTitle(column))}</th><th>Fresh seeds</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

function searchSection(data: CardData): string {
  const gens = data.bestByGeneration;
  const index = new Map(gens.map((g, i) => [g.generation, i]));
  const w = data.winner;
  const isWinner = (c: CardCandidate): boolean => c.candidateId === w.candidateId && c.generation === w.generation;
  // A candidate the race stopped is no failure: its score is the rung's, grey as in the race's chart.
  const dotColor = (c: CardCandidate) => (isWinner(c) ? WINNER_COLOR : c.outcome === 'stopped' ? STOPPED_COLOR : c.outcome !== 'trained' ? FAILED_COLOR : '#1b1f29');
  const dots = data.candidates.filter((c) => index.has(c.generation)).map((c) => ({
    bar: index.get(c.generation) ?? 0, value: c.success, ring: isWinner(c), color: dotColor(c),
    tooltip: `${c.name}: ${pct(c.success)} (${c.outcome === 'stopped' ? 'stopped by the race' : c.outcome})`,
  }));
  const anyStopped = data.candidates.some((c) => c.outcome === 'stopped');
  const chart = barChart({
    chart: 'best-by-generation', title: 'Best success by generation', width: 940, height: 310, y: [0, 1], yFormat: pctAxis,
    xLabel: '', yLabel: 'success on the search\'s seeds',
    bars: gens.map((g) => ({
      label: `generation ${g.generation}`, value: g.success, text: pct(g.success), tooltip: `${g.name}: ${pct(g.success)}`,
      color: g.generation === w.generation ? WINNER_COLOR : '#b7c6ee',
    })),
    dots,
    line: { label: 'best so far', color: '#1b1f29', values: gens.map((g) => g.bestSoFar) },
    refs: data.baselines.map((b) => ({ axis: 'y' as const, at: b.searchSuccess, label: `${shortLabel(b)} ${pct(b.searchSuccess)}`, color: color(data, b) })),
    legend: [
      { label: 'best of the generation', color: '#b7c6ee', shape: 'bar' }, { label: 'best so far', color: '#1b1f29' },
      { label: 'a candidate', color: '#1b1f29', shape: 'dot' }, { label: 'a failed candidate', color: FAILED_COLOR, shape: 'dot' },
      ...(anyStopped ? [{ label: 'a candidate the race stopped early', color: STOPPED_COLOR, shape: 'dot' as const }] : []),
      ...data.baselines.map((b) => ({ label: rewardLabel(b), color: color(data, b), dashed: true })),
    ],
  });
  const counts = new Map<string, number>();
  const tried = data.candidates.filter((c) => c.generation > 0);
  for (const c of tried) {
    const kind = c.failedCheck ? 'check' : c.outcome;
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  const outcomes = [...counts].map(([k, n]) => `${n} ${OUTCOME_WORDS[k] ?? k}`).join(', ');
  const first = gens[0];
  const last = gens[gens.length - 1];
  const rise = first === undefined || last === undefined ? '' : ` ${bestSoFarSentence(first, last)}`;
  return `<section><h2>How the search got there</h2><p class="lede">${tried.length} candidates in ${gens.length} ` +
    `generation${gens.length === 1 ? '' : 's'}${outcomes === '' ? '' : ` (${h(outcomes)})`}.${rise} ` +
    `The winner (ringed) comes from generation ${w.generation}.</p><figure>${chart}</figure></section>`;
}

/** How the best so far moved from the first generation to the last, in words that fit what it did. */
function bestSoFarSentence(first: CardData['bestByGeneration'][number], last: CardData['bestByGeneration'][number]): string {
  if (first.generation === last.generation) return `The best so far was ${pct(last.bestSoFar)} after generation ${last.generation}.`;
  if (pct(first.bestSoFar) === pct(last.bestSoFar)) return `The best so far stayed at ${pct(last.bestSoFar)} from generation ${first.generation} to generation ${last.generation}.`;
  return `The best so far went from ${pct(first.bestSoFar)} in generation ${first.generation} to ${pct(last.bestSoFar)} in generation ${last.generation}.`;
}

const OUTCOME_WORDS: Record<string, string> = {
  trained: 'trained', timeout: 'timed out', memory: 'ran out of memory', error: 'failed with an error', check: 'failed their check and never trained',
};

/** What a person said between generations, and why the search stopped early: the loop's human side. */
export function loopSection(data: AnyCardData): string {
  if (data.feedback.length === 0 && data.stopped === null) return '';
  const said = data.feedback.map((f) => `<li><strong>After generation ${f.generation}</strong> (${f.action === 'stop' ? 'stop' : 'go on'})` +
    `${f.text === '' ? '' : `: <q>${h(f.text)}</q>`}</li>`).join('');
  const feedback = said === '' ? '' : `<p class="lede">A person's feedback went into the next prompt, beside the automatic reflection.</p><ul class="feedback">${said}</ul>`;
  const st = data.stopped;
  const stopped = st === null ? '' : `<p class="stopped" data-stopped="${h(st.reason)}"><strong>${st.reason === 'budget'
    ? `The budget stopped the search at generation ${st.generation}` : `A person stopped the search after generation ${st.generation}`}</strong>: ` +
    `${h(st.detail)}.${st.spentUsd === null ? '' : ` Spent: ${usd(st.spentUsd)}.`}</p>`;
  return `<section data-section="loop"><h2>People and the budget</h2>${stopped}${feedback}</section>`;
}

/** A baseline's label for tight spots: "person's shaping". */
function shortLabel(reward: CardReward): string {
  return rewardLabel(reward).replace(/^the /, '');
}

function learningSection(data: CardData): string {
  const task = cardTask(data);
  // A rollout in which no training episode ended measured nothing: the line joins the measured points.
  const series = (pick: (p: CardReward['curve'][number]) => number | null): Series[] => rewards(data).map((r) => ({
    label: r === data.winner ? `${r.name} (${data.interim ? 'best so far' : 'winner'})` : rewardLabel(r), color: color(data, r),
    points: r.curve.flatMap((p) => { const y = pick(p); return y === null ? [] : [[p.step, y] as [number, number]]; }),
    dashed: r.candidateId === ENVIRONMENT_REWARD_ID,
  }));
  const seeds = shownSeeds(data).plural;
  const success = lineChart({
    chart: 'learning-curve', title: `Training success over training, mean over ${seeds}`, width: 470, height: 300,
    series: series((p) => p.trainSuccess), xLabel: 'environment steps', yLabel: 'training episodes that succeed',
    y: [0, 1], xFormat: kSteps, yFormat: pctAxis,
  });
  const length = lineChart({
    chart: 'episode-length', title: `Episode length over training, mean over ${seeds}`, width: 470, height: 300,
    series: series((p) => p.episodeLength), xLabel: 'environment steps', yLabel: `steps per episode (${task.maxEpisodeSteps} = time limit)`,
    y: [0, Math.ceil(task.maxEpisodeSteps * 1.05)], xFormat: kSteps,
  });
  const sooner = learnedSoonerSentence(data);
  return `<section><h2>Learning on ${seeds}</h2><p class="lede">Mean over ${seeds}. Left: the share of training ` +
    `episodes that ${h(task.success.clause)}. Right: episode length; ${task.maxEpisodeSteps} means the time limit ran out.` +
    `${sooner === null ? '' : ` <span data-learned="sooner">${h(sooner)}</span>`}</p>` +
    `<div class="grid2"><figure>${success}</figure><figure>${length}</figure></div></section>`;
}

function termsSection(data: CardData): string {
  const entries = Object.entries(data.winner.terms);
  const largest = Math.max(1e-12, ...entries.map(([, t]) => Math.abs(t.late)).filter(Number.isFinite));
  const rows = entries.map(([name, t]) => {
    const share = Number.isFinite(t.late) ? Math.min(100, (Math.abs(t.late) / largest) * 100) : 0;
    return `<tr><td><code>${h(name)}</code></td><td class="num">${num(t.early)}</td><td class="num">${num(t.late)}</td>` +
      `<td>${sparkline(t.series, WINNER_COLOR)}</td><td><span class="hbar"><span style="width:${share.toFixed(1)}%"></span></span></td></tr>`;
  }).join('');
  const body = rows === '' ? '<tr><td colspan="5" class="muted">The winner reported no terms.</td></tr>' : rows;
  return `<section><h2>The winner's reward terms</h2><p class="lede">Mean value per step early (first 10% of updates) and late ` +
    `(last 10%), the 10-checkpoint series, and each term's size late in training next to the largest.</p>` +
    `<table data-table="terms"><thead><tr><th>Term</th><th class="num">Early</th><th class="num">Late</th><th>Over training</th>` +
    `<th>Size late</th></tr></thead><tbody>${body}</tbody></table></section>`;
}

/** What the card draws when the winner has no episode: the renderers say so in their own figures. */
const NO_EPISODE: EpisodeRecord = { observations: [], actions: [], rewards: [], success: false, terminated: false, truncated: false };

function episodeSection(data: CardData): string {
  const { render } = cardTask(data);
  const episode = data.winner.episode ?? NO_EPISODE;
  const plots = render.plots(episode, WINNER_COLOR).map((svg) => `<figure>${svg}</figure>`).join('');
  return `<section><h2>The ${data.interim ? 'best so far' : 'winner'} in action</h2><p class="lede">One greedy evaluation episode on ${shownSeeds(data).one}. ${h(render.story(episode))}</p>` +
    `<figure class="animation">${render.animation(episode, WINNER_COLOR)}</figure><div class="grid2">${plots}</div></section>`;
}

function codeSection(data: CardData): string {
  const w = data.winner;
  return `<section><h2>The winner's reward</h2><p class="lede"><span class="mono">${h(w.name)}</span>: ${h(w.idea)}</p>` +
    `<pre><code>${h(w.code)}</code></pre></section>`;
}

function outcomeCell(c: CardCandidate): string {
  const pill = c.failedCheck ? `<span class="pill ${h(c.outcome)} check">failed its check</span>` : `<span class="pill ${h(c.outcome)}">${h(c.outcome)}</span>`;
  const screen = c.screen === undefined ? '' : `<div class="screen${c.screen.fails ? ' fails' : ''}">screen: ${h(c.screen.line)}</div>`;
  return `${pill}${c.reason === '' ? '' : `<div class="reason">${h(c.reason)}</div>`}${screen}`;
}

function candidateRow(data: AnyCardData, c: CardCandidate, column: ReturnType<typeof rankColumn>): string {
  const isWinner = data.winner !== null && c.candidateId === data.winner.candidateId && c.generation === data.winner.generation;
  const badges = (c.hostile ? ' <span class="badge hostile">hostile</span>' : '') +
    (isWinner ? ' <span class="badge win">winner</span>' : '') + (c.generation === 0 ? ' <span class="badge base">baseline</span>' : '') +
    (c.repairOf === null ? '' : ` <span class="badge repaired" title="${h(`repairs ${c.repairOf}`)}">repaired</span>`);
  const cls = [isWinner ? 'winner-row' : '', c.hostile ? 'hostile-row' : ''].filter((x) => x !== '').join(' ');
  return `<tr${cls === '' ? '' : ` class="${cls}"`} data-generation="${c.generation}"><td class="cand"><span class="mono name">${h(c.name)}</span>${badges}` +
    `<div class="idea">${h(c.idea)}</div></td><td class="seeds">${seedChips(c.seeds)}</td><td class="num strong">${pct(c.success)}</td>` +
    `<td class="num">${column.value(c)}</td><td class="outcome">${outcomeCell(c)}</td></tr>`;
}

export function candidatesSection(data: AnyCardData): string {
  const task = cardTask(data);
  const column = rankColumn(task);
  const byGeneration = new Map<number, CardCandidate[]>();
  for (const c of data.candidates) byGeneration.set(c.generation, [...(byGeneration.get(c.generation) ?? []), c]);
  const groups = [...byGeneration].sort(([a], [b]) => a - b).map(([g, cs]) => {
    const sorted = [...cs].sort((a, b) => compareRecords(a, b, task.tieBreak));
    const best = sorted[0];
    const title = g === 0 ? 'Generation 0 · the baselines'
      : `Generation ${g} · ${cs.length} candidate${cs.length === 1 ? '' : 's'} · best <span class="mono">${h(best.name)}</span> ${pct(best.success)}`;
    return `<tbody><tr class="gen-row"><th colspan="5">${title}</th></tr>${sorted.map((c) => candidateRow(data, c, column)).join('')}</tbody>`;
  }).join('');
  return `<section><h2>Every candidate</h2><p class="lede">Success is the mean over the search's seeds (a seed that failed ` +
    `counts 0); ${h(column.explain)}. Hostile candidates test the sandbox.</p>` +
    `<div class="scroll"><table data-table="candidates"><thead><tr><th>Candidate and idea</th><th>Per seed</th>` +
    `<th class="num">Success</th><th class="num">${h(column.title)}</th><th>Outcome</th></tr></thead>${groups}</table></div></section>`;
}

function kv(table: string, rows: Array<[string, string]>): string {
  return `<table data-table="${table}" class="kv"><tbody>${rows.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join('')}</tbody></table>`;
}

export function runSection(data: AnyCardData): string {
  const p = data.proposer;
  const c = data.config;
  const proposer = kv('proposer', [
    ['Proposer', h(p.kind)], ['Model', `<span class="mono">${h(p.model)}</span>`], ['Requests', int(p.requests)],
    ['Input tokens', int(p.inputTokens)], ['Output tokens', outputTokens(p)],
    ['Repair requests', int(p.repairRequests)],
    ['Cost', p.costUsd === null ? (p.kind === 'offline' ? 'free (offline proposer)' : 'unknown') : usd(p.costUsd)],
    ['Budget', c.maxCostUsd === null || c.maxCostUsd === undefined ? 'no ceiling' : usd(c.maxCostUsd)],
  ]);
  const config = kv('config', [
    ['Generations', int(c.generations)], ['Candidates per generation', int(c.candidates)], ['Seeds per candidate', int(c.seeds)],
    ['Steps per seed-run', int(c.steps)], ['Evaluation episodes', int(c.evalEpisodes)],
    ['Hostile candidates', c.includeHostile ? 'included' : 'not included'], ['Proposer', c.proposer === 'offline' ? h(c.proposer) : `${h(c.proposer)} · <span class="mono">${h(c.model)}</span>`],
    ['Max concurrency', int(c.maxConcurrency)], ['Random seed', String(c.randomSeed)],
    ['Seed-runs trained', int(data.candidates.reduce((n, x) => n + x.seeds.length, 0) + rewards(data).reduce((n, x) => n + x.freshSeeds.length, 0))],
    ['Started', h(timestamp(data.startedAt))], ['Finished', h(timestamp(data.finishedAt))], ['Duration', duration(data.startedAt, data.finishedAt)],
  ]);
  return `<section class="grid2 run"><div><h2>Proposer</h2>${proposer}</div><div><h2>Configuration</h2>${config}</div></section>`;
}

/** An interim card (after a generation, or at a pause): the best so far, not yet re-checked on fresh seeds. */
function interimBanner(data: CardData): string {
  if (!data.interim) return '';
  const last = data.bestByGeneration.at(-1)?.generation ?? 0;
  const answer = data.waiting
    ? ` Answer with <code>eureka feedback ${h(data.searchId)} --text "…"</code>, <code>--continue</code> or <code>--stop</code>.`
    : '';
  return `<p class="interim" data-interim="true">${data.waiting ? `The search is waiting for your feedback after generation ${last}.` : `The search so far, after generation ${last}.`} ` +
    `This card shows the best so far on the search's own seeds; the fresh-seed re-check comes at the end.${answer}</p>`;
}

export function renderCardHtml(data: CardData): string {
  const head = headline(data);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${h(head.title)}</title>` +
    `<style>${CARD_CSS}</style></head><body><main>${interimBanner(data)}${header(data)}${headlineTable(data)}${searchSection(data)}${loopSection(data)}` +
    `${raceSection(data)}${learningSection(data)}${endingsSection(data)}${episodeSection(data)}${termsSection(data)}${codeSection(data)}${candidatesSection(data)}${analysisSection(data)}` +
    `${runSection(data)}<footer>eureka-serverless · search <span class="mono">${h(data.searchId)}</span> · ` +
    `${h(timestamp(data.finishedAt))}</footer></main></body></html>\n`;
}
