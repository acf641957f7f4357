/** The LunarLanders on planck (their engine before box2d-f32), for `npm run bench` to measure beside. */
import type { VecEnv } from '../../tasks/contract.ts';
import { LunarLanderDiscreteEnv } from '../../tasks/lunar-lander/environment.ts';
import { LunarLanderContinuousEnv } from '../../tasks/lunar-lander-continuous/environment.ts';
import { PlanckLanderWorld } from './planck-world.ts';

/** A LunarLander task's environment on planck, or null for another task. */
export function planckLander(taskId: string, n: number, seed: number): VecEnv | null {
  const engine = (): PlanckLanderWorld => new PlanckLanderWorld();
  if (taskId === 'LunarLander-v3') return new LunarLanderDiscreteEnv(n, seed, engine);
  if (taskId === 'LunarLanderContinuous-v3') return new LunarLanderContinuousEnv(n, seed, engine);
  return null;
}
