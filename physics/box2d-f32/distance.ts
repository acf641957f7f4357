/**
 * Box2D 2.3's GJK distance (b2Distance.cpp) between two convex proxies, with its simplex cache,
 * in float32. Only what the time of impact needs: useRadii is false.
 */
import { f, FLT_EPSILON, FLT_MAX, sqrtf } from './settings.ts';
import type { Transform } from './collide.ts';

export interface Proxy {
  vertices: Float64Array;
  count: number;
  radius: number;
}

export interface SimplexCache {
  metric: number;
  count: number;
  indexA: Int32Array;
  indexB: Int32Array;
}

export const newCache = (): SimplexCache => ({ metric: 0, count: 0, indexA: new Int32Array(3), indexB: new Int32Array(3) });

export function support(p: Proxy, dx: number, dy: number): number {
  let bestIndex = 0;
  let bestValue = f(f(p.vertices[0] * dx) + f(p.vertices[1] * dy));
  for (let i = 1; i < p.count; i++) {
    const value = f(f(p.vertices[2 * i] * dx) + f(p.vertices[2 * i + 1] * dy));
    if (value > bestValue) {
      bestIndex = i;
      bestValue = value;
    }
  }
  return bestIndex;
}

interface SimplexVertex { wAx: number; wAy: number; wBx: number; wBy: number; wx: number; wy: number; a: number; indexA: number; indexB: number }
const vertex = (): SimplexVertex => ({ wAx: 0, wAy: 0, wBx: 0, wBy: 0, wx: 0, wy: 0, a: 0, indexA: 0, indexB: 0 });
const V = [vertex(), vertex(), vertex()];
let count = 0;

function setVertex(v: SimplexVertex, pA: Proxy, xfA: Transform, iA: number, pB: Proxy, xfB: Transform, iB: number): void {
  v.indexA = iA;
  v.indexB = iB;
  const ax = pA.vertices[2 * iA];
  const ay = pA.vertices[2 * iA + 1];
  const bx = pB.vertices[2 * iB];
  const by = pB.vertices[2 * iB + 1];
  v.wAx = f(f(f(xfA.c * ax) - f(xfA.s * ay)) + xfA.px);
  v.wAy = f(f(f(xfA.s * ax) + f(xfA.c * ay)) + xfA.py);
  v.wBx = f(f(f(xfB.c * bx) - f(xfB.s * by)) + xfB.px);
  v.wBy = f(f(f(xfB.s * bx) + f(xfB.c * by)) + xfB.py);
  v.wx = f(v.wBx - v.wAx);
  v.wy = f(v.wBy - v.wAy);
}

const length = (x: number, y: number): number => sqrtf(f(f(x * x) + f(y * y)));

function metric(): number {
  if (count === 2) return length(f(V[0].wx - V[1].wx), f(V[0].wy - V[1].wy));
  if (count === 3) {
    const ax = f(V[1].wx - V[0].wx);
    const ay = f(V[1].wy - V[0].wy);
    const bx = f(V[2].wx - V[0].wx);
    const by = f(V[2].wy - V[0].wy);
    return f(f(ax * by) - f(ay * bx));
  }
  return 0;
}

function solve2(): void {
  const w1x = V[0].wx, w1y = V[0].wy, w2x = V[1].wx, w2y = V[1].wy;
  const ex = f(w2x - w1x);
  const ey = f(w2y - w1y);
  const d12_2 = -f(f(w1x * ex) + f(w1y * ey));
  if (d12_2 <= 0) {
    V[0].a = 1;
    count = 1;
    return;
  }
  const d12_1 = f(f(w2x * ex) + f(w2y * ey));
  if (d12_1 <= 0) {
    V[1].a = 1;
    count = 1;
    Object.assign(V[0], V[1]);
    return;
  }
  const inv = f(1 / f(d12_1 + d12_2));
  V[0].a = f(d12_1 * inv);
  V[1].a = f(d12_2 * inv);
  count = 2;
}

const dot = (ax: number, ay: number, bx: number, by: number): number => f(f(ax * bx) + f(ay * by));
const cross = (ax: number, ay: number, bx: number, by: number): number => f(f(ax * by) - f(ay * bx));

function solve3(): void {
  const w1x = V[0].wx, w1y = V[0].wy, w2x = V[1].wx, w2y = V[1].wy, w3x = V[2].wx, w3y = V[2].wy;
  const e12x = f(w2x - w1x), e12y = f(w2y - w1y);
  const d12_1 = dot(w2x, w2y, e12x, e12y);
  const d12_2 = -dot(w1x, w1y, e12x, e12y);
  const e13x = f(w3x - w1x), e13y = f(w3y - w1y);
  const d13_1 = dot(w3x, w3y, e13x, e13y);
  const d13_2 = -dot(w1x, w1y, e13x, e13y);
  const e23x = f(w3x - w2x), e23y = f(w3y - w2y);
  const d23_1 = dot(w3x, w3y, e23x, e23y);
  const d23_2 = -dot(w2x, w2y, e23x, e23y);
  const n123 = cross(e12x, e12y, e13x, e13y);
  const d123_1 = f(n123 * cross(w2x, w2y, w3x, w3y));
  const d123_2 = f(n123 * cross(w3x, w3y, w1x, w1y));
  const d123_3 = f(n123 * cross(w1x, w1y, w2x, w2y));
  if (d12_2 <= 0 && d13_2 <= 0) {
    V[0].a = 1;
    count = 1;
    return;
  }
  if (d12_1 > 0 && d12_2 > 0 && d123_3 <= 0) {
    const inv = f(1 / f(d12_1 + d12_2));
    V[0].a = f(d12_1 * inv);
    V[1].a = f(d12_2 * inv);
    count = 2;
    return;
  }
  if (d13_1 > 0 && d13_2 > 0 && d123_2 <= 0) {
    const inv = f(1 / f(d13_1 + d13_2));
    V[0].a = f(d13_1 * inv);
    V[2].a = f(d13_2 * inv);
    count = 2;
    Object.assign(V[1], V[2]);
    return;
  }
  if (d12_1 <= 0 && d23_2 <= 0) {
    V[1].a = 1;
    count = 1;
    Object.assign(V[0], V[1]);
    return;
  }
  if (d13_1 <= 0 && d23_1 <= 0) {
    V[2].a = 1;
    count = 1;
    Object.assign(V[0], V[2]);
    return;
  }
  if (d23_1 > 0 && d23_2 > 0 && d123_1 <= 0) {
    const inv = f(1 / f(d23_1 + d23_2));
    V[1].a = f(d23_1 * inv);
    V[2].a = f(d23_2 * inv);
    count = 2;
    Object.assign(V[0], V[2]);
    return;
  }
  const inv = f(1 / f(f(d123_1 + d123_2) + d123_3));
  V[0].a = f(d123_1 * inv);
  V[1].a = f(d123_2 * inv);
  V[2].a = f(d123_3 * inv);
  count = 3;
}

const saveA = new Int32Array(3);
const saveB = new Int32Array(3);

/** b2Distance with useRadii = false: the distance between the two proxies' cores; updates the cache. */
export function distance(cache: SimplexCache, pA: Proxy, xfA: Transform, pB: Proxy, xfB: Transform): number {
  // ReadCache.
  count = cache.count;
  for (let i = 0; i < count; i++) {
    setVertex(V[i], pA, xfA, cache.indexA[i], pB, xfB, cache.indexB[i]);
    V[i].a = 0;
  }
  if (count > 1) {
    const metric1 = cache.metric;
    const metric2 = metric();
    if (metric2 < f(0.5 * metric1) || f(2 * metric1) < metric2 || metric2 < FLT_EPSILON) count = 0;
  }
  if (count === 0) {
    setVertex(V[0], pA, xfA, 0, pB, xfB, 0);
    V[0].a = 1;
    count = 1;
  }

  let iter = 0;
  while (iter < 20) {
    const saveCount = count;
    for (let i = 0; i < saveCount; i++) {
      saveA[i] = V[i].indexA;
      saveB[i] = V[i].indexB;
    }
    if (count === 2) solve2();
    else if (count === 3) solve3();
    if (count === 3) break;
    // GetSearchDirection.
    let dx: number, dy: number;
    if (count === 1) {
      dx = -V[0].wx;
      dy = -V[0].wy;
    } else {
      const e12x = f(V[1].wx - V[0].wx);
      const e12y = f(V[1].wy - V[0].wy);
      const sgn = cross(e12x, e12y, -V[0].wx, -V[0].wy);
      if (sgn > 0) {
        // b2Cross(1.0f, e12) = (-1 * e12.y, 1 * e12.x)
        dx = f(-1 * e12y);
        dy = f(1 * e12x);
      } else {
        // b2Cross(e12, 1.0f) = (1 * e12.y, -1 * e12.x)
        dx = f(1 * e12y);
        dy = f(-1 * e12x);
      }
    }
    if (f(f(dx * dx) + f(dy * dy)) < f(FLT_EPSILON * FLT_EPSILON)) break;
    const v = V[count];
    // b2MulT(q, -d) and b2MulT(q, d)
    const ndx = -dx, ndy = -dy;
    const iA = support(pA, f(f(xfA.c * ndx) + f(xfA.s * ndy)), f(f(-xfA.s * ndx) + f(xfA.c * ndy)));
    const iB = support(pB, f(f(xfB.c * dx) + f(xfB.s * dy)), f(f(-xfB.s * dx) + f(xfB.c * dy)));
    setVertex(v, pA, xfA, iA, pB, xfB, iB);
    ++iter;
    let duplicate = false;
    for (let i = 0; i < saveCount; i++) {
      if (v.indexA === saveA[i] && v.indexB === saveB[i]) {
        duplicate = true;
        break;
      }
    }
    if (duplicate) break;
    ++count;
  }

  // GetWitnessPoints, then the distance between them.
  let pAx = 0, pAy = 0, pBx = 0, pBy = 0;
  if (count === 1) {
    pAx = V[0].wAx; pAy = V[0].wAy; pBx = V[0].wBx; pBy = V[0].wBy;
  } else if (count === 2) {
    pAx = f(f(V[0].a * V[0].wAx) + f(V[1].a * V[1].wAx));
    pAy = f(f(V[0].a * V[0].wAy) + f(V[1].a * V[1].wAy));
    pBx = f(f(V[0].a * V[0].wBx) + f(V[1].a * V[1].wBx));
    pBy = f(f(V[0].a * V[0].wBy) + f(V[1].a * V[1].wBy));
  } else if (count === 3) {
    pAx = f(f(f(V[0].a * V[0].wAx) + f(V[1].a * V[1].wAx)) + f(V[2].a * V[2].wAx));
    pAy = f(f(f(V[0].a * V[0].wAy) + f(V[1].a * V[1].wAy)) + f(V[2].a * V[2].wAy));
    pBx = pAx;
    pBy = pAy;
  }
  // WriteCache.
  cache.metric = metric();
  cache.count = count;
  for (let i = 0; i < count; i++) {
    cache.indexA[i] = V[i].indexA;
    cache.indexB[i] = V[i].indexB;
  }
  return length(f(pAx - pBx), f(pAy - pBy));
}

export { FLT_MAX };
