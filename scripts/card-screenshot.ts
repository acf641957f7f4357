/**
 * `npx tsx scripts/card-screenshot.ts CARD.html OUT.png [--height PX]`: the top of a card (its
 * headline, the score tiles and the headline table) as a small PNG, for the README. Debian's
 * chromium driven by playwright-core, as test/card-browser.test.ts does, with the network off: the
 * card loads nothing, and the page is exactly what a reader sees.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'];

const [card, out] = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--height');
const heightFlag = process.argv.indexOf('--height');
const height = heightFlag > 0 ? Number(process.argv[heightFlag + 1]) : 620;
if (card === undefined || out === undefined || !Number.isInteger(height) || height < 100) {
  process.stderr.write('usage: npx tsx scripts/card-screenshot.ts CARD.html OUT.png [--height PX]\n');
  process.exit(2);
}

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 15_000 });
try {
  const context = await browser.newContext({ viewport: { width: 1000, height }, deviceScaleFactor: 1 });
  await context.setOffline(true);
  const page = await context.newPage();
  await page.goto(pathToFileURL(resolve(card)).href, { waitUntil: 'load', timeout: 10_000 });
  const png = await page.screenshot({ fullPage: false });
  writeFileSync(out, png);
  process.stdout.write(`${out}: ${png.readUInt32BE(16)}x${png.readUInt32BE(20)} px, ${(png.length / 1024).toFixed(0)} KiB\n`);
} finally {
  await browser.close();
}
