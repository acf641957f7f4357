/**
 * The floors (STYLE.md): a folder imports only folders beneath it. core/ stands under tasks/,
 * tasks/ under functions/, so a task folder can be read, tested and copied with only core/ beside it.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..');

/** Folders above each floor: what code on that floor may not import. */
const FORBIDDEN: Record<string, string[]> = {
  core: ['tasks', 'functions', 'infra', 'local', 'bench', 'test'],
  tasks: ['functions', 'infra', 'local', 'bench', 'test'],
  'test/fixtures/tasks': ['functions', 'infra', 'local', 'bench'],
};

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const specs = [...source.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]);
  return specs.map((spec) => relative(ROOT, resolve(dirname(file), spec)));
}

describe('Floors', () => {
  for (const [floor, above] of Object.entries(FORBIDDEN)) {
    it(`${floor}/ imports nothing from ${above.join(', ')}`, () => {
      const offending = tsFiles(join(ROOT, floor)).flatMap((file) =>
        importsOf(file).filter((target) => above.some((top) => target === top || target.startsWith(`${top}/`)))
          .map((target) => `${relative(ROOT, file)} -> ${target}`));
      assert.deepEqual(offending, []);
    });
  }
});
