/**
 * Box2D 2.3's island solver (b2Island::Solve and SolveTOI) in float32: the bodies, contacts and
 * joints that World.solve (a depth-first search) or the time of impact puts together.
 */
import type { Body } from './body.ts';
import type { Contact } from './contact.ts';
import { ContactSolver } from './contact-solver.ts';
import type { RevoluteJoint, SolverData } from './revolute.ts';
import { solverMemory } from './solver-memory.ts';
import { ANGULAR_SLEEP_TOLERANCE, f, FLT_MAX, LINEAR_SLEEP_TOLERANCE, MAX_ROTATION, MAX_ROTATION_SQUARED, MAX_TRANSLATION, MAX_TRANSLATION_SQUARED, sqrtf, TIME_TO_SLEEP } from './settings.ts';

export class Island {
  /** Filled by the caller; a body's islandIndex is its place here. */
  readonly bodies: Body[] = [];
  readonly contacts: Contact[] = [];
  readonly joints: RevoluteJoint[] = [];
  private readonly solver = new ContactSolver();
  private readonly toiSolver = new ContactSolver();
  private readonly data: SolverData = { dt: 0, dtRatio: 0, warmStarting: true, positions: solverMemory.positions, velocities: solverMemory.velocities };

  clear(): void {
    this.bodies.length = 0;
    this.contacts.length = 0;
    this.joints.length = 0;
  }

  add(body: Body): void {
    body.islandIndex = this.bodies.length;
    this.bodies.push(body);
  }

  /** Room in the solver memory for this island; its (possibly new) position and velocity views. */
  private ensure(): void {
    solverMemory.ensure(this.bodies.length, this.joints.length, this.contacts.length);
    this.data.positions = solverMemory.positions;
    this.data.velocities = solverMemory.velocities;
  }

  /** b2Island::Solve: integrate, solve the velocity and position constraints, sleep. */
  solve(h: number, dtRatio: number, velocityIterations: number, positionIterations: number, gravityX: number, gravityY: number): void {
    const bodies = this.bodies;
    this.ensure();
    const P = this.data.positions, V = this.data.velocities;
    for (let i = 0; i < bodies.length; i++) {
      const b = bodies[i];
      let vx = b.vx, vy = b.vy, w = b.w;
      b.sweep.c0x = b.sweep.cx; b.sweep.c0y = b.sweep.cy; b.sweep.a0 = b.sweep.a;
      if (b.dynamic) {
        // v += h * (gravityScale * gravity + invMass * force); w += h * invI * torque; damping 0.
        vx = f(vx + f(h * f(f(1 * gravityX) + f(b.invMass * b.forceX))));
        vy = f(vy + f(h * f(f(1 * gravityY) + f(b.invMass * b.forceY))));
        w = f(w + f(f(h * b.invI) * b.torque));
        const damp = 1; // b2Clamp(1.0f - h * 0.0f, 0.0f, 1.0f)
        vx = f(vx * damp); vy = f(vy * damp); w = f(w * damp);
      }
      P[3 * i] = b.sweep.cx; P[3 * i + 1] = b.sweep.cy; P[3 * i + 2] = b.sweep.a;
      V[3 * i] = vx; V[3 * i + 1] = vy; V[3 * i + 2] = w;
    }
    const data = this.data;
    data.dt = h;
    data.dtRatio = dtRatio;
    data.warmStarting = true;
    const solver = this.solver;
    solver.init(this.contacts, this.contacts.length, dtRatio, true, P, V);
    solver.initializeVelocityConstraints();
    solver.warmStart();
    const joints = this.joints;
    for (let k = 0; k < joints.length; k++) joints[k].initVelocityConstraints(data, k);
    // The velocity iterations: the joints in island order, then the contacts, each time.
    solverMemory.solveVelocities(joints.length, this.contacts.length, velocityIterations);
    for (let k = 0; k < joints.length; k++) joints[k].storeImpulses(k);
    solver.storeImpulses();
    integrate(bodies.length, h, P, V);
    let positionSolved = false;
    for (let i = 0; i < positionIterations; i++) {
      const contactsOkay = solver.solvePositionConstraints();
      let jointsOkay = true;
      for (let i15 = 0, a15 = this.joints; i15 < a15.length; i15++) {
        const j = a15[i15];
        const jointOkay = j.solvePositionConstraints(data);
        jointsOkay = jointsOkay && jointOkay;
      }
      if (contactsOkay && jointsOkay) {
        positionSolved = true;
        break;
      }
    }
    for (let i = 0; i < bodies.length; i++) {
      const b = bodies[i];
      b.sweep.cx = P[3 * i]; b.sweep.cy = P[3 * i + 1]; b.sweep.a = P[3 * i + 2];
      b.vx = V[3 * i]; b.vy = V[3 * i + 1]; b.w = V[3 * i + 2];
      b.synchronizeTransform();
    }
    // Sleep.
    let minSleepTime = FLT_MAX;
    const linTolSqr = f(LINEAR_SLEEP_TOLERANCE * LINEAR_SLEEP_TOLERANCE);
    const angTolSqr = f(ANGULAR_SLEEP_TOLERANCE * ANGULAR_SLEEP_TOLERANCE);
    for (let i16 = 0, a16 = bodies; i16 < a16.length; i16++) {
      const b = a16[i16];
      if (!b.dynamic) continue;
      if (f(b.w * b.w) > angTolSqr || f(f(b.vx * b.vx) + f(b.vy * b.vy)) > linTolSqr) {
        b.sleepTime = 0;
        minSleepTime = 0;
      } else {
        b.sleepTime = f(b.sleepTime + h);
        minSleepTime = minSleepTime < b.sleepTime ? minSleepTime : b.sleepTime;
      }
    }
    if (minSleepTime >= TIME_TO_SLEEP && positionSolved) for (const b of bodies) b.setAwake(false);
  }

  /** b2Island::SolveTOI: the TOI position correction of the two bodies, then their velocities for the rest of the step. */
  solveTOI(h: number, velocityIterations: number, toiA: number, toiB: number): void {
    const bodies = this.bodies;
    this.ensure();
    const P = this.data.positions, V = this.data.velocities;
    for (let i = 0; i < bodies.length; i++) {
      const b = bodies[i];
      P[3 * i] = b.sweep.cx; P[3 * i + 1] = b.sweep.cy; P[3 * i + 2] = b.sweep.a;
      V[3 * i] = b.vx; V[3 * i + 1] = b.vy; V[3 * i + 2] = b.w;
    }
    const solver = this.toiSolver;
    solver.init(this.contacts, this.contacts.length, 1, false, P, V);
    for (let i = 0; i < 20; i++) if (solver.solvePositionConstraints(toiA, toiB)) break;
    for (let t = 0; t < 2; t++) {
      const k = t === 0 ? toiA : toiB;
      const s = bodies[k].sweep;
      s.c0x = P[3 * k]; s.c0y = P[3 * k + 1]; s.a0 = P[3 * k + 2];
    }
    solver.initializeVelocityConstraints();
    // No warm start and no joints here: the contacts alone, velocityIterations times.
    solverMemory.solveVelocities(0, this.contacts.length, velocityIterations);
    integrate(bodies.length, h, P, V);
    for (let i = 0; i < bodies.length; i++) {
      const b = bodies[i];
      b.sweep.cx = P[3 * i]; b.sweep.cy = P[3 * i + 1]; b.sweep.a = P[3 * i + 2];
      b.vx = V[3 * i]; b.vy = V[3 * i + 1]; b.w = V[3 * i + 2];
      b.synchronizeTransform();
    }
  }
}

/** Integrate positions, with Box2D's limits on translation and rotation per step. */
function integrate(n: number, h: number, P: Float32Array, V: Float32Array): void {
  for (let i = 0; i < n; i++) {
    let vx = V[3 * i], vy = V[3 * i + 1], w = V[3 * i + 2];
    const tx = f(h * vx), ty = f(h * vy);
    if (f(f(tx * tx) + f(ty * ty)) > MAX_TRANSLATION_SQUARED) {
      const ratio = f(MAX_TRANSLATION / sqrtf(f(f(tx * tx) + f(ty * ty))));
      vx = f(vx * ratio);
      vy = f(vy * ratio);
    }
    const rotation = f(h * w);
    if (f(rotation * rotation) > MAX_ROTATION_SQUARED) {
      const ratio = f(MAX_ROTATION / Math.abs(rotation));
      w = f(w * ratio);
    }
    P[3 * i] = f(P[3 * i] + f(h * vx));
    P[3 * i + 1] = f(P[3 * i + 1] + f(h * vy));
    P[3 * i + 2] = f(P[3 * i + 2] + f(h * w));
    V[3 * i] = vx; V[3 * i + 1] = vy; V[3 * i + 2] = w;
  }
}
