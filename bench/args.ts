/**
 * The benches' command lines, read by node:util's parseArgs in strict mode: a bench runs for
 * minutes to hours, so a mistyped flag (`--seed` for `--seeds`), a flag without its value or a
 * stray argument stops it at once, in one line on stderr and exit code 2, instead of letting it
 * run on its defaults. `--help` (or `-h`) prints the bench's leading doc comment, where each bench
 * documents its flags, and runs nothing.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The bench as its lines name it, from the repository's root: bench/learning.ts. */
const benchName = (url: string): string => relative(ROOT, fileURLToPath(url));

/** The bench file's leading doc comment without its comment marks: its usage. */
function usageOf(url: string): string {
  const comment = /^\s*\/\*\*([\s\S]*?)\*\//.exec(readFileSync(fileURLToPath(url), 'utf8'))?.[1];
  if (comment === undefined) return `${benchName(url)}: its file has no leading doc comment to print`;
  return comment.split('\n').map((line) => line.replace(/^\s*\*( |$)/, '')).join('\n').trim();
}

/** Ends the bench on a wrong command line: one line naming the bench and the problem, exit code 2, no stack trace. */
export function argError(url: string, problem: string): never {
  process.stderr.write(`${benchName(url)}: ${problem} (--help lists the flags)\n`);
  process.exit(2);
}

/** parseArgs's error in one line of ours: its own messages run to several lines and say `<value>`. */
function problemOf(error: Error & { code?: string }): string {
  const what = /'([^']*)'/.exec(error.message)?.[1].replace(/ <value>$/, '');
  if (what === undefined) return error.message.split('\n')[0];
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option '${what}'`;
  if (error.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `unexpected argument '${what}'`;
  // A string flag last, or followed by another flag (parseArgs's "ambiguous"); or a boolean given `=value`.
  if (/does not take an argument/.test(error.message)) return `option '${what}' takes no value`;
  return `option '${what}' needs a value`;
}

/**
 * The bench's command line (process.argv after the script), parsed by `config` (parseArgs's
 * options and allowPositionals; strict always). `url` is the bench's import.meta.url: its file
 * gives the usage and its name. Strings stay strings, so each bench keeps its own defaults and
 * conversions; a flag with `multiple: true` gives every occurrence.
 */
export function benchArgs<T extends ParseArgsConfig>(url: string, config: T): ReturnType<typeof parseArgs<T>> {
  const args = process.argv.slice(2);
  // Looked for before parsing (up to a `--`), so that --help answers beside a wrong flag too.
  const flags = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  if (flags.includes('--help') || flags.includes('-h')) {
    process.stdout.write(`${usageOf(url)}\n`);
    process.exit(0);
  }
  try {
    return parseArgs<T>({ ...config, args, strict: true });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (!(error instanceof Error) || typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS_')) throw error;
    argError(url, problemOf(error));
  }
}
