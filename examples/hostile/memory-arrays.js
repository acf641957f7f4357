// idea: exhaust memory with big arrays (QuickJS's own memory limit does not count these)
function computeReward(obs, action, nextObs, terminated) {
  const hoard = [];
  for (;;) hoard.push(new Array(1 << 20).fill(obs[0]));
}
