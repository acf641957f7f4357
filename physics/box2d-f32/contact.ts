/** Box2D 2.3's contact (b2Contact, b2EdgeAndPolygonContact): its manifold, flags and Update. */
import type { Body, ContactEdge, Fixture } from './body.ts';
import { collideEdgePolygon, copyManifold, newManifold, type Manifold } from './collide.ts';
import { f, sqrtf } from './settings.ts';

export interface ContactListener {
  beginContact(contact: Contact): void;
  endContact(contact: Contact): void;
}

export class Contact {
  readonly manifold: Manifold = newManifold();
  enabled = true;
  touching = false;
  islandFlag = false;
  toiFlag = false;
  toi = 1;
  toiCount = 0;
  readonly friction: number;
  readonly restitution: number;
  readonly nodeA: ContactEdge;
  readonly nodeB: ContactEdge;

  /** fixtureA is the edge (Box2D registers edge-polygon with the edge first). */
  constructor(readonly fixtureA: Fixture, readonly fixtureB: Fixture) {
    this.friction = sqrtf(f(fixtureA.friction * fixtureB.friction));
    this.restitution = fixtureA.restitution > fixtureB.restitution ? fixtureA.restitution : fixtureB.restitution;
    this.nodeA = { contact: this, other: fixtureB.body };
    this.nodeB = { contact: this, other: fixtureA.body };
  }

  get bodyA(): Body {
    return this.fixtureA.body;
  }

  get bodyB(): Body {
    return this.fixtureB.body;
  }

  /** b2Contact::Update: the new manifold, warm-start impulses carried over by feature id, the listener's events. */
  update(listener: ContactListener): void {
    copyManifold(old, this.manifold);
    this.enabled = true;
    const wasTouching = this.touching;
    const bodyA = this.bodyA, bodyB = this.bodyB;
    const a = this.fixtureA.shape, b = this.fixtureB.shape;
    if (a.kind !== 'edge' || b.kind !== 'polygon') throw new Error('box2d-f32: only edge-polygon contacts');
    collideEdgePolygon(this.manifold, a, bodyA.xf, b, bodyB.xf);
    const m = this.manifold;
    const touching = m.pointCount > 0;
    for (let i = 0; i < m.pointCount; i++) {
      const mp2 = m.points[i];
      mp2.normalImpulse = 0;
      mp2.tangentImpulse = 0;
      for (let j = 0; j < old.pointCount; j++) {
        const mp1 = old.points[j];
        if (mp1.id === mp2.id) {
          mp2.normalImpulse = mp1.normalImpulse;
          mp2.tangentImpulse = mp1.tangentImpulse;
          break;
        }
      }
    }
    if (touching !== wasTouching) {
      bodyA.setAwake(true);
      bodyB.setAwake(true);
    }
    this.touching = touching;
    if (!wasTouching && touching) listener.beginContact(this);
    if (wasTouching && !touching) listener.endContact(this);
  }
}

const old: Manifold = newManifold();
