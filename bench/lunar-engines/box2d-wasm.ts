/**
 * Box2D 2.4.1 compiled to WebAssembly (the box2d-wasm package), loaded once per process.
 *
 * The wasm file is read from the package, or, in a Lambda bundle (where node_modules is gone),
 * from beside the bundle; handing it over as `wasmBinary` keeps emscripten's glue from trying
 * `fetch` on a file path (Node has fetch; the glue then fails). The glue also installs process
 * handlers that rethrow uncaught exceptions and rejections: they are removed again, so that the
 * host (the test runner, the Lambda runtime) keeps handling its own errors.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import Box2DFactory from 'box2d-wasm';

export type Box2DModule = typeof Box2D & EmscriptenModule;

/**
 * The package's entry loads its SIMD build where WebAssembly SIMD validates (every Node since 16)
 * and its plain build elsewhere; the same test picks the matching binary (wasm-feature-detect's probe).
 */
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);
const wasmApi = (globalThis as unknown as { WebAssembly: { validate(bytes: Uint8Array): boolean } }).WebAssembly;
const WASM = wasmApi.validate(SIMD_PROBE) ? 'Box2D.simd.wasm' : 'Box2D.wasm';

function wasmPath(): string {
  try {
    return createRequire(import.meta.url).resolve(`box2d-wasm/dist/umd/${WASM}`);
  } catch {
    const beside = fileURLToPath(new URL(WASM, import.meta.url));
    if (existsSync(beside)) return beside;
    throw new Error(`box2d-wasm: ${WASM} is neither in node_modules/box2d-wasm nor beside ${fileURLToPath(import.meta.url)}`);
  }
}

async function load(): Promise<Box2DModule> {
  const exceptions = new Set(process.listeners('uncaughtException'));
  const rejections = new Set(process.listeners('unhandledRejection'));
  const module = await Box2DFactory({ wasmBinary: readFileSync(wasmPath()) });
  for (const l of process.listeners('uncaughtException')) if (!exceptions.has(l)) process.removeListener('uncaughtException', l);
  for (const l of process.listeners('unhandledRejection')) if (!rejections.has(l)) process.removeListener('unhandledRejection', l);
  return module;
}

/** The Box2D module: every world of every copy lives in its one wasm memory. */
export const b2: Box2DModule = await load();
