/**
 * Gymnasium's v5 control cost, `ctrl_cost_weight * np.sum(np.square(action))`, as numpy 2 computes
 * it on the float32 action: the squares, their sum and the weight times it all stay float32
 * (reward_ctrl is float32-precise in the golden recordings). Summed in order, as numpy does for so few entries.
 */
export function controlCost(weight: number, action: ArrayLike<number>): number {
  let squares = 0;
  for (let k = 0; k < action.length; k++) squares = Math.fround(squares + Math.fround(action[k] * action[k]));
  return Math.fround(Math.fround(weight) * squares);
}
