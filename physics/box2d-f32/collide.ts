/**
 * Box2D 2.3's edge-polygon collision (b2CollideEdge.cpp's b2EPCollider, for an edge without
 * neighbour vertices, as Gymnasium's terrain edges are) and the manifold it fills.
 */
import { ANGULAR_SLOP, f, FLT_MAX, POLYGON_RADIUS, sqrtf, FLT_EPSILON } from './settings.ts';
import type { Edge, Polygon } from './shapes.ts';

export const FACE_A = 1;
export const FACE_B = 2;
const VERTEX = 0;
const FACE = 1;

export interface ManifoldPoint {
  localX: number;
  localY: number;
  normalImpulse: number;
  tangentImpulse: number;
  /** b2ContactID's key: indexA | indexB << 8 | typeA << 16 | typeB << 24. */
  id: number;
}

export interface Manifold {
  type: number;
  localNormalX: number;
  localNormalY: number;
  localPointX: number;
  localPointY: number;
  pointCount: number;
  points: [ManifoldPoint, ManifoldPoint];
}

export const newManifold = (): Manifold => ({
  type: 0, localNormalX: 0, localNormalY: 0, localPointX: 0, localPointY: 0, pointCount: 0,
  points: [{ localX: 0, localY: 0, normalImpulse: 0, tangentImpulse: 0, id: 0 }, { localX: 0, localY: 0, normalImpulse: 0, tangentImpulse: 0, id: 0 }],
});

export function copyManifold(to: Manifold, from: Manifold): void {
  to.type = from.type;
  to.localNormalX = from.localNormalX;
  to.localNormalY = from.localNormalY;
  to.localPointX = from.localPointX;
  to.localPointY = from.localPointY;
  to.pointCount = from.pointCount;
  for (let i = 0; i < 2; i++) Object.assign(to.points[i], from.points[i]);
}

const key = (indexA: number, indexB: number, typeA: number, typeB: number): number => indexA | (indexB << 8) | (typeA << 16) | (typeB << 24);

/** A transform: position and rotation (sine, cosine). */
export interface Transform {
  px: number;
  py: number;
  s: number;
  c: number;
}

// Scratch (no allocation per call): the polygon in the edge's frame, and the clip vertices.
const polyV = new Float64Array(32);
const polyN = new Float64Array(32);
const ie = [{ x: 0, y: 0, id: 0 }, { x: 0, y: 0, id: 0 }];
const clip1 = [{ x: 0, y: 0, id: 0 }, { x: 0, y: 0, id: 0 }];
const clip2 = [{ x: 0, y: 0, id: 0 }, { x: 0, y: 0, id: 0 }];
type ClipVertex = { x: number; y: number; id: number };

function clipSegmentToLine(vOut: ClipVertex[], vIn: ClipVertex[], nx: number, ny: number, offset: number, vertexIndexA: number): number {
  let numOut = 0;
  const distance0 = f(f(f(nx * vIn[0].x) + f(ny * vIn[0].y)) - offset);
  const distance1 = f(f(f(nx * vIn[1].x) + f(ny * vIn[1].y)) - offset);
  if (distance0 <= 0) Object.assign(vOut[numOut++], vIn[0]);
  if (distance1 <= 0) Object.assign(vOut[numOut++], vIn[1]);
  if (f(distance0 * distance1) < 0) {
    const interp = f(distance0 / f(distance0 - distance1));
    const out = vOut[numOut];
    out.x = f(vIn[0].x + f(interp * f(vIn[1].x - vIn[0].x)));
    out.y = f(vIn[0].y + f(interp * f(vIn[1].y - vIn[0].y)));
    // indexA = vertexIndexA, indexB = vIn[0]'s indexB, typeA = vertex, typeB = face.
    out.id = key(vertexIndexA, (vIn[0].id >> 8) & 0xff, VERTEX, FACE);
    numOut++;
  }
  return numOut;
}

/** b2CollideEdgeAndPolygon(manifold, edgeA, xfA, polygonB, xfB) for an edge with no ghost vertices. */
export function collideEdgePolygon(manifold: Manifold, edgeA: Edge, xfA: Transform, polygonB: Polygon, xfB: Transform): void {
  // m_xf = b2MulT(xfA, xfB)
  const qs = f(f(xfA.c * xfB.s) - f(xfA.s * xfB.c));
  const qc = f(f(xfA.c * xfB.c) + f(xfA.s * xfB.s));
  const dx = f(xfB.px - xfA.px);
  const dy = f(xfB.py - xfA.py);
  const tx = f(f(xfA.c * dx) + f(xfA.s * dy));
  const ty = f(f(-xfA.s * dx) + f(xfA.c * dy));
  // m_centroidB = b2Mul(m_xf, centroid)
  const cBx = f(f(f(qc * polygonB.centroidX) - f(qs * polygonB.centroidY)) + tx);
  const cBy = f(f(f(qs * polygonB.centroidX) + f(qc * polygonB.centroidY)) + ty);
  const v1x = edgeA.x1;
  const v1y = edgeA.y1;
  const v2x = edgeA.x2;
  const v2y = edgeA.y2;
  let e1x = f(v2x - v1x);
  let e1y = f(v2y - v1y);
  {
    const length = sqrtf(f(f(e1x * e1x) + f(e1y * e1y)));
    if (length >= FLT_EPSILON) {
      const inv = f(1 / length);
      e1x = f(e1x * inv);
      e1y = f(e1y * inv);
    }
  }
  const n1x = e1y;
  const n1y = -e1x;
  const offset1 = f(f(n1x * f(cBx - v1x)) + f(n1y * f(cBy - v1y)));
  const front = offset1 >= 0;
  const nx = front ? n1x : -n1x;
  const ny = front ? n1y : -n1y;
  // Limits (unused without ghost vertices beyond ComputePolygonSeparation's test).
  const lowerX = front ? -n1x : n1x;
  const lowerY = front ? -n1y : n1y;
  const upperX = lowerX;
  const upperY = lowerY;

  const count = polygonB.count;
  for (let i = 0; i < count; i++) {
    const x = polygonB.vertices[2 * i];
    const y = polygonB.vertices[2 * i + 1];
    polyV[2 * i] = f(f(f(qc * x) - f(qs * y)) + tx);
    polyV[2 * i + 1] = f(f(f(qs * x) + f(qc * y)) + ty);
    const nxi = polygonB.normals[2 * i];
    const nyi = polygonB.normals[2 * i + 1];
    polyN[2 * i] = f(f(qc * nxi) - f(qs * nyi));
    polyN[2 * i + 1] = f(f(qs * nxi) + f(qc * nyi));
  }
  const radius = f(2 * POLYGON_RADIUS);
  manifold.pointCount = 0;

  // ComputeEdgeSeparation.
  let edgeSeparation = FLT_MAX;
  for (let i = 0; i < count; i++) {
    const s = f(f(nx * f(polyV[2 * i] - v1x)) + f(ny * f(polyV[2 * i + 1] - v1y)));
    if (s < edgeSeparation) edgeSeparation = s;
  }
  const edgeIndex = front ? 0 : 1;
  if (edgeSeparation > radius) return;

  // ComputePolygonSeparation.
  let polyType = 0; // 0 unknown, 2 edgeB
  let polyIndex = -1;
  let polySeparation = -FLT_MAX;
  {
    const perpX = -ny;
    const perpY = nx;
    for (let i = 0; i < count; i++) {
      const mx = -polyN[2 * i];
      const my = -polyN[2 * i + 1];
      const s1 = f(f(mx * f(polyV[2 * i] - v1x)) + f(my * f(polyV[2 * i + 1] - v1y)));
      const s2 = f(f(mx * f(polyV[2 * i] - v2x)) + f(my * f(polyV[2 * i + 1] - v2y)));
      const s = s1 < s2 ? s1 : s2;
      if (s > radius) {
        polyType = 2;
        polyIndex = i;
        polySeparation = s;
        break;
      }
      if (f(f(mx * perpX) + f(my * perpY)) >= 0) {
        if (f(f(f(mx - upperX) * nx) + f(f(my - upperY) * ny)) < -ANGULAR_SLOP) continue;
      } else if (f(f(f(mx - lowerX) * nx) + f(f(my - lowerY) * ny)) < -ANGULAR_SLOP) {
        continue;
      }
      if (s > polySeparation) {
        polyType = 2;
        polyIndex = i;
        polySeparation = s;
      }
    }
  }
  if (polyType !== 0 && polySeparation > radius) return;

  const k_relativeTol = f(0.98);
  const k_absoluteTol = f(0.001);
  let primaryEdgeA: boolean;
  if (polyType === 0) primaryEdgeA = true;
  else primaryEdgeA = !(polySeparation > f(f(k_relativeTol * edgeSeparation) + k_absoluteTol));
  const primaryIndex = primaryEdgeA ? edgeIndex : polyIndex;

  let rfI1: number, rfI2: number, rfV1x: number, rfV1y: number, rfV2x: number, rfV2y: number, rfNx: number, rfNy: number;
  if (primaryEdgeA) {
    manifold.type = FACE_A;
    let bestIndex = 0;
    let bestValue = f(f(nx * polyN[0]) + f(ny * polyN[1]));
    for (let i = 1; i < count; i++) {
      const value = f(f(nx * polyN[2 * i]) + f(ny * polyN[2 * i + 1]));
      if (value < bestValue) {
        bestValue = value;
        bestIndex = i;
      }
    }
    const i1 = bestIndex;
    const i2 = i1 + 1 < count ? i1 + 1 : 0;
    ie[0].x = polyV[2 * i1];
    ie[0].y = polyV[2 * i1 + 1];
    ie[0].id = key(0, i1, FACE, VERTEX);
    ie[1].x = polyV[2 * i2];
    ie[1].y = polyV[2 * i2 + 1];
    ie[1].id = key(0, i2, FACE, VERTEX);
    if (front) {
      rfI1 = 0; rfI2 = 1; rfV1x = v1x; rfV1y = v1y; rfV2x = v2x; rfV2y = v2y; rfNx = n1x; rfNy = n1y;
    } else {
      rfI1 = 1; rfI2 = 0; rfV1x = v2x; rfV1y = v2y; rfV2x = v1x; rfV2y = v1y; rfNx = -n1x; rfNy = -n1y;
    }
  } else {
    manifold.type = FACE_B;
    ie[0].x = v1x;
    ie[0].y = v1y;
    ie[0].id = key(0, primaryIndex, VERTEX, FACE);
    ie[1].x = v2x;
    ie[1].y = v2y;
    ie[1].id = key(0, primaryIndex, VERTEX, FACE);
    rfI1 = primaryIndex;
    rfI2 = rfI1 + 1 < count ? rfI1 + 1 : 0;
    rfV1x = polyV[2 * rfI1];
    rfV1y = polyV[2 * rfI1 + 1];
    rfV2x = polyV[2 * rfI2];
    rfV2y = polyV[2 * rfI2 + 1];
    rfNx = polyN[2 * rfI1];
    rfNy = polyN[2 * rfI1 + 1];
  }
  const side1x = rfNy;
  const side1y = -rfNx;
  const side2x = -side1x;
  const side2y = -side1y;
  const sideOffset1 = f(f(side1x * rfV1x) + f(side1y * rfV1y));
  const sideOffset2 = f(f(side2x * rfV2x) + f(side2y * rfV2y));
  if (clipSegmentToLine(clip1, ie, side1x, side1y, sideOffset1, rfI1) < 2) return;
  if (clipSegmentToLine(clip2, clip1, side2x, side2y, sideOffset2, rfI2) < 2) return;

  if (primaryEdgeA) {
    manifold.localNormalX = rfNx;
    manifold.localNormalY = rfNy;
    manifold.localPointX = rfV1x;
    manifold.localPointY = rfV1y;
  } else {
    manifold.localNormalX = polygonB.normals[2 * rfI1];
    manifold.localNormalY = polygonB.normals[2 * rfI1 + 1];
    manifold.localPointX = polygonB.vertices[2 * rfI1];
    manifold.localPointY = polygonB.vertices[2 * rfI1 + 1];
  }
  let pointCount = 0;
  for (let i = 0; i < 2; i++) {
    const cv = clip2[i];
    const separation = f(f(rfNx * f(cv.x - rfV1x)) + f(rfNy * f(cv.y - rfV1y)));
    if (separation <= radius) {
      const cp = manifold.points[pointCount];
      if (primaryEdgeA) {
        // b2MulT(m_xf, v)
        const px = f(cv.x - tx);
        const py = f(cv.y - ty);
        cp.localX = f(f(qc * px) + f(qs * py));
        cp.localY = f(f(-qs * px) + f(qc * py));
        cp.id = cv.id;
      } else {
        cp.localX = cv.x;
        cp.localY = cv.y;
        // Swap the features: typeA <-> typeB, indexA <-> indexB.
        const iA = cv.id & 0xff;
        const iB = (cv.id >> 8) & 0xff;
        const tA = (cv.id >> 16) & 0xff;
        const tB = (cv.id >> 24) & 0xff;
        cp.id = key(iB, iA, tB, tA);
      }
      pointCount++;
    }
  }
  manifold.pointCount = pointCount;
}
