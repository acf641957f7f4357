// idea: an honest but slow reward (a needless inner loop per call) that eats the time budget
function computeReward(obs, action, nextObs, terminated) {
  let smooth = 0;
  for (let i = 1; i <= 20000; i++) smooth += Math.sin(nextObs[0] * i) / i;
  return [-1 + 0 * smooth, { step: -1 }];
}
