/**
 * Box2D 2.3's continuous collision step (b2World::SolveTOI) in float32: a dynamic body's contact
 * with the static ground is advanced to its time of impact and solved there, one event at a time.
 */
import type { Body, Fixture } from './body.ts';
import type { Contact } from './contact.ts';
import type { Proxy } from './distance.ts';
import { f, FLT_EPSILON, MAX_SUB_STEPS } from './settings.ts';
import { newSweep, sweepAdvance, timeOfImpact, toiOutput, TOI_TOUCHING } from './toi.ts';
import type { World } from './world.ts';

/** b2World::SolveTOI: the earliest time of impact first, each one solved as a small island, until none is left in the step. */
export function solveTOI(world: World, dt: number, velocityIterations: number): void {
  const island = world.island;
  if (world.stepComplete) {
    for (let i17 = 0, a17 = world.bodies; i17 < a17.length; i17++) {
      const b = a17[i17];
      b.islandFlag = false;
      b.sweep.alpha0 = 0;
    }
    for (let i18 = 0, a18 = world.contacts; i18 < a18.length; i18++) {
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
    for (let i19 = 0, a19 = world.contacts; i19 < a19.length; i19++) {
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
      world.stepComplete = true;
      break;
    }
    const bA = minContact.bodyA, bB = minContact.bodyB;
    const backup1 = Object.assign(BACKUP_A, bA.sweep), backup2 = Object.assign(BACKUP_B, bB.sweep);
    bA.advance(minAlpha);
    bB.advance(minAlpha);
    minContact.update(world.listener);
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
    const bodies = island.bodies, contacts = island.contacts;
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
        contact.update(world.listener);
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
    island.solveTOI(subDt, velocityIterations, bA.islandIndex, bB.islandIndex);
    for (let i22 = 0, a22 = bodies; i22 < a22.length; i22++) {
      const body = a22[i22];
      body.islandFlag = false;
      if (!body.dynamic) continue;
      world.synchronizeFixtures(body);
      for (let i23 = 0, a23 = body.contactEdges; i23 < a23.length; i23++) {
        const ce = a23[i23];
        ce.contact.toiFlag = false;
        ce.contact.islandFlag = false;
      }
    }
    world.findNewContacts();
  }
}

const BACKUP_A = newSweep();
const BACKUP_B = newSweep();
const BACKUP = newSweep();
const PAIR: Body[] = [];
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
