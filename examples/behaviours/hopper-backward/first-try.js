// idea: Pay the torso's backward speed and each healthy step, less a small torque cost.
function computeReward(obs, action, nextObs, terminated, state, nextState) {
  const BACKWARD_SCALE = 1;
  const ALIVE = 1;
  const CTRL_COST = 0.001;
  const backward = BACKWARD_SCALE * (state[0] - nextState[0]) / 0.008;
  const alive = terminated ? 0 : ALIVE;
  const ctrl = -CTRL_COST * (action[0] * action[0] + action[1] * action[1] + action[2] * action[2]);
  return [backward + alive + ctrl, { backward, alive, ctrl }];
}
