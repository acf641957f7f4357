/**
 * The island solver's working memory: the linear memory of the velocity-iteration kernel
 * (assembly/velocity-solver.ts), shared by every world of the process. It holds, for the island
 * being solved, the bodies' positions and velocities (3 float32 each: c.x, c.y, a and v.x, v.y, w),
 * the joints' and the contacts' velocity-constraint records. Nothing in it outlives one
 * Island.solve or solveTOI (the joints and contacts keep their impulses themselves), so one memory
 * serves all worlds; islands are solved one at a time.
 *
 * The TypeScript side writes and reads the records through the Float32Array and Int32Array views
 * below, at the slots the kernel exports (J for joints, C and P for contacts and their points).
 * Every value stored is already a float32 (the engine rounds each result with `f`), so the
 * Float32Array stores nothing but what was computed.
 */
import { instantiateKernel, memoryOfAtLeast } from '../../core/wasm.ts';
import { VELOCITY_SOLVER_WASM } from './velocity-solver-wasm.ts';

interface Kernel {
  heapBase(): number;
  solveVelocities(vel: number, joints: number, jointCount: number, contacts: number, contactCount: number, iterations: number): void;
  warmStartContacts(vel: number, contacts: number, contactCount: number): void;
}

const kernel = instantiateKernel<Kernel>(VELOCITY_SOLVER_WASM);
/** The kernel exports its layout as constant globals (one place for it). */
const slot = (name: string): number => (kernel as unknown as Record<string, { value: number }>)[name].value;

/** A revolute joint record's slots. */
export const J = {
  indexA: slot('J_INDEX_A'), indexB: slot('J_INDEX_B'), mA: slot('J_MA'), mB: slot('J_MB'), iA: slot('J_IA'), iB: slot('J_IB'),
  rAx: slot('J_RAX'), rAy: slot('J_RAY'), rBx: slot('J_RBX'), rBy: slot('J_RBY'),
  m11: slot('J_M11'), m12: slot('J_M12'), m13: slot('J_M13'), m22: slot('J_M22'), m23: slot('J_M23'), m33: slot('J_M33'),
  yz0: slot('J_YZ0'), yz1: slot('J_YZ1'), yz2: slot('J_YZ2'), det33: slot('J_DET33'), det22: slot('J_DET22'),
  motorMass: slot('J_MOTOR_MASS'), motorSpeed: slot('J_MOTOR_SPEED'), maxImpulse: slot('J_MAX_IMPULSE'),
  limitState: slot('J_LIMIT_STATE'), fixedRotation: slot('J_FIXED_ROTATION'),
  ix: slot('J_IX'), iy: slot('J_IY'), iz: slot('J_IZ'), motorImpulse: slot('J_MOTOR_IMPULSE'),
} as const;
/** The revolute joint's limit states. */
export const INACTIVE = slot('INACTIVE'), AT_LOWER = slot('AT_LOWER'), AT_UPPER = slot('AT_UPPER'), EQUAL = slot('EQUAL');

/** A contact constraint record's slots; a point's slots are C.points + j * P.size + P.<name>. */
export const C = {
  indexA: slot('C_INDEX_A'), indexB: slot('C_INDEX_B'), mA: slot('C_MA'), mB: slot('C_MB'), iA: slot('C_IA'), iB: slot('C_IB'),
  nx: slot('C_NX'), ny: slot('C_NY'), friction: slot('C_FRICTION'),
  k11: slot('C_K11'), k12: slot('C_K12'), k22: slot('C_K22'), nm11: slot('C_NM11'), nm12: slot('C_NM12'), nm21: slot('C_NM21'), nm22: slot('C_NM22'),
  pointCount: slot('C_POINT_COUNT'), points: slot('C_POINTS'),
} as const;
export const P = {
  rAx: slot('P_RAX'), rAy: slot('P_RAY'), rBx: slot('P_RBX'), rBy: slot('P_RBY'),
  normalMass: slot('P_NORMAL_MASS'), tangentMass: slot('P_TANGENT_MASS'), velocityBias: slot('P_VELOCITY_BIAS'),
  normalImpulse: slot('P_NORMAL_IMPULSE'), tangentImpulse: slot('P_TANGENT_IMPULSE'), size: slot('POINT_SLOTS'),
} as const;
const JOINT_SLOTS = slot('JOINT_SLOTS');
const CONTACT_SLOTS = slot('CONTACT_SLOTS');

class SolverMemory {
  /** Per body: c.x, c.y, a. */
  positions = new Float32Array(0);
  /** Per body: v.x, v.y, w (the kernel's). */
  velocities = new Float32Array(0);
  /** Joint k's record starts at k * JOINT_SLOTS. */
  joints = new Float32Array(0);
  jointsI = new Int32Array(0);
  /** Contact constraint k's record starts at k * CONTACT_SLOTS. */
  contacts = new Float32Array(0);
  contactsI = new Int32Array(0);
  readonly jointSlots = JOINT_SLOTS;
  readonly contactSlots = CONTACT_SLOTS;
  private bodyCap = 0;
  private jointCap = 0;
  private contactCap = 0;
  private velocityPtr = 0;
  private jointPtr = 0;
  private contactPtr = 0;

  /** Room for an island this large. Moves the regions (new views) when it grows: call before filling them. */
  ensure(bodies: number, joints: number, contacts: number): void {
    if (bodies <= this.bodyCap && joints <= this.jointCap && contacts <= this.contactCap) return;
    this.bodyCap = Math.max(8, bodies, 2 * this.bodyCap);
    this.jointCap = Math.max(4, joints, 2 * this.jointCap);
    this.contactCap = Math.max(16, contacts, 2 * this.contactCap);
    const base = (kernel.heapBase() + 15) & ~15;
    const positionPtr = base;
    this.velocityPtr = positionPtr + 12 * this.bodyCap;
    this.jointPtr = this.velocityPtr + 12 * this.bodyCap;
    this.contactPtr = this.jointPtr + 4 * JOINT_SLOTS * this.jointCap;
    const end = this.contactPtr + 4 * CONTACT_SLOTS * this.contactCap;
    const buffer = memoryOfAtLeast(kernel.memory, end);
    this.positions = new Float32Array(buffer, positionPtr, 3 * this.bodyCap);
    this.velocities = new Float32Array(buffer, this.velocityPtr, 3 * this.bodyCap);
    this.joints = new Float32Array(buffer, this.jointPtr, JOINT_SLOTS * this.jointCap);
    this.jointsI = new Int32Array(buffer, this.jointPtr, JOINT_SLOTS * this.jointCap);
    this.contacts = new Float32Array(buffer, this.contactPtr, CONTACT_SLOTS * this.contactCap);
    this.contactsI = new Int32Array(buffer, this.contactPtr, CONTACT_SLOTS * this.contactCap);
  }

  /** Island.iterateVelocities (or SolveTOI's loop, with no joints) on the records in place. */
  solveVelocities(jointCount: number, contactCount: number, iterations: number): void {
    kernel.solveVelocities(this.velocityPtr, this.jointPtr, jointCount, this.contactPtr, contactCount, iterations);
  }

  /** b2ContactSolver::WarmStart on the contact records. */
  warmStartContacts(contactCount: number): void {
    kernel.warmStartContacts(this.velocityPtr, this.contactPtr, contactCount);
  }
}

export const solverMemory = new SolverMemory();
