/**
 * The person's first try at Go1-Walk-v0: a plain shaping written from the task's description alone,
 * not tuned on any result (FIRST-TRY.md says how it was made). The code is as it was written.
 */
import type { RewardSource } from '../contract.ts';

export const FIRST_TRY: RewardSource = {
  idea: 'track a forward speed a little above the 0.5 m/s asked for, pay a small bonus for every step upright, and penalize tilt, a trunk off its standing height, sideways drift, turning, bouncing, large actions and falling.',
  code: `// idea: track a forward speed a little above the 0.5 m/s asked for, pay a small bonus for every step upright, and penalize tilt, a trunk off its standing height, sideways drift, turning, bouncing, large actions and falling.

// obs: 2 trunk z, 3 roll, 4 pitch, 5 heading, 6 vx, 7 vy, 8 vz, 9-11 angular velocity (world frame)
const TARGET_SPEED = 0.6;     // m/s, a margin over the 0.5 m/s the test asks for
const SPEED_SIGMA = 0.25;     // (m/s)^2, width of the speed-tracking kernel
const TRACKING_SCALE = 1.0;
const ALIVE_BONUS = 0.2;      // per step upright
const TILT_SCALE = 1.0;       // per rad^2 of roll and pitch
const STAND_HEIGHT = 0.26;    // m, the trunk's height standing
const HEIGHT_SCALE = 20.0;    // per m^2 off the standing height
const SIDEWAYS_SCALE = 0.5;   // per (m/s)^2 of sideways speed
const TURN_SCALE = 0.1;       // per (rad/s)^2 of yaw rate
const BOUNCE_SCALE = 0.5;     // per (m/s)^2 of vertical speed
const EFFORT_SCALE = 0.01;    // per unit^2 of action
const FALL_PENALTY = 5.0;

function computeReward(obs, action, nextObs, terminated, state, nextState) {
  const vx = nextObs[6];
  const vy = nextObs[7];
  const vz = nextObs[8];
  const yawRate = nextObs[11];

  const tracking = TRACKING_SCALE * Math.exp(-((vx - TARGET_SPEED) ** 2) / SPEED_SIGMA);
  const alive = terminated ? 0 : ALIVE_BONUS;
  const tilt = -TILT_SCALE * (nextObs[3] ** 2 + nextObs[4] ** 2);
  const height = -HEIGHT_SCALE * (nextObs[2] - STAND_HEIGHT) ** 2;
  const sideways = -SIDEWAYS_SCALE * vy * vy;
  const turning = -TURN_SCALE * yawRate * yawRate;
  const bounce = -BOUNCE_SCALE * vz * vz;

  let sq = 0;
  for (let i = 0; i < action.length; i++) sq += action[i] * action[i];
  const effort = -EFFORT_SCALE * sq;

  const fall = terminated ? -FALL_PENALTY : 0;

  const total = tracking + alive + tilt + height + sideways + turning + bounce + effort + fall;
  return [total, { tracking, alive, tilt, height, sideways, turning, bounce, effort, fall }];
}
`,
};
