/**
 * A side view of a model's geoms (the x-z plane, seen along -y), or a top view (the x-y plane,
 * seen from above), computed by MuJoCo itself: for each pose, `mj_kinematics` places every geom,
 * and each is projected onto the plane. Capsules and cylinders become thick segments along their
 * axis, spheres and ellipsoids discs, boxes their outline's segment; planes (the floor) are left
 * to the drawing. No GL: the card draws these as SVG.
 */
import { mujoco, type MjModel } from './engine.ts';

/** mjtGeom values (mjmodel.h). */
const PLANE = 0;
const SPHERE = 2;
const CAPSULE = 3;
const ELLIPSOID = 4;
const CYLINDER = 5;
const BOX = 6;

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
export function sideView(xml: string, qposes: ArrayLike<number>[], plane: ViewPlane = 'x-z'): SideView {
  // The second coordinate drawn: world z (index 2) from the side, world y (index 1) from above.
  const up = plane === 'x-z' ? 2 : 1;
  const mj = mujoco();
  const model = mj.MjModel.from_xml_string(xml);
  try {
    const data = new mj.MjData(model);
    try {
      const types = model.geom_type as Int32Array;
      const sizes = model.geom_size as Float64Array;
      const rgba = model.geom_rgba as Float32Array;
      const drawn = Array.from({ length: model.ngeom }, (_, g) => g).filter((g) => types[g] !== PLANE && [SPHERE, CAPSULE, ELLIPSOID, CYLINDER, BOX].includes(types[g]));
      const geoms = drawn.map((g) => ({
        name: geomName(model, g),
        radius: types[g] === BOX ? sizes[3 * g + 2] : sizes[3 * g],
        color: hex(rgba.subarray(4 * g, 4 * g + 3)),
      }));
      const frames = qposes.map((qpos) => {
        (data.qpos as Float64Array).set(qpos);
        mj.mj_kinematics(model, data);
        const xpos = data.geom_xpos as Float64Array;
        const xmat = data.geom_xmat as Float64Array;
        const out = new Float64Array(4 * drawn.length);
        drawn.forEach((g, k) => {
          // The geom's long axis: its local z for capsules and cylinders, its local x for boxes.
          const half = types[g] === CAPSULE || types[g] === CYLINDER ? sizes[3 * g + 1] : types[g] === BOX ? sizes[3 * g] : 0;
          const column = types[g] === BOX ? 0 : 2;
          const ax = xmat[9 * g + column] * half;
          const az = xmat[9 * g + 3 * up + column] * half;
          out.set([xpos[3 * g] - ax, xpos[3 * g + up] - az, xpos[3 * g] + ax, xpos[3 * g + up] + az], 4 * k);
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

function hex(rgb: ArrayLike<number>): string {
  return `#${Array.from(rgb, (c) => Math.round(Math.min(1, Math.max(0, c)) * 255).toString(16).padStart(2, '0')).join('')}`;
}
