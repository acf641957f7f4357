/** CLI flags validated with zod at the boundary: a bad flag is one line that names it. */
import { z } from 'zod';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Parses commander's option values against a schema; the error names the flag and says why. */
export function parseFlags<T extends z.ZodType>(schema: T, raw: unknown): z.infer<T> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const flag = issue.path.length > 0 ? `--${kebab(String(issue.path[0]))}` : 'arguments';
    return `${flag}: ${issue.message}`;
  });
  throw new UsageError(problems.join('; '));
}

/** An integer flag given as text; `min`/`max` bound it. */
export function intFlag(min: number, max: number) {
  return z.coerce
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(min, { error: `must be at least ${min}` })
    .max(max, { error: `must be at most ${max}` });
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
