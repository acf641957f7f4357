/** The TensorFlow.js backend is chosen on purpose (EUREKA_TFJS_BACKEND), and every seed-run says which ran. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backendChoice, BackendUnavailable, initBackend } from '../functions/train-seed/backend.ts';

describe('Function: backendChoice', () => {
  it('is wasm unless the environment asks for tfjs-node, whatever is installed', () => {
    assert.equal(backendChoice(undefined), 'wasm');
    assert.equal(backendChoice('wasm'), 'wasm');
    assert.equal(backendChoice('tfjs-node'), 'tfjs-node');
  });

  it('refuses an unknown backend, naming the choices', () => {
    assert.throws(() => backendChoice('webgl'), (error) => error instanceof BackendUnavailable &&
      error.message === 'EUREKA_TFJS_BACKEND=webgl: choose one of wasm, tfjs-node');
  });

  it('sets up the backend this suite runs on, and says which', async (t) => {
    const expected = backendChoice() === 'wasm' ? 'wasm' : 'tensorflow';
    const backend = await initBackend();
    t.diagnostic(`the test suite runs TensorFlow.js on ${backend}`);
    assert.equal(backend, expected);
  });
});
