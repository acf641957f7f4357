/**
 * One real search on the local runtime (the definition, the handlers, TrainSeed's workers) in a
 * data directory of its own, for test/history-bound-runs.test.ts: prints the search's validated
 * settings, the history events the runtime counted (META's `history`) and what ran (per generation:
 * the candidates, the failed checks, the repaired, the rungs; the pauses), as one JSON line. A
 * process of its own per search, since the handlers read the table's endpoint once when they load.
 *
 *   node --import tsx test/support/history-search.ts '{"task": "MountainCar-v0", ...}'
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPAIRED_SUFFIX } from '../../functions/propose/repair.ts';
import { runLocalSearch, withLocalStore } from '../../local/runtime.ts';

const input = JSON.parse(process.argv[2] ?? '{}') as Record<string, unknown>;
const dataDir = await mkdtemp(join(tmpdir(), 'eureka-history-'));
try {
  await runLocalSearch({ dataDir, executionName: 'history', input });
  const ran = await withLocalStore(dataDir, async (store) => {
    const meta = await store.meta('history');
    const generations = await Promise.all(Array.from({ length: meta.config.generations }, async (_, i) => {
      const [candidates, race] = await Promise.all([store.candidates('history', i + 1), store.race('history', i + 1)]);
      return {
        candidates: candidates.length,
        failedChecks: candidates.filter((c) => c.check !== null && c.check.verdict !== 'ok').length,
        repaired: candidates.filter((c) => c.candidateId.endsWith(REPAIRED_SUFFIX)).length,
        rungs: race?.rungs.length ?? 0,
      };
    }));
    return { config: meta.config, history: meta.history, generations, pauses: (await store.feedbacks('history')).length };
  });
  process.stdout.write(`${JSON.stringify(ran)}\n`);
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
