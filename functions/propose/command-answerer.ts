/**
 * `--proposer command:"CMD"`: each request goes to a command's standard input as text and its
 * standard output is the answer (`ollama run qwen2.5-coder`, `llm -m ...`, a script of your own).
 * The command runs in a shell (`sh -c`), in its own process group, with this process's
 * environment; it must answer within Propose's time cap, and is killed, with everything it
 * started, past it. A command that fails (a non-zero exit, a signal, too much output) fails the
 * request with its exit status and the end of what it wrote on standard error.
 *
 * The answer is what the command wrote by the time its shell exited: what it left running in the
 * background and still holding its output (`sleep 60 & echo '{...}'`, a `setsid` grandchild that
 * left the process group) is killed then, not waited for (pipe-holders.ts finds them).
 */
import { spawn } from 'node:child_process';
import { ANSWER_WAIT_SLICE_SECONDS } from '../../infra/config.ts';
import { killPipeHolders, pipesOf } from './pipe-holders.ts';
import { ProposerError } from './proposer.ts';
import type { TextAnswerer, TextRequest } from './text-proposer.ts';

export interface CommandOptions {
  /** @default ANSWER_WAIT_SLICE_SECONDS (Propose's Lambda timeout, less a minute) */
  timeoutSeconds?: number;
  /** Most bytes read from its standard output. @default 4 MiB (16 candidates of 64 KiB, and room) */
  maxOutputBytes?: number;
}

const STDERR_TAIL = 600;
/** After the shell exits and its leftovers are killed, how long its output may take to drain where they could not be found. */
const DRAIN_MS = 2000;

export function commandAnswerer(command: string, options: CommandOptions = {}): TextAnswerer {
  return { kind: 'command', label: command, ask: (request) => runCommand(command, request, options) };
}

function runCommand(command: string, request: TextRequest, options: CommandOptions): Promise<string> {
  const timeoutSeconds = options.timeoutSeconds ?? ANSWER_WAIT_SLICE_SECONDS;
  const maxBytes = options.maxOutputBytes ?? 4 * 1024 * 1024;
  const fail = (what: string, stderr: string) => {
    const tail = stderr.trim().slice(-STDERR_TAIL).replace(/\s*\n\s*/g, ' | ');
    return new ProposerError(`The command ${JSON.stringify(command)} ${what}${tail === '' ? '' : `; its standard error ended: ${tail}`}`);
  };
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], {
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      env: { ...process.env, EUREKA_REQUEST_STEP: String(request.step) },
    });
    // The shell's own ends of its output pipes, read now while it runs: whoever holds them later is the command's.
    const pipes = pipesOf(child.pid);
    const out: Buffer[] = [];
    let bytes = 0;
    let stderr = '';
    let why: string | null = null;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let drain: NodeJS.Timeout | undefined;
    let settled = false;
    const killAll = () => {
      try { process.kill(-(child.pid ?? 0), 'SIGKILL'); } catch { /* already gone */ }
      killPipeHolders(pipes);
    };
    const settle = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drain);
      child.stdout.destroy();
      child.stderr.destroy();
      if (why !== null) reject(fail(why, stderr));
      else if (exit === null) reject(fail('ended without an exit status', stderr));
      else if (exit.code !== 0) reject(fail(exit.signal === null ? `failed with exit code ${exit.code}` : `was ended by ${exit.signal}`, stderr));
      else resolve(Buffer.concat(out).toString('utf8'));
    };
    const kill = (reason: string) => {
      why ??= reason;
      killAll();
      settle();
    };
    const timer = setTimeout(() => kill(`did not answer within ${timeoutSeconds} s (Propose's time cap)`), timeoutSeconds * 1000);
    child.stdout.on('data', (d: Buffer) => {
      bytes += d.length;
      if (bytes > maxBytes) kill(`wrote more than ${maxBytes} bytes on its standard output`);
      else out.push(d);
    });
    child.stderr.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-4 * STDERR_TAIL); });
    // A command that does not read its input (or stops early) closes the pipe: not an error of ours.
    child.stdin.on('error', () => {});
    child.on('error', (error) => { why ??= `could not start: ${error.message}`; settle(); });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Its answer is written: what it left behind holding the pipes is killed, and what they hold drains.
      killAll();
      drain = setTimeout(settle, DRAIN_MS);
    });
    child.on('close', settle);
    child.stdin.end(request.text);
  });
}
