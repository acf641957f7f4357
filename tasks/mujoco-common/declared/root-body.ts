/**
 * The body that moves a declared robot about, one rule for the template that names it
 * (local/robot-task-text.ts, on the compiled model) and the card that follows it (render.ts, on the
 * robot's facts): the first free joint's body, else the first body under the world that has joints
 * (a planar robot's root, moved by slides and a hinge); -1 where no body under the world has one.
 */
export function rootBodyOf(parents: ArrayLike<number>, joints: ReadonlyArray<{ body: number; free: boolean }>): number {
  const free = joints.find((j) => j.free);
  if (free !== undefined) return free.body;
  for (let b = 1; b < parents.length; b++) if (parents[b] === 0 && joints.some((j) => j.body === b)) return b;
  return -1;
}
