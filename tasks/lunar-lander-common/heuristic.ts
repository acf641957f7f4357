/**
 * Gymnasium's own `heuristic(env, s)` lander (gymnasium/envs/box2d/lunar_lander.py), ported as
 * trusted test code: it points the lander towards the pad, holds a target height proportional
 * to the horizontal offset, and after touchdown only brakes the fall. Gymnasium scores it at a
 * mean return of 249 (discrete) and 279 (continuous) over 50 seeds (shared/golden).
 */

/**
 * What both variants compute: how much to turn and how much to climb. `hoverAt` replaces the
 * target height (the screen's bank hovers at a fixed one, tasks/lunar-lander-common/bank-policies.ts).
 */
export function todo(s: ArrayLike<number>, hoverAt?: number): { angleTodo: number; hoverTodo: number } {
  let angleTarg = s[0] * 0.5 + s[2] * 1.0; // angle should point towards center
  if (angleTarg > 0.4) angleTarg = 0.4; // more than 0.4 radians (22 degrees) is bad
  if (angleTarg < -0.4) angleTarg = -0.4;
  const hoverTarg = hoverAt ?? 0.55 * Math.abs(s[0]); // target y should be proportional to horizontal offset

  let angleTodo = (angleTarg - s[4]) * 0.5 - s[5] * 1.0;
  let hoverTodo = (hoverTarg - s[1]) * 0.5 - s[3] * 0.5;

  if (s[6] !== 0 || s[7] !== 0) {
    // legs have contact
    angleTodo = 0;
    hoverTodo = -s[3] * 0.5; // override to reduce fall speed, that's all we need after contact
  }
  return { angleTodo, hoverTodo };
}

/** LunarLander-v3: 0 noop, 1 left engine, 2 main engine, 3 right engine. */
export function heuristicDiscrete(s: ArrayLike<number>, hoverAt?: number): number {
  const { angleTodo, hoverTodo } = todo(s, hoverAt);
  if (hoverTodo > Math.abs(angleTodo) && hoverTodo > 0.05) return 2;
  if (angleTodo < -0.05) return 3;
  if (angleTodo > +0.05) return 1;
  return 0;
}

/** LunarLanderContinuous-v3: [main, lateral], clipped to [-1, 1]. */
export function heuristicContinuous(s: ArrayLike<number>, hoverAt?: number): [number, number] {
  const { angleTodo, hoverTodo } = todo(s, hoverAt);
  const clip = (v: number): number => Math.min(Math.max(v, -1), 1);
  return [clip(hoverTodo * 20 - 1), clip(-angleTodo * 20)];
}
