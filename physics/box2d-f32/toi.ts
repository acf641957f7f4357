/**
 * Box2D 2.3's time of impact (b2TimeOfImpact.cpp): conservative advancement with separating
 * axes between two swept proxies, in float32.
 */
import type { Transform } from './collide.ts';
import { distance, newCache, support, type Proxy, type SimplexCache } from './distance.ts';
import { cosf, f, FLT_EPSILON, LINEAR_SLOP, max, MAX_POLYGON_VERTICES, sinf, sqrtf } from './settings.ts';

export interface Sweep {
  lcx: number; lcy: number;
  c0x: number; c0y: number;
  cx: number; cy: number;
  a0: number; a: number;
  alpha0: number;
}

export const newSweep = (): Sweep => ({ lcx: 0, lcy: 0, c0x: 0, c0y: 0, cx: 0, cy: 0, a0: 0, a: 0, alpha0: 0 });

/** b2Sweep::GetTransform(xf, beta). */
export function sweepTransform(s: Sweep, xf: Transform, beta: number): void {
  const b1 = f(1 - beta);
  xf.px = f(f(b1 * s.c0x) + f(beta * s.cx));
  xf.py = f(f(b1 * s.c0y) + f(beta * s.cy));
  const angle = f(f(b1 * s.a0) + f(beta * s.a));
  xf.s = sinf(angle);
  xf.c = cosf(angle);
  xf.px = f(xf.px - f(f(xf.c * s.lcx) - f(xf.s * s.lcy)));
  xf.py = f(xf.py - f(f(xf.s * s.lcx) + f(xf.c * s.lcy)));
}

/** b2Sweep::Advance(alpha). */
export function sweepAdvance(s: Sweep, alpha: number): void {
  const beta = f(f(alpha - s.alpha0) / f(1 - s.alpha0));
  const b1 = f(1 - beta);
  s.c0x = f(f(b1 * s.c0x) + f(beta * s.cx));
  s.c0y = f(f(b1 * s.c0y) + f(beta * s.cy));
  s.a0 = f(f(b1 * s.a0) + f(beta * s.a));
  s.alpha0 = alpha;
}

const TWO_PI = f(2 * f(3.14159265359));

function normalize(s: Sweep): void {
  const d = f(TWO_PI * Math.floor(f(s.a0 / TWO_PI)));
  s.a0 = f(s.a0 - d);
  s.a = f(s.a - d);
}

export const TOI_UNKNOWN = 0;
export const TOI_FAILED = 1;
export const TOI_OVERLAPPED = 2;
export const TOI_TOUCHING = 3;
export const TOI_SEPARATED = 4;

const POINTS = 0;
const FACE_A = 1;
const FACE_B = 2;

// The separation function's state and scratch (no allocation per call).
const sA = newSweep();
const sB = newSweep();
const xfA: Transform = { px: 0, py: 0, s: 0, c: 1 };
const xfB: Transform = { px: 0, py: 0, s: 0, c: 1 };
const cache: SimplexCache = newCache();
let fnType = POINTS;
let axisX = 0, axisY = 0, localX = 0, localY = 0;
let pA: Proxy, pB: Proxy;
let foundA = 0, foundB = 0;

const mulX = (xf: Transform, x: number, y: number): number => f(f(f(xf.c * x) - f(xf.s * y)) + xf.px);
const mulY = (xf: Transform, x: number, y: number): number => f(f(f(xf.s * x) + f(xf.c * y)) + xf.py);

function normalizeAxis(): number {
  const length = sqrtf(f(f(axisX * axisX) + f(axisY * axisY)));
  if (length < FLT_EPSILON) return 0;
  const inv = f(1 / length);
  axisX = f(axisX * inv);
  axisY = f(axisY * inv);
  return length;
}

function initialize(t1: number): number {
  sweepTransform(sA, xfA, t1);
  sweepTransform(sB, xfB, t1);
  if (cache.count === 1) {
    fnType = POINTS;
    const ia = cache.indexA[0], ib = cache.indexB[0];
    const ax = mulX(xfA, pA.vertices[2 * ia], pA.vertices[2 * ia + 1]);
    const ay = mulY(xfA, pA.vertices[2 * ia], pA.vertices[2 * ia + 1]);
    const bx = mulX(xfB, pB.vertices[2 * ib], pB.vertices[2 * ib + 1]);
    const by = mulY(xfB, pB.vertices[2 * ib], pB.vertices[2 * ib + 1]);
    axisX = f(bx - ax);
    axisY = f(by - ay);
    return normalizeAxis();
  }
  const faceB = cache.indexA[0] === cache.indexA[1];
  // The face's proxy P (B for faceB) and the other one, Q.
  const P = faceB ? pB : pA, Q = faceB ? pA : pB, xfP = faceB ? xfB : xfA, xfQ = faceB ? xfA : xfB;
  const iP0 = faceB ? cache.indexB[0] : cache.indexA[0], iP1 = faceB ? cache.indexB[1] : cache.indexA[1];
  const iQ = faceB ? cache.indexA[0] : cache.indexB[0];
  fnType = faceB ? FACE_B : FACE_A;
  const p1x = P.vertices[2 * iP0], p1y = P.vertices[2 * iP0 + 1];
  const p2x = P.vertices[2 * iP1], p2y = P.vertices[2 * iP1 + 1];
  // b2Cross(p2 - p1, 1.0f) = (1 * dy, -1 * dx)
  axisX = f(1 * f(p2y - p1y));
  axisY = f(-1 * f(p2x - p1x));
  normalizeAxis();
  const nx = f(f(xfP.c * axisX) - f(xfP.s * axisY));
  const ny = f(f(xfP.s * axisX) + f(xfP.c * axisY));
  localX = f(0.5 * f(p1x + p2x));
  localY = f(0.5 * f(p1y + p2y));
  const ox = mulX(xfP, localX, localY);
  const oy = mulY(xfP, localX, localY);
  const qx = mulX(xfQ, Q.vertices[2 * iQ], Q.vertices[2 * iQ + 1]);
  const qy = mulY(xfQ, Q.vertices[2 * iQ], Q.vertices[2 * iQ + 1]);
  let s = f(f(f(qx - ox) * nx) + f(f(qy - oy) * ny));
  if (s < 0) {
    axisX = -axisX;
    axisY = -axisY;
    s = -s;
  }
  return s;
}

/** FindMinSeparation (find = true: sets foundA, foundB) or Evaluate at the given indices. */
function separation(t: number, find: boolean, indexA: number, indexB: number): number {
  sweepTransform(sA, xfA, t);
  sweepTransform(sB, xfB, t);
  if (fnType === POINTS) {
    if (find) {
      // b2MulT(xfA.q, axis), b2MulT(xfB.q, -axis)
      foundA = support(pA, f(f(xfA.c * axisX) + f(xfA.s * axisY)), f(f(-xfA.s * axisX) + f(xfA.c * axisY)));
      const mx = -axisX, my = -axisY;
      foundB = support(pB, f(f(xfB.c * mx) + f(xfB.s * my)), f(f(-xfB.s * mx) + f(xfB.c * my)));
      indexA = foundA;
      indexB = foundB;
    }
    const ax = mulX(xfA, pA.vertices[2 * indexA], pA.vertices[2 * indexA + 1]);
    const ay = mulY(xfA, pA.vertices[2 * indexA], pA.vertices[2 * indexA + 1]);
    const bx = mulX(xfB, pB.vertices[2 * indexB], pB.vertices[2 * indexB + 1]);
    const by = mulY(xfB, pB.vertices[2 * indexB], pB.vertices[2 * indexB + 1]);
    return f(f(f(bx - ax) * axisX) + f(f(by - ay) * axisY));
  }
  const faceA = fnType === FACE_A;
  const xfP = faceA ? xfA : xfB;
  const xfQ = faceA ? xfB : xfA;
  const Q = faceA ? pB : pA;
  const nx = f(f(xfP.c * axisX) - f(xfP.s * axisY));
  const ny = f(f(xfP.s * axisX) + f(xfP.c * axisY));
  const px = mulX(xfP, localX, localY);
  const py = mulY(xfP, localX, localY);
  let iQ = faceA ? indexB : indexA;
  if (find) {
    const mx = -nx, my = -ny;
    iQ = support(Q, f(f(xfQ.c * mx) + f(xfQ.s * my)), f(f(-xfQ.s * mx) + f(xfQ.c * my)));
    foundA = faceA ? -1 : iQ;
    foundB = faceA ? iQ : -1;
  }
  const qx = mulX(xfQ, Q.vertices[2 * iQ], Q.vertices[2 * iQ + 1]);
  const qy = mulY(xfQ, Q.vertices[2 * iQ], Q.vertices[2 * iQ + 1]);
  return f(f(f(qx - px) * nx) + f(f(qy - py) * ny));
}

export const toiOutput = { state: TOI_UNKNOWN, t: 0 };

/** b2TimeOfImpact(output, input) with tMax = 1: fills toiOutput. */
export function timeOfImpact(proxyA: Proxy, sweepA: Sweep, proxyB: Proxy, sweepB: Sweep): void {
  const out = toiOutput;
  out.state = TOI_UNKNOWN;
  const tMax = 1;
  out.t = tMax;
  pA = proxyA;
  pB = proxyB;
  Object.assign(sA, sweepA);
  Object.assign(sB, sweepB);
  normalize(sA);
  normalize(sB);
  const totalRadius = f(proxyA.radius + proxyB.radius);
  const target = max(LINEAR_SLOP, f(totalRadius - f(3 * LINEAR_SLOP)));
  const tolerance = f(0.25 * LINEAR_SLOP);
  let t1 = 0;
  let iter = 0;
  cache.count = 0;
  for (;;) {
    sweepTransform(sA, xfA, t1);
    sweepTransform(sB, xfB, t1);
    const d = distance(cache, pA, xfA, pB, xfB);
    if (d <= 0) {
      out.state = TOI_OVERLAPPED;
      out.t = 0;
      break;
    }
    if (d < f(target + tolerance)) {
      out.state = TOI_TOUCHING;
      out.t = t1;
      break;
    }
    initialize(t1);
    let done = false;
    let t2 = tMax;
    let pushBackIter = 0;
    for (;;) {
      let s2 = separation(t2, true, 0, 0);
      const indexA = foundA, indexB = foundB;
      if (s2 > f(target + tolerance)) {
        out.state = TOI_SEPARATED;
        out.t = tMax;
        done = true;
        break;
      }
      if (s2 > f(target - tolerance)) {
        t1 = t2;
        break;
      }
      let s1 = separation(t1, false, indexA, indexB);
      if (s1 < f(target - tolerance)) {
        out.state = TOI_FAILED;
        out.t = t1;
        done = true;
        break;
      }
      if (s1 <= f(target + tolerance)) {
        out.state = TOI_TOUCHING;
        out.t = t1;
        done = true;
        break;
      }
      let rootIterCount = 0;
      let a1 = t1, a2 = t2;
      for (;;) {
        let t: number;
        if (rootIterCount & 1) t = f(a1 + f(f(f(target - s1) * f(a2 - a1)) / f(s2 - s1)));
        else t = f(0.5 * f(a1 + a2));
        ++rootIterCount;
        const s = separation(t, false, indexA, indexB);
        if (Math.abs(f(s - target)) < tolerance) {
          t2 = t;
          break;
        }
        if (s > target) {
          a1 = t;
          s1 = s;
        } else {
          a2 = t;
          s2 = s;
        }
        if (rootIterCount === 50) break;
      }
      ++pushBackIter;
      if (pushBackIter === MAX_POLYGON_VERTICES) break;
    }
    ++iter;
    if (done) break;
    if (iter === 20) {
      out.state = TOI_FAILED;
      out.t = t1;
      break;
    }
  }
}
