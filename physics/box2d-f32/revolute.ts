/**
 * Box2D 2.3's revolute joint (b2RevoluteJoint.cpp) with its motor and limits: the 2.3 solver,
 * where a joint at its limit solves the point and the angle together (a 3x3 block). The velocity
 * iterations (SolveVelocityConstraints) run in WebAssembly: assembly/velocity-solver.ts.
 */
import type { Body } from './body.ts';
import { ANGULAR_SLOP, clamp, cosf, f, MAX_ANGULAR_CORRECTION, LINEAR_SLOP, sinf, sqrtf } from './settings.ts';
import { AT_LOWER, AT_UPPER, EQUAL, INACTIVE, J, solverMemory } from './solver-memory.ts';

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
  positions: Float32Array;
  velocities: Float32Array;
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
  private motorMass = 0;

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

  /**
   * b2RevoluteJoint::InitVelocityConstraints, with the warm start: writes the joint's record (the
   * k-th of the island) for the velocity kernel, where SolveVelocityConstraints runs.
   */
  initVelocityConstraints(data: SolverData, k: number): void {
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
    const rAx = f(f(cA * dAx) - f(sA * dAy)), rAy = f(f(sA * dAx) + f(cA * dAy));
    const rBx = f(f(cB * dBx) - f(sB * dBy)), rBy = f(f(sB * dBx) + f(cB * dBy));
    const mA = this.mA, mB = this.mB, iA = this.iA, iB = this.iB;
    const fixedRotation = f(iA + iB) === 0;
    const m11 = f(f(f(mA + mB) + f(f(rAy * rAy) * iA)) + f(f(rBy * rBy) * iB));
    const m12 = f(f(f(-rAy * rAx) * iA) - f(f(rBy * rBx) * iB));
    const m13 = f(f(-rAy * iA) - f(rBy * iB));
    const m22 = f(f(f(mA + mB) + f(f(rAx * rAx) * iA)) + f(f(rBx * rBx) * iB));
    const m23 = f(f(rAx * iA) + f(rBx * iB));
    const m33 = f(iA + iB);
    this.motorMass = f(iA + iB);
    if (this.motorMass > 0) this.motorMass = f(1 / this.motorMass);
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
    const R = solverMemory.joints, at = k * solverMemory.jointSlots;
    solverMemory.jointsI[at + J.indexA] = this.indexA; solverMemory.jointsI[at + J.indexB] = this.indexB;
    R[at + J.mA] = mA; R[at + J.mB] = mB; R[at + J.iA] = iA; R[at + J.iB] = iB;
    R[at + J.rAx] = rAx; R[at + J.rAy] = rAy; R[at + J.rBx] = rBx; R[at + J.rBy] = rBy;
    R[at + J.m11] = m11; R[at + J.m12] = m12; R[at + J.m13] = m13; R[at + J.m22] = m22; R[at + J.m23] = m23; R[at + J.m33] = m33;
    // What Solve33 and Solve22 compute from m_mass alone (the same every iteration):
    // b2Cross(ey, ez), ey = (m12, m22, m23), ez = (m13, m23, m33); det = b2Dot(ex, b2Cross(ey, ez)), ex = (m11, m12, m13).
    const yz0 = f(f(m22 * m33) - f(m23 * m23));
    const yz1 = f(f(m23 * m13) - f(m12 * m33));
    const yz2 = f(f(m12 * m23) - f(m22 * m13));
    let det = f(f(f(m11 * yz0) + f(m12 * yz1)) + f(m13 * yz2));
    if (det !== 0) det = f(1 / det);
    // Solve22: a11 = ex.x, a12 = ey.x, a21 = ex.y, a22 = ey.y
    let det2 = f(f(m11 * m22) - f(m12 * m12));
    if (det2 !== 0) det2 = f(1 / det2);
    R[at + J.yz0] = yz0; R[at + J.yz1] = yz1; R[at + J.yz2] = yz2; R[at + J.det33] = det; R[at + J.det22] = det2;
    R[at + J.motorMass] = this.motorMass; R[at + J.motorSpeed] = this.motorSpeed; R[at + J.maxImpulse] = f(data.dt * this.maxMotorTorque);
    solverMemory.jointsI[at + J.limitState] = this.limitState; solverMemory.jointsI[at + J.fixedRotation] = fixedRotation ? 1 : 0;
    R[at + J.ix] = this.ix; R[at + J.iy] = this.iy; R[at + J.iz] = this.iz; R[at + J.motorImpulse] = this.motorImpulse;
  }

  /** The impulses the velocity iterations accumulated in record k. */
  storeImpulses(k: number): void {
    const R = solverMemory.joints, at = k * solverMemory.jointSlots;
    this.ix = R[at + J.ix]; this.iy = R[at + J.iy]; this.iz = R[at + J.iz]; this.motorImpulse = R[at + J.motorImpulse];
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
