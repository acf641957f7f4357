/**
 * Every task against episodes recorded by running the real Gymnasium 1.4.0
 * (test/fixtures/golden/, copied from shared/golden/): every step's internal state, float32
 * observation, reward, terminated and truncated.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { RecordingSchema, compareEpisode, replayEpisode } from '../tasks/conformance.ts';
import { CONFORMANCE_TOLERANCE } from '../tasks/lunar-lander/spec-parts.ts';
import { getTask } from '../tasks/registry.ts';

/**
 * Largest deviation allowed per field. Float64 in Gymnasium's order reproduces the state to the
 * last bit or nearly (libm's cos and JavaScript's may differ in the last bit); the observation is
 * the state rounded to float32, so it matches exactly unless a state sits on a rounding boundary.
 * Acrobot integrates with RK4 and accumulates round-off over hundreds of steps.
 */
const TOLERANCE: Record<string, { state: number; obs: number; reward: number }> = {
  'MountainCar-v0': { state: 1e-15, obs: 0, reward: 0 },
  'MountainCarContinuous-v0': { state: 1e-12, obs: 1e-7, reward: 1e-12 },
  'CartPole-v1': { state: 1e-12, obs: 1e-7, reward: 0 },
  'Acrobot-v1': { state: 1e-9, obs: 1e-6, reward: 0 },
  'Pendulum-v1': { state: 1e-12, obs: 1e-7, reward: 1e-9 },
  // What the LunarLanders declare for `eureka conformance` (spec-parts.ts says why): planck is not
  // Box2D. The free flight is checked to 1e-3 in task-lunar-lander.test.ts; here every episode
  // must still end on the same step, the same way.
  'LunarLander-v3': CONFORMANCE_TOLERANCE,
  'LunarLanderContinuous-v3': CONFORMANCE_TOLERANCE,
};

const fixture = (id: string): URL => new URL(`./fixtures/golden/${id}.json`, import.meta.url);

describe('Conformance: every task against recorded Gymnasium episodes', () => {
  for (const [id, tolerance] of Object.entries(TOLERANCE)) {
    it(`${id} replays every recorded episode within ${tolerance.state} (state) and ${tolerance.obs} (observation)`, (t) => {
      if (!existsSync(fixture(id))) assert.fail(`no golden fixture for ${id}`);
      const recording = RecordingSchema.parse(JSON.parse(readFileSync(fixture(id), 'utf8')));
      const task = getTask(id);
      assert.equal(recording.max_episode_steps, task.maxEpisodeSteps, 'the time limit');
      const endings = new Set<string>();
      for (const episode of recording.episodes) {
        const deviation = compareEpisode(episode, replayEpisode(task, episode));
        const at = `${id} seed ${episode.seed} (${episode.policy})`;
        assert.equal(deviation.flagMismatches, 0, `${at}: terminated/truncated differ first at step ${deviation.firstFlagMismatch}`);
        assert.equal(deviation.steps, episode.steps.length, `${at}: steps compared`);
        assert.ok(deviation.state <= tolerance.state, `${at}: state deviates by ${deviation.state}`);
        assert.ok(deviation.obs <= tolerance.obs, `${at}: observation deviates by ${deviation.obs}`);
        assert.ok(deviation.reward <= tolerance.reward, `${at}: reward deviates by ${deviation.reward}`);
        const last = episode.steps[episode.steps.length - 1];
        endings.add(last.terminated ? 'terminated' : 'truncated');
        t.diagnostic(`${at}: ${deviation.steps} steps, state ${deviation.state}, obs ${deviation.obs}, reward ${deviation.reward}`);
      }
      assert.ok(endings.size >= 1);
    });
  }
});
