/** Box2D 2.3's bodies and fixtures (b2Body, b2Fixture), as LunarLander uses them. */
import type { Contact } from './contact.ts';
import type { Transform } from './collide.ts';
import type { RevoluteJoint } from './revolute.ts';
import { cosf, f, POLYGON_RADIUS, sinf } from './settings.ts';
import { polygonMass, type Shape } from './shapes.ts';
import { newSweep, type Sweep } from './toi.ts';

export interface ContactEdge {
  contact: Contact;
  other: Body;
}

export interface Fixture {
  body: Body;
  shape: Shape;
  density: number;
  friction: number;
  restitution: number;
  category: number;
  mask: number;
  /** The broad-phase proxy's rank (creation order: Box2D's proxy ids grow with it). */
  proxy: number;
  /** The tight AABB of the last synchronisation and the fat AABB in the tree: lowerX, lowerY, upperX, upperY. */
  aabb: Float64Array;
  fat: Float64Array;
}

export class Body {
  readonly xf: Transform = { px: 0, py: 0, s: 0, c: 1 };
  readonly sweep: Sweep = newSweep();
  vx = 0; vy = 0; w = 0;
  forceX = 0; forceY = 0; torque = 0;
  mass = 0; invMass = 0; I = 0; invI = 0;
  awake = true;
  islandFlag = false;
  islandIndex = 0;
  sleepTime = 0;
  readonly fixtures: Fixture[] = [];
  /** Box2D's contact and joint edge lists, head first. */
  readonly contactEdges: ContactEdge[] = [];
  readonly jointEdges: Array<{ joint: RevoluteJoint; other: Body }> = [];

  constructor(readonly dynamic: boolean, x: number, y: number, angle: number) {
    this.xf.px = f(x);
    this.xf.py = f(y);
    angle = f(angle);
    this.xf.s = sinf(angle);
    this.xf.c = cosf(angle);
    this.sweep.c0x = this.sweep.cx = this.xf.px;
    this.sweep.c0y = this.sweep.cy = this.xf.py;
    this.sweep.a0 = this.sweep.a = angle;
  }

  /** b2Body::ResetMassData. */
  resetMassData(): void {
    this.mass = 0; this.invMass = 0; this.I = 0; this.invI = 0;
    this.sweep.lcx = 0; this.sweep.lcy = 0;
    if (!this.dynamic) {
      this.sweep.c0x = this.sweep.cx = this.xf.px;
      this.sweep.c0y = this.sweep.cy = this.xf.py;
      this.sweep.a0 = this.sweep.a;
      return;
    }
    let lcx = 0, lcy = 0;
    for (const fx of this.fixtures) {
      if (fx.density === 0 || fx.shape.kind !== 'polygon') continue;
      const md = polygonMass(fx.shape, fx.density);
      this.mass = f(this.mass + md.mass);
      lcx = f(lcx + f(md.mass * md.centerX));
      lcy = f(lcy + f(md.mass * md.centerY));
      this.I = f(this.I + md.I);
    }
    if (this.mass > 0) {
      this.invMass = f(1 / this.mass);
      lcx = f(lcx * this.invMass);
      lcy = f(lcy * this.invMass);
    } else {
      this.mass = 1;
      this.invMass = 1;
    }
    if (this.I > 0) {
      this.I = f(this.I - f(this.mass * f(f(lcx * lcx) + f(lcy * lcy))));
      this.invI = f(1 / this.I);
    } else {
      this.I = 0;
      this.invI = 0;
    }
    const oldCx = this.sweep.cx, oldCy = this.sweep.cy;
    this.sweep.lcx = lcx;
    this.sweep.lcy = lcy;
    this.sweep.c0x = this.sweep.cx = f(f(f(this.xf.c * lcx) - f(this.xf.s * lcy)) + this.xf.px);
    this.sweep.c0y = this.sweep.cy = f(f(f(this.xf.s * lcx) + f(this.xf.c * lcy)) + this.xf.py);
    // m_linearVelocity += b2Cross(m_angularVelocity, c - oldCenter)
    this.vx = f(this.vx + f(-this.w * f(this.sweep.cy - oldCy)));
    this.vy = f(this.vy + f(this.w * f(this.sweep.cx - oldCx)));
  }

  setAwake(flag: boolean): void {
    if (flag) {
      if (!this.awake) {
        this.awake = true;
        this.sleepTime = 0;
      }
    } else {
      this.awake = false;
      this.sleepTime = 0;
      this.vx = 0; this.vy = 0; this.w = 0;
      this.forceX = 0; this.forceY = 0; this.torque = 0;
    }
  }

  applyForceToCenter(fx: number, fy: number): void {
    if (!this.dynamic) return;
    if (!this.awake) this.setAwake(true);
    this.forceX = f(this.forceX + f(fx));
    this.forceY = f(this.forceY + f(fy));
  }

  applyLinearImpulse(ix: number, iy: number, px: number, py: number): void {
    if (!this.dynamic) return;
    ix = f(ix); iy = f(iy); px = f(px); py = f(py);
    if (!this.awake) this.setAwake(true);
    this.vx = f(this.vx + f(this.invMass * ix));
    this.vy = f(this.vy + f(this.invMass * iy));
    // b2Cross(point - c, impulse)
    const dx = f(px - this.sweep.cx), dy = f(py - this.sweep.cy);
    this.w = f(this.w + f(this.invI * f(f(dx * iy) - f(dy * ix))));
  }

  /** b2Body::SynchronizeTransform. */
  synchronizeTransform(): void {
    const xf = this.xf, s = this.sweep;
    xf.s = sinf(s.a);
    xf.c = cosf(s.a);
    xf.px = f(s.cx - f(f(xf.c * s.lcx) - f(xf.s * s.lcy)));
    xf.py = f(s.cy - f(f(xf.s * s.lcx) + f(xf.c * s.lcy)));
  }

  /** b2Body::Advance(alpha). */
  advance(alpha: number): void {
    const s = this.sweep;
    const beta = f(f(alpha - s.alpha0) / f(1 - s.alpha0));
    const b1 = f(1 - beta);
    s.c0x = f(f(b1 * s.c0x) + f(beta * s.cx));
    s.c0y = f(f(b1 * s.c0y) + f(beta * s.cy));
    s.a0 = f(f(b1 * s.a0) + f(beta * s.a));
    s.alpha0 = alpha;
    s.cx = s.c0x;
    s.cy = s.c0y;
    s.a = s.a0;
    this.synchronizeTransform();
  }

  /** b2Body::ShouldCollide: no joint without collideConnected between them (LunarLander's have none). */
  shouldCollide(other: Body): boolean {
    if (!this.dynamic && !other.dynamic) return false;
    for (const je of this.jointEdges) if (je.other === other) return false;
    return true;
  }
}

/** b2Mul(xf, (x, y)). */
const mulX = (xf: Transform, x: number, y: number): number => f(f(f(xf.c * x) - f(xf.s * y)) + xf.px);
const mulY = (xf: Transform, x: number, y: number): number => f(f(f(xf.s * x) + f(xf.c * y)) + xf.py);

/** b2Shape::ComputeAABB(xf) into out[at..at+3]. */
export function computeAABB(shape: Shape, xf: Transform, out: Float64Array, at: number): void {
  const r = shape.kind === 'polygon' ? shape.radius : POLYGON_RADIUS;
  let lx: number, ly: number, ux: number, uy: number;
  if (shape.kind === 'edge') {
    const x1 = mulX(xf, shape.x1, shape.y1), y1 = mulY(xf, shape.x1, shape.y1);
    const x2 = mulX(xf, shape.x2, shape.y2), y2 = mulY(xf, shape.x2, shape.y2);
    lx = x1 < x2 ? x1 : x2; ly = y1 < y2 ? y1 : y2;
    ux = x1 < x2 ? x2 : x1; uy = y1 < y2 ? y2 : y1;
  } else {
    const v = shape.vertices;
    lx = ux = mulX(xf, v[0], v[1]);
    ly = uy = mulY(xf, v[0], v[1]);
    for (let i = 1; i < shape.count; i++) {
      const x = mulX(xf, v[2 * i], v[2 * i + 1]), y = mulY(xf, v[2 * i], v[2 * i + 1]);
      lx = lx < x ? lx : x; ly = ly < y ? ly : y;
      ux = ux < x ? x : ux; uy = uy < y ? y : uy;
    }
  }
  out[at] = f(lx - r);
  out[at + 1] = f(ly - r);
  out[at + 2] = f(ux + r);
  out[at + 3] = f(uy + r);
}
