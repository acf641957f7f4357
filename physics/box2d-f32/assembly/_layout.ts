/**
 * The layout of the velocity kernel's records (velocity-solver.ts): each record is a run of 4-byte
 * slots, f32 unless marked i32. The kernel exports these constants, so the TypeScript side
 * (../solver-memory.ts) reads the layout from here: one place for it.
 */

// ---- Revolute joint record (filled by RevoluteJoint.initVelocityConstraints).
export const J_INDEX_A: i32 = 0; // i32
export const J_INDEX_B: i32 = 1; // i32
export const J_MA: i32 = 2;
export const J_MB: i32 = 3;
export const J_IA: i32 = 4;
export const J_IB: i32 = 5;
export const J_RAX: i32 = 6;
export const J_RAY: i32 = 7;
export const J_RBX: i32 = 8;
export const J_RBY: i32 = 9;
// m_mass (3x3, symmetric): ex = (m11, m12, m13), ey = (m12, m22, m23), ez = (m13, m23, m33).
export const J_M11: i32 = 10;
export const J_M12: i32 = 11;
export const J_M13: i32 = 12;
export const J_M22: i32 = 13;
export const J_M23: i32 = 14;
export const J_M33: i32 = 15;
// Solve33's and Solve22's parts that depend on m_mass alone: b2Cross(ey, ez) and the inverse determinants.
export const J_YZ0: i32 = 16;
export const J_YZ1: i32 = 17;
export const J_YZ2: i32 = 18;
export const J_DET33: i32 = 19;
export const J_DET22: i32 = 20;
export const J_MOTOR_MASS: i32 = 21;
export const J_MOTOR_SPEED: i32 = 22;
export const J_MAX_IMPULSE: i32 = 23;
export const J_LIMIT_STATE: i32 = 24; // i32, one of the limit states below
export const J_FIXED_ROTATION: i32 = 25; // i32, 0 or 1
// The accumulated impulses (m_impulse and m_motorImpulse), read back after the iterations.
export const J_IX: i32 = 26;
export const J_IY: i32 = 27;
export const J_IZ: i32 = 28;
export const J_MOTOR_IMPULSE: i32 = 29;
export const JOINT_SLOTS: i32 = 32;

export const INACTIVE: i32 = 0;
export const AT_LOWER: i32 = 1;
export const AT_UPPER: i32 = 2;
export const EQUAL: i32 = 3;

// ---- Contact constraint record (b2ContactVelocityConstraint, filled by ContactSolver).
export const C_INDEX_A: i32 = 0; // i32
export const C_INDEX_B: i32 = 1; // i32
export const C_MA: i32 = 2;
export const C_MB: i32 = 3;
export const C_IA: i32 = 4;
export const C_IB: i32 = 5;
export const C_NX: i32 = 6;
export const C_NY: i32 = 7;
export const C_FRICTION: i32 = 8;
// K and normalMass (2x2): K.ex = (k11, k12), K.ey = (k12, k22); normalMass.ex = (nm11, nm21), ey = (nm12, nm22).
export const C_K11: i32 = 9;
export const C_K12: i32 = 10;
export const C_K22: i32 = 11;
export const C_NM11: i32 = 12;
export const C_NM12: i32 = 13;
export const C_NM21: i32 = 14;
export const C_NM22: i32 = 15;
export const C_POINT_COUNT: i32 = 16; // i32
/** The first point's slots; the second's follow POINT_SLOTS later. */
export const C_POINTS: i32 = 17;
export const P_RAX: i32 = 0;
export const P_RAY: i32 = 1;
export const P_RBX: i32 = 2;
export const P_RBY: i32 = 3;
export const P_NORMAL_MASS: i32 = 4;
export const P_TANGENT_MASS: i32 = 5;
export const P_VELOCITY_BIAS: i32 = 6;
export const P_NORMAL_IMPULSE: i32 = 7;
export const P_TANGENT_IMPULSE: i32 = 8;
export const POINT_SLOTS: i32 = 9;
export const CONTACT_SLOTS: i32 = 36;
