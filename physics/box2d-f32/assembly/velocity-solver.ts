/**
 * The island's velocity iterations (b2Island::Solve's and SolveTOI's loops) in WebAssembly: every
 * revolute joint's SolveVelocityConstraints (b2RevoluteJoint.cpp, the 2.3 solver) in island order,
 * then the contact solver's (b2ContactSolver.cpp, with the two-point block solver), `iterations`
 * times; and the contacts' warm start. f32 arithmetic in WebAssembly is IEEE single precision with
 * no fused multiply-add, which is what `Math.fround(a op b)` computes, so this is bit exact with
 * Box2D as long as the order of operations is the C++ one (kept here operation by operation).
 *
 * The data lives in this module's linear memory, laid out by ../solver-memory.ts: per body (by
 * island index) v.x, v.y, w; one record per joint and per contact constraint, with the slots of
 * _layout.ts (exported with the module, so that the TypeScript side reads the layout from there).
 */
export * from './_layout';
import {
  J_INDEX_A, J_INDEX_B, J_MA, J_MB, J_IA, J_IB, J_RAX, J_RAY, J_RBX, J_RBY, J_M11, J_M12, J_M13,
  J_M22, J_M23, J_M33, J_YZ0, J_YZ1, J_YZ2, J_DET33, J_DET22, J_MOTOR_MASS, J_MOTOR_SPEED,
  J_MAX_IMPULSE, J_LIMIT_STATE, J_FIXED_ROTATION, J_IX, J_IY, J_IZ, J_MOTOR_IMPULSE, JOINT_SLOTS,
  INACTIVE, AT_LOWER, AT_UPPER, EQUAL, C_INDEX_A, C_INDEX_B, C_MA, C_MB, C_IA, C_IB, C_NX, C_NY,
  C_FRICTION, C_K11, C_K12, C_K22, C_NM11, C_NM12, C_NM21, C_NM22, C_POINT_COUNT, C_POINTS, P_RAX,
  P_RAY, P_RBX, P_RBY, P_NORMAL_MASS, P_TANGENT_MASS, P_VELOCITY_BIAS, P_NORMAL_IMPULSE,
  P_TANGENT_IMPULSE, POINT_SLOTS, CONTACT_SLOTS,
} from './_layout';

/** Where the TypeScript side may lay out its data (past this module's static data). */
export function heapBase(): usize {
  return __heap_base;
}

// Slot accessors: the slot is a constant, so the byte offset folds into the load's immediate.
// @ts-ignore: decorator
@inline function ld(p: usize, slot: i32): f32 { return load<f32>(p + (<usize>slot << 2)); }
// @ts-ignore: decorator
@inline function st(p: usize, slot: i32, v: f32): void { store<f32>(p + (<usize>slot << 2), v); }
// @ts-ignore: decorator
@inline function ldi(p: usize, slot: i32): i32 { return load<i32>(p + (<usize>slot << 2)); }
/** Body i's velocity (v.x, v.y, w: 12 bytes). */
// @ts-ignore: decorator
@inline function body(vel: usize, i: i32): usize { return vel + <usize>(i * 12); }

/** Island.iterateVelocities: `iterations` times every joint in island order, then every contact. */
export function solveVelocities(vel: usize, joints: usize, jointCount: i32, contacts: usize, contactCount: i32, iterations: i32): void {
  for (let i = 0; i < iterations; i++) {
    for (let k = 0; k < jointCount; k++) solveJoint(joints + <usize>(k * JOINT_SLOTS * 4), vel);
    for (let k = 0; k < contactCount; k++) solveContact(contacts + <usize>(k * CONTACT_SLOTS * 4), vel);
  }
}

/** b2ContactSolver::WarmStart. */
export function warmStartContacts(vel: usize, contacts: usize, contactCount: i32): void {
  for (let k = 0; k < contactCount; k++) {
    const c = contacts + <usize>(k * CONTACT_SLOTS * 4);
    const a = body(vel, ldi(c, C_INDEX_A)), b = body(vel, ldi(c, C_INDEX_B));
    const mA = ld(c, C_MA), mB = ld(c, C_MB), iA = ld(c, C_IA), iB = ld(c, C_IB);
    let vAx = ld(a, 0), vAy = ld(a, 1), wA = ld(a, 2);
    let vBx = ld(b, 0), vBy = ld(b, 1), wB = ld(b, 2);
    // tangent = b2Cross(normal, 1.0f) = (1 * n.y, -1 * n.x): exact.
    const nx = ld(c, C_NX), ny = ld(c, C_NY), tx = ny, ty = -nx;
    const count = ldi(c, C_POINT_COUNT);
    for (let j = 0; j < count; j++) {
      const p = c + <usize>((C_POINTS + j * POINT_SLOTS) << 2);
      const normalImpulse = ld(p, P_NORMAL_IMPULSE), tangentImpulse = ld(p, P_TANGENT_IMPULSE);
      const Px: f32 = normalImpulse * nx + tangentImpulse * tx;
      const Py: f32 = normalImpulse * ny + tangentImpulse * ty;
      wA = wA - iA * (ld(p, P_RAX) * Py - ld(p, P_RAY) * Px);
      vAx = vAx - mA * Px; vAy = vAy - mA * Py;
      wB = wB + iB * (ld(p, P_RBX) * Py - ld(p, P_RBY) * Px);
      vBx = vBx + mB * Px; vBy = vBy + mB * Py;
    }
    st(a, 0, vAx); st(a, 1, vAy); st(a, 2, wA);
    st(b, 0, vBx); st(b, 1, vBy); st(b, 2, wB);
  }
}

/** b2RevoluteJoint::SolveVelocityConstraints. */
function solveJoint(j: usize, vel: usize): void {
  const a = body(vel, ldi(j, J_INDEX_A)), b = body(vel, ldi(j, J_INDEX_B));
  let vAx = ld(a, 0), vAy = ld(a, 1), wA = ld(a, 2);
  let vBx = ld(b, 0), vBy = ld(b, 1), wB = ld(b, 2);
  const mA = ld(j, J_MA), mB = ld(j, J_MB), iA = ld(j, J_IA), iB = ld(j, J_IB);
  const rAx = ld(j, J_RAX), rAy = ld(j, J_RAY), rBx = ld(j, J_RBX), rBy = ld(j, J_RBY);
  const limitState = ldi(j, J_LIMIT_STATE);
  const fixedRotation = ldi(j, J_FIXED_ROTATION) != 0;
  if (limitState != EQUAL && !fixedRotation) {
    const Cdot: f32 = (wB - wA) - ld(j, J_MOTOR_SPEED);
    let impulse: f32 = -ld(j, J_MOTOR_MASS) * Cdot;
    const oldImpulse = ld(j, J_MOTOR_IMPULSE);
    const maxImpulse = ld(j, J_MAX_IMPULSE);
    // b2Clamp(a, low, high) = b2Max(low, b2Min(a, high)).
    const sum: f32 = oldImpulse + impulse;
    const m = sum < maxImpulse ? sum : maxImpulse;
    const motorImpulse = -maxImpulse < m ? m : -maxImpulse;
    st(j, J_MOTOR_IMPULSE, motorImpulse);
    impulse = motorImpulse - oldImpulse;
    wA = wA - iA * impulse;
    wB = wB + iB * impulse;
  }
  // Cdot1 = vB + b2Cross(wB, rB) - vA - b2Cross(wA, rA), b2Cross(w, r) = (-w * r.y, w * r.x)
  const c1x: f32 = ((vBx + -wB * rBy) - vAx) - -wA * rAy;
  const c1y: f32 = ((vBy + wB * rBx) - vAy) - wA * rAx;
  const m11 = ld(j, J_M11), m12 = ld(j, J_M12), m22 = ld(j, J_M22);
  let ix = ld(j, J_IX), iy = ld(j, J_IY);
  if (limitState != INACTIVE && !fixedRotation) {
    const c2: f32 = wB - wA;
    const m13 = ld(j, J_M13), m23 = ld(j, J_M23), m33 = ld(j, J_M33);
    let iz = ld(j, J_IZ);
    // -m_mass.Solve33(Cdot): Cramer's rule with det = 1 / b2Dot(ex, b2Cross(ey, ez)).
    const det = ld(j, J_DET33);
    const x33: f32 = det * ((c1x * ld(j, J_YZ0) + c1y * ld(j, J_YZ1)) + c2 * ld(j, J_YZ2));
    // b2Cross(b, ez)
    const bz0: f32 = c1y * m33 - c2 * m23;
    const bz1: f32 = c2 * m13 - c1x * m33;
    const bz2: f32 = c1x * m23 - c1y * m13;
    const y33: f32 = det * ((m11 * bz0 + m12 * bz1) + m13 * bz2);
    // b2Cross(ey, b)
    const yb0: f32 = m22 * c2 - m23 * c1y;
    const yb1: f32 = m23 * c1x - m12 * c2;
    const yb2: f32 = m12 * c1y - m22 * c1x;
    const z33: f32 = det * ((m11 * yb0 + m12 * yb1) + m13 * yb2);
    let jx = -x33, jy = -y33, jz = -z33;
    const newImpulse: f32 = iz + jz;
    if (limitState != EQUAL && (limitState == AT_LOWER ? newImpulse < <f32>0 : newImpulse > <f32>0)) {
      // The limit would pull: solve the point alone, m_mass.Solve22(-Cdot1 + iz * (m13, m23)).
      const bx: f32 = -c1x + iz * m13;
      const by: f32 = -c1y + iz * m23;
      const det2 = ld(j, J_DET22);
      const sx: f32 = det2 * (m22 * bx - m12 * by);
      const sy: f32 = det2 * (m11 * by - m12 * bx);
      jx = sx; jy = sy; jz = -iz;
      ix = ix + sx; iy = iy + sy; iz = 0;
    } else {
      ix = ix + jx; iy = iy + jy; iz = iz + jz;
    }
    st(j, J_IZ, iz);
    vAx = vAx - mA * jx; vAy = vAy - mA * jy;
    wA = wA - iA * ((rAx * jy - rAy * jx) + jz);
    vBx = vBx + mB * jx; vBy = vBy + mB * jy;
    wB = wB + iB * ((rBx * jy - rBy * jx) + jz);
  } else {
    // m_mass.Solve22(-Cdot1)
    const bx = -c1x, by = -c1y;
    const det2 = ld(j, J_DET22);
    const Px: f32 = det2 * (m22 * bx - m12 * by);
    const Py: f32 = det2 * (m11 * by - m12 * bx);
    ix = ix + Px; iy = iy + Py;
    vAx = vAx - mA * Px; vAy = vAy - mA * Py;
    wA = wA - iA * (rAx * Py - rAy * Px);
    vBx = vBx + mB * Px; vBy = vBy + mB * Py;
    wB = wB + iB * (rBx * Py - rBy * Px);
  }
  st(j, J_IX, ix); st(j, J_IY, iy);
  st(a, 0, vAx); st(a, 1, vAy); st(a, 2, wA);
  st(b, 0, vBx); st(b, 1, vBy); st(b, 2, wB);
}

/**
 * b2ContactSolver::SolveVelocityConstraints for one contact: friction at each point, then the
 * normal impulses (one point, or the two-point block solver).
 */
function solveContact(c: usize, vel: usize): void {
  const a = body(vel, ldi(c, C_INDEX_A)), b = body(vel, ldi(c, C_INDEX_B));
  let vAx = ld(a, 0), vAy = ld(a, 1), wA = ld(a, 2);
  let vBx = ld(b, 0), vBy = ld(b, 1), wB = ld(b, 2);
  const mA = ld(c, C_MA), mB = ld(c, C_MB), iA = ld(c, C_IA), iB = ld(c, C_IB);
  const nx = ld(c, C_NX), ny = ld(c, C_NY), tx = ny, ty = -nx;
  const friction = ld(c, C_FRICTION);
  const count = ldi(c, C_POINT_COUNT);
  for (let j = 0; j < count; j++) {
    const p = c + <usize>((C_POINTS + j * POINT_SLOTS) << 2);
    const rAx = ld(p, P_RAX), rAy = ld(p, P_RAY), rBx = ld(p, P_RBX), rBy = ld(p, P_RBY);
    // dv = vB + b2Cross(wB, rB) - vA - b2Cross(wA, rA); vt = b2Dot(dv, tangent) - tangentSpeed (0, and x - 0 is x)
    const dvx: f32 = ((vBx + -wB * rBy) - vAx) - -wA * rAy;
    const dvy: f32 = ((vBy + wB * rBx) - vAy) - wA * rAx;
    const vt: f32 = dvx * tx + dvy * ty;
    let lambda: f32 = ld(p, P_TANGENT_MASS) * -vt;
    const maxFriction: f32 = friction * ld(p, P_NORMAL_IMPULSE);
    const oldImpulse = ld(p, P_TANGENT_IMPULSE);
    // b2Clamp(oldImpulse + lambda, -maxFriction, maxFriction)
    const sum: f32 = oldImpulse + lambda;
    const m = sum < maxFriction ? sum : maxFriction;
    const newImpulse = -maxFriction < m ? m : -maxFriction;
    lambda = newImpulse - oldImpulse;
    st(p, P_TANGENT_IMPULSE, newImpulse);
    const Px: f32 = lambda * tx, Py: f32 = lambda * ty;
    vAx = vAx - mA * Px; vAy = vAy - mA * Py;
    wA = wA - iA * (rAx * Py - rAy * Px);
    vBx = vBx + mB * Px; vBy = vBy + mB * Py;
    wB = wB + iB * (rBx * Py - rBy * Px);
  }
  const p1 = c + <usize>(C_POINTS << 2);
  const r1Ax = ld(p1, P_RAX), r1Ay = ld(p1, P_RAY), r1Bx = ld(p1, P_RBX), r1By = ld(p1, P_RBY);
  if (count == 1) {
    const dvx: f32 = ((vBx + -wB * r1By) - vAx) - -wA * r1Ay;
    const dvy: f32 = ((vBy + wB * r1Bx) - vAy) - wA * r1Ax;
    const vn: f32 = dvx * nx + dvy * ny;
    let lambda: f32 = -ld(p1, P_NORMAL_MASS) * (vn - ld(p1, P_VELOCITY_BIAS));
    const oldImpulse = ld(p1, P_NORMAL_IMPULSE);
    const sum: f32 = oldImpulse + lambda;
    const newImpulse = sum < <f32>0 ? <f32>0 : sum;
    lambda = newImpulse - oldImpulse;
    st(p1, P_NORMAL_IMPULSE, newImpulse);
    const Px: f32 = lambda * nx, Py: f32 = lambda * ny;
    vAx = vAx - mA * Px; vAy = vAy - mA * Py;
    wA = wA - iA * (r1Ax * Py - r1Ay * Px);
    vBx = vBx + mB * Px; vBy = vBy + mB * Py;
    wB = wB + iB * (r1Bx * Py - r1By * Px);
  } else {
    const p2 = p1 + <usize>(POINT_SLOTS << 2);
    const r2Ax = ld(p2, P_RAX), r2Ay = ld(p2, P_RAY), r2Bx = ld(p2, P_RBX), r2By = ld(p2, P_RBY);
    const ax = ld(p1, P_NORMAL_IMPULSE), ay = ld(p2, P_NORMAL_IMPULSE);
    const dv1x: f32 = ((vBx + -wB * r1By) - vAx) - -wA * r1Ay;
    const dv1y: f32 = ((vBy + wB * r1Bx) - vAy) - wA * r1Ax;
    const dv2x: f32 = ((vBx + -wB * r2By) - vAx) - -wA * r2Ay;
    const dv2y: f32 = ((vBy + wB * r2Bx) - vAy) - wA * r2Ax;
    const vn1: f32 = dv1x * nx + dv1y * ny;
    const vn2: f32 = dv2x * nx + dv2y * ny;
    const k11 = ld(c, C_K11), k12 = ld(c, C_K12), k22 = ld(c, C_K22);
    // b = vn - velocityBias - b2Mul(K, a)
    let bx: f32 = vn1 - ld(p1, P_VELOCITY_BIAS);
    let by: f32 = vn2 - ld(p2, P_VELOCITY_BIAS);
    bx = bx - (k11 * ax + k12 * ay);
    by = by - (k12 * ax + k22 * ay);
    // The first of Box2D's four cases that holds: both points, the first alone, the second alone, none.
    // x = -b2Mul(normalMass, b)
    let xx: f32 = -(ld(c, C_NM11) * bx + ld(c, C_NM12) * by);
    let xy: f32 = -(ld(c, C_NM21) * bx + ld(c, C_NM22) * by);
    let solved = xx >= <f32>0 && xy >= <f32>0;
    if (!solved) {
      xx = -ld(p1, P_NORMAL_MASS) * bx;
      xy = 0;
      solved = xx >= <f32>0 && k12 * xx + by >= <f32>0;
    }
    if (!solved) {
      xx = 0;
      xy = -ld(p2, P_NORMAL_MASS) * by;
      solved = xy >= <f32>0 && k12 * xy + bx >= <f32>0;
    }
    if (!solved) {
      xx = 0;
      xy = 0;
      solved = bx >= <f32>0 && by >= <f32>0;
    }
    if (solved) {
      const dx: f32 = xx - ax, dy: f32 = xy - ay;
      const P1x: f32 = dx * nx, P1y: f32 = dx * ny, P2x: f32 = dy * nx, P2y: f32 = dy * ny;
      const Sx: f32 = P1x + P2x, Sy: f32 = P1y + P2y;
      vAx = vAx - mA * Sx; vAy = vAy - mA * Sy;
      wA = wA - iA * ((r1Ax * P1y - r1Ay * P1x) + (r2Ax * P2y - r2Ay * P2x));
      vBx = vBx + mB * Sx; vBy = vBy + mB * Sy;
      wB = wB + iB * ((r1Bx * P1y - r1By * P1x) + (r2Bx * P2y - r2By * P2x));
      st(p1, P_NORMAL_IMPULSE, xx);
      st(p2, P_NORMAL_IMPULSE, xy);
    }
  }
  st(a, 0, vAx); st(a, 1, vAy); st(a, 2, wA);
  st(b, 0, vBx); st(b, 1, vBy); st(b, 2, wB);
}
