/** The LunarLanders on box2d-wasm (Box2D 2.4.1 in WebAssembly), for bench/env-speed.ts to measure beside. */
import type { VecEnv } from '../../tasks/contract.ts';
import { LunarLanderDiscreteEnv } from '../../tasks/lunar-lander/environment.ts';
import { LunarLanderContinuousEnv } from '../../tasks/lunar-lander-continuous/environment.ts';
import { Box2DLanderWorld } from './box2d-wasm-world.ts';

/** A LunarLander task's environment on box2d-wasm, or null for another task. */
export function box2dWasmLander(taskId: string, n: number, seed: number): VecEnv | null {
  const engine = (): Box2DLanderWorld => new Box2DLanderWorld();
  if (taskId === 'LunarLander-v3') return new LunarLanderDiscreteEnv(n, seed, engine);
  if (taskId === 'LunarLanderContinuous-v3') return new LunarLanderContinuousEnv(n, seed, engine);
  return null;
}
