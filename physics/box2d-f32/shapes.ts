/**
 * Box2D 2.3's polygon and edge shapes (b2PolygonShape, b2EdgeShape): the hull and normals of
 * Set, SetAsBox, ComputeMass and ComputeAABB, in float32.
 */
import { f, FLT_EPSILON, POLYGON_RADIUS, sqrtf } from './settings.ts';

export interface Polygon {
  kind: 'polygon';
  count: number;
  /** x0, y0, x1, y1, ... */
  vertices: Float64Array;
  normals: Float64Array;
  centroidX: number;
  centroidY: number;
  radius: number;
}

export interface Edge {
  kind: 'edge';
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  radius: number;
}

export type Shape = Polygon | Edge;

export interface MassData {
  mass: number;
  centerX: number;
  centerY: number;
  I: number;
}

export function edge(x1: number, y1: number, x2: number, y2: number): Edge {
  return { kind: 'edge', x1: f(x1), y1: f(y1), x2: f(x2), y2: f(y2), radius: POLYGON_RADIUS };
}

function emptyPolygon(count: number): Polygon {
  return { kind: 'polygon', count, vertices: new Float64Array(2 * count), normals: new Float64Array(2 * count), centroidX: 0, centroidY: 0, radius: POLYGON_RADIUS };
}

/** b2Vec2::Normalize in place on (x, y) at k of `a`. */
function normalize(a: Float64Array, k: number): void {
  const x = a[k];
  const y = a[k + 1];
  const length = sqrtf(f(f(x * x) + f(y * y)));
  if (length < FLT_EPSILON) return;
  const inv = f(1 / length);
  a[k] = f(x * inv);
  a[k + 1] = f(y * inv);
}

export function box(hx: number, hy: number): Polygon {
  const p = emptyPolygon(4);
  hx = f(hx);
  hy = f(hy);
  p.vertices.set([-hx, -hy, hx, -hy, hx, hy, -hx, hy]);
  p.normals.set([0, -1, 1, 0, 0, 1, -1, 0]);
  return p;
}

/** b2PolygonShape::Set: the convex hull (gift wrapping from the rightmost point), normals, centroid. */
export function polygon(points: ReadonlyArray<readonly [number, number]>): Polygon {
  const n = points.length;
  const px = points.map(([x]) => f(x));
  const py = points.map(([, y]) => f(y));
  let i0 = 0;
  let x0 = px[0];
  for (let i = 1; i < n; i++) {
    const x = px[i];
    if (x > x0 || (x === x0 && py[i] < py[i0])) {
      i0 = i;
      x0 = x;
    }
  }
  const hull: number[] = [];
  let ih = i0;
  for (;;) {
    hull.push(ih);
    const h = hull[hull.length - 1];
    let ie = 0;
    for (let j = 1; j < n; j++) {
      if (ie === ih) {
        ie = j;
        continue;
      }
      const rx = f(px[ie] - px[h]);
      const ry = f(py[ie] - py[h]);
      const vx = f(px[j] - px[h]);
      const vy = f(py[j] - py[h]);
      const c = f(f(rx * vy) - f(ry * vx));
      if (c < 0) ie = j;
      if (c === 0 && f(f(vx * vx) + f(vy * vy)) > f(f(rx * rx) + f(ry * ry))) ie = j;
    }
    ih = ie;
    if (ie === i0) break;
  }
  const m = hull.length;
  const p = emptyPolygon(m);
  for (let i = 0; i < m; i++) {
    p.vertices[2 * i] = px[hull[i]];
    p.vertices[2 * i + 1] = py[hull[i]];
  }
  for (let i = 0; i < m; i++) {
    const i2 = i + 1 < m ? i + 1 : 0;
    const ex = f(p.vertices[2 * i2] - p.vertices[2 * i]);
    const ey = f(p.vertices[2 * i2 + 1] - p.vertices[2 * i + 1]);
    // b2Cross(edge, 1.0f) = (1 * e.y, -1 * e.x)
    p.normals[2 * i] = f(1 * ey);
    p.normals[2 * i + 1] = f(-1 * ex);
    normalize(p.normals, 2 * i);
  }
  // ComputeCentroid, with the reference point at the origin.
  let cx = 0;
  let cy = 0;
  let area = 0;
  const inv3 = f(1 / 3);
  for (let i = 0; i < m; i++) {
    const p2x = p.vertices[2 * i];
    const p2y = p.vertices[2 * i + 1];
    const k = i + 1 < m ? i + 1 : 0;
    const p3x = p.vertices[2 * k];
    const p3y = p.vertices[2 * k + 1];
    const e1x = f(p2x - 0);
    const e1y = f(p2y - 0);
    const e2x = f(p3x - 0);
    const e2y = f(p3y - 0);
    const D = f(f(e1x * e2y) - f(e1y * e2x));
    const triangleArea = f(0.5 * D);
    area = f(area + triangleArea);
    const s = f(triangleArea * inv3);
    cx = f(cx + f(s * f(f(0 + p2x) + p3x)));
    cy = f(cy + f(s * f(f(0 + p2y) + p3y)));
  }
  const invArea = f(1 / area);
  p.centroidX = f(cx * invArea);
  p.centroidY = f(cy * invArea);
  return p;
}

/** b2PolygonShape::ComputeMass. */
export function polygonMass(p: Polygon, density: number): MassData {
  const v = p.vertices;
  const n = p.count;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < n; i++) {
    sx = f(sx + v[2 * i]);
    sy = f(sy + v[2 * i + 1]);
  }
  const invN = f(1 / n);
  sx = f(sx * invN);
  sy = f(sy * invN);
  const inv3 = f(1 / 3);
  let cx = 0;
  let cy = 0;
  let area = 0;
  let I = 0;
  for (let i = 0; i < n; i++) {
    const k = i + 1 < n ? i + 1 : 0;
    const e1x = f(v[2 * i] - sx);
    const e1y = f(v[2 * i + 1] - sy);
    const e2x = f(v[2 * k] - sx);
    const e2y = f(v[2 * k + 1] - sy);
    const D = f(f(e1x * e2y) - f(e1y * e2x));
    const triangleArea = f(0.5 * D);
    area = f(area + triangleArea);
    const s = f(triangleArea * inv3);
    cx = f(cx + f(s * f(e1x + e2x)));
    cy = f(cy + f(s * f(e1y + e2y)));
    const intx2 = f(f(f(e1x * e1x) + f(e2x * e1x)) + f(e2x * e2x));
    const inty2 = f(f(f(e1y * e1y) + f(e2y * e1y)) + f(e2y * e2y));
    I = f(I + f(f(f(f(0.25 * inv3) * D)) * f(intx2 + inty2)));
  }
  const mass = f(density * area);
  const invArea = f(1 / area);
  cx = f(cx * invArea);
  cy = f(cy * invArea);
  const centerX = f(cx + sx);
  const centerY = f(cy + sy);
  let inertia = f(density * I);
  inertia = f(inertia + f(mass * f(f(f(centerX * centerX) + f(centerY * centerY)) - f(f(cx * cx) + f(cy * cy)))));
  return { mass, centerX, centerY, I: inertia };
}
