/**
 * The winner's card (card.html and card.md) from a realistic fixture and from edge cases: the
 * headline numbers, every candidate, the configuration and cost, and escaping of everything a
 * candidate or a model wrote. The browser test (card-browser.test.ts) checks what a reader sees.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { CardData, CardReward } from '../functions/shared/card/card-data.ts';
import { headline } from '../functions/shared/card/card-headline.ts';
import { renderCardHtml } from '../functions/shared/card/card-html.ts';
import { renderCardMarkdown } from '../functions/shared/card/card-md.ts';
import { escapeHtml, mdCode, mdFence, mdText } from '../core/escape.ts';

const fixture = (file: string): CardData => JSON.parse(readFileSync(new URL(`./fixtures/${file}`, import.meta.url), 'utf8')) as CardData;
const FIXTURE = fixture('card-data.json');
const PENDULUM = fixture('card-data-pendulum.json');
const clone = (): CardData => structuredClone(FIXTURE);
const HOSTILE_NAME = 'hostile_<script>alert(1)</script>';
const CHARTS = ['best-by-generation', 'learning-curve', 'episode-length', 'episode-position', 'phase-portrait', 'car-animation'];
const TABLES = ['headline', 'candidates', 'terms', 'config', 'proposer'];

/** Every tag of the document with its attribute values blanked, so escaped text inside them cannot match. */
function tags(html: string): string[] {
  return (html.match(/<[a-zA-Z!][^>]*>/g) ?? []).map((t) => t.replace(/"[^"]*"/g, '""'));
}

/** Table rows of a Markdown document, grouped by table, with the number of unescaped pipes in each. */
function pipeCounts(md: string): number[][] {
  const tables: number[][] = [];
  let current: number[] | null = null;
  for (const line of md.split('\n')) {
    if (line.startsWith('|')) {
      current ??= [];
      current.push((line.match(/(?<!\\)\|/g) ?? []).length);
    } else if (current !== null) {
      tables.push(current);
      current = null;
    }
  }
  if (current !== null) tables.push(current);
  return tables;
}

function assertClean(text: string): void {
  assert.doesNotMatch(text, /NaN|Infinity|undefined|\[object Object\]/);
}

describe('Function: renderCardHtml', () => {
  const html = renderCardHtml(FIXTURE);

  it('leads with who won and by how much, on fresh seeds', () => {
    const head = headline(FIXTURE);
    assert.equal(head.basis, 'fresh');
    const human = FIXTURE.baselines.find((b) => b.candidateId === 'human_shaping') as CardReward;
    const winnerPct = Math.round((FIXTURE.winner.freshSuccess ?? 0) * 100);
    const humanPct = Math.round((human.freshSuccess ?? 0) * 100);
    assert.match(html, new RegExp(`<h1>.*${FIXTURE.winner.name}.*reaches the flag in ${winnerPct}% of fresh episodes</h1>`));
    assert.ok(html.includes(`+${winnerPct - humanPct} points</span> over the person&#39;s shaping (${humanPct}%)`));
    assert.ok(html.includes(`+${winnerPct}</span> over the environment&#39;s reward (0%)`));
    assert.match(html, /search score is biased upward/);
    assert.match(html, /it is the honest one/);
  });

  it('has every chart and table, with the headline table listing the winner and both baselines', () => {
    for (const chart of CHARTS) assert.ok(html.includes(`data-chart="${chart}"`), chart);
    for (const table of TABLES) assert.ok(html.includes(`data-table="${table}"`), table);
    const headlineTable = /<table data-table="headline">.*?<\/table>/s.exec(html)?.[0] ?? '';
    for (const r of [FIXTURE.winner, ...FIXTURE.baselines]) {
      assert.ok(headlineTable.includes(escapeHtml(r.name)), r.name);
      assert.ok(headlineTable.includes(`${Math.round(r.searchSuccess * 100)}%`));
    }
    // Its progress is the fresh seeds', and says so (the candidates' table gives the search's).
    assert.match(headlineTable, /<th class="num">Fresh progress \([^)]+\) · steps<\/th>/);
  });

  it('lists every candidate with its outcome and reason, and marks hostile ones', () => {
    const table = /<table data-table="candidates">.*?<\/table>/s.exec(html)?.[0] ?? '';
    for (const c of FIXTURE.candidates) {
      assert.ok(table.includes(escapeHtml(c.name)), c.name);
      assert.ok(table.includes(escapeHtml(c.idea)), c.idea);
      if (c.reason !== '') assert.ok(table.includes(escapeHtml(c.reason)), c.reason);
    }
    const hostile = FIXTURE.candidates.filter((c) => c.hostile).length;
    assert.ok(hostile >= 3);
    assert.equal(table.match(/class="badge hostile"/g)?.length, hostile);
    assert.equal(table.match(/class="badge win"/g)?.length, 1);
  });

  it('shows the configuration, the proposer, its tokens and cost, and the winner\'s code', () => {
    assert.ok(html.includes('150,000'));
    assert.ok(html.includes(`<th>Random seed</th><td>${FIXTURE.config.randomSeed}</td>`));
    assert.ok(html.includes(FIXTURE.proposer.inputTokens.toLocaleString('en-US')));
    assert.ok(html.includes(`$${(FIXTURE.proposer.costUsd ?? 0).toFixed(2)}`));
    assert.ok(html.includes(`<pre><code>${escapeHtml(FIXTURE.winner.code)}</code></pre>`));
    for (const term of Object.keys(FIXTURE.winner.terms)) assert.ok(html.includes(`<code>${escapeHtml(term)}</code>`));
  });

  it('escapes the hostile candidate: no script, no event handler, nothing that loads', () => {
    assert.ok(html.includes(escapeHtml(HOSTILE_NAME)));
    assert.doesNotMatch(html, /<script/i);
    assert.doesNotMatch(html, /<img/i);
    for (const tag of tags(html)) {
      assert.doesNotMatch(tag, /\son[a-z]+\s*=/i, tag);
      assert.doesNotMatch(tag, /\s(src|href|xlink:href|action|formaction)\s*=/i, tag);
    }
    assert.doesNotMatch(html, /@import|url\((?!#)/i);
  });

  it('forbids scripts and fetches with a Content-Security-Policy in the head', () => {
    const head = html.slice(0, html.indexOf('</head>'));
    assert.ok(head.includes('<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'; img-src data:">'));
    assert.ok(head.indexOf('Content-Security-Policy') < head.indexOf('<style>'));
  });

  it('animates the car with SMIL along the recorded positions, looping', () => {
    const car = /<svg data-chart="car-animation".*?<\/svg>/s.exec(html)?.[0] ?? '';
    const motion = /<animateMotion ([^>]*)\/>/.exec(car)?.[1] ?? '';
    assert.match(motion, /repeatCount="indefinite"/);
    const keyTimes = /keyTimes="([^"]*)"/.exec(motion)?.[1].split(';') ?? [];
    const values = /values="([^"]*)"/.exec(motion)?.[1].split(';') ?? [];
    assert.equal(values.length, (FIXTURE.winner.episode?.observations.length ?? 0) + 1);
    assert.equal(keyTimes.length, values.length);
    assert.equal(Number(keyTimes[0]), 0);
    assert.equal(Number(keyTimes[keyTimes.length - 1]), 1);
    assert.ok(keyTimes.every((t, i) => i === 0 || Number(t) >= Number(keyTimes[i - 1])));
  });

  it('writes no NaN, Infinity or undefined', () => assertClean(html));
});

describe('Function: renderCardMarkdown', () => {
  const md = renderCardMarkdown(FIXTURE);

  it('leads with the same headline and numbers', () => {
    const winnerPct = Math.round((FIXTURE.winner.freshSuccess ?? 0) * 100);
    assert.ok(md.startsWith(`# ${mdText(FIXTURE.winner.name)} reaches the flag in ${winnerPct}% of fresh episodes\n`));
    assert.match(md, /\*\*\+\d+ points\*\* over the person's shaping \(\d+%\)/);
    assert.match(md, /search score is biased upward/);
    for (const r of [FIXTURE.winner, ...FIXTURE.baselines]) assert.ok(md.includes(`| ${mdCode(r.name)}`), r.name);
  });

  it('lists every candidate, the configuration and the cost', () => {
    for (const c of FIXTURE.candidates) assert.ok(md.includes(mdCode(c.name)), c.name);
    assert.ok(md.includes('| Steps per seed-run | 150,000 |'));
    assert.ok(md.includes(`| Cost | $${(FIXTURE.proposer.costUsd ?? 0).toFixed(2)} |`));
    assert.ok(md.includes(mdFence(FIXTURE.winner.code, 'js')));
  });

  it('keeps every table row to its table\'s columns, whatever pipes and newlines the text holds', () => {
    const tables = pipeCounts(md);
    assert.ok(tables.length >= 6);
    for (const rows of tables) assert.ok(rows.every((n) => n === rows[0]), JSON.stringify(rows));
    const hostile = FIXTURE.candidates.find((c) => c.name === HOSTILE_NAME);
    assert.ok(hostile !== undefined);
    assert.ok(md.includes(mdText(hostile.idea)));
    assert.ok(mdText(hostile.idea).includes('\\| a \\| table \\|'));
  });

  it('escapes HTML and Markdown in text; names stay code spans', () => {
    const line = md.split('\n').find((l) => l.includes('pwned')) ?? '';
    assert.ok(line.includes('\\<script\\>window.\\_\\_pwned = 1\\</script\\>'));
    assert.ok(line.includes('\\<img src=x onerror="window.\\_\\_pwned = 1"\\>'));
    assert.ok(line.includes('\\*\\*bold\\*\\*'));
    assert.ok(line.includes('\\[a link\\](javascript:alert(1))'));
    assert.ok(md.includes('`hostile_<script>alert(1)</script>`'));
  });

  it('fences code with more backticks than any run inside', () => {
    const data = clone();
    data.winner.code = 'function computeReward() {\n  // ``` and ````` inside\n  return [0, {}];\n}\n';
    const out = renderCardMarkdown(data);
    assert.ok(out.includes('``````js\nfunction computeReward() {'));
    assert.ok(out.includes('return [0, {}];\n}\n``````\n'));
  });

  it('writes no NaN, Infinity or undefined', () => assertClean(md));
});

describe('Function: escape helpers', () => {
  it('escapes the five HTML characters', () => {
    assert.equal(escapeHtml('<a href="x" title=\'y\'>&</a>'), '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });

  const cases: Array<[string, string]> = [
    ['a|b', 'a\\|b'], ['line\nbreak', 'line break'], ['<b>x</b>', '\\<b\\>x\\</b\\>'], ['*em* _u_', '\\*em\\* \\_u\\_'],
    ['`code`', '\\`code\\`'], ['&amp;', '\\&amp;'], ['[x](y)', '\\[x\\](y)'], ['~~s~~', '\\~\\~s\\~\\~'],
  ];
  for (const [input, expected] of cases) it(`mdText(${JSON.stringify(input)})`, () => assert.equal(mdText(input), expected));

  it('makes code spans safe in tables and around backticks', () => {
    assert.equal(mdCode('a|b'), '`a\\|b`');
    assert.equal(mdCode('x `y` z'), '``x `y` z``');
    assert.equal(mdCode('`edge'), '`` `edge ``');
    assert.equal(mdCode('two\nlines'), '`two lines`');
  });

  it('fences with at least three backticks and more than the longest run', () => {
    assert.equal(mdFence('x\n'), '```\nx\n```');
    assert.equal(mdFence('a ```` b', 'js'), '`````js\na ```` b\n`````');
  });
});

describe('Function: card edge cases', () => {
  const emptyReward = (r: CardReward): CardReward => ({
    ...r, freshSuccess: null, freshSuccessSteps: null, freshReturn: null, freshSeeds: [], curve: [], terms: {}, episode: null,
  });
  const variants: Array<[string, (d: CardData) => void]> = [
    ['no successful candidate', (d) => {
      for (const c of d.candidates) { c.success = 0; c.meanSuccessSteps = null; for (const s of c.seeds) s.success = 0; }
      for (const r of [d.winner, ...d.baselines]) { r.searchSuccess = 0; r.freshSuccess = 0; r.searchSuccessSteps = null; r.freshSuccessSteps = null; }
      d.bestByGeneration = d.bestByGeneration.map((g) => ({ ...g, success: 0, bestSoFar: 0 }));
    }],
    ['null fresh scores', (d) => { d.winner = emptyReward(d.winner); d.baselines = d.baselines.map(emptyReward); }],
    ['an empty episode', (d) => { d.winner.episode = { observations: [], actions: [], rewards: [], success: false, terminated: false, truncated: false }; }],
    ['no episode at all', (d) => { d.winner.episode = null; }],
    ['a single generation', (d) => {
      d.bestByGeneration = d.bestByGeneration.slice(0, 1);
      d.candidates = d.candidates.filter((c) => c.generation <= 1);
      d.config.generations = 1;
    }],
    ['no terms', (d) => { d.winner.terms = {}; }],
    ['no generations, no candidates, no baselines', (d) => { d.bestByGeneration = []; d.candidates = []; d.baselines = []; }],
    ['an offline proposer without cost and bad timestamps', (d) => {
      d.proposer = { kind: 'offline', model: '', requests: 0, inputTokens: 0, outputTokens: 0, costUsd: null, repairRequests: 0 };
      d.startedAt = 'not a date';
    }],
    ['non-finite numbers from a broken result', (d) => {
      d.winner.curve[0].meanReward = Number.NaN;
      d.winner.terms = { total: { early: Number.NaN, late: Number.POSITIVE_INFINITY, series: [Number.NaN, 1, 2] } };
      d.winner.episode = { observations: [[-0.5, 0], [Number.NaN, 0.001], [-0.4]], actions: [2, 2], rewards: [-1, Number.NaN], success: false, terminated: false, truncated: true };
      d.candidates[0].success = Number.NaN;
    }],
  ];

  for (const [name, change] of variants) {
    it(`renders with ${name}`, () => {
      const data = clone();
      change(data);
      const html = renderCardHtml(data);
      const md = renderCardMarkdown(data);
      assertClean(html);
      assertClean(md);
      for (const chart of CHARTS) assert.ok(html.includes(`data-chart="${chart}"`), chart);
      for (const table of TABLES) assert.ok(html.includes(`data-table="${table}"`), table);
    });
  }

  it('says no reward succeeded, in the task\'s words, when nothing scores', () => {
    const data = clone();
    for (const r of [data.winner, ...data.baselines]) { r.freshSuccess = 0; r.freshSuccessSteps = null; }
    assert.match(renderCardHtml(data), /No reward succeeded \(reach the flag\)/);
    assert.match(renderCardMarkdown(data), /^# No reward succeeded \(reach the flag\)/);
  });

  it('says nothing beat the baselines, and names the one to use, when the winner loses to one on the fresh seeds', () => {
    const data = clone();
    data.winner.freshSuccess = 0.6;
    const head = headline(data);
    assert.deepEqual([head.verdict?.beatsBaselines, head.verdict?.bestBaseline.candidateId, head.verdict?.decidedBy], [false, 'human_shaping', 'success']);
    assert.equal(head.title, 'Nothing the search found beat the baselines: use the person\'s shaping (human_shaping), 87% of fresh episodes; ' +
      `the search's best, ${data.winner.name}, 60%`);
    assert.ok(renderCardMarkdown(data).startsWith(`# Nothing the search found beat the baselines: use the person's shaping`));
    assert.match(renderCardHtml(data), /<h1>Nothing the search found beat the baselines: use the person&#39;s shaping \(human_shaping\)/);
  });

  it('counts a tie with the best baseline, less progress or the same success reached slower, as not beating it', () => {
    const data = clone();
    const human = data.baselines.find((b) => b.candidateId === 'human_shaping') as CardReward;
    data.winner.freshSuccess = human.freshSuccess;
    [data.winner.freshProgress, human.freshProgress] = [0.49, 0.5];
    data.winner.freshSuccessSteps = (human.freshSuccessSteps ?? 0) - 5;
    assert.match(headline(data).title, /^Nothing the search found beat the baselines: .*, level on success but less progress$/, 'progress before steps');
    [data.winner.freshProgress, human.freshProgress] = [0.5, 0.5];
    data.winner.freshSuccessSteps = (human.freshSuccessSteps ?? 0) + 5;
    assert.match(headline(data).title, /^Nothing the search found beat the baselines: .*, level on success and progress but slower to it$/);
    data.winner.freshSuccessSteps = human.freshSuccessSteps;
    assert.match(headline(data).title, /, level with it$/);
    data.winner.freshSuccessSteps = (human.freshSuccessSteps ?? 0) - 5;
    assert.equal(headline(data).verdict?.beatsBaselines, true, 'the same success reached sooner beats it');
    assert.match(headline(data).title, /reaches the flag in 87% of fresh episodes$/);
  });

  it('says what the rank read after a level success, so the line under the title agrees with the verdict', () => {
    const data = clone();
    const human = data.baselines.find((b) => b.candidateId === 'human_shaping') as CardReward;
    data.winner.freshSuccess = human.freshSuccess;
    [data.winner.freshProgress, human.freshProgress] = [0.113, 0.109];
    const head = headline(data);
    assert.equal(head.verdict?.beatsBaselines, true);
    assert.match(head.versusText, /^level on success with the person's shaping and more progress \(0\.113 against 0\.109\)/);
    assert.match(renderCardMarkdown(data), /\*\*level on success\*\* with the person's shaping \(87%\) and more progress \(0\.113 against 0\.109\)/);
    assert.match(renderCardHtml(data), /<span class="delta">level on success<\/span> with the person&#39;s shaping \(87%\) and more progress \(0\.113 against 0\.109\)/);
    human.freshProgress = 0.113;
    assert.match(headline(data).versusText, /^level with the person's shaping/, 'the same progress, as shown, is level');
  });

  it('counts the candidates the proposer wrote, not the search\'s hostile probes, as what the winner was picked from', () => {
    const data = clone();
    const written = data.candidates.filter((c) => c.generation > 0 && !c.hostile).length;
    assert.ok(data.candidates.some((c) => c.hostile) && written > 0, 'the fixture has both');
    assert.match(renderCardMarkdown(data), new RegExp(`among ${written} candidates written by .*best of ${written} candidates`, 's'));
    assert.match(renderCardHtml(data), new RegExp(`among ${written} candidates written by`));
  });

  it('passes no verdict on an interim card, which has no fresh scores yet', () => {
    const data = clone();
    data.interim = true;
    data.winner.freshSuccess = 0;
    assert.equal(headline(data).verdict, null);
  });

  it('falls back to the search\'s seeds when fresh scores are missing', () => {
    const data = clone();
    data.winner.freshSuccess = null;
    const head = headline(data);
    assert.equal(head.basis, 'search');
    assert.match(head.title, /of episodes on the search's seeds$/);
  });

  it('says "level with" when the winner ties a baseline', () => {
    const data = clone();
    data.baselines[0].freshSuccess = data.winner.freshSuccess;
    assert.match(headline(data).versusText, /^level with the person's shaping/);
  });

  it('keeps both baselines\' labels readable when they score the same', () => {
    const data = clone();
    for (const b of data.baselines) b.searchSuccess = 0;
    const chart = renderCardHtml(data).match(/data-chart="best-by-generation"[\s\S]*?<\/svg>/)?.[0] ?? '';
    const ys = [...chart.matchAll(/<text class="ref" x="[^"]*" y="([^"]*)"/g)].map((m) => Number(m[1]));
    assert.equal(ys.length, 2, 'a label per baseline');
    assert.ok(Math.abs(ys[0] - ys[1]) >= 13, `labels ${ys.join(' and ')} px down do not overlap`);
  });

  it('says how many of the output tokens were extended thinking, when there were any', () => {
    const data = clone();
    data.proposer.outputTokens = 12_000;
    data.proposer.thinkingTokens = 4500;
    assert.ok(renderCardMarkdown(data).includes('| Output tokens | 12,000 (4,500 thinking) |'));
    assert.ok(renderCardHtml(data).includes('<td>12,000 (4,500 thinking)</td>'));
    data.proposer.thinkingTokens = 0;
    assert.ok(renderCardMarkdown(data).includes('| Output tokens | 12,000 |'));
  });

  it('gives the proposer\'s analysis per generation (escaped: a model wrote it) and how the winner\'s episodes ended, seed by seed where they disagree', () => {
    const data = clone();
    const ending = (success: number, truncated: number) => ({ episodes: 20, success, terminated: 1 - success - truncated, truncated, meanLength: 180, meanReturn: -120 });
    const seed = (s: number, success: number, truncated: number) => ({ seed: s, training: Array.from({ length: 10 }, () => ending(success, truncated)), evaluation: ending(success, truncated) });
    data.winner.episodes = [seed(10000, 0.9, 0.1), seed(10001, 0, 1)];
    data.analyses = [
      { generation: 1, proposal: 'The flag needs momentum <b>first</b>.', repair: null },
      { generation: 2, proposal: 'Energy shaping stalled at 60%.', repair: 'The sandbox refused Date.now().' },
    ];
    const md = renderCardMarkdown(data);
    assert.match(md, /## How the winner's episodes ended\n\nTraining episodes on the fresh seeds, each seed on its own \(they disagree\)\./);
    assert.match(md, /\| seed 10001: steps long, on average \| 180 \| 180 \| /);
    assert.match(md, /- seed 10001: of 20 episodes, 0% succeeded, 0% ended otherwise and 100% ran out of time/);
    assert.match(md, /## What the proposer said[\s\S]*### Generation 2\n\nEnergy shaping stalled at 60%\.\n\nIts repair: The sandbox refused Date\.now\(\)\./);
    const html = renderCardHtml(data);
    assert.match(html, /<section data-section="endings"><h2>How the winner's episodes ended<\/h2>/);
    assert.ok(html.includes('The flag needs momentum &lt;b&gt;first&lt;/b&gt;.'));
    assert.doesNotMatch(html, /<b>first/);
    data.analyses = [{ generation: 1, proposal: '', repair: null }];
    delete data.winner.episodes;
    assert.doesNotMatch(renderCardMarkdown(data), /What the proposer said|episodes ended/, 'nothing to say: no section');
  });

  it('escapes hostile term names, model ids and search ids', () => {
    const data = clone();
    data.winner.terms = { '<img src=x onerror=alert(1)>': { early: 1, late: 2, series: [1, 2] } };
    data.proposer.model = '<script>alert(2)</script>';
    data.searchId = '"><script>alert(3)</script>';
    const html = renderCardHtml(data);
    assert.doesNotMatch(html, /<script|<img/i);
    assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;'));
    const md = renderCardMarkdown(data);
    assert.ok(md.includes('`<img src=x onerror=alert(1)>`'));
  });
});

describe('Function: renderCardHtml for another task (Pendulum-v1)', () => {
  const html = renderCardHtml(PENDULUM);
  const md = renderCardMarkdown(PENDULUM);

  it('uses the task\'s success words in the headline, and no MountainCar words anywhere', () => {
    const pct = Math.round((PENDULUM.winner.freshSuccess ?? 0) * 100);
    assert.match(html, new RegExp(`<h1>.*${PENDULUM.winner.name}.*holds the pendulum upright in ${pct}% of fresh episodes</h1>`));
    assert.match(md, new RegExp(`^# .*holds the pendulum upright in ${pct}% of fresh episodes`));
    assert.ok(html.includes('Eureka reward search · Pendulum-v1'));
    for (const text of [html, md]) assert.doesNotMatch(text, /flag|MountainCar|car-animation|phase-portrait/);
  });

  it('draws the pendulum\'s own animation and plots, and its rank column (progress, no steps: its tie-break is none)', () => {
    assert.ok(html.includes('data-chart="pendulum-animation"'));
    assert.match(html, /<animateTransform[^>]*type="rotate"[^>]*repeatCount="indefinite"/);
    assert.match(html, /<th class="num">Progress<\/th>/);
    assert.match(html, /progress is mean share of steps upright \(the share of the episode&#39;s steps the pendulum spent upright\)/);
    assertClean(html);
    assertClean(md);
  });
});
