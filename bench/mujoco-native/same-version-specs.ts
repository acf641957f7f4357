/** The eight MuJoCo tasks' conformance specs by id (bench/mujoco-native/same-version.ts and its test read them). */
import type { MujocoConformanceSpec } from '../../tasks/mujoco-common/conformance.ts';
import { ANT_CONFORMANCE_SPEC } from '../../tasks/ant/conformance.ts';
import { HALF_CHEETAH_CONFORMANCE_SPEC } from '../../tasks/half-cheetah/conformance.ts';
import { HOPPER_CONFORMANCE_SPEC } from '../../tasks/hopper/conformance.ts';
import { INVERTED_DOUBLE_PENDULUM_CONFORMANCE_SPEC } from '../../tasks/inverted-double-pendulum/conformance.ts';
import { INVERTED_PENDULUM_CONFORMANCE_SPEC } from '../../tasks/inverted-pendulum/conformance.ts';
import { REACHER_CONFORMANCE_SPEC } from '../../tasks/reacher/conformance.ts';
import { SWIMMER_CONFORMANCE_SPEC } from '../../tasks/swimmer/conformance.ts';
import { WALKER2D_CONFORMANCE_SPEC } from '../../tasks/walker2d/conformance.ts';

export const SAME_VERSION_SPECS: Readonly<Record<string, MujocoConformanceSpec>> = {
  'Hopper-v5': HOPPER_CONFORMANCE_SPEC,
  'Walker2d-v5': WALKER2D_CONFORMANCE_SPEC,
  'Ant-v5': ANT_CONFORMANCE_SPEC,
  'HalfCheetah-v5': HALF_CHEETAH_CONFORMANCE_SPEC,
  'Swimmer-v5': SWIMMER_CONFORMANCE_SPEC,
  'InvertedPendulum-v5': INVERTED_PENDULUM_CONFORMANCE_SPEC,
  'InvertedDoublePendulum-v5': INVERTED_DOUBLE_PENDULUM_CONFORMANCE_SPEC,
  'Reacher-v5': REACHER_CONFORMANCE_SPEC,
};
