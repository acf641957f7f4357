/**
 * The card's words where a newcomer found them misleading (issue 35): candidates the race stopped
 * drawn apart from the failed ones, no model id for an offline search, the episodes' endings as a
 * table rather than the prompt's text, and plain sentences where a figure stayed or never came.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { CardData } from '../functions/shared/card/card-data.ts';
import { learnedSoonerSentence } from '../functions/shared/card/card-data.ts';
import { renderCardHtml } from '../functions/shared/card/card-html.ts';
import { renderCardMarkdown } from '../functions/shared/card/card-md.ts';

const FIXTURE = JSON.parse(readFileSync(new URL('./fixtures/card-data.json', import.meta.url), 'utf8')) as CardData;
const clone = (): CardData => structuredClone(FIXTURE);
const FAILED_RED = '#b42318';

/** The dot of the "best by generation" chart whose tooltip starts with this candidate's name. */
function dotOf(html: string, name: string): string {
  const dot = [...html.matchAll(/<circle class="dot"[^>]*><title>([^<]*)<\/title><\/circle>/g)].find((m) => m[1].startsWith(`${name}:`));
  assert.ok(dot, `a dot for ${name}`);
  return dot[0];
}

describe('The card: what it draws and writes (issue 35)', () => {
  it('draws a candidate the race stopped apart from the failed ones, and its legend says so', () => {
    const data = clone();
    const stopped = data.candidates.find((c) => c.generation === 2 && c.outcome === 'trained' && c.name !== data.winner.name);
    assert.ok(stopped);
    stopped.outcome = 'stopped';
    stopped.stopped = { rung: 1, rungs: 3, steps: 10_000, share: 1 / 9 };
    const html = renderCardHtml(data);
    assert.doesNotMatch(dotOf(html, stopped.name), new RegExp(FAILED_RED));
    assert.match(dotOf(html, 'g2-height-shaping-5'), new RegExp(FAILED_RED), 'a timed-out candidate is a failed one');
    assert.match(html, /a candidate the race stopped early/);
  });

  it('names no model for an offline search', () => {
    const data = clone();
    data.config = { ...data.config, proposer: 'offline', model: 'claude-sonnet-5-5' };
    data.proposer = { ...data.proposer, kind: 'offline', model: 'offline-grammar', costUsd: 0 };
    for (const card of [renderCardHtml(data), renderCardMarkdown(data)]) {
      assert.doesNotMatch(card, /claude-sonnet-5-5/);
      assert.doesNotMatch(card, /offline · /);
    }
  });

  it('shows how the episodes ended as a table with the card\'s words, not the prompt\'s lists', () => {
    const data = clone();
    const ending = (success: number, truncated: number) => ({ episodes: 20, success, terminated: Math.max(0, Number((1 - success - truncated).toFixed(6))), truncated, meanLength: 180, meanReturn: -120 });
    data.winner.episodes = [10000, 10001].map((seed) => ({ seed, training: Array.from({ length: 10 }, (_, k) => ending(k / 10, 1 - k / 10)), evaluation: ending(0.9, 0.1) }));
    const md = renderCardMarkdown(data);
    const html = renderCardHtml(data);
    for (const card of [md, html]) {
      assert.doesNotMatch(card, /\['[\d.%-]+', '/, 'no quoted lists');
      assert.doesNotMatch(card, /Max: .* Mean: .* Min: /);
      assert.doesNotMatch(card, /How the episodes ended\. Training episodes, at the same 10 checkpoints/);
    }
    assert.match(html, /<table data-table="endings">/);
    assert.match(md, /\| Training episodes \| In the first tenth of training \| In the last tenth \| Over training \|/);
    assert.match(md, /\| succeeded \| 0% \| 90% \| /);
    assert.match(md, /\| ran out of time \| 100% \| 10% \| /);
    assert.match(md, /Succeeded: they did reach the flag; ended otherwise: /);
    assert.match(md, /- seed 10000: of 20 episodes, 90% succeeded, 0% ended otherwise and 10% ran out of time; 180 steps long and -120 on the environment's reward, on average/);
  });

  it('says the best so far stayed where it did not move', () => {
    const data = clone();
    data.bestByGeneration = data.bestByGeneration.map((g) => ({ ...g, bestSoFar: 0.2, success: 0.2 }));
    const html = renderCardHtml(data);
    assert.doesNotMatch(html, /went from 20% in generation 1 to 20%/);
    assert.match(html, /The best so far stayed at 20% from generation 1 to generation 4\./);
  });

  it('says plainly when half the training episodes never succeeded', () => {
    const data = clone();
    data.winner.freshLearning = { trainSuccessArea: 0.1, stepsToHalfSuccess: null };
    const person = data.baselines.find((b) => b.candidateId === 'human_shaping');
    assert.ok(person);
    person.freshLearning = { trainSuccessArea: 0.4, stepsToHalfSuccess: 30_000 };
    const sentence = learnedSoonerSentence(data) ?? '';
    assert.doesNotMatch(sentence, /succeeded never/);
    assert.match(sentence, /never had half its training episodes succeed \(the person's shaping did after 30,000 steps\)/);
    person.freshLearning = { trainSuccessArea: 0.1, stepsToHalfSuccess: null };
    data.winner.freshLearning = { trainSuccessArea: 0.4, stepsToHalfSuccess: 20_000 };
    assert.match(learnedSoonerSentence(data) ?? '', /half its training episodes succeeded after 20,000 steps \(the person's shaping never had half succeed\)/);
  });
  it('gives each rung\'s progress beside its success in the race, draws progress where nothing in the race succeeded, and says who the race keeps', () => {
    const data = clone();
    const standing = (candidateId: string, success: number, progress: number | null, promoted: boolean) =>
      ({ candidateId, success, progress, meanSuccessSteps: null, meanReturn: -100, trainSuccessArea: 0, promoted });
    data.races = [{
      generation: 1, eta: 3, schedule: [1000, 3000],
      rungs: [
        { rung: 1, steps: 1000, standings: [standing('g1-energy-bonus-1', 0, 0.42, true), standing('g1-speed-shaping-2', 0, 0.31, false)] },
        { rung: 2, steps: 3000, standings: [standing('g1-energy-bonus-1', 0.5, 0.5, false)] },
      ],
    }];
    // Nothing succeeded at the first rung: progress is what the race cut by, and the card shows it.
    const md = renderCardMarkdown(data);
    assert.match(md, /\| `g1-speed-shaping-2` \| 0%, progress 0\.31 \(stopped\) \|/);
    assert.match(md, /\| `g1-energy-bonus-1` \| 0%, progress 0\.42 \| 50%, progress 0\.5 \|/);
    assert.match(md, /the best third went on from their checkpoints, and so did every one not clearly behind them/);
    const html = renderCardHtml(data);
    assert.match(html, /<title>g1-speed-shaping-2: 0%, progress 0\.31 \(stopped\)<\/title>/);
    assert.match(html, /and so did every one not clearly behind them/);
    assert.doesNotMatch(html, /data-axis="progress"/, 'something succeeded: the chart draws success');
    // Nothing succeeded anywhere in the race: progress decided every cut, and the chart draws it.
    data.races[0].rungs[1].standings[0].success = 0;
    const flat = renderCardHtml(data);
    const chart = /<svg data-chart="race-1".*?<\/svg>/s.exec(flat)?.[0] ?? '';
    assert.match(chart, /<text class="axis-label" data-axis="progress"[^>]*>progress: [^<]+ \(nothing succeeded in this race\)<\/text>/);
    assert.doesNotMatch(chart, />100%</, 'no success ticks on a chart of progress');
    const ends = [...chart.matchAll(/<g data-candidate="([^"]+)"><path d="([^"]+)"/g)].map((m) => ({ id: m[1], ys: [...m[2].matchAll(/[ML][\d.]+ ([\d.]+)/g)].map((p) => Number(p[1])) }));
    const kept = ends.find((e) => e.id === 'g1-energy-bonus-1');
    const cut = ends.find((e) => e.id === 'g1-speed-shaping-2');
    assert.ok(kept && cut);
    assert.ok(kept.ys[0] < cut.ys[0], 'at the first rung the line with more progress (0.42) is drawn above the one with less (0.31)');
    assert.ok(kept.ys[1] < kept.ys[0], 'and it rises to the budget with its progress (0.5)');
    assert.doesNotMatch(chart, /textLength/, 'names that fit are drawn as they are');
    // A finisher's name too long for the room at the right edge is drawn narrower, whole.
    for (const rung of data.races[0].rungs) for (const s of rung.standings) if (s.candidateId === 'g1-energy-bonus-1') s.candidateId = 'g1-environment-reward-with-a-long-name-2';
    assert.match(renderCardHtml(data), /<text class="ref"[^>]* textLength="\d+" lengthAdjust="spacingAndGlyphs">g1-environment-reward-with-a-long-name-2<\/text>/);
    // A search that did not race has no race on its card (assembleCard keeps only records of more than one rung), and no rule to tell.
    data.races = [];
    data.compute = { stepsTrained: 30_000, stepsFullBudget: 30_000 };
    assert.match(renderCardMarkdown(data), /## The race\n\nThe search trained 30,000 environment steps, every candidate to the full budget\.\n/);
    assert.doesNotMatch(renderCardMarkdown(data), /best third/);
    assert.doesNotMatch(renderCardHtml(data), /best third/);
  });
});
