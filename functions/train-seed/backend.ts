/**
 * The TensorFlow.js backend, chosen on purpose by EUREKA_TFJS_BACKEND: 'wasm' (the default: WebAssembly
 * with SIMD, single thread, shipped inside its npm package) or 'tfjs-node' (the native backend of the
 * optional dependency @tensorflow/tfjs-node, which downloads libtensorflow when it installs and so
 * cannot install everywhere). Nothing switches on its own because a package happens to be there.
 * Every seed result records the backend that ran.
 */
import * as tf from '@tensorflow/tfjs-core';
import { optionalEnv } from '../shared/ops/env.ts';

export const BACKENDS = ['wasm', 'tfjs-node'] as const;
export type BackendChoice = (typeof BACKENDS)[number];

/** Named in a variable, so the typecheck does not look for the optional package's types. */
const TFJS_NODE = '@tensorflow/tfjs-node';

export class BackendUnavailable extends Error {
  override readonly name = 'BackendUnavailable';
}

/** The backend the environment asks for; an unknown value is an error that names the choices. */
export function backendChoice(value: string | undefined = optionalEnv('EUREKA_TFJS_BACKEND')): BackendChoice {
  if (value === undefined) return 'wasm';
  const choice = BACKENDS.find((b) => b === value);
  if (choice === undefined) throw new BackendUnavailable(`EUREKA_TFJS_BACKEND=${value}: choose one of ${BACKENDS.join(', ')}`);
  return choice;
}

let chosen: Promise<string> | undefined;

/** Sets the chosen backend up once per process; resolves to tfjs's name for it ('wasm' or 'tensorflow'). */
export function initBackend(): Promise<string> {
  chosen ??= start(backendChoice());
  return chosen;
}

async function start(choice: BackendChoice): Promise<string> {
  if (choice === 'tfjs-node') {
    try {
      await import(TFJS_NODE);
    } catch (error) {
      throw new BackendUnavailable(`EUREKA_TFJS_BACKEND=tfjs-node, but @tensorflow/tfjs-node does not load: ${(error as Error).message.split('\n')[0]}`);
    }
    await tf.setBackend('tensorflow');
  } else {
    const wasm = await import('@tensorflow/tfjs-backend-wasm');
    // In a Lambda bundle the .wasm files are copied next to the handler (see infra/).
    const dir = optionalEnv('EUREKA_TFJS_WASM_DIR');
    if (dir) wasm.setWasmPaths(dir.endsWith('/') ? dir : `${dir}/`);
    await tf.setBackend('wasm');
  }
  await tf.ready();
  return tf.getBackend();
}
