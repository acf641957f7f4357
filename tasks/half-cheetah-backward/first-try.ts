/**
 * The person's first try at HalfCheetah-Backward-v0: a plain shaping written from the task's description alone,
 * not tuned on any result (FIRST-TRY.md says how it was made). The code is as it was written.
 */
import type { RewardSource } from '../contract.ts';

export const FIRST_TRY: RewardSource = {
  idea: "the mirror image of HalfCheetah's own reward: pay the torso's speed along -x (from the recorded x) and charge a small cost for torque, nothing else.",
  code: "// idea: the mirror image of HalfCheetah's own reward: pay the torso's speed along -x (from the recorded x) and charge a small cost for torque, nothing else.\n\nconst DT = 0.05;                // s per step (1,000 steps = 50 s)\nconst BACKWARD_VEL_SCALE = 1.0; // reward per m/s of backward speed\nconst CTRL_COST_SCALE = 0.1;    // same weight as HalfCheetah-v5's control cost\n\nfunction computeReward(obs, action, nextObs, terminated, state, nextState) {\n  // backward speed from the recorded x, positive when moving along -x\n  const backwardVel = -(nextState[0] - state[0]) / DT;\n  const backward_velocity = BACKWARD_VEL_SCALE * backwardVel;\n\n  let sq = 0;\n  for (let i = 0; i < action.length; i++) sq += action[i] * action[i];\n  const ctrl_cost = -CTRL_COST_SCALE * sq;\n\n  const total = backward_velocity + ctrl_cost;\n  return [total, { backward_velocity, ctrl_cost }];\n}\n",
};
