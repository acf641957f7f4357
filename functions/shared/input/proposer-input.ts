/**
 * The input's `proposer`: a name (offline, anthropic, bedrock), or a local answerer with what it
 * needs: `command:CMD` (the command reads the request on its standard input and writes the JSON
 * answer on its standard output) or `files:DIR` (request-N.md written there, answer-N.json read
 * back). The two local answerers run only in the local runtime: on AWS there is no shell of the
 * user's and no directory a person writes in, so the input is refused there.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import type { SearchSettings } from '../search/contracts.ts';

export const PROPOSER_NAMES = ['offline', 'anthropic', 'bedrock'] as const;
const LOCAL = /^(command|files):([\s\S]*)$/;

export const ProposerField = z.string().refine((value) => {
  const local = LOCAL.exec(value);
  return local === null ? (PROPOSER_NAMES as readonly string[]).includes(value) : local[2].trim() !== '';
}, {
  error: (issue) => `must be offline, anthropic, bedrock, command:CMD or files:DIR (got ${JSON.stringify(String(issue.input).slice(0, 60))})`,
});

export interface ProposerChoice {
  proposer: SearchSettings['proposer'];
  /** The command line or the directory (absolute) of a local answerer: the search's `model`. */
  answerer: string | null;
}

/** The proposer an input's valid `proposer` names. */
export function proposerChoice(value: string): ProposerChoice {
  const local = LOCAL.exec(value);
  if (local === null) return { proposer: value as ProposerChoice['proposer'], answerer: null };
  const target = local[2].trim();
  return local[1] === 'files' ? { proposer: 'files', answerer: resolve(target) } : { proposer: 'command', answerer: target };
}

/** Why the choice cannot run where the input is parsed, or conflicts with the input's model; null when it can. */
export function answererProblem(choice: ProposerChoice, input: { model?: string }, local: boolean): string | null {
  if (choice.answerer === null) return null;
  const spelled = `${choice.proposer}:${choice.answerer}`;
  if (!local) {
    return `"proposer" ${JSON.stringify(spelled.slice(0, 60))}: command: and files: answer only in the local runtime (eureka search); ` +
      'on AWS use offline, anthropic or bedrock';
  }
  if (input.model !== undefined) return `"model" must not be given with "proposer" ${choice.proposer}:...: the ${choice.proposer === 'command' ? 'command' : 'person or program'} answering is the model`;
  // A mistyped directory would be made, and waited in for an hour: it must be there already.
  if (choice.proposer === 'files' && !isDirectory(choice.answerer)) {
    return `"proposer" ${JSON.stringify(spelled.slice(0, 200))}: the directory ${choice.answerer} does not exist: create it, or give the one the answers are written in`;
  }
  return null;
}

function isDirectory(path: string): boolean {
  try { return statSync(path).isDirectory(); } catch { return false; }
}
