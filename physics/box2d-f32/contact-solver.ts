/**
 * Box2D 2.3's contact solver (b2ContactSolver.cpp) in float32: the velocity constraints' setup,
 * position correction, and the TOI position correction. The velocity iterations (with the
 * two-point block solver) and the warm start run in WebAssembly: assembly/velocity-solver.ts.
 */
import { FACE_A, type Manifold } from './collide.ts';
import type { Contact } from './contact.ts';
import { BAUMGARTE, clamp, cosf, f, LINEAR_SLOP, MAX_LINEAR_CORRECTION, sinf, TOI_BAUMGARTE, VELOCITY_THRESHOLD } from './settings.ts';
import { C, P as POINT, solverMemory } from './solver-memory.ts';

/**
 * What the position solver keeps of a contact (b2ContactPositionConstraint); the velocity
 * constraint (b2ContactVelocityConstraint) is a record in the kernel's memory (solver-memory.ts).
 */
interface Constraint {
  contact: Contact | null;
  manifold: Manifold | null;
  /** The manifold points' local points: x, y for each. */
  localPoints: Float64Array;
  restitution: number;
  indexA: number; indexB: number;
  mA: number; mB: number; iA: number; iB: number;
  lcAx: number; lcAy: number; lcBx: number; lcBy: number;
  localNormalX: number; localNormalY: number; localPointX: number; localPointY: number;
  radiusA: number; radiusB: number; type: number;
  /** The position constraint's own count (the velocity one may drop to 1). */
  positionPointCount: number;
}

const constraint = (): Constraint => ({
  contact: null, manifold: null, localPoints: new Float64Array(4), restitution: 0, indexA: 0, indexB: 0, mA: 0, mB: 0, iA: 0, iB: 0,
  lcAx: 0, lcAy: 0, lcBx: 0, lcBy: 0, localNormalX: 0, localNormalY: 0, localPointX: 0, localPointY: 0, radiusA: 0, radiusB: 0, type: 0,
  positionPointCount: 0,
});

export class ContactSolver {
  private readonly constraints: Constraint[] = [];
  private count = 0;
  private positions!: Float32Array;
  private velocities!: Float32Array;

  /**
   * b2ContactSolver's constructor: the position constraints here, the velocity constraints' records
   * in the kernel's memory (the caller has made room: solverMemory.ensure).
   */
  init(contacts: readonly Contact[], count: number, dtRatio: number, warmStarting: boolean, positions: Float32Array, velocities: Float32Array): void {
    this.count = count;
    this.positions = positions;
    this.velocities = velocities;
    while (this.constraints.length < count) this.constraints.push(constraint());
    const R = solverMemory.contacts, RI = solverMemory.contactsI, size = solverMemory.contactSlots;
    for (let i = 0; i < count; i++) {
      const contact = contacts[i];
      const bodyA = contact.bodyA, bodyB = contact.bodyB;
      const m = contact.manifold;
      const c = this.constraints[i];
      c.contact = contact;
      c.manifold = m;
      c.restitution = contact.restitution;
      c.indexA = bodyA.islandIndex; c.indexB = bodyB.islandIndex;
      c.mA = bodyA.invMass; c.mB = bodyB.invMass; c.iA = bodyA.invI; c.iB = bodyB.invI;
      c.positionPointCount = m.pointCount;
      c.lcAx = bodyA.sweep.lcx; c.lcAy = bodyA.sweep.lcy; c.lcBx = bodyB.sweep.lcx; c.lcBy = bodyB.sweep.lcy;
      c.localNormalX = m.localNormalX; c.localNormalY = m.localNormalY;
      c.localPointX = m.localPointX; c.localPointY = m.localPointY;
      c.radiusA = contact.fixtureA.shape.radius; c.radiusB = contact.fixtureB.shape.radius;
      c.type = m.type;
      const at = i * size;
      RI[at + C.indexA] = c.indexA; RI[at + C.indexB] = c.indexB;
      R[at + C.mA] = c.mA; R[at + C.mB] = c.mB; R[at + C.iA] = c.iA; R[at + C.iB] = c.iB;
      R[at + C.friction] = contact.friction;
      RI[at + C.pointCount] = m.pointCount;
      for (let j = 0; j < m.pointCount; j++) {
        const cp = m.points[j];
        const pt = at + C.points + j * POINT.size;
        R[pt + POINT.normalImpulse] = warmStarting ? f(dtRatio * cp.normalImpulse) : 0;
        R[pt + POINT.tangentImpulse] = warmStarting ? f(dtRatio * cp.tangentImpulse) : 0;
        c.localPoints[2 * j] = cp.localX;
        c.localPoints[2 * j + 1] = cp.localY;
      }
    }
  }

  initializeVelocityConstraints(): void {
    const P = this.positions, V = this.velocities;
    const R = solverMemory.contacts, RI = solverMemory.contactsI, size = solverMemory.contactSlots;
    for (let i = 0; i < this.count; i++) {
      const c = this.constraints[i];
      const m = c.manifold as Manifold;
      const at = i * size;
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
      const nx = WM[0], ny = WM[1];
      R[at + C.nx] = nx; R[at + C.ny] = ny;
      const pointCount = RI[at + C.pointCount];
      for (let j = 0; j < pointCount; j++) {
        const pt = at + C.points + j * POINT.size;
        const rAx = f(wmPoints[2 * j] - cAx), rAy = f(wmPoints[2 * j + 1] - cAy);
        const rBx = f(wmPoints[2 * j] - cBx), rBy = f(wmPoints[2 * j + 1] - cBy);
        R[pt + POINT.rAx] = rAx; R[pt + POINT.rAy] = rAy; R[pt + POINT.rBx] = rBx; R[pt + POINT.rBy] = rBy;
        const rnA = f(f(rAx * ny) - f(rAy * nx));
        const rnB = f(f(rBx * ny) - f(rBy * nx));
        const kNormal = f(f(f(mA + mB) + f(f(iA * rnA) * rnA)) + f(f(iB * rnB) * rnB));
        R[pt + POINT.normalMass] = kNormal > 0 ? f(1 / kNormal) : 0;
        // tangent = b2Cross(normal, 1.0f) = (1 * n.y, -1 * n.x)
        const tx = f(1 * ny), ty = f(-1 * nx);
        const rtA = f(f(rAx * ty) - f(rAy * tx));
        const rtB = f(f(rBx * ty) - f(rBy * tx));
        const kTangent = f(f(f(mA + mB) + f(f(iA * rtA) * rtA)) + f(f(iB * rtB) * rtB));
        R[pt + POINT.tangentMass] = kTangent > 0 ? f(1 / kTangent) : 0;
        const dvx = f(f(f(vBx + f(-wB * rBy)) - vAx) - f(-wA * rAy));
        const dvy = f(f(f(vBy + f(wB * rBx)) - vAy) - f(wA * rAx));
        const vRel = f(f(nx * dvx) + f(ny * dvy));
        R[pt + POINT.velocityBias] = vRel < -VELOCITY_THRESHOLD ? f(-c.restitution * vRel) : 0;
      }
      if (pointCount === 2) {
        const p1 = at + C.points, p2 = p1 + POINT.size;
        const rn1A = f(f(R[p1 + POINT.rAx] * ny) - f(R[p1 + POINT.rAy] * nx));
        const rn1B = f(f(R[p1 + POINT.rBx] * ny) - f(R[p1 + POINT.rBy] * nx));
        const rn2A = f(f(R[p2 + POINT.rAx] * ny) - f(R[p2 + POINT.rAy] * nx));
        const rn2B = f(f(R[p2 + POINT.rBx] * ny) - f(R[p2 + POINT.rBy] * nx));
        const k11 = f(f(f(mA + mB) + f(f(iA * rn1A) * rn1A)) + f(f(iB * rn1B) * rn1B));
        const k22 = f(f(f(mA + mB) + f(f(iA * rn2A) * rn2A)) + f(f(iB * rn2B) * rn2B));
        const k12 = f(f(f(mA + mB) + f(f(iA * rn1A) * rn2A)) + f(f(iB * rn1B) * rn2B));
        if (f(k11 * k11) < f(1000 * f(f(k11 * k22) - f(k12 * k12)))) {
          R[at + C.k11] = k11; R[at + C.k12] = k12; R[at + C.k22] = k22;
          // K.GetInverse(): a = ex.x, b = ey.x, c = ex.y, d = ey.y
          let det = f(f(k11 * k22) - f(k12 * k12));
          if (det !== 0) det = f(1 / det);
          R[at + C.nm11] = f(det * k22); R[at + C.nm12] = f(-det * k12); R[at + C.nm21] = f(-det * k12); R[at + C.nm22] = f(det * k11);
        } else {
          RI[at + C.pointCount] = 1;
        }
      }
    }
  }

  /** b2ContactSolver::WarmStart (in the kernel). */
  warmStart(): void {
    solverMemory.warmStartContacts(this.count);
  }

  /** The impulses the velocity iterations accumulated, back into the manifolds. */
  storeImpulses(): void {
    const R = solverMemory.contacts, RI = solverMemory.contactsI, size = solverMemory.contactSlots;
    for (let i = 0; i < this.count; i++) {
      const m = this.constraints[i].manifold as Manifold;
      const at = i * size;
      for (let j = 0; j < RI[at + C.pointCount]; j++) {
        const pt = at + C.points + j * POINT.size;
        m.points[j].normalImpulse = R[pt + POINT.normalImpulse];
        m.points[j].tangentImpulse = R[pt + POINT.tangentImpulse];
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
  const lx = c.localPoints[2 * j], ly = c.localPoints[2 * j + 1];
  const clipX = f(f(f(oC * lx) - f(oS * ly)) + oPx);
  const clipY = f(f(f(oS * lx) + f(oC * ly)) + oPy);
  PSM[4] = f(f(f(f(f(clipX - planeX) * nx) + f(f(clipY - planeY) * ny)) - c.radiusA) - c.radiusB);
  PSM[2] = clipX;
  PSM[3] = clipY;
  PSM[0] = faceA ? nx : -nx;
  PSM[1] = faceA ? ny : -ny;
}
