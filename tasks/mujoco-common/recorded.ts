/**
 * What the robots record every step beside the observation (TaskSpec.recorded): where the robot is,
 * which Gymnasium's observations leave out (exclude_current_positions_from_observation), for the
 * success tests and progress. The policy never sees it.
 */
import type { RecordedDim } from '../contract.ts';

/** The planar robots' three root joints, qpos[0..2]: two slides and a hinge. */
export function recordRoot(qpos: Float64Array, out: Float64Array): void {
  out[0] = qpos[0];
  out[1] = qpos[1];
  out[2] = qpos[2];
}

/**
 * Hopper's, Walker2d's and HalfCheetah's root joints: rootx, rootz, rooty, in each robot's words:
 * what rootz measures (Hopper's and Walker2d's XML give it a ref of 1.25, so it is the height;
 * HalfCheetah's none, so it is the change from the start) and which way a positive angle turns
 * (MuJoCo's hinge about +y moves the torso's top toward +x, the way each robot faces).
 */
export function torsoXzAngle(z: string, positiveAngle: string): readonly RecordedDim[] {
  return [
    { name: 'torso x (m), qpos[0]: forward along the floor from the origin' },
    { name: `torso z (m), qpos[1]: ${z} (the observation's entry 0 too)` },
    { name: `torso angle (rad), qpos[2]: a hinge, so it keeps counting past ±π (one full turn is 2π); ${positiveAngle}` },
  ];
}

/** Hopper's and Walker2d's: upright robots facing +x. */
export const UPRIGHT_TORSO_XZ_ANGLE = torsoXzAngle('height', 'positive leans forward, the torso\'s top toward +x, the way it faces');

/** A free body's x, y, z, and its heading about z from the quaternion qpos[3..6], unwrapped. */
export function recordFreeBody(qpos: Float64Array, out: Float64Array, previous: Float64Array | null): void {
  out[0] = qpos[0];
  out[1] = qpos[1];
  out[2] = qpos[2];
  const [w, x, y, z] = [qpos[3], qpos[4], qpos[5], qpos[6]];
  const yaw = Math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z));
  out[3] = previous === null ? yaw : unwrap(previous[3], yaw);
}

/** The angle nearest `before` that equals `angle` modulo 2π: a heading that keeps counting turns. */
export function unwrap(before: number, angle: number): number {
  const turns = Math.round((before - angle) / (2 * Math.PI));
  return angle + turns * 2 * Math.PI;
}

export const TORSO_XYZ_HEADING: readonly RecordedDim[] = [
  { name: 'torso x (m), qpos[0]: forward from the origin' },
  { name: 'torso y (m), qpos[1]: to the left of the origin' },
  { name: 'torso z (m), qpos[2]: height (the observation\'s entry 0 too)' },
  { name: 'torso heading (rad): its turn about the vertical from the quaternion qpos[3:7], 0 facing +x, positive to the left, counting past ±π' },
];
