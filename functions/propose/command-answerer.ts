/**
 * `--proposer command:"CMD"`: each request goes to a command's standard input as text and its
 * standard output is the answer (`ollama run qwen2.5-coder`, `llm -m ...`, a script of your own).
 * The command runs in a shell (`sh -c`), in its own process group, with this process's
 * environment; it must answer within Propose's time cap, and is killed, with everything it
 * started, past it. A command that fails (a non-zero exit, a signal, too much output) fails the
 * request with its exit status and the end of what it wrote on standard error.
 */
import { spawn } from 'node:child_process';
import { ANSWER_WAIT_SLICE_SECONDS } from '../../infra/config.ts';
import { ProposerError } from './proposer.ts';
import type { TextAnswerer, TextRequest } from './text-proposer.ts';

export interface CommandOptions {
  /** @default ANSWER_WAIT_SLICE_SECONDS (Propose's Lambda timeout, less a minute) */
  timeoutSeconds?: number;
  /** Most bytes read from its standard output. @default 4 MiB (16 candidates of 64 KiB, and room) */
  maxOutputBytes?: number;
}

const STDERR_TAIL = 600;

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
    const out: Buffer[] = [];
    let bytes = 0;
    let stderr = '';
    let why: string | null = null;
    const kill = (reason: string) => {
      why ??= reason;
      try { process.kill(-(child.pid ?? 0), 'SIGKILL'); } catch { /* already gone */ }
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
    child.on('error', (error) => { clearTimeout(timer); reject(fail(`could not start: ${error.message}`, stderr)); });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (why !== null) reject(fail(why, stderr));
      else if (code !== 0) reject(fail(signal === null ? `failed with exit code ${code}` : `was ended by ${signal}`, stderr));
      else resolve(Buffer.concat(out).toString('utf8'));
    });
    child.stdin.end(request.text);
  });
}
