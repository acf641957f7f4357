/**
 * Kill a smoke search anywhere and resume it (issue 32): the search runs through the CLI with the
 * real @anthropic-ai/sdk against a loopback Messages API, and the whole process group (the runtime
 * and its TrainSeed workers) is SIGKILLed at moments a seeded generator draws from the timeline of
 * an uninterrupted run of the same search: a model request (held open at the server), a chunk
 * training, a checkpoint about to be written, Reflect and Publish halfway (the hooks of
 * functions/shared/ops/test-hold.ts hold the process still there), and a pause for feedback. After each
 * kill the search is resumed (`eureka search --resume`); what it did is compared with the
 * uninterrupted run (kill-resume-checks.ts). Used by test/kill-resume.test.ts and scripts/kill-resume.ts.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Random } from '../../core/random.ts';
import { energyReward } from './energy-reward.ts';
import { answer, startMessagesApiServer, type MessagesApiServer } from './messages-api-server.ts';

export const MOMENTS = ['model-request', 'chunk', 'checkpoint-write', 'reflect', 'publish', 'pause'] as const;
export type Moment = (typeof MOMENTS)[number];

const CLI = new URL('../../bin/eureka.js', import.meta.url).pathname;
const MODEL = 'claude-sonnet-5-5';
export const SEARCH_ID = 'killed';
/** A run that neither ends nor reaches its moment within this long is a hung test: it is killed and fails. */
const RUN_LIMIT_MS = 10 * 60_000;

export interface SearchShape {
  /** Pause for a person's feedback after generation 1 (answered "continue" by the harness). */
  feedback: boolean;
  /** Steps a seed-run (chunks of 2,048, the fewest a chunk takes) and the flags beside --smoke. */
  steps: number;
  flags: string[];
}

/** The smallest search that still races, repairs nothing and has two generations: CI's. */
export const SMALLEST: Omit<SearchShape, 'feedback'> = { steps: 4096, flags: ['--candidates', '2', '--seeds', '1', '--fresh-seeds', '1', '--no-hostile'] };
/** The smoke search itself (K=3, S=2, the hostile probes), with room for twenty kills: the script's. */
export const SMOKE: Omit<SearchShape, 'feedback'> = { steps: 8192, flags: [] };

/** One line of the timeline: a moment of some work, in the order the runs reached them. */
export interface Reached { moment: Moment | 'chunk-stored'; identity: string }

export interface Kill {
  moment: Moment;
  /** The work it landed in ("1/02-energy/1@4096": a chunk of generation 1's second candidate, seed 1, from 4,096 steps). */
  identity: string;
  /** The model request held open at the server when the kill came. */
  requestInFlight: boolean;
  /** Chunks that had started and whose checkpoint or result was not stored yet (one a warm worker at most). */
  chunksInFlight: string[];
}

export interface KilledSearch { dataDir: string; shape: SearchShape; kills: Kill[]; requests: string[]; timeline: Reached[]; planned: number }

// ---- The model: the same answer to the same request, however often it comes ----------------------

/** "g2:proposal": the generation the prompt asks for, and whether it is a schema repair. */
export function requestIdentity(body: Record<string, unknown>): string {
  const text = JSON.stringify(body.messages ?? '');
  const generation = Number(/before generation (\d+)/.exec(text)?.[1] ?? 1);
  return `g${generation}:${(body.messages as unknown[] | undefined ?? []).length > 1 ? 'schema-repair' : 'proposal'}`;
}

function modelAnswer(identity: string) {
  const g = Number(/^g(\d+)/.exec(identity)?.[1] ?? 1);
  return answer(JSON.stringify({ candidates: [1, 2, 3].map((i) => ({ name: `g${g}-energy-${i}`, idea: `energy shaping at scale ${i * 200}`, code: energyReward(i * 200 * 400 + g) })) }));
}

// ---- One search, run and resumed ------------------------------------------------------------------

interface Run { child: ChildProcess; stderr: () => string; exited: Promise<number | null> }

function startRun(args: string[], env: NodeJS.ProcessEnv): Run {
  const child = spawn(process.execPath, [CLI, ...args], { detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => { err += d.toString(); });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stderr: () => err, exited };
}

/** SIGKILL to the whole group, and wait until none of it is left. */
async function killGroup(run: Run): Promise<void> {
  const group = -(run.child.pid ?? 0);
  try { process.kill(group, 'SIGKILL'); } catch { /* gone already */ }
  await run.exited;
  for (let i = 0; i < 400; i++) {
    try { process.kill(group, 0); } catch { return; }
    await sleep(25);
  }
}

function readTimeline(log: string): Reached[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8').split('\n').filter((l) => l !== '').map((l) => {
    const [moment, identity] = l.split('\t');
    return { moment: moment as Reached['moment'], identity };
  });
}

function chunksInFlight(reached: Reached[]): string[] {
  const open = new Set<string>();
  for (const r of reached) {
    if (r.moment === 'chunk') open.add(r.identity);
    if (r.moment === 'chunk-stored') open.delete(r.identity);
  }
  return [...open];
}

/**
 * Runs the search in `dataDir`, killing it once at each planned stop (a moment and the identities
 * it may land on), resuming after each, and letting the last run finish. A planned stop the search
 * no longer reaches (its work was done before the kill before it) is skipped.
 */
export async function runSearch(dataDir: string, shape: SearchShape, plan: Array<{ moment: Moment; identities: string[] }>): Promise<KilledSearch> {
  const log = join(dataDir, 'moments.log');
  const marker = join(dataDir, 'held');
  const holdFile = join(dataDir, 'hold.json');
  const server: MessagesApiServer = await startMessagesApiServer();
  const requests: string[] = [];
  let holdRequests = new Set<string>();
  let held: string | null = null;
  server.respond = (body) => {
    const identity = requestIdentity(body);
    requests.push(identity);
    appendFileSync(log, `model-request\t${identity}\n`);
    if (holdRequests.has(identity)) { held = identity; return 'hold'; }
    return modelAnswer(identity);
  };
  const env = { ANTHROPIC_API_KEY: 'test-key-not-real', ANTHROPIC_BASE_URL: server.url, EUREKA_TEST_MOMENTS_LOG: log };
  const fresh = ['search', '--smoke', ...shape.flags, '--steps', String(shape.steps), '--chunk-steps', '2048', '--proposer', 'anthropic', '--model', MODEL,
    ...(shape.feedback ? ['--feedback', 'wait', '--feedback-timeout', '30'] : []), '--search-id', SEARCH_ID, '--json', '--data-dir', dataDir];
  const resumed = ['search', '--resume', SEARCH_ID, '--json', '--data-dir', dataDir];
  const kills: Kill[] = [];
  let run: Run | null = null;
  try {
    for (let i = 0; i <= plan.length; i++) {
      const stop = plan[i] as (typeof plan)[number] | undefined;
      holdRequests = new Set(stop?.moment === 'model-request' ? stop.identities : []);
      held = null;
      const hooked = stop !== undefined && stop.moment !== 'model-request' && stop.moment !== 'pause';
      if (hooked) writeFileSync(holdFile, JSON.stringify({ moment: stop.moment, identities: stop.identities, marker }));
      const from = readTimeline(log).length;
      run = startRun(i === 0 ? fresh : resumed, hooked ? { ...env, EUREKA_TEST_HOLD: holdFile } : env);
      const landed = await watchRun(run, dataDir, stop?.moment ?? null, marker, () => held, shape.feedback);
      if (landed === null) {
        // It finished: a stop it did not reach (its work was done before the kill before it) is not made.
        const code = await run.exited;
        if (code !== 0) throw new Error(`the search ended with code ${code}: ${run.stderr().slice(-2000)}`);
        break;
      }
      const since = readTimeline(log).slice(from);
      kills.push({ moment: stop!.moment, identity: landed, requestInFlight: held !== null, chunksInFlight: chunksInFlight(since) });
      await killGroup(run);
      if (existsSync(marker)) writeFileSync(marker, '');
    }
    return { dataDir, shape, kills, requests, timeline: readTimeline(log), planned: plan.length };
  } finally {
    // Whatever happened, no search is left running (a test that failed or was cancelled mid-run).
    if (run !== null) await killGroup(run);
    await server.close();
  }
}

/**
 * Waits for the run to reach its moment (returns where it landed) or to end (null). A pause for
 * feedback is answered "continue", unless the pause is the moment.
 */
async function watchRun(run: Run, dataDir: string, moment: Moment | null, marker: string, heldRequest: () => string | null, feedback: boolean): Promise<string | null> {
  let ended = false;
  void run.exited.then(() => { ended = true; });
  let answered = false;
  const deadline = Date.now() + RUN_LIMIT_MS;
  while (!ended) {
    if (Date.now() > deadline) {
      await killGroup(run);
      throw new Error(`the search neither ended nor reached ${moment}: ${run.stderr().slice(-2000)}`);
    }
    const text = existsSync(marker) ? readFileSync(marker, 'utf8').trim() : '';
    if (text !== '') return text.split('\t')[1];
    const request = heldRequest();
    if (request !== null) return request;
    if (feedback && /waiting for your feedback after generation (\d+)/.test(run.stderr())) {
      const generation = /waiting for your feedback after generation (\d+)/.exec(run.stderr())?.[1] ?? '?';
      if (moment === 'pause') return `after generation ${generation}`;
      if (!answered) {
        answered = true;
        await promisify(execFile)(process.execPath, [CLI, 'feedback', SEARCH_ID, '--continue', '--data-dir', dataDir]).catch(() => undefined);
      }
    }
    await sleep(25);
  }
  return null;
}

// ---- The plan: where to kill, drawn from the uninterrupted run's timeline -------------------------

/**
 * `kills` stops drawn by a seeded generator: moments in turn from `moments` (so every kind is met),
 * each at a random place of the uninterrupted run's timeline after the stop before it; the
 * identities a stop may land on are that moment's from there on (the first one reached holds).
 */
export function drawPlan(timeline: Reached[], moments: readonly Moment[], kills: number, seed: number): Array<{ moment: Moment; identities: string[] }> {
  const rng = new Random(seed);
  const plan: Array<{ moment: Moment; identities: string[]; at: number }> = [];
  for (let k = 0; k < kills; k++) {
    const moment = moments[k % moments.length];
    const places = timeline.flatMap((r, i) => (r.moment === moment ? [i] : []));
    if (places.length === 0) continue;
    const at = places[rng.int(places.length)];
    plan.push({ moment, at, identities: [...new Set(timeline.slice(at).filter((r) => r.moment === moment).map((r) => r.identity))] });
  }
  return plan.sort((a, b) => a.at - b.at).map(({ moment, identities }) => ({ moment, identities }));
}

/** The pause's place in a feedback search's timeline: right after generation 1's Reflect. */
export function withPause(timeline: Reached[]): Reached[] {
  const at = timeline.findIndex((r) => r.moment === 'reflect' && r.identity === 'g1');
  return at < 0 ? timeline : [...timeline.slice(0, at + 1), { moment: 'pause', identity: 'after generation 1' }, ...timeline.slice(at + 1)];
}
