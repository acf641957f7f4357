/**
 * A smoke search (`eureka search --smoke`) through the CLI with a model that refuses to repair: the
 * real Anthropic SDK against the loopback Messages API, which writes one broken candidate in
 * generation 1, refuses the repair request, and answers generation 2. The search must finish with
 * exit 0 and a card. Run: npx tsx test/support/refusing-model-smoke.ts [data-dir]
 */
import { spawn } from 'node:child_process';
import { CLI } from './eureka-cli.ts';
import { answer, startMessagesApiServer } from './messages-api-server.ts';

const energy = (scale: number) => `function computeReward(obs, action, nextObs, terminated) {
  const energy = (o) => 0.5 * o[1] * o[1] + 0.0025 / 3 * Math.sin(3 * o[0]);
  const shaping = ${scale} * (0.99 * energy(nextObs) - energy(obs));
  return [shaping + (terminated ? 10 : 0) - 1, { shaping, goal: terminated ? 10 : 0, step: -1 }];
}`;
const good = (g: number, n: number) => Array.from({ length: n }, (_, i) => ({ name: `g${g}-energy-${i + 1}`, idea: `energy shaping x${(i + 1) * 80_000}`, code: energy((i + 1) * 80_000) }));
const broken = { name: 'typo-name', idea: 'reward speed', code: 'function computeReward(obs, action, nextObs, terminated) {\n  const speed = velocty * 2;\n  return [speed, { speed }];\n}' };
const reply = (cs: object[]) => answer(JSON.stringify({ candidates: cs }));
const server = await startMessagesApiServer([
  reply([...good(1, 2), broken]),
  answer('', { stopReason: 'refusal', stopDetails: { type: 'refusal', category: 'cyber', explanation: 'This looks like an exploit.' } }),
  reply(good(2, 3)),
]);
const dir = process.argv[2] ?? '/tmp/eureka-refusing-smoke';
const args = [CLI, 'search', '--smoke', '--proposer', 'anthropic', '--model', 'claude-sonnet-5-5', '--data-dir', dir, '--search-id', 'smoke-refused', '--json'];
console.error(`$ ANTHROPIC_BASE_URL=${server.url} node ${args.join(' ')}`);
const started = Date.now();
// Not spawnSync: the loopback server answers from this process's event loop.
const child = spawn(process.execPath, args, { env: { ...process.env, ANTHROPIC_API_KEY: 'test-key-not-real', ANTHROPIC_BASE_URL: server.url } });
let stdout = '';
let stderr = '';
child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
const ran = { status, stdout, stderr };
console.log(`exit ${ran.status} after ${((Date.now() - started) / 1000).toFixed(0)} s; model requests: ${server.requests.length}`);
console.log(ran.stdout.trim());
if (ran.status !== 0) console.log(ran.stderr.slice(-2000));
await server.close();
