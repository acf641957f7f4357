/**
 * The README and docs/ hold together: every relative link reaches a file (and its heading, when it
 * names one), the README stays a ten-minute read, every docs page opens by saying what its
 * reader can do after reading it, every table row has its header's cells, the MuJoCo page's
 * table of tasks names each MuJoCo task once, and the pages that set up EUREKA_TASK_PATH say that
 * its folders run as the user. Reads files only: no build, no network.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const README_MAX_LINES = 400;
const OPENING = 'After reading this page you can';


const docsPages = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
const pages = ['README.md', ...docsPages];
const read = (page: string): string => readFileSync(join(ROOT, page), 'utf8');

/** The lines outside fenced code blocks, where links and headings live. */
function outsideFences(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === null || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence === null ? marker : null;
    } else if (fence === null) {
      lines.push(line);
    }
  }
  return lines;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string): string =>
  heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');

/** The page's anchors; a repeated heading gets -1, -2, ... as on GitHub. */
function anchors(page: string): Set<string> {
  const found = new Set<string>();
  const times = new Map<string, number>();
  for (const line of outsideFences(read(page))) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const n = times.get(base) ?? 0;
    found.add(n === 0 ? base : `${base}-${n}`);
    times.set(base, n + 1);
  }
  return found;
}

/** A table row's cells, as GitHub splits them: at every pipe not escaped with a backslash. */
const cellsOf = (row: string): string[] => row.trim().replace(/^\|/, '').replace(/\|$/, '').split(/(?<!\\)\|/).map((c) => c.trim());

/** Each table of the page (outside code blocks): its rows' cells, the header first. */
function tables(page: string): string[][][] {
  const found: string[][][] = [];
  let current: string[][] | null = null;
  for (const text of outsideFences(read(page))) {
    if (!text.trim().startsWith('|')) {
      current = null;
      continue;
    }
    if (current === null) found.push((current = []));
    current.push(cellsOf(text));
  }
  return found;
}

/** The MuJoCo tasks' ids, from their folders (tasks/<folder>/task.ts). */
function mujocoTaskIds(): string[] {
  return readdirSync(join(ROOT, 'tasks')).flatMap((folder) => {
    const file = join(ROOT, 'tasks', folder, 'task.ts');
    if (!existsSync(file) || !read(`tasks/${folder}/task.ts`).includes('MUJOCO_PPO')) return [];
    const id = /\bid: '([^']+)'/.exec(read(`tasks/${folder}/task.ts`))?.[1];
    return id === undefined ? [] : [id];
  });
}

function relativeLinks(page: string): string[] {
  const targets = outsideFences(read(page)).flatMap((line) => [...line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]));
  return targets.filter((t) => !/^[a-z]+:/i.test(t));
}

describe('Docs: README.md and docs/', () => {
  it('links only to files that exist, and to headings that exist in them', () => {
    const broken: string[] = [];
    for (const page of pages) {
      for (const link of relativeLinks(page)) {
        const [path, anchor] = link.split('#');
        const target = path === '' ? page : relative(ROOT, resolve(ROOT, dirname(page), path));
        if (!existsSync(join(ROOT, target))) {
          broken.push(`${page}: ${link} (no such file)`);
        } else if (anchor !== undefined && target.endsWith('.md') && !anchors(target).has(anchor)) {
          broken.push(`${page}: ${link} (no such heading in ${target})`);
        }
      }
    }
    assert.deepEqual(broken, []);
  });

  it('lists every docs page in the index, docs/README.md', () => {
    const listed = new Set(relativeLinks('docs/README.md').map((link) => `docs/${link.split('#')[0]}`));
    assert.deepEqual(docsPages.filter((page) => page !== 'docs/README.md' && !listed.has(page)), []);
  });

  it(`keeps the README under ${README_MAX_LINES} lines`, () => {
    const lines = read('README.md').split('\n').length;
    assert.ok(lines < README_MAX_LINES, `README.md has ${lines} lines`);
  });

  it('opens every docs page, after its title, with what its reader can do after reading it', () => {
    const unopened = docsPages.filter((page) => {
      const [title, ...rest] = read(page).split('\n').filter((line) => line.trim() !== '');
      return !title.startsWith('# ') || !rest[0]?.startsWith(OPENING);
    });
    assert.deepEqual(unopened, [], `each should open with "# Title", then "${OPENING} ..."`);
  });

  it('gives every table row as many cells as its header (a row pasted into the wrong table shows)', () => {
    const off: string[] = [];
    for (const page of pages) {
      for (const [header, ...rows] of tables(page)) {
        for (const row of rows) if (row.length !== header.length) off.push(`${page}: the row "${row[0]}" has ${row.length} cells under the header "${header.join(' | ')}"`);
      }
    }
    assert.deepEqual(off, []);
  });

  it('names each MuJoCo task once in docs/mujoco.md\'s table of tasks', () => {
    const ids = mujocoTaskIds();
    assert.equal(ids.length, 8);
    const table = tables('docs/mujoco.md').find(([header]) => header[0] === 'task' && header.includes('success (per greedy evaluation episode)'));
    assert.ok(table, 'the table of tasks');
    // Its rows below the header and the |---| line.
    const named = table.slice(2).map((row) => row[0].replace(/`/g, ''));
    assert.deepEqual([...named].sort(), [...ids].sort());
  });

  it('says plainly, on the pages that set up EUREKA_TASK_PATH, that a task folder runs with the user\'s full rights', () => {
    // test/own-task.test.ts holds the claim: tasks and show import a folder's task.ts.
    for (const page of ['docs/your-own-task.md', 'docs/cli.md']) {
      const paragraph = read(page).split('\n\n').map((p) => p.replace(/\s+/g, ' ')).find((p) => p.includes('full rights'));
      assert.ok(paragraph, `${page} says a task folder runs with full rights`);
      for (const words of ['EUREKA_TASK_PATH', '`task.ts`', '`tasks`', '`show`', 'TrainSeed worker', 'in no sandbox']) assert.ok(paragraph.includes(words), `${page}: ${words}`);
    }
  });
});
