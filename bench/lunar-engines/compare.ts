/**
 * `node --expose-gc --import tsx bench/lunar-engines/compare.ts FILE...`: LunarLander on three engines, side by side in one run:
 * box2d-f32 (the project's float32 port of pybox2d's Box2D 2.3, what the task runs on), planck
 * (the float64 TypeScript rewrite it ran on before) and box2d-wasm (Box2D 2.4.1 in float32,
 * WebAssembly). For each recording file (shared/golden's format): the largest deviation from
 * the recorded Gymnasium over whole episodes and over the free flight (before anything touches),
 * and how many episodes end on the same step the same way; then environment steps per
 * CPU-second (16 copies, random actions; the median of interleaved bursts, so that the load of
 * a shared machine falls on all three alike) and memory per environment copy.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { compareEpisode } from '../../tasks/conformance.ts';
import { Float32LanderWorld } from '../../tasks/lunar-lander-common/box2d-f32-world.ts';
import type { LanderWorld } from '../../tasks/lunar-lander-common/engine.ts';
import { LunarLanderDiscreteEnv } from '../../tasks/lunar-lander/environment.ts';
import type { LunarLanderEnv } from '../../tasks/lunar-lander-common/physics.ts';
import { LunarRecordingSchema, landerRecordValues, replayLunarLander, withLanderStates } from '../../tasks/lunar-lander-common/replay.ts';
import { LunarLanderContinuousEnv } from '../../tasks/lunar-lander-continuous/environment.ts';
import { b2 } from './box2d-wasm.ts';
import { Box2DLanderWorld } from './box2d-wasm-world.ts';
import { PlanckLanderWorld } from './planck-world.ts';
import { argError, benchArgs } from '../args.ts';

const ENGINES: Record<string, () => LanderWorld> = {
  'box2d-f32': () => new Float32LanderWorld(),
  planck: () => new PlanckLanderWorld(),
  'box2d-wasm': () => new Box2DLanderWorld(),
};

/** A recording's text, gzipped or not. */
const text = (bytes: Buffer): string => (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8');

const make = (continuous: boolean, n: number, seed: number, engine: () => LanderWorld): LunarLanderEnv =>
  continuous ? new LunarLanderContinuousEnv(n, seed, engine) : new LunarLanderDiscreteEnv(n, seed, engine);

function deviations(file: string): void {
  const recording = LunarRecordingSchema.parse(JSON.parse(text(readFileSync(file))));
  const continuous = recording.task.includes('Continuous');
  for (const [name, engine] of Object.entries(ENGINES)) {
    const worst = { state: 0, obs: 0, reward: 0, freeState: 0, freeObs: 0 };
    let sameEnding = 0;
    for (const episode of recording.episodes) {
      const env = make(continuous, 1, 0, engine);
      const replay = replayLunarLander(env, episode);
      env.dispose();
      const d = compareEpisode(withLanderStates(episode), replay);
      worst.state = Math.max(worst.state, d.state);
      worst.obs = Math.max(worst.obs, d.obs);
      worst.reward = Math.max(worst.reward, d.reward);
      // The free flight: every step before a leg or the body touches, in either run.
      for (let t = 0; t < Math.min(episode.steps.length, replay.steps.length); t++) {
        const theirs = landerRecordValues(episode.steps[t].lander);
        const ours = replay.steps[t].state ?? [];
        if (theirs[6] + theirs[7] + ours[6] + ours[7] > 0 || episode.steps[t].terminated || replay.steps[t].terminated) break;
        for (let k = 0; k < 6; k++) worst.freeState = Math.max(worst.freeState, Math.abs(theirs[k] - ours[k]));
        for (let k = 0; k < 8; k++) worst.freeObs = Math.max(worst.freeObs, Math.abs(episode.steps[t].obs[k] - replay.steps[t].obs[k]));
      }
      const a = episode.steps[episode.steps.length - 1];
      const b = replay.steps[replay.steps.length - 1];
      if (episode.steps.length === replay.steps.length && a.terminated === b.terminated && a.truncated === b.truncated && a.reward === b.reward) sameEnding += 1;
    }
    const e = (x: number): string => x.toExponential(1);
    console.log(`${recording.task.padEnd(25)} ${name.padEnd(10)} ${String(sameEnding).padStart(3)}/${recording.episodes.length} same ending   ` +
      `whole: state ${e(worst.state)} obs ${e(worst.obs)} reward ${e(worst.reward)}   free flight: state ${e(worst.freeState)} obs ${e(worst.freeObs)}`);
  }
}

function speed(continuous: boolean, bursts: number): Record<string, number> {
  const envs = Object.fromEntries(Object.entries(ENGINES).map(([name, engine]) => [name, make(continuous, 16, 0, engine)]));
  const perSecond: Record<string, number[]> = Object.fromEntries(Object.keys(ENGINES).map((name) => [name, []]));
  const actions = new Float64Array(16 * (continuous ? 2 : 1));
  let x = 12345;
  const next = (): number => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
  for (let burst = 0; burst < bursts; burst++) {
    for (const [name, env] of Object.entries(envs)) {
      const started = process.cpuUsage();
      for (let k = 0; k < 50; k++) {
        for (let i = 0; i < actions.length; i++) actions[i] = continuous ? -1 + 2 * next() : Math.floor(next() * 4);
        env.step(actions);
      }
      const used = process.cpuUsage(started);
      if (burst >= 3) perSecond[name].push((50 * 16) / ((used.user + used.system) / 1e6));
    }
  }
  for (const env of Object.values(envs)) env.dispose();
  return Object.fromEntries(Object.entries(perSecond).map(([name, v]) => [name, v.sort((a, b) => a - b)[v.length >> 1]]));
}

/** Bytes per copy: the JavaScript heap (after a collection, with --expose-gc) and box2d-wasm's memory. */
function memory(name: string, copies: number): { js: number; wasm: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const wasm0 = b2.HEAP8.length;
  const env = make(false, copies, 1, ENGINES[name]);
  for (let t = 0; t < 50; t++) env.step(new Float64Array(copies).fill(2));
  gc?.();
  const used = { js: (process.memoryUsage().heapUsed - heap0) / copies, wasm: (b2.HEAP8.length - wasm0) / copies };
  env.dispose();
  return used;
}

const { positionals: files } = benchArgs(import.meta.url, { options: {}, allowPositionals: true });
if (files.length === 0) argError(import.meta.url, 'needs RECORDING.json... (shared/golden/LunarLander-v3.json, ...)');
for (const file of files) deviations(file);
for (const continuous of [false, true]) {
  const s = speed(continuous, 23);
  console.log(`${continuous ? 'LunarLanderContinuous-v3' : 'LunarLander-v3'}: steps per CPU-second, 16 copies, random actions: ` +
    Object.entries(s).map(([name, v]) => `${name} ${v.toFixed(0)} (${(v / s.planck).toFixed(2)}x planck)`).join(', '));
}
for (const name of Object.keys(ENGINES)) {
  const m = memory(name, 512);
  console.log(`${name}: ${(m.js / 1024).toFixed(1)} KiB of JavaScript heap per copy` + (m.wasm > 0 ? `, ${(m.wasm / 1024).toFixed(1)} KiB of wasm memory per copy` : ''));
}
