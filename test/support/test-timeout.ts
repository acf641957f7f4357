/**
 * Every test and hook gets a timeout unless it sets its own, so that a hang fails with its name
 * instead of running to CI's limit. `npm test` loads this file with `--import` in each test file's
 * process. Node 20's `--test-timeout` cannot do it: it bounds each file as a whole and names only
 * the file (node#50431; per-test in Node 24), so `npm test` keeps it for that, as a bound on a
 * file that hangs outside any test, with `--test-force-exit` for one that leaves a handle open.
 *
 * The limit (docs/testing.md says how it was chosen): the slowest test or hook measured on the
 * 2-core machine with both cores busy, with room to spare. EUREKA_TEST_TIMEOUT_MS overrides it.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';

export const TEST_TIMEOUT_MS = Number(process.env.EUREKA_TEST_TIMEOUT_MS ?? 300_000);

type Fn = (...args: unknown[]) => unknown;
const nodeTest = createRequire(import.meta.url)('node:test') as Record<string, Fn>;

/** test(name?, options?, fn?) and it(...): a timeout added to the options when they have none. */
function withTestTimeout(original: Fn): Fn {
  const wrapped = (...args: unknown[]) => {
    const at = args.findIndex((a) => typeof a === 'object' && a !== null);
    if (at === -1) args.splice(typeof args[0] === 'string' ? 1 : 0, 0, { timeout: TEST_TIMEOUT_MS });
    else args[at] = { timeout: TEST_TIMEOUT_MS, ...(args[at] as object) };
    return original(...args);
  };
  // it.skip, it.todo, it.only keep their own behaviour.
  return Object.assign(wrapped, original);
}

/** before(fn, options?) and the other hooks. */
function withHookTimeout(original: Fn): Fn {
  return (fn: unknown, options?: unknown) => original(fn, { timeout: TEST_TIMEOUT_MS, ...(options as object | undefined) });
}

for (const name of ['test', 'it']) nodeTest[name] = withTestTimeout(nodeTest[name]);
for (const name of ['before', 'after', 'beforeEach', 'afterEach']) nodeTest[name] = withHookTimeout(nodeTest[name]);
// ES modules' `import { it } from 'node:test'` read the built-in's exports: bring them up to date.
syncBuiltinESMExports();
