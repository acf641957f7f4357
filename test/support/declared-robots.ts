/** Small declared robots for tests: a planar robot's XML, and a declaration with every placeholder filled. */
import type { MujocoTaskDeclaration } from '../../tasks/mujoco-common/declared/declaration.ts';

/**
 * A planar robot, as Gymnasium's 2-D ones are built: its root body 0.1 m up, moved by a slide along
 * x, one along z and a hinge (no free joint); one leg, its knee limited; `actuators` as given.
 */
export const planarXml = (actuators: string): string => `<mujoco>
  <worldbody>
    <geom type="plane" size="0 0 0.05"/>
    <body name="trunk" pos="0 0 0.1">
      <joint name="slide_x" type="slide" axis="1 0 0"/>
      <joint name="slide_z" type="slide" axis="0 0 1"/>
      <joint name="turn" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="-0.1 0 0 0.1 0 0" size="0.02"/>
      <body name="leg" pos="0.1 0 0">
        <joint name="knee" type="hinge" axis="0 1 0" range="-1 1"/>
        <geom type="capsule" fromto="0 0 0 0 0 -0.08" size="0.02"/>
      </body>
    </body>
  </worldbody>
  ${actuators}
</mujoco>`;

/** What a test does not look at (success, progress, baselines, features, budget) filled with placeholders. */
export function declarationOf(d: Pick<MujocoTaskDeclaration, 'id' | 'description' | 'xml' | 'observation' | 'actions' | 'frameSkip' | 'maxEpisodeSteps'> & Partial<MujocoTaskDeclaration>): MujocoTaskDeclaration {
  const noop = { idea: 'Nothing.', code: 'function computeReward() { return [0, {}]; }' };
  return {
    success: { clause: 'x', headline: 'x', describe: 'x', test: () => false },
    progress: { describe: 'x', label: 'x', measure: () => 0, format: String },
    baselines: { environment: noop, human: noop },
    features: [{ name: 'none', expression: '0', describe: 'x' }],
    budget: { steps: 2048, evalEpisodes: 1, smokeSteps: 2048 },
    ...d,
  };
}
