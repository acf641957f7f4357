/**
 * Box2D 2.3's revolute joint (b2RevoluteJoint.cpp) with its motor and limits: the 2.3 solver,
 * where a joint at its limit solves the point and the angle together (a 3x3 block).
 */
import type { Body } from './body.ts';
import { ANGULAR_SLOP, clamp, cosf, f, MAX_ANGULAR_CORRECTION, LINEAR_SLOP, sinf, sqrtf } from './settings.ts';

const INACTIVE = 0;
const AT_LOWER = 1;
const AT_UPPER = 2;
const EQUAL = 3;

export interface RevoluteDef {
  bodyA: Body;
  bodyB: Body;
  localAnchorA: readonly [number, number];
  localAnchorB: readonly [number, number];
  referenceAngle: number;
  lowerAngle: number;
  upperAngle: number;
  maxMotorTorque: number;
  motorSpeed: number;
}

/** The island's solver data: per body (by island index) c.x, c.y, a and v.x, v.y, w. */
export interface SolverData {
  dt: number;
  dtRatio: number;
  warmStarting: boolean;
  positions: Float64Array;
  velocities: Float64Array;
}

export class RevoluteJoint {
  readonly bodyA: Body;
  readonly bodyB: Body;
  islandFlag = false;
  private readonly laX: number; private readonly laY: number;
  private readonly lbX: number; private readonly lbY: number;
  private readonly referenceAngle: number;
  private readonly lowerAngle: number;
  private readonly upperAngle: number;
  private readonly maxMotorTorque: number;
  private readonly motorSpeed: number;
  private ix = 0; private iy = 0; private iz = 0;
  private motorImpulse = 0;
  private limitState = INACTIVE;
  private indexA = 0; private indexB = 0;
  private lcAx = 0; private lcAy = 0; private lcBx = 0; private lcBy = 0;
  private mA = 0; private mB = 0; private iA = 0; private iB = 0;
  private rAx = 0; private rAy = 0; private rBx = 0; private rBy = 0;
  // m_mass (3x3, symmetric): ex = (m11, m12, m13), ey = (m12, m22, m23), ez = (m13, m23, m33).
  private m11 = 0; private m12 = 0; private m13 = 0; private m22 = 0; private m23 = 0; private m33 = 0;
  private motorMass = 0;
  // Solve33's and Solve22's parts that depend on m_mass alone (the same every iteration): b2Cross(ey, ez) and the inverse determinants.
  private yz0 = 0; private yz1 = 0; private yz2 = 0; private det33 = 0; private det22 = 0;
  private maxImpulse = 0;
  private fixedRotation = false;

  constructor(def: RevoluteDef) {
    this.bodyA = def.bodyA;
    this.bodyB = def.bodyB;
    this.laX = f(def.localAnchorA[0]); this.laY = f(def.localAnchorA[1]);
    this.lbX = f(def.localAnchorB[0]); this.lbY = f(def.localAnchorB[1]);
    this.referenceAngle = f(def.referenceAngle);
    this.lowerAngle = f(def.lowerAngle);
    this.upperAngle = f(def.upperAngle);
    this.maxMotorTorque = f(def.maxMotorTorque);
    this.motorSpeed = f(def.motorSpeed);
  }

  initVelocityConstraints(data: SolverData): void {
    const A = this.bodyA, B = this.bodyB;
    this.indexA = A.islandIndex; this.indexB = B.islandIndex;
    this.lcAx = A.sweep.lcx; this.lcAy = A.sweep.lcy; this.lcBx = B.sweep.lcx; this.lcBy = B.sweep.lcy;
    this.mA = A.invMass; this.mB = B.invMass; this.iA = A.invI; this.iB = B.invI;
    const P = data.positions, V = data.velocities;
    const aA = P[3 * this.indexA + 2], aB = P[3 * this.indexB + 2];
    let vAx = V[3 * this.indexA], vAy = V[3 * this.indexA + 1], wA = V[3 * this.indexA + 2];
    let vBx = V[3 * this.indexB], vBy = V[3 * this.indexB + 1], wB = V[3 * this.indexB + 2];
    const sA = sinf(aA), cA = cosf(aA), sB = sinf(aB), cB = cosf(aB);
    const dAx = f(this.laX - this.lcAx), dAy = f(this.laY - this.lcAy);
    const dBx = f(this.lbX - this.lcBx), dBy = f(this.lbY - this.lcBy);
    this.rAx = f(f(cA * dAx) - f(sA * dAy)); this.rAy = f(f(sA * dAx) + f(cA * dAy));
    this.rBx = f(f(cB * dBx) - f(sB * dBy)); this.rBy = f(f(sB * dBx) + f(cB * dBy));
    const mA = this.mA, mB = this.mB, iA = this.iA, iB = this.iB;
    const rAx = this.rAx, rAy = this.rAy, rBx = this.rBx, rBy = this.rBy;
    const fixedRotation = f(iA + iB) === 0;
    this.m11 = f(f(f(mA + mB) + f(f(rAy * rAy) * iA)) + f(f(rBy * rBy) * iB));
    this.m12 = f(f(f(-rAy * rAx) * iA) - f(f(rBy * rBx) * iB));
    this.m13 = f(f(-rAy * iA) - f(rBy * iB));
    this.m22 = f(f(f(mA + mB) + f(f(rAx * rAx) * iA)) + f(f(rBx * rBx) * iB));
    this.m23 = f(f(rAx * iA) + f(rBx * iB));
    this.m33 = f(iA + iB);
    this.motorMass = f(iA + iB);
    if (this.motorMass > 0) this.motorMass = f(1 / this.motorMass);
    this.precompute(data.dt, fixedRotation);
    if (fixedRotation) this.motorImpulse = 0;
    if (!fixedRotation) {
      const jointAngle = f(f(aB - aA) - this.referenceAngle);
      if (Math.abs(f(this.upperAngle - this.lowerAngle)) < f(2 * ANGULAR_SLOP)) {
        this.limitState = EQUAL;
      } else if (jointAngle <= this.lowerAngle) {
        if (this.limitState !== AT_LOWER) this.iz = 0;
        this.limitState = AT_LOWER;
      } else if (jointAngle >= this.upperAngle) {
        if (this.limitState !== AT_UPPER) this.iz = 0;
        this.limitState = AT_UPPER;
      } else {
        this.limitState = INACTIVE;
        this.iz = 0;
      }
    } else {
      this.limitState = INACTIVE;
    }
    if (data.warmStarting) {
      this.ix = f(data.dtRatio * this.ix);
      this.iy = f(data.dtRatio * this.iy);
      this.iz = f(data.dtRatio * this.iz);
      this.motorImpulse = f(this.motorImpulse * data.dtRatio);
      const Px = this.ix, Py = this.iy;
      vAx = f(vAx - f(mA * Px)); vAy = f(vAy - f(mA * Py));
      wA = f(wA - f(iA * f(f(f(f(rAx * Py) - f(rAy * Px)) + this.motorImpulse) + this.iz)));
      vBx = f(vBx + f(mB * Px)); vBy = f(vBy + f(mB * Py));
      wB = f(wB + f(iB * f(f(f(f(rBx * Py) - f(rBy * Px)) + this.motorImpulse) + this.iz)));
    } else {
      this.ix = 0; this.iy = 0; this.iz = 0;
      this.motorImpulse = 0;
    }
    V[3 * this.indexA] = vAx; V[3 * this.indexA + 1] = vAy; V[3 * this.indexA + 2] = wA;
    V[3 * this.indexB] = vBx; V[3 * this.indexB + 1] = vBy; V[3 * this.indexB + 2] = wB;
  }

  solveVelocityConstraints(data: SolverData): void {
    const V = data.velocities;
    const ia = 3 * this.indexA, ib = 3 * this.indexB;
    let vAx = V[ia], vAy = V[ia + 1], wA = V[ia + 2];
    let vBx = V[ib], vBy = V[ib + 1], wB = V[ib + 2];
    const mA = this.mA, mB = this.mB, iA = this.iA, iB = this.iB;
    const rAx = this.rAx, rAy = this.rAy, rBx = this.rBx, rBy = this.rBy;
    const fixedRotation = this.fixedRotation;
    if (this.limitState !== EQUAL && !fixedRotation) {
      const Cdot = f(f(wB - wA) - this.motorSpeed);
      let impulse = f(-this.motorMass * Cdot);
      const oldImpulse = this.motorImpulse;
      const maxImpulse = this.maxImpulse;
      // b2Clamp(a, low, high) = b2Max(low, b2Min(a, high)), inline.
      const sum = f(this.motorImpulse + impulse);
      const m = sum < maxImpulse ? sum : maxImpulse;
      this.motorImpulse = -maxImpulse < m ? m : -maxImpulse;
      impulse = f(this.motorImpulse - oldImpulse);
      wA = f(wA - f(iA * impulse));
      wB = f(wB + f(iB * impulse));
    }
    // vB + b2Cross(wB, rB) - vA - b2Cross(wA, rA), b2Cross(w, r) = (-w * r.y, w * r.x)
    const c1x = f(f(f(vBx + f(-wB * rBy)) - vAx) - f(-wA * rAy));
    const c1y = f(f(f(vBy + f(wB * rBx)) - vAy) - f(wA * rAx));
    let Px: number, Py: number;
    if (this.limitState !== INACTIVE && !fixedRotation) {
      const c2 = f(wB - wA);
      // -m_mass.Solve33(Cdot)
      // Solve33, inline (a call would box its three arguments).
      const m11 = this.m11, m12 = this.m12, m13 = this.m13, m22 = this.m22, m23 = this.m23, m33 = this.m33;
      const det = this.det33;
      const x33 = f(det * f(f(f(c1x * this.yz0) + f(c1y * this.yz1)) + f(c2 * this.yz2)));
      // b2Cross(b, ez)
      const bz0 = f(f(c1y * m33) - f(c2 * m23));
      const bz1 = f(f(c2 * m13) - f(c1x * m33));
      const bz2 = f(f(c1x * m23) - f(c1y * m13));
      const y33 = f(det * f(f(f(m11 * bz0) + f(m12 * bz1)) + f(m13 * bz2)));
      // b2Cross(ey, b)
      const yb0 = f(f(m22 * c2) - f(m23 * c1y));
      const yb1 = f(f(m23 * c1x) - f(m12 * c2));
      const yb2 = f(f(m12 * c1y) - f(m22 * c1x));
      const z33 = f(det * f(f(f(m11 * yb0) + f(m12 * yb1)) + f(m13 * yb2)));
      let jx = -x33, jy = -y33, jz = -z33;
      if (this.limitState === EQUAL) {
        this.ix = f(this.ix + jx); this.iy = f(this.iy + jy); this.iz = f(this.iz + jz);
      } else {
        const newImpulse = f(this.iz + jz);
        if (this.limitState === AT_LOWER ? newImpulse < 0 : newImpulse > 0) {
          const rhsX = f(-c1x + f(this.iz * this.m13));
          const rhsY = f(-c1y + f(this.iz * this.m23));
          this.solve22(rhsX, rhsY);
          jx = OUT[3]; jy = OUT[4]; jz = -this.iz;
          this.ix = f(this.ix + OUT[3]); this.iy = f(this.iy + OUT[4]); this.iz = 0;
        } else {
          this.ix = f(this.ix + jx); this.iy = f(this.iy + jy); this.iz = f(this.iz + jz);
        }
      }
      Px = jx; Py = jy;
      vAx = f(vAx - f(mA * Px)); vAy = f(vAy - f(mA * Py));
      wA = f(wA - f(iA * f(f(f(rAx * Py) - f(rAy * Px)) + jz)));
      vBx = f(vBx + f(mB * Px)); vBy = f(vBy + f(mB * Py));
      wB = f(wB + f(iB * f(f(f(rBx * Py) - f(rBy * Px)) + jz)));
    } else {
      this.solve22(-c1x, -c1y);
      Px = OUT[3]; Py = OUT[4];
      this.ix = f(this.ix + Px); this.iy = f(this.iy + Py);
      vAx = f(vAx - f(mA * Px)); vAy = f(vAy - f(mA * Py));
      wA = f(wA - f(iA * f(f(rAx * Py) - f(rAy * Px))));
      vBx = f(vBx + f(mB * Px)); vBy = f(vBy + f(mB * Py));
      wB = f(wB + f(iB * f(f(rBx * Py) - f(rBy * Px))));
    }
    V[ia] = vAx; V[ia + 1] = vAy; V[ia + 2] = wA;
    V[ib] = vBx; V[ib + 1] = vBy; V[ib + 2] = wB;
  }

  /** What Solve33 and Solve22 compute from m_mass alone, and the motor's largest impulse. */
  private precompute(dt: number, fixedRotation: boolean): void {
    const m11 = this.m11, m12 = this.m12, m13 = this.m13, m22 = this.m22, m23 = this.m23, m33 = this.m33;
    // b2Cross(ey, ez), ey = (m12, m22, m23), ez = (m13, m23, m33); det = b2Dot(ex, b2Cross(ey, ez)), ex = (m11, m12, m13)
    this.yz0 = f(f(m22 * m33) - f(m23 * m23));
    this.yz1 = f(f(m23 * m13) - f(m12 * m33));
    this.yz2 = f(f(m12 * m23) - f(m22 * m13));
    let det = f(f(f(m11 * this.yz0) + f(m12 * this.yz1)) + f(m13 * this.yz2));
    if (det !== 0) det = f(1 / det);
    this.det33 = det;
    // Solve22: a11 = ex.x, a12 = ey.x, a21 = ex.y, a22 = ey.y
    let det2 = f(f(m11 * m22) - f(m12 * m12));
    if (det2 !== 0) det2 = f(1 / det2);
    this.det22 = det2;
    this.maxImpulse = f(dt * this.maxMotorTorque);
    this.fixedRotation = fixedRotation;
  }

  /** b2Mat33::Solve22 on m_mass: sets OUT[3..4]. */
  private solve22(bx: number, by: number): void {
    const a11 = this.m11, a12 = this.m12, a21 = this.m12, a22 = this.m22;
    const det = this.det22;
    OUT[3] = f(det * f(f(a22 * bx) - f(a12 * by)));
    OUT[4] = f(det * f(f(a11 * by) - f(a21 * bx)));
  }

  solvePositionConstraints(data: SolverData): boolean {
    const P = data.positions;
    const ia = 3 * this.indexA, ib = 3 * this.indexB;
    let cAx = P[ia], cAy = P[ia + 1], aA = P[ia + 2];
    let cBx = P[ib], cBy = P[ib + 1], aB = P[ib + 2];
    let angularError = 0;
    const fixedRotation = f(this.iA + this.iB) === 0;
    if (this.limitState !== INACTIVE && !fixedRotation) {
      const angle = f(f(aB - aA) - this.referenceAngle);
      let limitImpulse = 0;
      if (this.limitState === EQUAL) {
        const C = clamp(f(angle - this.lowerAngle), -MAX_ANGULAR_CORRECTION, MAX_ANGULAR_CORRECTION);
        limitImpulse = f(-this.motorMass * C);
        angularError = Math.abs(C);
      } else if (this.limitState === AT_LOWER) {
        let C = f(angle - this.lowerAngle);
        angularError = -C;
        C = clamp(f(C + ANGULAR_SLOP), -MAX_ANGULAR_CORRECTION, 0);
        limitImpulse = f(-this.motorMass * C);
      } else {
        let C = f(angle - this.upperAngle);
        angularError = C;
        C = clamp(f(C - ANGULAR_SLOP), 0, MAX_ANGULAR_CORRECTION);
        limitImpulse = f(-this.motorMass * C);
      }
      aA = f(aA - f(this.iA * limitImpulse));
      aB = f(aB + f(this.iB * limitImpulse));
    }
    const sA = sinf(aA), cA = cosf(aA), sB = sinf(aB), cB = cosf(aB);
    const dAx = f(this.laX - this.lcAx), dAy = f(this.laY - this.lcAy);
    const dBx = f(this.lbX - this.lcBx), dBy = f(this.lbY - this.lcBy);
    const rAx = f(f(cA * dAx) - f(sA * dAy)), rAy = f(f(sA * dAx) + f(cA * dAy));
    const rBx = f(f(cB * dBx) - f(sB * dBy)), rBy = f(f(sB * dBx) + f(cB * dBy));
    const Cx = f(f(f(cBx + rBx) - cAx) - rAx);
    const Cy = f(f(f(cBy + rBy) - cAy) - rAy);
    const positionError = sqrtf(f(f(Cx * Cx) + f(Cy * Cy)));
    const mA = this.mA, mB = this.mB, iA = this.iA, iB = this.iB;
    const k11 = f(f(f(mA + mB) + f(f(iA * rAy) * rAy)) + f(f(iB * rBy) * rBy));
    const k12 = f(f(f(-iA * rAx) * rAy) - f(f(iB * rBx) * rBy));
    const k22 = f(f(f(mA + mB) + f(f(iA * rAx) * rAx)) + f(f(iB * rBx) * rBx));
    // b2Mat22::Solve(C), negated.
    let det = f(f(k11 * k22) - f(k12 * k12));
    if (det !== 0) det = f(1 / det);
    const jx = -f(det * f(f(k22 * Cx) - f(k12 * Cy)));
    const jy = -f(det * f(f(k11 * Cy) - f(k12 * Cx)));
    cAx = f(cAx - f(mA * jx)); cAy = f(cAy - f(mA * jy));
    aA = f(aA - f(iA * f(f(rAx * jy) - f(rAy * jx))));
    cBx = f(cBx + f(mB * jx)); cBy = f(cBy + f(mB * jy));
    aB = f(aB + f(iB * f(f(rBx * jy) - f(rBy * jx))));
    P[ia] = cAx; P[ia + 1] = cAy; P[ia + 2] = aA;
    P[ib] = cBx; P[ib + 1] = cBy; P[ib + 2] = aB;
    return positionError <= LINEAR_SLOP && angularError <= ANGULAR_SLOP;
  }
}

/** Solve33's and Solve22's results (a typed array: no boxed numbers). */
const OUT = new Float64Array(5);
