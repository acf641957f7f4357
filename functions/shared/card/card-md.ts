/**
 * card.md: the Markdown twin of card.html, for a README, a pull request or a terminal. Same
 * sections in the same order; charts become tables and Unicode sparklines. Everything from a
 * candidate or a model is escaped (mdText), shown as code (mdCode) or fenced (mdFence).
 */
import {
  cardTask, duration, int, learnedSoonerSentence, outputTokens, timestamp, num, pct, rewardLabel, shownSeeds, rankColumn, headlineRankCell, headlineRankTitle, proposedCount, usd,
  type AnyCardData, type CardData, type CardReward, type CardSeed,
} from './card-data.ts';
import { headline, versusWords } from './card-headline.ts';
import { mdCode, mdFence, mdText } from '../../../core/escape.ts';
import { raceMarkdown } from './card-race.ts';
import { analysisMarkdown, endingsMarkdown } from './card-story.ts';
import { blocks } from './card-blocks.ts';

export { blocks };


function table(head: string[], rows: string[][], align: Array<'l' | 'r'>): string {
  const sep = align.map((a) => (a === 'r' ? '---:' : '---'));
  return [head, sep, ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
}

function seedList(seeds: CardSeed[]): string {
  if (seeds.length === 0) return '—';
  const first = seeds[0];
  if (seeds.length > 1 && first.outcome !== 'trained' && seeds.every((s) => s.outcome === first.outcome)) {
    return `all ${seeds.length} seeds: ${mdText(first.outcome)}`;
  }
  return seeds.map((s) => (s.outcome === 'trained' ? pct(s.success) : mdText(s.outcome))).join(' · ');
}

function rewards(data: AnyCardData): CardReward[] {
  return data.winner === null ? data.baselines : [data.winner, ...data.baselines];
}

/** The curve at about n evenly spaced updates, so the table stays short. */
function sample<T>(points: T[], n: number): T[] {
  if (points.length <= n) return points;
  return Array.from({ length: n }, (_, i) => points[Math.round((i * (points.length - 1)) / (n - 1))]);
}

export function renderCardMarkdown(data: CardData): string {
  const head = headline(data);
  const task = cardTask(data);
  const column = rankColumn(task);
  const w = data.winner;
  const out: string[] = [];
  const versus = head.versus.map((v, i) => {
    const { amount, relation, then } = versusWords(v, i === 0);
    return `**${amount}** ${mdText(relation)} (${pct(v.score)})${then === '' ? '' : ` ${mdText(then)}`}`;
  });
  out.push(`# ${mdText(head.title)}`, '');
  if (versus.length > 0) out.push(`${versus.join(', ')}.`, '');
  if (data.interim) {
    const why = data.waiting ? `the search waits for feedback (\`eureka feedback ${data.searchId} --text "…" | --continue | --stop\`)` : 'the search so far';
    out.push(`*Interim card: ${why}. Scores are on the search's own seeds; the fresh-seed re-check comes at the end.*`, '');
  }
  out.push(`Eureka reward search on ${mdText(task.id)}, search ${mdCode(data.searchId)}. Success is the share of greedy evaluation episodes that ${mdText(task.success.clause)}. ` +
    `Found in generation ${w.generation} of ${data.bestByGeneration.length} among ${proposedCount(data)} candidates ` +
    `written by ${mdText(data.proposer.kind)}${data.proposer.model === '' ? '' : ` (${mdCode(data.proposer.model)})`}.`, '');

  const picked = proposedCount(data);
  out.push('## Search score and fresh score', '');
  out.push(`The search score is biased upward: the winner was picked as the best of ${picked} candidates on exactly those seeds. ` +
    'The fresh score re-trains each reward from scratch on seeds the search never saw; it is the honest one.', '');
  out.push(table(['Reward', 'Search score', 'Fresh score', headlineRankTitle(column), 'Fresh seeds'], rewards(data).map((r) => [
    `${mdCode(r.name)}${r === w ? ' (winner)' : ` (${mdText(rewardLabel(r))})`}`, pct(r.searchSuccess), `**${pct(r.freshSuccess)}**`,
    headlineRankCell(column, r),
    seedList(r.freshSeeds),
  ]), ['l', 'r', 'r', 'r', 'l']), '');

  out.push('## How the search got there', '');
  const gens = data.bestByGeneration;
  out.push(`Best success on the search's seeds by generation: ${blocks(gens.map((g) => g.bestSoFar), [0, 1]) || '—'} (best so far).`, '');
  out.push(table(['Generation', 'Best of the generation', 'Success', 'Best so far'], gens.map((g) => [
    String(g.generation), mdCode(g.name), pct(g.success), pct(g.bestSoFar),
  ]), ['r', 'l', 'r', 'r']), '');
  for (const b of data.baselines) out.push(`- ${mdText(rewardLabel(b))} (${mdCode(b.name)}): ${pct(b.searchSuccess)} on the search's seeds`);
  if (data.baselines.length > 0) out.push('');

  out.push(...raceMarkdown(data, mdCode));
  const seeds = shownSeeds(data);
  out.push(`## Learning on ${seeds.plural}`, '');
  out.push(`Training success (share of training episodes that ${mdText(task.success.clause)}), mean over ${seeds.plural}:`, '');
  out.push(table(['Reward', 'Training success over training', 'At the end'], rewards(data).map((r) => {
    const measured = r.curve.flatMap((p) => (p.trainSuccess === null ? [] : [p.trainSuccess]));
    return [mdCode(r.name), blocks(sample(measured, 24), [0, 1]) || '—', measured.length === 0 ? '—' : pct(measured[measured.length - 1])];
  }), ['l', 'l', 'r']), '');
  const sooner = learnedSoonerSentence(data);
  if (sooner !== null) out.push(mdText(sooner), '');
  out.push(...endingsMarkdown(data));

  const episode = w.episode;
  out.push(`## The ${data.interim ? 'best so far' : 'winner'} in action`, '');
  if (episode === null || episode.observations.length === 0) {
    out.push('No evaluation episode was recorded.', '');
  } else {
    out.push(`One greedy evaluation episode on ${seeds.one}. ${mdText(task.render.story(episode))}`, '');
    task.observation.slice(0, 4).forEach((d, k) => {
      const [lo, hi] = d.typical ?? [d.low, d.high];
      out.push(`${mdText(d.name)}: ${blocks(sample(episode.observations.map((o) => o[k]), 48), [lo, hi])}`, '');
    });
  }

  out.push('## The winner\'s reward terms', '');
  const terms = Object.entries(w.terms);
  out.push(terms.length === 0 ? 'The winner reported no terms.' : table(['Term', 'Early', 'Late', 'Over training'], terms.map(([name, t]) => [
    mdCode(name), num(t.early), num(t.late), blocks(t.series) || '—',
  ]), ['l', 'r', 'r', 'l']), '');

  out.push('## The winner\'s reward', '', `${mdCode(w.name)}: ${mdText(w.idea)}`, '', mdFence(w.code, 'js'), '');

  out.push(...storyMarkdown(data), ...analysisMarkdown(data), ...runMarkdown(data));
  return out.join('\n');
}

/** Why it stopped early, what a person said, the checks and the screen, and every candidate: any card's. */
export function storyMarkdown(data: AnyCardData): string[] {
  const out: string[] = [];
  const w = data.winner;
  const column = rankColumn(cardTask(data));
  if (data.stopped !== null) {
    const st = data.stopped;
    out.push('## Stopped early', '', `${st.reason === 'budget' ? `The budget stopped the search at generation ${st.generation}` : `A person stopped the search after generation ${st.generation}`}: ` +
      `${mdText(st.detail)}.${st.spentUsd === null ? '' : ` Spent: ${usd(st.spentUsd)}.`}`, '');
  }
  if (data.feedback.length > 0) {
    out.push('## A person\'s feedback', '', 'It went into the next prompt, beside the automatic reflection.', '',
      ...data.feedback.map((f) => `- After generation ${f.generation} (${f.action === 'stop' ? 'stop' : 'go on'})${f.text === '' ? '' : `: ${mdText(f.text)}`}`), '');
  }
  const failedChecks = data.candidates.filter((x) => x.failedCheck).length;
  if (failedChecks > 0) out.push(`${failedChecks} candidate${failedChecks === 1 ? '' : 's'} failed ${failedChecks === 1 ? 'its' : 'their'} sandbox check and never trained.`, '');
  const screened = data.candidates.filter((x) => x.screen !== undefined);
  const flagged = screened.filter((x) => x.screen?.fails).length;
  if (screened.length > 0) {
    out.push(`The screen ran ${screened.length} candidate${screened.length === 1 ? '' : 's'} over the task's recorded successes and failures before training: ${flagged} preferred a failure.`, '');
  }

  out.push('## Every candidate', '', 'Generation 0 holds the baselines. Success is the mean over the search\'s seeds; a seed that failed counts 0.', '');
  const sorted = [...data.candidates].sort((a, b) => a.generation - b.generation || b.success - a.success);
  out.push(table(['Gen', 'Candidate', 'Idea', 'Per seed', 'Success', column.title, 'Outcome'], sorted.map((c) => [
    String(c.generation),
    `${mdCode(c.name)}${c.hostile ? ' **HOSTILE**' : ''}${c.repairOf === null ? '' : ' *repaired*'}${w !== null && c.candidateId === w.candidateId && c.generation === w.generation ? ' **winner**' : ''}`,
    mdText(c.idea), seedList(c.seeds), pct(c.success), column.value(c),
    // A failed check's reason starts with "failed its check".
    (c.reason === '' ? mdText(c.outcome) : c.failedCheck ? mdText(c.reason) : `${mdText(c.outcome)}: ${mdText(c.reason)}`) +
      (c.screen === undefined ? '' : `<br>screen: ${mdText(c.screen.line)}`),
  ]), ['r', 'l', 'l', 'l', 'r', 'r', 'l']), '');
  return out;
}

/** The proposer and the configuration: any card's. */
export function runMarkdown(data: AnyCardData): string[] {
  const out: string[] = [];
  const p = data.proposer;
  const c = data.config;
  out.push('## Proposer', '', table(['', ''], [
    ['Proposer', mdText(p.kind)], ['Model', mdCode(p.model)], ['Requests', int(p.requests)], ['Input tokens', int(p.inputTokens)],
    ['Output tokens', outputTokens(p)], ['Repair requests', int(p.repairRequests)],
    ['Cost', p.costUsd === null ? (p.kind === 'offline' ? 'free (offline proposer)' : 'unknown') : usd(p.costUsd)],
    ['Budget', c.maxCostUsd === null || c.maxCostUsd === undefined ? 'no ceiling' : usd(c.maxCostUsd)],
  ], ['l', 'r']), '');
  out.push('## Configuration', '', table(['', ''], [
    ['Generations', int(c.generations)], ['Candidates per generation', int(c.candidates)], ['Seeds per candidate', int(c.seeds)],
    ['Steps per seed-run', int(c.steps)], ['Evaluation episodes', int(c.evalEpisodes)], ['Hostile candidates', c.includeHostile ? 'included' : 'not included'],
    ['Proposer', c.proposer === 'offline' ? mdText(c.proposer) : `${mdText(c.proposer)} · ${mdCode(c.model)}`], ['Max concurrency', int(c.maxConcurrency)], ['Random seed', String(c.randomSeed)],
    ['Seed-runs trained', int(data.candidates.reduce((n, x) => n + x.seeds.length, 0) + rewards(data).reduce((n, x) => n + x.freshSeeds.length, 0))],
    ['Started', mdText(timestamp(data.startedAt))], ['Finished', mdText(timestamp(data.finishedAt))], ['Duration', duration(data.startedAt, data.finishedAt)],
  ], ['l', 'r']), '');
  return out;
}
