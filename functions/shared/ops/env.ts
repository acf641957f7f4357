/**
 * Environment variables, read once where a module starts and failing fast with a message that
 * says what to set. An empty value counts as unset.
 */

export class MissingEnvironment extends Error {
  override readonly name = 'MissingEnvironment';
}

/** The variable's value, or undefined when it is unset or empty. */
export function optionalEnv(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
}

/**
 * The variable's value; throws MissingEnvironment when it is unset or empty.
 * @param hint what the variable is for, appended to the error message
 */
export function requireEnv(name: string, hint?: string): string {
  const value = optionalEnv(name);
  if (value === undefined) {
    throw new MissingEnvironment(`Environment variable ${name} is not set${hint ? `: ${hint}` : ''}`);
  }
  return value;
}
