/** The LunarLanders on another engine than box2d-f32, for the bench to measure beside it. */
import type { VecEnv } from '../../tasks/contract.ts';
import type { EngineFactory } from '../../tasks/lunar-lander-common/physics.ts';
import { LunarLanderDiscreteEnv } from '../../tasks/lunar-lander/environment.ts';
import { LunarLanderContinuousEnv } from '../../tasks/lunar-lander-continuous/environment.ts';
import { PlanckLanderWorld } from './planck-world.ts';

/** A LunarLander task's environment on this engine, or null for another task. */
export function landerOn(engine: EngineFactory, taskId: string, n: number, seed: number): VecEnv | null {
  if (taskId === 'LunarLander-v3') return new LunarLanderDiscreteEnv(n, seed, engine);
  if (taskId === 'LunarLanderContinuous-v3') return new LunarLanderContinuousEnv(n, seed, engine);
  return null;
}

/** On planck (their engine before box2d-f32). */
export function planckLander(taskId: string, n: number, seed: number): VecEnv | null {
  return landerOn(() => new PlanckLanderWorld(), taskId, n, seed);
}
