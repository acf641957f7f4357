/** `eureka bank --task ID`: make the task's bank of episodes for the screen and store it in the task's folder. */
import { z } from 'zod';
import { getTask } from '../../tasks/registry.ts';
import { bankFile, writeBank } from '../../tasks/bank-file.ts';
import { addPolicySuccesses } from '../bank-add.ts';
import { makeBank } from '../bank-make.ts';
import { intFlag, parseFlags } from '../flags.ts';
import { taskFlag } from '../task-flag.ts';

const BankFlags = z.object({
  task: taskFlag(),
  /** Seed-runs of the baseline that gives the successes (the person's shaping unless the task says), seeds 0..N-1. */
  seeds: intFlag(0, 10).default(3),
  starts: intFlag(1, 20).default(4),
  /** Default: bank.json.gz in the task's folder, where the screen reads it. */
  out: z.string().min(1).optional(),
  /** A stored policy folder (a search winner's policy/) whose successes are added to the stored bank, training nothing. */
  addPolicy: z.string().min(1).optional(),
  name: z.string().regex(/^[a-z][a-z0-9-]{0,30}$/, { error: 'must be a kebab-case name' }).optional(),
  words: z.string().trim().min(1).optional(),
  json: z.boolean().default(false),
});

export async function bankCommand(raw: unknown): Promise<void> {
  const flags = parseFlags(BankFlags, raw);
  const task = getTask(flags.task);
  const seeds = Array.from({ length: flags.seeds }, (_, i) => i);
  const onSeed = (seed: number, r: { outcome: string; reason: string; success: number; wallSeconds: number }, trained: string) =>
    process.stderr.write(`${trained}, seed ${seed}: ${r.outcome}${r.reason ? ` (${r.reason})` : ''}, greedy success ${r.success.toFixed(2)} (${r.wallSeconds.toFixed(1)} s)\n`);
  const { bank, made } = flags.addPolicy === undefined
    ? await makeBank(task, { seeds, starts: flags.starts, onSeed })
    : await addPolicySuccesses(task, flags.addPolicy, { starts: flags.starts, name: flags.name, words: flags.words });
  const file = flags.out ?? bankFile(task);
  const bytes = writeBank(file, bank, made);
  const counts = bank.policies.map((p) => ({ ...p, episodes: bank.episodes.filter((e) => e.policy === p.name).length }));
  const steps = bank.episodes.reduce((n, e) => n + e.length, 0);
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ task: task.id, file, bytes, episodes: bank.episodes.length, steps, policies: counts })}\n`);
    return;
  }
  const lines = [`${file}: ${bank.episodes.length} episodes, ${steps} steps, ${(bytes / 1024).toFixed(1)} KiB`];
  for (const p of counts) lines.push(`  ${p.kind} ${p.name}: ${p.episodes} (${p.words})`);
  // A greedy success on some seed does not promise one from the bank's own starts: say what that leaves.
  if (!bank.episodes.some((e) => e.kind === 'success')) {
    lines.push(`no success: no policy played an episode that passes ${task.id}'s success test from the bank's starts, so the screen can rank only failures ` +
      `(eureka bank --task ${task.id} --add-policy DIR adds a search winner's successes)`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
