/**
 * Box2D 2.3's world step (b2World::Step and Solve, b2ContactManager, b2BroadPhase's pair finding)
 * for one static body of edges and dynamic polygon bodies on revolute joints, in float32; the
 * islands are solved in island.ts, the times of impact in toi-step.ts. The broad phase keeps Box2D's fat AABBs and its pair order
 * (pairs sorted by proxy id, ids growing with creation order) without the tree itself.
 */
import { Body, computeAABB, type Fixture } from './body.ts';
import { Contact, type ContactListener } from './contact.ts';
import { Island } from './island.ts';
import { RevoluteJoint, type RevoluteDef } from './revolute.ts';
import { AABB_EXTENSION, AABB_MULTIPLIER, cosf, f, sinf } from './settings.ts';
import type { Shape } from './shapes.ts';
import { solveTOI } from './toi-step.ts';

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
  /** b2World's m_stepComplete (toi-step.ts sets it). */
  stepComplete = true;
  private invDt0 = 0;
  private readonly gravityX: number;
  private readonly gravityY: number;
  private readonly pairs: number[] = [];
  /** The island being solved (reused). */
  readonly island = new Island();

  constructor(gravityX: number, gravityY: number, readonly listener: ContactListener) {
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
    if (dt > 0) solveTOI(this, dt, velocityIterations);
    if (dt > 0) this.invDt0 = invDt;
    for (let i1 = 0, a1 = this.bodies; i1 < a1.length; i1++) {
      const b = a1[i1];
      b.forceX = 0; b.forceY = 0; b.torque = 0;
    }
  }

  // ---- Contacts: b2ContactManager and b2BroadPhase::UpdatePairs.

  /** b2ContactManager::FindNewContacts (toi-step.ts calls it too). */
  findNewContacts(): void {
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
  synchronizeFixtures(b: Body): void {
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
      const island = this.island;
      island.clear();
      stack.length = 0;
      stack.push(seed);
      seed.islandFlag = true;
      while (stack.length > 0) {
        const b = stack.pop() as Body;
        island.add(b);
        b.setAwake(true);
        if (!b.dynamic) continue;
        for (let i10 = 0, a10 = b.contactEdges; i10 < a10.length; i10++) {
          const ce = a10[i10];
          const contact = ce.contact;
          if (contact.islandFlag || !contact.enabled || !contact.touching) continue;
          island.contacts.push(contact);
          contact.islandFlag = true;
          const other = ce.other;
          if (other.islandFlag) continue;
          stack.push(other);
          other.islandFlag = true;
        }
        for (let i11 = 0, a11 = b.jointEdges; i11 < a11.length; i11++) {
          const je = a11[i11];
          if (je.joint.islandFlag) continue;
          island.joints.push(je.joint);
          je.joint.islandFlag = true;
          const other = je.other;
          if (other.islandFlag) continue;
          stack.push(other);
          other.islandFlag = true;
        }
      }
      island.solve(dt, dtRatio, velocityIterations, positionIterations, this.gravityX, this.gravityY);
      for (let i12 = 0, a12 = island.bodies; i12 < a12.length; i12++) {
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



  // ---- b2World::SolveTOI and b2Island::SolveTOI.


}


const STACK: Body[] = [];
const SYNC_XF = { px: 0, py: 0, s: 0, c: 1 };
const SYNC_AABB = new Float64Array(8);

