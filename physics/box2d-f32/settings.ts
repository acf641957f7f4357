/**
 * Box2D 2.3's settings (b2Settings.h, as pybox2d 2.3.10 builds it), in float32.
 *
 * This folder is a port of the parts of Box2D 2.3.x (Erin Catto, zlib licence; the C++ that
 * pybox2d 2.3.10 compiles and Gymnasium runs) that LunarLander uses: polygon and edge shapes,
 * the edge-polygon collider, the contact and revolute-joint solvers, islands and sleep, and
 * continuous collision (time of impact). Every arithmetic result is rounded to float32 with
 * `f` (Math.fround) in the C++ order of operations: a float32 sum, product, quotient or square
 * root computed in float64 and rounded once is the float32 result, so the port reproduces
 * Box2D's arithmetic; sinf and cosf are glibc's algorithm (sincosf.ts).
 */
export const f = Math.fround;

export const FLT_EPSILON = 1.1920928955078125e-7;
export const FLT_MAX = 3.4028234663852886e38;
export const PI = f(3.14159265359);
export const LINEAR_SLOP = f(0.005);
/** (2.0f / 180.0f * b2_pi), folded in float by the compiler. */
export const ANGULAR_SLOP = f(f(f(2) / f(180)) * PI);
export const POLYGON_RADIUS = f(2 * LINEAR_SLOP);
export const AABB_EXTENSION = f(0.1);
export const AABB_MULTIPLIER = 2;
export const MAX_SUB_STEPS = 8;
export const MAX_TOI_CONTACTS = 32;
export const VELOCITY_THRESHOLD = 1;
export const MAX_LINEAR_CORRECTION = f(0.2);
export const MAX_ANGULAR_CORRECTION = f(f(f(8) / f(180)) * PI);
export const MAX_TRANSLATION = 2;
export const MAX_TRANSLATION_SQUARED = 4;
export const MAX_ROTATION = f(0.5 * PI);
export const MAX_ROTATION_SQUARED = f(MAX_ROTATION * MAX_ROTATION);
export const BAUMGARTE = f(0.2);
export const TOI_BAUMGARTE = f(0.75);
export const TIME_TO_SLEEP = 0.5;
export const LINEAR_SLEEP_TOLERANCE = f(0.01);
export const ANGULAR_SLEEP_TOLERANCE = f(f(f(2) / f(180)) * PI);
/** pybox2d raises Box2D's b2_maxPolygonVertices to 16 (the TOI's push-back limit uses it). */
export const MAX_POLYGON_VERTICES = 16;

/** sinf and cosf: glibc's (sincosf.ts). */
export { cosf, sinf } from './sincosf.ts';
/** b2Sqrt (sqrtf). */
export const sqrtf = (x: number): number => f(Math.sqrt(x));
/** b2Clamp. */
export const clamp = (a: number, low: number, high: number): number => {
  const m = a < high ? a : high;
  return low < m ? m : low;
};
/** b2Max and b2Min (the first argument wins a tie, as in Box2D). */
export const max = (a: number, b: number): number => (a < b ? b : a);
export const min = (a: number, b: number): number => (a < b ? a : b);
