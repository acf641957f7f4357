/**
 * MuJoCo's official WebAssembly build (`@mujoco/mujoco`, Google DeepMind's bindings), loaded once
 * per process. Loading compiles a 10 MB module (about 0.2 s and 50 MB of memory), so it happens on
 * the first `loadMujoco()`, not at import: a process that never steps a robot never pays for it.
 * Everything after the load is synchronous (`mujoco()`), as a task's `makeEnv` must be.
 */
import loadModule, { type MainModule } from '@mujoco/mujoco';

export type { MainModule as Mujoco, MjData, MjModel } from '@mujoco/mujoco';

export class MujocoNotLoaded extends Error {
  override readonly name = 'MujocoNotLoaded';
}

let loading: Promise<MainModule> | undefined;
let loaded: MainModule | undefined;

/**
 * The engine, loaded on the first call (later calls share it). A load that failed is not kept: the
 * callers waiting on it see its error, and the next call loads again (a warm worker or a Lambda
 * container lives on after one failed invocation).
 */
export async function loadMujoco(): Promise<MainModule> {
  loading ??= loadModule().then(
    (module) => {
      loaded = module;
      return module;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The loaded engine; throws when `loadMujoco()` has not finished (a task's `prepare` awaits it). */
export function mujoco(): MainModule {
  if (loaded === undefined) throw new MujocoNotLoaded('MuJoCo is not loaded: await loadMujoco() (a task\'s prepare()) before making its environment');
  return loaded;
}
