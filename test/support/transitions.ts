/**
 * MountainCar transitions for the sandbox's tests: states across the valley, one in eight just
 * below the flag (many of them terminal), one in eight against the left wall, one in eight at a
 * reset state, stepped with Gymnasium's dynamics. Random actions from the reset states alone never
 * reach the flag, and these tests need terminal transitions too.
 */
import { Random } from '../../core/random.ts';
import type { TransitionBatch } from '../../functions/train-seed/sandbox.ts';
import { GOAL_POSITION, MAX_SPEED, MIN_POSITION, MountainCarEnv } from '../../tasks/mountain-car/environment.ts';

export function mountainCarTransitions(count: number, seed: number): TransitionBatch {
  const rng = new Random(seed);
  const env = new MountainCarEnv(1, seed);
  env.autoReset = false;
  const batch: TransitionBatch = {
    count,
    obs: new Float32Array(2 * count),
    actions: new Float64Array(count),
    nextObs: new Float32Array(2 * count),
    terminated: new Uint8Array(count),
  };
  for (let i = 0; i < count; i++) {
    let position = rng.uniform(MIN_POSITION, GOAL_POSITION);
    let velocity = rng.uniform(-MAX_SPEED, MAX_SPEED);
    if (i % 8 === 0) [position, velocity] = [rng.uniform(0.42, GOAL_POSITION), rng.uniform(0, MAX_SPEED)];
    if (i % 8 === 1) [position, velocity] = [rng.uniform(MIN_POSITION, -1.1), rng.uniform(-MAX_SPEED, 0)];
    if (i % 8 === 2) [position, velocity] = [rng.uniform(-0.6, -0.4), 0];
    env.states[0].set([position, velocity]);
    env.restartFromState(0);
    const action = rng.int(3);
    batch.obs.set(env.obs, 2 * i);
    env.step([action]);
    batch.actions[i] = action;
    batch.nextObs.set(env.finalObs, 2 * i);
    batch.terminated[i] = env.terminated[0];
  }
  return batch;
}
