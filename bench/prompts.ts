/**
 * Prints the prompts a stored search's model was (or would have been) asked, rebuilt from the
 * store exactly as "Propose rewards" builds them, with their size at the project's estimate of
 * one token per 3 characters (model-answer.ts's worst case; prompts here run 3.5 to 4).
 *
 *   npx tsx bench/prompts.ts --data-dir DIR --search ID [--generation N ...]
 */
import { buildPrompt } from '../functions/propose/prompt.ts';
import { proposeContext } from '../functions/propose/propose.ts';
import { withLocalStore } from '../local/runtime.ts';
import { argError, benchArgs } from './args.ts';

const { values } = benchArgs(import.meta.url, { options: { 'data-dir': { type: 'string' }, search: { type: 'string' }, generation: { type: 'string', multiple: true } } });
const dataDir = values['data-dir'];
const searchId = values.search;
if (dataDir === undefined || searchId === undefined) argError(import.meta.url, 'needs --data-dir DIR --search ID');
const generations = (values.generation ?? ['1', '2']).map(Number);

await withLocalStore(dataDir, async (store) => {
  const meta = await store.meta(searchId);
  for (const generation of generations) {
    const prompt = buildPrompt(await proposeContext(store, meta, searchId, generation));
    const chars = prompt.system.length + prompt.user.length;
    process.stdout.write(`===== generation ${generation}: ${chars} characters, about ${Math.ceil(chars / 3)} tokens (1 per 3 characters)\n`);
    process.stdout.write(`----- system\n${prompt.system}\n----- user\n${prompt.user}\n`);
  }
});
