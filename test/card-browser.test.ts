/**
 * The card in a real browser (Debian's chromium driven by playwright-core), opened from disk with
 * the network off: every chart and table is there and drawn, the car moves, the hostile candidate
 * shows as text and nothing it carries runs or loads. Saves a full-page screenshot to
 * $CARD_SCREENSHOT, else to a temporary directory. Then the card of another task (Pendulum-v1):
 * its own animation moves, its headline speaks its success words.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { CardData } from '../functions/shared/card/card-data.ts';
import { renderCardHtml } from '../functions/shared/card/card-html.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];
const fixture = (file: string): CardData => JSON.parse(readFileSync(new URL(`./fixtures/${file}`, import.meta.url), 'utf8')) as CardData;
const FIXTURE = fixture('card-data.json');
const PENDULUM = fixture('card-data-pendulum.json');
const CHARTS = ['best-by-generation', 'learning-curve', 'episode-length', 'episode-position', 'phase-portrait', 'car-animation'];
const TABLES = ['headline', 'candidates', 'terms', 'config', 'proposer'];

interface ChartGeometry { name: string; width: number; height: number; shapes: number; drawn: number }

/** Runs in the page (as a string: the project compiles without the DOM library). */
const MEASURE_CHARTS = `Array.from(document.querySelectorAll('svg[data-chart]')).map((svg) => {
  const box = svg.getBoundingClientRect();
  const shapes = Array.from(svg.querySelectorAll('path, rect, circle, line, polyline'));
  const drawn = shapes.filter((s) => { const b = s.getBBox(); return b.width > 0 || b.height > 0; }).length;
  return { name: svg.getAttribute('data-chart'), width: box.width, height: box.height, shapes: shapes.length, drawn };
})`;

const EVENT_HANDLERS = `Array.from(document.querySelectorAll('*')).flatMap((el) =>
  Array.from(el.attributes).filter((a) => /^on/i.test(a.name)).map((a) => el.tagName + ' ' + a.name))`;

const CAR_AT = (t: number): string => `(() => {
  const svg = document.querySelector('svg[data-chart="car-animation"]');
  svg.pauseAnimations();
  svg.setCurrentTime(${t});
  const b = svg.querySelector('g.car').getBoundingClientRect();
  return [Math.round(b.x), Math.round(b.y)];
})()`;

describe('Function: card.html in a browser', () => {
  let dir = '';
  let fileUrl = '';
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  const otherRequests: string[] = [];
  const dialogs: string[] = [];
  const consoleErrors: string[] = [];

  before(async () => {
    assert.ok(existsSync(CHROMIUM), `Debian's chromium is missing at ${CHROMIUM}: install it with \`apt-get install -y chromium\``);
    dir = mkdtempSync(join(tmpdir(), 'card-browser-'));
    const file = join(dir, 'card.html');
    writeFileSync(file, renderCardHtml(FIXTURE));
    fileUrl = pathToFileURL(file).href;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 120_000 });
    context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    await context.setOffline(true);
    page = await context.newPage();
    page.on('request', (req) => { if (req.url() !== fileUrl) otherRequests.push(req.url()); });
    page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
    await page.route('**/*', (route) => (route.request().url() === fileUrl ? route.continue() : route.abort()));
    await page.goto(fileUrl, { waitUntil: 'load', timeout: 60_000 });
  });

  after(async () => {
    await browser?.close();
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  const open = (): Page => {
    assert.ok(page !== undefined, 'the page did not open');
    return page;
  };

  it('draws every chart with real geometry', async () => {
    const charts = await open().evaluate(MEASURE_CHARTS) as ChartGeometry[];
    for (const name of CHARTS) {
      const chart = charts.find((c) => c.name === name);
      assert.ok(chart !== undefined, `chart ${name} is missing`);
      assert.ok(chart.width > 200 && chart.height > 100, `chart ${name} is ${chart.width}x${chart.height}`);
      assert.ok(chart.drawn >= 3, `chart ${name} draws ${chart.drawn} of ${chart.shapes} shapes`);
    }
  });

  it('shows every table with rows', async () => {
    for (const name of TABLES) {
      const rows = await open().locator(`table[data-table="${name}"] tbody tr`).count();
      assert.ok(rows > 0, `table ${name} has no rows`);
    }
    const candidates = await open().locator('table[data-table="candidates"] tbody tr[data-generation]').count();
    assert.equal(candidates, FIXTURE.candidates.length);
  });

  it('drives the car along the episode (SMIL, no script)', async () => {
    const start = await open().evaluate(CAR_AT(0)) as number[];
    const later = await open().evaluate(CAR_AT(2.5)) as number[];
    assert.notDeepEqual(start, later);
  });

  it('shows the hostile candidate as text, and nothing it carries ran', async () => {
    const p = open();
    const text = await p.locator('table[data-table="candidates"]').textContent() ?? '';
    assert.ok(text.includes('<script>alert(1)</script>'));
    assert.ok(text.includes('<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 1">'));
    const headline = await p.locator('h1').textContent() ?? '';
    assert.match(headline, new RegExp(`^${FIXTURE.winner.name} reaches the flag in \\d+% of fresh episodes$`));
    await p.waitForTimeout(300);
    assert.equal(await p.evaluate('typeof window.__pwned'), 'undefined');
    assert.equal(await p.evaluate('document.scripts.length'), 0);
    assert.equal(await p.evaluate('document.images.length'), 0);
    assert.deepEqual(await p.evaluate(EVENT_HANDLERS), []);
    assert.deepEqual(dialogs, []);
  });

  it('makes no request but the file itself', () => {
    assert.deepEqual(otherRequests, []);
    assert.deepEqual(consoleErrors, [], 'a blocked resource or a CSP violation shows up as a console error');
  });

  it('saves a full-page screenshot', async () => {
    const path = process.env.CARD_SCREENSHOT ?? join(dir, 'card.png');
    await open().evaluate(CAR_AT(2.5));
    const png = await open().screenshot({ path, fullPage: true });
    // The PNG's own header (IHDR) holds its size: the whole page, not a viewport or a blank.
    const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
    const page = await open().evaluate('[document.documentElement.scrollWidth, document.documentElement.scrollHeight]') as number[];
    assert.deepEqual([width, height], page);
    assert.ok(height > 2 * 900, `a full page is taller than two screens (${height} px)`);
    assert.ok(existsSync(path));
  });

  it('would have noticed a payload that runs (the detector works)', async () => {
    assert.ok(browser !== undefined);
    const control = await browser.newContext();
    await control.setOffline(true);
    const p = await control.newPage();
    await p.route('**/*', (route) => route.abort());
    await p.setContent('<img src="x" onerror="window.__pwned = 1">');
    await p.waitForFunction('window.__pwned === 1', undefined, { timeout: 60_000 });
    await control.close();
  });
});

/** The bounding box of the pendulum's bob (the rod's end) at t seconds into the animation. */
const BOB_AT = (t: number): string => `(() => {
  const svg = document.querySelector('svg[data-chart="pendulum-animation"]');
  svg.pauseAnimations();
  svg.setCurrentTime(${t});
  const b = svg.querySelector('g > g > circle').getBoundingClientRect();
  return [Math.round(b.x), Math.round(b.y)];
})()`;

describe('Function: the card of a Pendulum-v1 search in a browser', () => {
  let dir = '';
  let browser: Browser | undefined;
  let page: Page | undefined;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'card-browser-pendulum-'));
    const file = join(dir, 'card.html');
    writeFileSync(file, renderCardHtml(PENDULUM));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 120_000 });
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    await context.setOffline(true);
    page = await context.newPage();
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load', timeout: 60_000 });
  });

  after(async () => {
    await browser?.close();
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  it('headlines the task\'s success words and draws its charts, not MountainCar\'s', async () => {
    assert.ok(page !== undefined);
    const headline = await page.locator('h1').textContent() ?? '';
    assert.match(headline, new RegExp(`^${PENDULUM.winner.name} holds the pendulum upright in \\d+% of fresh episodes$`));
    const charts = (await page.evaluate(MEASURE_CHARTS) as ChartGeometry[]).map((c) => c.name);
    assert.ok(charts.includes('pendulum-animation'), charts.join(', '));
    assert.ok(!charts.includes('car-animation') && !charts.includes('phase-portrait'), charts.join(', '));
  });

  it('swings the pendulum along the episode (SMIL, no script)', async () => {
    assert.ok(page !== undefined);
    const start = await page.evaluate(BOB_AT(0)) as number[];
    const later = await page.evaluate(BOB_AT(1.5)) as number[];
    assert.notDeepEqual(start, later);
    const path = process.env.CARD_SCREENSHOT_PENDULUM ?? join(dir, 'card-pendulum.png');
    await page.screenshot({ path, fullPage: true });
    assert.ok(existsSync(path));
  });
});
