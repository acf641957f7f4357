/**
 * Box2D 2.3's contact solver (b2ContactSolver.cpp): velocity constraints with the two-point block
 * solver, position correction, and the TOI position correction, in float32.
 */
import { FACE_A, type Manifold } from './collide.ts';
import type { Contact } from './contact.ts';
import { BAUMGARTE, clamp, cosf, f, LINEAR_SLOP, MAX_LINEAR_CORRECTION, sinf, TOI_BAUMGARTE, VELOCITY_THRESHOLD } from './settings.ts';

interface Point { rAx: number; rAy: number; rBx: number; rBy: number; normalImpulse: number; tangentImpulse: number; normalMass: number; tangentMass: number; velocityBias: number; localX: number; localY: number }
const point = (): Point => ({ rAx: 0, rAy: 0, rBx: 0, rBy: 0, normalImpulse: 0, tangentImpulse: 0, normalMass: 0, tangentMass: 0, velocityBias: 0, localX: 0, localY: 0 });

interface Constraint {
  contact: Contact | null;
  manifold: Manifold | null;
  points: [Point, Point];
  nx: number; ny: number;
  // K and normalMass (2x2): ex = (k11, k12), ey = (k12, k22).
  k11: number; k12: number; k22: number;
  nm11: number; nm12: number; nm21: number; nm22: number;
  friction: number; restitution: number;
  indexA: number; indexB: number;
  mA: number; mB: number; iA: number; iB: number;
  lcAx: number; lcAy: number; lcBx: number; lcBy: number;
  localNormalX: number; localNormalY: number; localPointX: number; localPointY: number;
  radiusA: number; radiusB: number; type: number;
  pointCount: number;
  /** The position constraint's own count (the velocity one may drop to 1). */
  positionPointCount: number;
}

const constraint = (): Constraint => ({
  contact: null, manifold: null, points: [point(), point()], nx: 0, ny: 0, k11: 0, k12: 0, k22: 0, nm11: 0, nm12: 0, nm21: 0, nm22: 0,
  friction: 0, restitution: 0, indexA: 0, indexB: 0, mA: 0, mB: 0, iA: 0, iB: 0, lcAx: 0, lcAy: 0, lcBx: 0, lcBy: 0,
  localNormalX: 0, localNormalY: 0, localPointX: 0, localPointY: 0, radiusA: 0, radiusB: 0, type: 0, pointCount: 0, positionPointCount: 0,
});

export class ContactSolver {
  private readonly constraints: Constraint[] = [];
  private count = 0;
  private positions!: Float64Array;
  private velocities!: Float64Array;

  /** b2ContactSolver's constructor. */
  init(contacts: readonly Contact[], count: number, dtRatio: number, warmStarting: boolean, positions: Float64Array, velocities: Float64Array): void {
    this.count = count;
    this.positions = positions;
    this.velocities = velocities;
    while (this.constraints.length < count) this.constraints.push(constraint());
    for (let i = 0; i < count; i++) {
      const contact = contacts[i];
      const bodyA = contact.bodyA, bodyB = contact.bodyB;
      const m = contact.manifold;
      const c = this.constraints[i];
      c.contact = contact;
      c.manifold = m;
      c.friction = contact.friction;
      c.restitution = contact.restitution;
      c.indexA = bodyA.islandIndex; c.indexB = bodyB.islandIndex;
      c.mA = bodyA.invMass; c.mB = bodyB.invMass; c.iA = bodyA.invI; c.iB = bodyB.invI;
      c.pointCount = m.pointCount;
      c.positionPointCount = m.pointCount;
      c.k11 = c.k12 = c.k22 = 0;
      c.nm11 = c.nm12 = c.nm21 = c.nm22 = 0;
      c.lcAx = bodyA.sweep.lcx; c.lcAy = bodyA.sweep.lcy; c.lcBx = bodyB.sweep.lcx; c.lcBy = bodyB.sweep.lcy;
      c.localNormalX = m.localNormalX; c.localNormalY = m.localNormalY;
      c.localPointX = m.localPointX; c.localPointY = m.localPointY;
      c.radiusA = contact.fixtureA.shape.radius; c.radiusB = contact.fixtureB.shape.radius;
      c.type = m.type;
      for (let j = 0; j < m.pointCount; j++) {
        const cp = m.points[j];
        const p = c.points[j];
        p.normalImpulse = warmStarting ? f(dtRatio * cp.normalImpulse) : 0;
        p.tangentImpulse = warmStarting ? f(dtRatio * cp.tangentImpulse) : 0;
        p.rAx = p.rAy = p.rBx = p.rBy = 0;
        p.normalMass = p.tangentMass = p.velocityBias = 0;
        p.localX = cp.localX;
        p.localY = cp.localY;
      }
    }
  }

  initializeVelocityConstraints(): void {
    const P = this.positions, V = this.velocities;
    for (let i = 0; i < this.count; i++) {
      const c = this.constraints[i];
      const m = c.manifold as Manifold;
      const mA = c.mA, mB = c.mB, iA = c.iA, iB = c.iB;
      const ia = 3 * c.indexA, ib = 3 * c.indexB;
      const cAx = P[ia], cAy = P[ia + 1], aA = P[ia + 2];
      const cBx = P[ib], cBy = P[ib + 1], aB = P[ib + 2];
      const vAx = V[ia], vAy = V[ia + 1], wA = V[ia + 2];
      const vBx = V[ib], vBy = V[ib + 1], wB = V[ib + 2];
      const sA = sinf(aA), qcA = cosf(aA), sB = sinf(aB), qcB = cosf(aB);
      const pAx = f(cAx - f(f(qcA * c.lcAx) - f(sA * c.lcAy))), pAy = f(cAy - f(f(sA * c.lcAx) + f(qcA * c.lcAy)));
      const pBx = f(cBx - f(f(qcB * c.lcBx) - f(sB * c.lcBy))), pBy = f(cBy - f(f(sB * c.lcBx) + f(qcB * c.lcBy)));
      worldManifold(m, pAx, pAy, sA, qcA, c.radiusA, pBx, pBy, sB, qcB, c.radiusB);
      c.nx = WM[0]; c.ny = WM[1];
      const nx = c.nx, ny = c.ny;
      for (let j = 0; j < c.pointCount; j++) {
        const p = c.points[j];
        p.rAx = f(wmPoints[2 * j] - cAx); p.rAy = f(wmPoints[2 * j + 1] - cAy);
        p.rBx = f(wmPoints[2 * j] - cBx); p.rBy = f(wmPoints[2 * j + 1] - cBy);
        const rnA = f(f(p.rAx * ny) - f(p.rAy * nx));
        const rnB = f(f(p.rBx * ny) - f(p.rBy * nx));
        const kNormal = f(f(f(mA + mB) + f(f(iA * rnA) * rnA)) + f(f(iB * rnB) * rnB));
        p.normalMass = kNormal > 0 ? f(1 / kNormal) : 0;
        // tangent = b2Cross(normal, 1.0f) = (1 * n.y, -1 * n.x)
        const tx = f(1 * ny), ty = f(-1 * nx);
        const rtA = f(f(p.rAx * ty) - f(p.rAy * tx));
        const rtB = f(f(p.rBx * ty) - f(p.rBy * tx));
        const kTangent = f(f(f(mA + mB) + f(f(iA * rtA) * rtA)) + f(f(iB * rtB) * rtB));
        p.tangentMass = kTangent > 0 ? f(1 / kTangent) : 0;
        p.velocityBias = 0;
        const dvx = f(f(f(vBx + f(-wB * p.rBy)) - vAx) - f(-wA * p.rAy));
        const dvy = f(f(f(vBy + f(wB * p.rBx)) - vAy) - f(wA * p.rAx));
        const vRel = f(f(nx * dvx) + f(ny * dvy));
        if (vRel < -VELOCITY_THRESHOLD) p.velocityBias = f(-c.restitution * vRel);
      }
      if (c.pointCount === 2) {
        const p1 = c.points[0], p2 = c.points[1];
        const rn1A = f(f(p1.rAx * ny) - f(p1.rAy * nx));
        const rn1B = f(f(p1.rBx * ny) - f(p1.rBy * nx));
        const rn2A = f(f(p2.rAx * ny) - f(p2.rAy * nx));
        const rn2B = f(f(p2.rBx * ny) - f(p2.rBy * nx));
        const k11 = f(f(f(mA + mB) + f(f(iA * rn1A) * rn1A)) + f(f(iB * rn1B) * rn1B));
        const k22 = f(f(f(mA + mB) + f(f(iA * rn2A) * rn2A)) + f(f(iB * rn2B) * rn2B));
        const k12 = f(f(f(mA + mB) + f(f(iA * rn1A) * rn2A)) + f(f(iB * rn1B) * rn2B));
        if (f(k11 * k11) < f(1000 * f(f(k11 * k22) - f(k12 * k12)))) {
          c.k11 = k11; c.k12 = k12; c.k22 = k22;
          // K.GetInverse(): a = ex.x, b = ey.x, c = ex.y, d = ey.y
          let det = f(f(k11 * k22) - f(k12 * k12));
          if (det !== 0) det = f(1 / det);
          c.nm11 = f(det * k22); c.nm12 = f(-det * k12); c.nm21 = f(-det * k12); c.nm22 = f(det * k11);
        } else {
          c.pointCount = 1;
        }
      }
    }
  }

  warmStart(): void {
    const V = this.velocities;
    for (let i = 0; i < this.count; i++) {
      const c = this.constraints[i];
      const ia = 3 * c.indexA, ib = 3 * c.indexB;
      const mA = c.mA, mB = c.mB, iA = c.iA, iB = c.iB;
      let vAx = V[ia], vAy = V[ia + 1], wA = V[ia + 2];
      let vBx = V[ib], vBy = V[ib + 1], wB = V[ib + 2];
      const nx = c.nx, ny = c.ny, tx = f(1 * ny), ty = f(-1 * nx);
      for (let j = 0; j < c.pointCount; j++) {
        const p = c.points[j];
        const Px = f(f(p.normalImpulse * nx) + f(p.tangentImpulse * tx));
        const Py = f(f(p.normalImpulse * ny) + f(p.tangentImpulse * ty));
        wA = f(wA - f(iA * f(f(p.rAx * Py) - f(p.rAy * Px))));
        vAx = f(vAx - f(mA * Px)); vAy = f(vAy - f(mA * Py));
        wB = f(wB + f(iB * f(f(p.rBx * Py) - f(p.rBy * Px))));
        vBx = f(vBx + f(mB * Px)); vBy = f(vBy + f(mB * Py));
      }
      V[ia] = vAx; V[ia + 1] = vAy; V[ia + 2] = wA;
      V[ib] = vBx; V[ib + 1] = vBy; V[ib + 2] = wB;
    }
  }

  solveVelocityConstraints(): void {
    for (let i = 0; i < this.count; i++) solveVelocity(this.constraints[i], this.velocities);
  }

  storeImpulses(): void {
    for (let i = 0; i < this.count; i++) {
      const c = this.constraints[i];
      const m = c.manifold as Manifold;
      for (let j = 0; j < c.pointCount; j++) {
        m.points[j].normalImpulse = c.points[j].normalImpulse;
        m.points[j].tangentImpulse = c.points[j].tangentImpulse;
      }
    }
  }

  /** SolvePositionConstraints (toiA < 0) or SolveTOIPositionConstraints(toiA, toiB). */
  solvePositionConstraints(toiA = -1, toiB = -1): boolean {
    const P = this.positions;
    const toi = toiA >= 0;
    let minSeparation = 0;
    for (let i = 0; i < this.count; i++) {
      const c = this.constraints[i];
      const ia = 3 * c.indexA, ib = 3 * c.indexB;
      let mA = c.mA, iA = c.iA, mB = c.mB, iB = c.iB;
      if (toi) {
        mA = 0; iA = 0; mB = 0; iB = 0;
        if (c.indexA === toiA || c.indexA === toiB) { mA = c.mA; iA = c.iA; }
        if (c.indexB === toiA || c.indexB === toiB) { mB = c.mB; iB = c.iB; }
      }
      let cAx = P[ia], cAy = P[ia + 1], aA = P[ia + 2];
      let cBx = P[ib], cBy = P[ib + 1], aB = P[ib + 2];
      for (let j = 0; j < c.positionPointCount; j++) {
        const sA = sinf(aA), qcA = cosf(aA), sB = sinf(aB), qcB = cosf(aB);
        const xAx = f(cAx - f(f(qcA * c.lcAx) - f(sA * c.lcAy))), xAy = f(cAy - f(f(sA * c.lcAx) + f(qcA * c.lcAy)));
        const xBx = f(cBx - f(f(qcB * c.lcBx) - f(sB * c.lcBy))), xBy = f(cBy - f(f(sB * c.lcBx) + f(qcB * c.lcBy)));
        positionManifold(c, j, xAx, xAy, sA, qcA, xBx, xBy, sB, qcB);
        const nx = PSM[0], ny = PSM[1], separation = PSM[4];
        const rAx = f(PSM[2] - cAx), rAy = f(PSM[3] - cAy);
        const rBx = f(PSM[2] - cBx), rBy = f(PSM[3] - cBy);
        minSeparation = minSeparation < separation ? minSeparation : separation;
        const C = clamp(f((toi ? TOI_BAUMGARTE : BAUMGARTE) * f(separation + LINEAR_SLOP)), -MAX_LINEAR_CORRECTION, 0);
        const rnA = f(f(rAx * ny) - f(rAy * nx));
        const rnB = f(f(rBx * ny) - f(rBy * nx));
        const K = f(f(f(mA + mB) + f(f(iA * rnA) * rnA)) + f(f(iB * rnB) * rnB));
        const impulse = K > 0 ? f(-C / K) : 0;
        const Px = f(impulse * nx), Py = f(impulse * ny);
        cAx = f(cAx - f(mA * Px)); cAy = f(cAy - f(mA * Py));
        aA = f(aA - f(iA * f(f(rAx * Py) - f(rAy * Px))));
        cBx = f(cBx + f(mB * Px)); cBy = f(cBy + f(mB * Py));
        aB = f(aB + f(iB * f(f(rBx * Py) - f(rBy * Px))));
      }
      P[ia] = cAx; P[ia + 1] = cAy; P[ia + 2] = aA;
      P[ib] = cBx; P[ib + 1] = cBy; P[ib + 2] = aB;
    }
    return minSeparation >= (toi ? f(-1.5 * LINEAR_SLOP) : f(-3 * LINEAR_SLOP));
  }
}

// b2WorldManifold and b2PositionSolverManifold results (scratch).
const WM = new Float64Array(2);
const wmPoints = new Float64Array(4);
const PSM = new Float64Array(5);

/** b2WorldManifold::Initialize for the face manifolds the edge-polygon collider makes. */
function worldManifold(m: Manifold, pAx: number, pAy: number, sA: number, cA: number, radiusA: number, pBx: number, pBy: number, sB: number, cB: number, radiusB: number): void {
  if (m.pointCount === 0) return;
  const faceA = m.type === FACE_A;
  // The reference frame (A for faceA) holds the normal and plane point; the other one the clip points.
  const rPx = faceA ? pAx : pBx, rPy = faceA ? pAy : pBy, rS = faceA ? sA : sB, rC = faceA ? cA : cB;
  const oPx = faceA ? pBx : pAx, oPy = faceA ? pBy : pAy, oS = faceA ? sB : sA, oC = faceA ? cB : cA;
  const rRadius = faceA ? radiusA : radiusB, oRadius = faceA ? radiusB : radiusA;
  const nx = f(f(rC * m.localNormalX) - f(rS * m.localNormalY));
  const ny = f(f(rS * m.localNormalX) + f(rC * m.localNormalY));
  const planeX = f(f(f(rC * m.localPointX) - f(rS * m.localPointY)) + rPx);
  const planeY = f(f(f(rS * m.localPointX) + f(rC * m.localPointY)) + rPy);
  for (let i = 0; i < m.pointCount; i++) {
    const lx = m.points[i].localX, ly = m.points[i].localY;
    const clipX = f(f(f(oC * lx) - f(oS * ly)) + oPx);
    const clipY = f(f(f(oS * lx) + f(oC * ly)) + oPy);
    const d = f(rRadius - f(f(f(clipX - planeX) * nx) + f(f(clipY - planeY) * ny)));
    const rX = f(clipX + f(d * nx)), rY = f(clipY + f(d * ny));
    const oX = f(clipX - f(oRadius * nx)), oY = f(clipY - f(oRadius * ny));
    // faceA: points = 0.5 * (cA + cB) with cA the plane side; faceB: cA is the clip side.
    wmPoints[2 * i] = faceA ? f(0.5 * f(rX + oX)) : f(0.5 * f(oX + rX));
    wmPoints[2 * i + 1] = faceA ? f(0.5 * f(rY + oY)) : f(0.5 * f(oY + rY));
  }
  WM[0] = faceA ? nx : -nx;
  WM[1] = faceA ? ny : -ny;
}

/** b2PositionSolverManifold::Initialize for point j. */
function positionManifold(c: Constraint, j: number, xAx: number, xAy: number, sA: number, cA: number, xBx: number, xBy: number, sB: number, cB: number): void {
  const faceA = c.type === FACE_A;
  const rPx = faceA ? xAx : xBx, rPy = faceA ? xAy : xBy, rS = faceA ? sA : sB, rC = faceA ? cA : cB;
  const oPx = faceA ? xBx : xAx, oPy = faceA ? xBy : xAy, oS = faceA ? sB : sA, oC = faceA ? cB : cA;
  const nx = f(f(rC * c.localNormalX) - f(rS * c.localNormalY));
  const ny = f(f(rS * c.localNormalX) + f(rC * c.localNormalY));
  const planeX = f(f(f(rC * c.localPointX) - f(rS * c.localPointY)) + rPx);
  const planeY = f(f(f(rS * c.localPointX) + f(rC * c.localPointY)) + rPy);
  const lx = c.points[j].localX, ly = c.points[j].localY;
  const clipX = f(f(f(oC * lx) - f(oS * ly)) + oPx);
  const clipY = f(f(f(oS * lx) + f(oC * ly)) + oPy);
  PSM[4] = f(f(f(f(f(clipX - planeX) * nx) + f(f(clipY - planeY) * ny)) - c.radiusA) - c.radiusB);
  PSM[2] = clipX;
  PSM[3] = clipY;
  PSM[0] = faceA ? nx : -nx;
  PSM[1] = faceA ? ny : -ny;
}

/**
 * One velocity pass over a contact: friction at each point, then the normal impulses (one point,
 * or Box2D's two-point block solver). Written out in one function: helper calls would box their
 * number arguments, an allocation per call.
 */
function solveVelocity(c: Constraint, V: Float64Array): void {
  const ia = 3 * c.indexA, ib = 3 * c.indexB;
  let vAx = V[ia], vAy = V[ia + 1], wA = V[ia + 2];
  let vBx = V[ib], vBy = V[ib + 1], wB = V[ib + 2];
  const mA = c.mA, mB = c.mB, iA = c.iA, iB = c.iB;
  const nx = c.nx, ny = c.ny, tx = f(1 * ny), ty = f(-1 * nx);
  const friction = c.friction;
  for (let j = 0; j < c.pointCount; j++) {
    const p = c.points[j];
    // dv = vB + b2Cross(wB, rB) - vA - b2Cross(wA, rA); vt = b2Dot(dv, tangent) - tangentSpeed (0)
    const dvx = f(f(f(vBx + f(-wB * p.rBy)) - vAx) - f(-wA * p.rAy));
    const dvy = f(f(f(vBy + f(wB * p.rBx)) - vAy) - f(wA * p.rAx));
    const vt = f(f(f(dvx * tx) + f(dvy * ty)) - 0);
    let lambda = f(p.tangentMass * -vt);
    const maxFriction = f(friction * p.normalImpulse);
    const newImpulse = clamp(f(p.tangentImpulse + lambda), -maxFriction, maxFriction);
    lambda = f(newImpulse - p.tangentImpulse);
    p.tangentImpulse = newImpulse;
    const Px = f(lambda * tx), Py = f(lambda * ty);
    vAx = f(vAx - f(mA * Px)); vAy = f(vAy - f(mA * Py));
    wA = f(wA - f(iA * f(f(p.rAx * Py) - f(p.rAy * Px))));
    vBx = f(vBx + f(mB * Px)); vBy = f(vBy + f(mB * Py));
    wB = f(wB + f(iB * f(f(p.rBx * Py) - f(p.rBy * Px))));
  }
  if (c.pointCount === 1) {
    const p = c.points[0];
    const dvx = f(f(f(vBx + f(-wB * p.rBy)) - vAx) - f(-wA * p.rAy));
    const dvy = f(f(f(vBy + f(wB * p.rBx)) - vAy) - f(wA * p.rAx));
    const vn = f(f(dvx * nx) + f(dvy * ny));
    let lambda = f(-p.normalMass * f(vn - p.velocityBias));
    const sum = f(p.normalImpulse + lambda);
    const newImpulse = sum < 0 ? 0 : sum;
    lambda = f(newImpulse - p.normalImpulse);
    p.normalImpulse = newImpulse;
    const Px = f(lambda * nx), Py = f(lambda * ny);
    vAx = f(vAx - f(mA * Px)); vAy = f(vAy - f(mA * Py));
    wA = f(wA - f(iA * f(f(p.rAx * Py) - f(p.rAy * Px))));
    vBx = f(vBx + f(mB * Px)); vBy = f(vBy + f(mB * Py));
    wB = f(wB + f(iB * f(f(p.rBx * Py) - f(p.rBy * Px))));
  } else {
    const cp1 = c.points[0], cp2 = c.points[1];
    const ax = cp1.normalImpulse, ay = cp2.normalImpulse;
    const dv1x = f(f(f(vBx + f(-wB * cp1.rBy)) - vAx) - f(-wA * cp1.rAy));
    const dv1y = f(f(f(vBy + f(wB * cp1.rBx)) - vAy) - f(wA * cp1.rAx));
    const dv2x = f(f(f(vBx + f(-wB * cp2.rBy)) - vAx) - f(-wA * cp2.rAy));
    const dv2y = f(f(f(vBy + f(wB * cp2.rBx)) - vAy) - f(wA * cp2.rAx));
    const vn1 = f(f(dv1x * nx) + f(dv1y * ny));
    const vn2 = f(f(dv2x * nx) + f(dv2y * ny));
    let bx = f(vn1 - cp1.velocityBias);
    let by = f(vn2 - cp2.velocityBias);
    // b -= b2Mul(K, a): K.ex = (k11, k12), K.ey = (k12, k22)
    bx = f(bx - f(f(c.k11 * ax) + f(c.k12 * ay)));
    by = f(by - f(f(c.k12 * ax) + f(c.k22 * ay)));
    // The first of Box2D's four cases that holds: both points, the first alone, the second alone, none.
    // x = -b2Mul(normalMass, b): normalMass.ex = (nm11, nm21), ey = (nm12, nm22)
    let xx = -f(f(c.nm11 * bx) + f(c.nm12 * by));
    let xy = -f(f(c.nm21 * bx) + f(c.nm22 * by));
    let solved = xx >= 0 && xy >= 0;
    if (!solved) {
      xx = f(-cp1.normalMass * bx);
      xy = 0;
      solved = xx >= 0 && f(f(c.k12 * xx) + by) >= 0;
    }
    if (!solved) {
      xx = 0;
      xy = f(-cp2.normalMass * by);
      solved = xy >= 0 && f(f(c.k12 * xy) + bx) >= 0;
    }
    if (!solved) {
      xx = 0;
      xy = 0;
      solved = bx >= 0 && by >= 0;
    }
    if (solved) {
      const dx = f(xx - ax), dy = f(xy - ay);
      const P1x = f(dx * nx), P1y = f(dx * ny), P2x = f(dy * nx), P2y = f(dy * ny);
      const Sx = f(P1x + P2x), Sy = f(P1y + P2y);
      vAx = f(vAx - f(mA * Sx)); vAy = f(vAy - f(mA * Sy));
      wA = f(wA - f(iA * f(f(f(cp1.rAx * P1y) - f(cp1.rAy * P1x)) + f(f(cp2.rAx * P2y) - f(cp2.rAy * P2x)))));
      vBx = f(vBx + f(mB * Sx)); vBy = f(vBy + f(mB * Sy));
      wB = f(wB + f(iB * f(f(f(cp1.rBx * P1y) - f(cp1.rBy * P1x)) + f(f(cp2.rBx * P2y) - f(cp2.rBy * P2x)))));
      cp1.normalImpulse = xx;
      cp2.normalImpulse = xy;
    }
  }
  V[ia] = vAx; V[ia + 1] = vAy; V[ia + 2] = wA;
  V[ib] = vBx; V[ib + 1] = vBy; V[ib + 2] = wB;
}
