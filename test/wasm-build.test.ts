/**
 * The project's WebAssembly kernels are committed as generated modules (`npm run build:wasm`):
 * each must be exactly what its AssemblyScript source compiles to now, so what runs is what the
 * source says.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, it } from 'node:test';
import { compile, kernels, moduleText } from '../scripts/build-wasm.ts';

describe('Script: build-wasm', () => {
  it('finds the kernels', () => {
    assert.ok(kernels().some((k) => k.output.endsWith('functions/train-seed/mlp-kernel-wasm.ts')));
  });

  for (const kernel of kernels()) {
    it(`${relative(process.cwd(), kernel.output)} is what ${relative(process.cwd(), kernel.source)} compiles to`, async () => {
      const expected = moduleText(kernel, await compile(kernel));
      assert.equal(readFileSync(kernel.output, 'utf8'), expected, 'stale: run npm run build:wasm');
    });
  }
});
