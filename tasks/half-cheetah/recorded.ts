/** HalfCheetah's recorded state: its root joints, in its own words (its rootz has no ref, its front is its nose). */
import { torsoXzAngle } from '../mujoco-common/recorded.ts';

export const CHEETAH_RECORDED = torsoXzAngle(
  'the torso\'s height relative to its start at 0.7 m (about -0.13 resting on its feet)',
  'positive pitches the nose down, the torso\'s front (+x, the way it runs) toward the floor',
);
