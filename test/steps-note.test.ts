/**
 * A budget that is not whole rollouts (issue 35: `--steps 20000` trained 18,432 without saying
 * so): the command says on stderr what a seed-run will train, and trains that; stdout stays one
 * JSON object.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eureka } from './support/eureka-cli.ts';

const EXAMPLES = new URL('../examples/', import.meta.url).pathname;

describe('CLI: a --steps between two rollouts', () => {
  it('train says what it trains, and trains that', async () => {
    const ran = await eureka(['train', '--reward', `${EXAMPLES}energy.js`, '--steps', '3000', '--eval-episodes', '2', '--json']);
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stderr, /^eureka: note: --steps 3,000: a seed-run of MountainCar-v0 trains whole rollouts of 2,048 steps \(16 environments × 128\), so 2,048; --steps 4,096 trains 4,096\n/);
    assert.equal(JSON.parse(ran.stdout).stepsTrained, 2048);
  });

  it('search says it before the search starts, and says nothing of whole rollouts', async () => {
    const rounded = await eureka(['search', '--steps', '20000', '--estimate', '--json']);
    assert.equal(rounded.code, 0, rounded.stderr);
    assert.match(rounded.stderr, /eureka: note: --steps 20,000: .* so 18,432; --steps 20,480 trains 20,480\n/);
    assert.ok(JSON.parse(rounded.stdout));
    const whole = await eureka(['search', '--steps', '20480', '--estimate', '--json']);
    assert.equal(whole.code, 0, whole.stderr);
    assert.doesNotMatch(whole.stderr, /note: --steps/);
  });
});
