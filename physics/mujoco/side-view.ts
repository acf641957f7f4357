/**
 * A side view of a model's geoms (the x-z plane, seen along -y), or a top view (the x-y plane,
 * seen from above), computed by MuJoCo itself: for each pose, `mj_kinematics` places every geom,
 * and each is projected onto the plane. Capsules and cylinders become thick segments along their
 * axis, spheres and ellipsoids discs, boxes their outline's segment, meshes the segment of their
 * bounding box (`geom_aabb`) along its longest side, as thick as the next; planes (the floor) are
 * left to the drawing. Geoms of group 3 and above are left out, as MuJoCo's viewer hides them by
 * default (a Menagerie robot's collision shapes, drawn over by its visual meshes), unless the model
 * has nothing else to draw (its visual meshes left out). No GL: the card draws these as SVG.
 */
import { mujoco, type MjModel } from './engine.ts';
import { compileModel, type ModelSource } from './model-files.ts';

/** mjtGeom values (mjmodel.h). */
const SPHERE = 2;
const CAPSULE = 3;
const ELLIPSOID = 4;
const CYLINDER = 5;
const BOX = 6;
const MESH = 7;
/** The first geom group MuJoCo's viewer does not show by default. */
const HIDDEN_GROUP = 3;
/** A geom's rgba when its XML sets none: then its material's colour is what shows. */
const DEFAULT_RGBA = [0.5, 0.5, 0.5];

export interface SideGeom {
  name: string;
  /** Half the drawn thickness (m): a capsule's radius. */
  radius: number;
  /** The model's colour, "#rrggbb". */
  color: string;
}

export interface SideView {
  geoms: SideGeom[];
  /**
   * One per pose: for each drawn geom, x1, z1, x2, z2 (m) of its segment (a disc: both ends its
   * centre); in a top view x1, y1, x2, y2.
   */
  frames: Float64Array[];
}

/** Which plane the geoms are projected onto: the side (x-z, the default) or the top (x-y). */
export type ViewPlane = 'x-z' | 'x-y';

/** Places the model's geoms at each qpos and projects them onto the x-z plane (or the x-y plane). */
export function sideView(source: ModelSource, qposes: ArrayLike<number>[], plane: ViewPlane = 'x-z'): SideView {
  // The second coordinate drawn: world z (index 2) from the side, world y (index 1) from above.
  const up = plane === 'x-z' ? 2 : 1;
  const mj = mujoco();
  const model = compileModel(source);
  try {
    const data = new mj.MjData(model);
    try {
      const types = model.geom_type as Int32Array;
      const sizes = model.geom_size as Float64Array;
      const groups = model.geom_group as Int32Array;
      const aabb = model.geom_aabb as Float64Array;
      const shapes = Array.from({ length: model.ngeom }, (_, g) => g).filter((g) => [SPHERE, CAPSULE, ELLIPSOID, CYLINDER, BOX, MESH].includes(types[g]));
      const shown = shapes.filter((g) => groups[g] < HIDDEN_GROUP);
      // A model whose visual meshes were left out (their files could not be had) shows nothing in
      // the viewer's groups: its collision shapes are then what there is to draw.
      const drawn = shown.length > 0 ? shown : shapes;
      // The first pose placed, for which side of a mesh's box faces the viewer.
      if (qposes.length > 0) {
        (data.qpos as Float64Array).set(qposes[0]);
        mj.mj_kinematics(model, data);
      }
      const firstXmat = Float64Array.from(data.geom_xmat as Float64Array);
      // A mesh's bounding box in its geom's frame: its centre, its longest side (the segment), and as
      // thickness the half-size of the other side that stands most across the drawing at the first pose.
      const meshBox = (g: number) => {
        const half = [aabb[6 * g + 3], aabb[6 * g + 4], aabb[6 * g + 5]];
        const [axis, ...others] = [0, 1, 2].sort((a, b) => half[b] - half[a]);
        const across = (c: number) => Math.abs(firstXmat[9 * g + 3 * up + c]);
        const thick = across(others[0]) >= across(others[1]) ? others[0] : others[1];
        return { centre: [aabb[6 * g], aabb[6 * g + 1], aabb[6 * g + 2]], axis, half: half[axis], radius: half[thick] };
      };
      const geoms = drawn.map((g) => ({
        name: geomName(model, g),
        radius: types[g] === MESH ? meshBox(g).radius : types[g] === BOX ? sizes[3 * g + 2] : sizes[3 * g],
        color: hex(geomColour(model, g)),
      }));
      const frames = qposes.map((qpos) => {
        (data.qpos as Float64Array).set(qpos);
        mj.mj_kinematics(model, data);
        const xpos = data.geom_xpos as Float64Array;
        const xmat = data.geom_xmat as Float64Array;
        const out = new Float64Array(4 * drawn.length);
        drawn.forEach((g, k) => {
          const mesh = types[g] === MESH ? meshBox(g) : undefined;
          // The geom's long axis: its local z for capsules and cylinders, its local x for boxes, a mesh's box's longest side.
          const half = mesh?.half ?? (types[g] === CAPSULE || types[g] === CYLINDER ? sizes[3 * g + 1] : types[g] === BOX ? sizes[3 * g] : 0);
          const column = mesh?.axis ?? (types[g] === BOX ? 0 : 2);
          const ax = xmat[9 * g + column] * half;
          const az = xmat[9 * g + 3 * up + column] * half;
          // The segment's middle: the geom's origin, or the centre of a mesh's box, turned by the geom's frame.
          const c = mesh?.centre ?? [0, 0, 0];
          const cx = xpos[3 * g] + xmat[9 * g] * c[0] + xmat[9 * g + 1] * c[1] + xmat[9 * g + 2] * c[2];
          const cz = xpos[3 * g + up] + xmat[9 * g + 3 * up] * c[0] + xmat[9 * g + 3 * up + 1] * c[1] + xmat[9 * g + 3 * up + 2] * c[2];
          out.set([cx - ax, cz - az, cx + ax, cz + az], 4 * k);
        });
        return out;
      });
      return { geoms, frames };
    } finally {
      data.delete();
    }
  } finally {
    model.delete();
  }
}

/** Geom g's name, through an accessor the bindings allocate on each `model.geom(g)`: freed here. */
function geomName(model: MjModel, g: number): string {
  const geom = model.geom(g);
  try {
    return geom.name;
  } finally {
    geom.delete();
  }
}

/** The geom's colour: its own rgba, or its material's where the XML gave the geom none (a Menagerie robot's). */
function geomColour(model: MjModel, g: number): ArrayLike<number> {
  const rgba = (model.geom_rgba as Float32Array).subarray(4 * g, 4 * g + 3);
  const material = (model.geom_matid as Int32Array)[g];
  const unset = DEFAULT_RGBA.every((c, k) => Math.abs(rgba[k] - c) < 1e-6);
  return material >= 0 && unset ? (model.mat_rgba as Float32Array).subarray(4 * material, 4 * material + 3) : rgba;
}

function hex(rgb: ArrayLike<number>): string {
  return `#${Array.from(rgb, (c) => Math.round(Math.min(1, Math.max(0, c)) * 255).toString(16).padStart(2, '0')).join('')}`;
}
