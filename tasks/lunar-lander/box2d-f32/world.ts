/**
 * Box2D 2.3's world step (b2World::Step, Solve, SolveTOI; b2ContactManager; b2BroadPhase's pair
 * finding; b2Island::Solve and SolveTOI) for one static body of edges and dynamic polygon bodies
 * on revolute joints, in float32. The broad phase keeps Box2D's fat AABBs and its pair order
 * (pairs sorted by proxy id, ids growing with creation order) without the tree itself.
 */
import { Body, computeAABB, type Fixture } from './body.ts';
import { Contact, type ContactListener } from './contact.ts';
import { ContactSolver } from './contact-solver.ts';
import type { Proxy } from './distance.ts';
import { RevoluteJoint, type RevoluteDef, type SolverData } from './revolute.ts';
import {
  AABB_EXTENSION, AABB_MULTIPLIER, ANGULAR_SLEEP_TOLERANCE, f, FLT_EPSILON, FLT_MAX, LINEAR_SLEEP_TOLERANCE, MAX_ROTATION,
  MAX_ROTATION_SQUARED, MAX_SUB_STEPS, MAX_TRANSLATION, MAX_TRANSLATION_SQUARED, sinf, cosf, sqrtf, TIME_TO_SLEEP,
} from './settings.ts';
import type { Shape } from './shapes.ts';
import { newSweep, sweepAdvance, timeOfImpact, toiOutput, TOI_TOUCHING } from './toi.ts';

export interface FixtureDef {
  shape: Shape;
  density?: number;
  friction?: number;
  restitution?: number;
  category?: number;
  mask?: number;
}

const overlap = (a: Float64Array, b: Float64Array): boolean =>
  !(f(b[0] - a[2]) > 0 || f(b[1] - a[3]) > 0 || f(a[0] - b[2]) > 0 || f(a[1] - b[3]) > 0);

export class World {
  /** Box2D's lists, head first (a new body, joint or contact goes to the front). */
  readonly bodies: Body[] = [];
  readonly joints: RevoluteJoint[] = [];
  readonly contacts: Contact[] = [];
  private readonly proxies: Fixture[] = [];
  private moveBuffer: number[] = [];
  private newFixture = false;
  private stepComplete = true;
  private invDt0 = 0;
  private readonly gravityX: number;
  private readonly gravityY: number;
  private readonly solver = new ContactSolver();
  private readonly toiSolver = new ContactSolver();
  private readonly pairs: number[] = [];
  // The island (sized as needed, reused).
  private islandBodies: Body[] = [];
  private islandContacts: Contact[] = [];
  private islandJoints: RevoluteJoint[] = [];
  private positions = new Float64Array(24);
  private velocities = new Float64Array(24);
  private readonly data: SolverData = { dt: 0, dtRatio: 0, warmStarting: true, positions: this.positions, velocities: this.velocities };

  constructor(gravityX: number, gravityY: number, private readonly listener: ContactListener) {
    this.gravityX = f(gravityX);
    this.gravityY = f(gravityY);
  }

  createBody(dynamic: boolean, x: number, y: number, angle: number): Body {
    const body = new Body(dynamic, x, y, angle);
    this.bodies.unshift(body);
    return body;
  }

  /** b2Body::CreateFixture: the proxy enters the broad phase, the mass is reset for a dense fixture. */
  createFixture(body: Body, def: FixtureDef): Fixture {
    const fixture: Fixture = {
      body, shape: def.shape, density: f(def.density ?? 0), friction: f(def.friction ?? 0.2), restitution: f(def.restitution ?? 0),
      category: def.category ?? 0x0001, mask: def.mask ?? 0xffff, proxy: this.proxies.length,
      aabb: new Float64Array(4), fat: new Float64Array(4),
    };
    body.fixtures.unshift(fixture);
    computeAABB(fixture.shape, body.xf, fixture.aabb, 0);
    const e = AABB_EXTENSION;
    fixture.fat.set([f(fixture.aabb[0] - e), f(fixture.aabb[1] - e), f(fixture.aabb[2] + e), f(fixture.aabb[3] + e)]);
    this.proxies.push(fixture);
    this.moveBuffer.push(fixture.proxy);
    if (fixture.density > 0) body.resetMassData();
    this.newFixture = true;
    return fixture;
  }

  createJoint(def: RevoluteDef): RevoluteJoint {
    const joint = new RevoluteJoint(def);
    this.joints.unshift(joint);
    def.bodyA.jointEdges.unshift({ joint, other: def.bodyB });
    def.bodyB.jointEdges.unshift({ joint, other: def.bodyA });
    return joint;
  }

  step(dt: number, velocityIterations: number, positionIterations: number): void {
    if (this.newFixture) {
      this.findNewContacts();
      this.newFixture = false;
    }
    dt = f(dt);
    const invDt = dt > 0 ? f(1 / dt) : 0;
    const dtRatio = f(this.invDt0 * dt);
    this.collide();
    if (this.stepComplete && dt > 0) this.solve(dt, dtRatio, velocityIterations, positionIterations);
    if (dt > 0) this.solveTOI(dt, velocityIterations);
    if (dt > 0) this.invDt0 = invDt;
    for (let i1 = 0, a1 = this.bodies; i1 < a1.length; i1++) {
      const b = a1[i1];
      b.forceX = 0; b.forceY = 0; b.torque = 0;
    }
  }

  // ---- Contacts: b2ContactManager and b2BroadPhase::UpdatePairs.

  private findNewContacts(): void {
    const pairs = this.pairs;
    pairs.length = 0;
    for (let i2 = 0, a2 = this.moveBuffer; i2 < a2.length; i2++) {
      const id = a2[i2];
      const q = this.proxies[id];
      for (let i3 = 0, a3 = this.proxies; i3 < a3.length; i3++) {
        const other = a3[i3];
        if (other.proxy === id || !overlap(q.fat, other.fat)) continue;
        pairs.push(Math.min(id, other.proxy) * 4096 + Math.max(id, other.proxy));
      }
    }
    this.moveBuffer.length = 0;
    // Insertion sort (a handful of pairs; Array.prototype.sort allocates).
    for (let i = 1; i < pairs.length; i++) {
      const v = pairs[i];
      let k = i - 1;
      while (k >= 0 && pairs[k] > v) {
        pairs[k + 1] = pairs[k];
        k--;
      }
      pairs[k + 1] = v;
    }
    for (let i = 0; i < pairs.length; i++) {
      if (i > 0 && pairs[i] === pairs[i - 1]) continue;
      this.addPair(this.proxies[Math.floor(pairs[i] / 4096)], this.proxies[pairs[i] % 4096]);
    }
  }

  private addPair(fixtureA: Fixture, fixtureB: Fixture): void {
    const bodyA = fixtureA.body, bodyB = fixtureB.body;
    if (bodyA === bodyB) return;
    for (let i4 = 0, a4 = bodyB.contactEdges; i4 < a4.length; i4++) {
      const edge = a4[i4];
      if (edge.other !== bodyA) continue;
      const c = edge.contact;
      if ((c.fixtureA === fixtureA && c.fixtureB === fixtureB) || (c.fixtureA === fixtureB && c.fixtureB === fixtureA)) return;
    }
    if (!bodyB.shouldCollide(bodyA)) return;
    // b2ContactFilter::ShouldCollide (group index 0).
    if ((fixtureA.mask & fixtureB.category) === 0 || (fixtureA.category & fixtureB.mask) === 0) return;
    // Only edge-polygon contacts exist here; the edge is fixture A.
    const [edge, polygon] = fixtureA.shape.kind === 'edge' ? [fixtureA, fixtureB] : [fixtureB, fixtureA];
    if (edge.shape.kind !== 'edge' || polygon.shape.kind !== 'polygon') return;
    const c = new Contact(edge, polygon);
    this.contacts.unshift(c);
    c.bodyA.contactEdges.unshift(c.nodeA);
    c.bodyB.contactEdges.unshift(c.nodeB);
    c.bodyA.setAwake(true);
    c.bodyB.setAwake(true);
  }

  private destroy(c: Contact): void {
    if (c.touching) this.listener.endContact(c);
    this.contacts.splice(this.contacts.indexOf(c), 1);
    c.bodyA.contactEdges.splice(c.bodyA.contactEdges.indexOf(c.nodeA), 1);
    c.bodyB.contactEdges.splice(c.bodyB.contactEdges.indexOf(c.nodeB), 1);
  }

  private collide(): void {
    // Iterate over a snapshot position by position: destroy() removes from the live list.
    let i = 0;
    while (i < this.contacts.length) {
      const c = this.contacts[i];
      const bodyA = c.bodyA, bodyB = c.bodyB;
      const activeA = bodyA.awake && bodyA.dynamic;
      const activeB = bodyB.awake && bodyB.dynamic;
      if (!activeA && !activeB) {
        i++;
        continue;
      }
      if (!overlap(c.fixtureA.fat, c.fixtureB.fat)) {
        this.destroy(c);
        continue;
      }
      c.update(this.listener);
      i++;
    }
  }

  /** b2Body::SynchronizeFixtures: each proxy's swept AABB, moved in the broad phase if it left its fat AABB. */
  private synchronizeFixtures(b: Body): void {
    const s = b.sweep;
    const xf1 = SYNC_XF;
    xf1.s = sinf(s.a0);
    xf1.c = cosf(s.a0);
    xf1.px = f(s.c0x - f(f(xf1.c * s.lcx) - f(xf1.s * s.lcy)));
    xf1.py = f(s.c0y - f(f(xf1.s * s.lcx) + f(xf1.c * s.lcy)));
    for (let i5 = 0, a5 = b.fixtures; i5 < a5.length; i5++) {
      const fixture = a5[i5];
      computeAABB(fixture.shape, xf1, SYNC_AABB, 0);
      computeAABB(fixture.shape, b.xf, SYNC_AABB, 4);
      const a = fixture.aabb;
      a[0] = SYNC_AABB[0] < SYNC_AABB[4] ? SYNC_AABB[0] : SYNC_AABB[4];
      a[1] = SYNC_AABB[1] < SYNC_AABB[5] ? SYNC_AABB[1] : SYNC_AABB[5];
      a[2] = SYNC_AABB[2] < SYNC_AABB[6] ? SYNC_AABB[6] : SYNC_AABB[2];
      a[3] = SYNC_AABB[3] < SYNC_AABB[7] ? SYNC_AABB[7] : SYNC_AABB[3];
      const fat = fixture.fat;
      if (fat[0] <= a[0] && fat[1] <= a[1] && a[2] <= fat[2] && a[3] <= fat[3]) continue;
      const e = AABB_EXTENSION;
      let lx = f(a[0] - e), ly = f(a[1] - e), ux = f(a[2] + e), uy = f(a[3] + e);
      const dx = f(AABB_MULTIPLIER * f(b.xf.px - xf1.px));
      const dy = f(AABB_MULTIPLIER * f(b.xf.py - xf1.py));
      if (dx < 0) lx = f(lx + dx); else ux = f(ux + dx);
      if (dy < 0) ly = f(ly + dy); else uy = f(uy + dy);
      fat[0] = lx; fat[1] = ly; fat[2] = ux; fat[3] = uy;
      this.moveBuffer.push(fixture.proxy);
    }
  }

  // ---- b2World::Solve and b2Island::Solve.

  private ensureIsland(n: number): void {
    if (this.positions.length >= 3 * n) return;
    this.positions = new Float64Array(6 * n);
    this.velocities = new Float64Array(6 * n);
    this.data.positions = this.positions;
    this.data.velocities = this.velocities;
  }

  private solve(dt: number, dtRatio: number, velocityIterations: number, positionIterations: number): void {
    for (let i6 = 0, a6 = this.bodies; i6 < a6.length; i6++) {
      const b = a6[i6];
      b.islandFlag = false;
    }
    for (let i7 = 0, a7 = this.contacts; i7 < a7.length; i7++) {
      const c = a7[i7];
      c.islandFlag = false;
    }
    for (let i8 = 0, a8 = this.joints; i8 < a8.length; i8++) {
      const j = a8[i8];
      j.islandFlag = false;
    }
    const stack: Body[] = STACK;
    for (let i9 = 0, a9 = this.bodies; i9 < a9.length; i9++) {
      const seed = a9[i9];
      if (seed.islandFlag || !seed.awake || !seed.dynamic) continue;
      this.islandBodies.length = 0;
      this.islandContacts.length = 0;
      this.islandJoints.length = 0;
      stack.length = 0;
      stack.push(seed);
      seed.islandFlag = true;
      while (stack.length > 0) {
        const b = stack.pop() as Body;
        b.islandIndex = this.islandBodies.length;
        this.islandBodies.push(b);
        b.setAwake(true);
        if (!b.dynamic) continue;
        for (let i10 = 0, a10 = b.contactEdges; i10 < a10.length; i10++) {
          const ce = a10[i10];
          const contact = ce.contact;
          if (contact.islandFlag || !contact.enabled || !contact.touching) continue;
          this.islandContacts.push(contact);
          contact.islandFlag = true;
          const other = ce.other;
          if (other.islandFlag) continue;
          stack.push(other);
          other.islandFlag = true;
        }
        for (let i11 = 0, a11 = b.jointEdges; i11 < a11.length; i11++) {
          const je = a11[i11];
          if (je.joint.islandFlag) continue;
          this.islandJoints.push(je.joint);
          je.joint.islandFlag = true;
          const other = je.other;
          if (other.islandFlag) continue;
          stack.push(other);
          other.islandFlag = true;
        }
      }
      this.solveIsland(dt, dtRatio, velocityIterations, positionIterations);
      for (let i12 = 0, a12 = this.islandBodies; i12 < a12.length; i12++) {
        const b = a12[i12];
        if (!b.dynamic) b.islandFlag = false;
      }
    }
    for (let i13 = 0, a13 = this.bodies; i13 < a13.length; i13++) {
      const b = a13[i13];
      if (!b.islandFlag || !b.dynamic) continue;
      this.synchronizeFixtures(b);
    }
    this.findNewContacts();
  }

  private solveIsland(h: number, dtRatio: number, velocityIterations: number, positionIterations: number): void {
    const bodies = this.islandBodies;
    this.ensureIsland(bodies.length);
    const P = this.positions, V = this.velocities;
    for (let i = 0; i < bodies.length; i++) {
      const b = bodies[i];
      let vx = b.vx, vy = b.vy, w = b.w;
      b.sweep.c0x = b.sweep.cx; b.sweep.c0y = b.sweep.cy; b.sweep.a0 = b.sweep.a;
      if (b.dynamic) {
        // v += h * (gravityScale * gravity + invMass * force); w += h * invI * torque; damping 0.
        vx = f(vx + f(h * f(f(1 * this.gravityX) + f(b.invMass * b.forceX))));
        vy = f(vy + f(h * f(f(1 * this.gravityY) + f(b.invMass * b.forceY))));
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
    solver.init(this.islandContacts, this.islandContacts.length, dtRatio, true, P, V);
    solver.initializeVelocityConstraints();
    solver.warmStart();
    for (let i14 = 0, a14 = this.islandJoints; i14 < a14.length; i14++) {
      const j = a14[i14];
      j.initVelocityConstraints(data);
    }
    this.iterateVelocities(velocityIterations);
    solver.storeImpulses();
    integrate(bodies.length, h, P, V);
    let positionSolved = false;
    for (let i = 0; i < positionIterations; i++) {
      const contactsOkay = solver.solvePositionConstraints();
      let jointsOkay = true;
      for (let i15 = 0, a15 = this.islandJoints; i15 < a15.length; i15++) {
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

  /** The island's velocity iterations: the joints, then the contacts, each time. */
  private iterateVelocities(iterations: number): void {
    const data = this.data, solver = this.solver, joints = this.islandJoints, n = joints.length;
    for (let i = 0; i < iterations; i++) {
      for (let k = 0; k < n; k++) joints[k].solveVelocityConstraints(data);
      solver.solveVelocityConstraints();
    }
  }

  // ---- b2World::SolveTOI and b2Island::SolveTOI.

  private solveTOI(dt: number, velocityIterations: number): void {
    if (this.stepComplete) {
      for (let i17 = 0, a17 = this.bodies; i17 < a17.length; i17++) {
        const b = a17[i17];
        b.islandFlag = false;
        b.sweep.alpha0 = 0;
      }
      for (let i18 = 0, a18 = this.contacts; i18 < a18.length; i18++) {
        const c = a18[i18];
        c.toiFlag = false;
        c.islandFlag = false;
        c.toiCount = 0;
        c.toi = 1;
      }
    }
    for (;;) {
      let minContact: Contact | null = null;
      let minAlpha = 1;
      for (let i19 = 0, a19 = this.contacts; i19 < a19.length; i19++) {
        const c = a19[i19];
        if (!c.enabled || c.toiCount > MAX_SUB_STEPS) continue;
        let alpha = 1;
        if (c.toiFlag) {
          alpha = c.toi;
        } else {
          const bA = c.bodyA, bB = c.bodyB;
          const activeA = bA.awake && bA.dynamic;
          const activeB = bB.awake && bB.dynamic;
          if (!activeA && !activeB) continue;
          // collideA/B: a non-bullet dynamic body collides continuously only with static ones.
          if (bA.dynamic && bB.dynamic) continue;
          let alpha0 = bA.sweep.alpha0;
          if (bA.sweep.alpha0 < bB.sweep.alpha0) {
            alpha0 = bB.sweep.alpha0;
            sweepAdvance(bA.sweep, alpha0);
          } else if (bB.sweep.alpha0 < bA.sweep.alpha0) {
            alpha0 = bA.sweep.alpha0;
            sweepAdvance(bB.sweep, alpha0);
          }
          timeOfImpact(proxyOf(c.fixtureA, PROXY_A), bA.sweep, proxyOf(c.fixtureB, PROXY_B), bB.sweep);
          const beta = toiOutput.t;
          if (toiOutput.state === TOI_TOUCHING) {
            const a = f(alpha0 + f(f(1 - alpha0) * beta));
            alpha = a < 1 ? a : 1;
          } else {
            alpha = 1;
          }
          c.toi = alpha;
          c.toiFlag = true;
        }
        if (alpha < minAlpha) {
          minContact = c;
          minAlpha = alpha;
        }
      }
      if (minContact === null || f(1 - f(10 * FLT_EPSILON)) < minAlpha) {
        this.stepComplete = true;
        break;
      }
      const bA = minContact.bodyA, bB = minContact.bodyB;
      const backup1 = Object.assign(BACKUP_A, bA.sweep), backup2 = Object.assign(BACKUP_B, bB.sweep);
      bA.advance(minAlpha);
      bB.advance(minAlpha);
      minContact.update(this.listener);
      minContact.toiFlag = false;
      ++minContact.toiCount;
      if (!minContact.enabled || !minContact.touching) {
        minContact.enabled = false;
        Object.assign(bA.sweep, backup1);
        Object.assign(bB.sweep, backup2);
        bA.synchronizeTransform();
        bB.synchronizeTransform();
        continue;
      }
      bA.setAwake(true);
      bB.setAwake(true);
      const bodies = this.islandBodies, contacts = this.islandContacts;
      bodies.length = 0;
      contacts.length = 0;
      bA.islandIndex = 0; bodies.push(bA);
      bB.islandIndex = 1; bodies.push(bB);
      contacts.push(minContact);
      bA.islandFlag = true;
      bB.islandFlag = true;
      minContact.islandFlag = true;
      PAIR[0] = bA;
      PAIR[1] = bB;
      for (let i20 = 0, a20 = PAIR; i20 < a20.length; i20++) {
        const body = a20[i20];
        if (!body.dynamic) continue;
        for (let i21 = 0, a21 = body.contactEdges; i21 < a21.length; i21++) {
          const ce = a21[i21];
          if (bodies.length === 64 || contacts.length === 32) break;
          const contact = ce.contact;
          if (contact.islandFlag) continue;
          const other = ce.other;
          if (other.dynamic) continue;
          const backup = Object.assign(BACKUP, other.sweep);
          if (!other.islandFlag) other.advance(minAlpha);
          contact.update(this.listener);
          if (!contact.enabled || !contact.touching) {
            Object.assign(other.sweep, backup);
            other.synchronizeTransform();
            continue;
          }
          contact.islandFlag = true;
          contacts.push(contact);
          if (other.islandFlag) continue;
          other.islandFlag = true;
          if (other.dynamic) other.setAwake(true);
          other.islandIndex = bodies.length;
          bodies.push(other);
        }
      }
      const subDt = f(f(1 - minAlpha) * dt);
      this.solveTOIIsland(subDt, velocityIterations, bA.islandIndex, bB.islandIndex);
      for (let i22 = 0, a22 = bodies; i22 < a22.length; i22++) {
        const body = a22[i22];
        body.islandFlag = false;
        if (!body.dynamic) continue;
        this.synchronizeFixtures(body);
        for (let i23 = 0, a23 = body.contactEdges; i23 < a23.length; i23++) {
          const ce = a23[i23];
          ce.contact.toiFlag = false;
          ce.contact.islandFlag = false;
        }
      }
      this.findNewContacts();
    }
  }

  private solveTOIIsland(h: number, velocityIterations: number, toiA: number, toiB: number): void {
    const bodies = this.islandBodies;
    this.ensureIsland(bodies.length);
    const P = this.positions, V = this.velocities;
    for (let i = 0; i < bodies.length; i++) {
      const b = bodies[i];
      P[3 * i] = b.sweep.cx; P[3 * i + 1] = b.sweep.cy; P[3 * i + 2] = b.sweep.a;
      V[3 * i] = b.vx; V[3 * i + 1] = b.vy; V[3 * i + 2] = b.w;
    }
    const solver = this.toiSolver;
    solver.init(this.islandContacts, this.islandContacts.length, 1, false, P, V);
    for (let i = 0; i < 20; i++) if (solver.solvePositionConstraints(toiA, toiB)) break;
    for (let t = 0; t < 2; t++) {
      const k = t === 0 ? toiA : toiB;
      const s = bodies[k].sweep;
      s.c0x = P[3 * k]; s.c0y = P[3 * k + 1]; s.a0 = P[3 * k + 2];
    }
    solver.initializeVelocityConstraints();
    for (let i = 0; i < velocityIterations; i++) solver.solveVelocityConstraints();
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
function integrate(n: number, h: number, P: Float64Array, V: Float64Array): void {
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

const STACK: Body[] = [];
const BACKUP_A = newSweep();
const BACKUP_B = newSweep();
const BACKUP = newSweep();
const PAIR: Body[] = [];
const SYNC_XF = { px: 0, py: 0, s: 0, c: 1 };
const SYNC_AABB = new Float64Array(8);
const PROXY_A: Proxy = { vertices: new Float64Array(32), count: 0, radius: 0 };
const PROXY_B: Proxy = { vertices: new Float64Array(32), count: 0, radius: 0 };

/** b2DistanceProxy::Set for a fixture's shape. */
function proxyOf(fixture: Fixture, out: Proxy): Proxy {
  const s = fixture.shape;
  if (s.kind === 'edge') {
    out.vertices[0] = s.x1; out.vertices[1] = s.y1; out.vertices[2] = s.x2; out.vertices[3] = s.y2;
    out.count = 2;
  } else {
    out.vertices.set(s.vertices);
    out.count = s.count;
  }
  out.radius = s.radius;
  return out;
}
