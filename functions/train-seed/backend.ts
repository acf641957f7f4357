/**
 * The TensorFlow.js backend: the native one when @tensorflow/tfjs-node is installed (it is an
 * optional dependency and cannot install everywhere), else WebAssembly with SIMD, single thread.
 */
import * as tf from '@tensorflow/tfjs-core';

let chosen: Promise<string> | undefined;

export function initBackend(): Promise<string> {
  chosen ??= pick();
  return chosen;
}

async function pick(): Promise<string> {
  if (process.env.EUREKA_TFJS_BACKEND !== 'wasm' && (await tryImport('@tensorflow/tfjs-node'))) {
    await tf.setBackend('tensorflow');
  } else {
    const wasm = await import('@tensorflow/tfjs-backend-wasm');
    // In a Lambda bundle the .wasm files are copied next to the handler (see infra/).
    const dir = process.env.EUREKA_TFJS_WASM_DIR;
    if (dir) wasm.setWasmPaths(dir.endsWith('/') ? dir : `${dir}/`);
    await tf.setBackend('wasm');
  }
  await tf.ready();
  return tf.getBackend();
}

async function tryImport(name: string): Promise<boolean> {
  try {
    await import(name);
    return true;
  } catch {
    return false;
  }
}
