/**
 * Gymnasium's v5 control cost, `ctrl_cost_weight * np.sum(np.square(action))`, as numpy 2 computes
 * it on the float32 action: the squares, their sum and the weight times it all stay float32
 * (reward_ctrl is float32-precise in the golden recordings). The sum is numpy's pairwise one, for
 * up to its block of 128 entries: fewer than 8 in order; from 8, eight running sums (entry k into
 * sum k mod 8) combined ((0+1)+(2+3))+((4+5)+(6+7)), then the rest in order.
 */
export function controlCost(weight: number, action: ArrayLike<number>): number {
  return Math.fround(Math.fround(weight) * float32SumOfSquares(action));
}

const add = (a: number, b: number): number => Math.fround(a + b);
const square = (a: number): number => Math.fround(a * a);
/** numpy's eight running sums, reused: this runs on every environment step. */
const running = new Float64Array(8);

function float32SumOfSquares(action: ArrayLike<number>): number {
  const n = action.length;
  let sum = 0;
  if (n < 8) {
    for (let k = 0; k < n; k++) sum = add(sum, square(action[k]));
    return sum;
  }
  const whole = n - (n % 8);
  for (let j = 0; j < 8; j++) running[j] = square(action[j]);
  for (let i = 8; i < whole; i += 8) for (let j = 0; j < 8; j++) running[j] = add(running[j], square(action[i + j]));
  const r = running;
  sum = add(add(add(r[0], r[1]), add(r[2], r[3])), add(add(r[4], r[5]), add(r[6], r[7])));
  for (let k = whole; k < n; k++) sum = add(sum, square(action[k]));
  return sum;
}
