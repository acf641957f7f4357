/**
 * The task every command uses when none is given. Its own module so the CLI can show it in --help
 * without loading the registry (a broken task folder must fail only the commands that need tasks).
 */
export const DEFAULT_TASK_ID = 'MountainCar-v0';
