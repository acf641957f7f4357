/**
 * The interim card: the search so far, written after every generation (so a person can watch a
 * running search) and again when it pauses for feedback. The best so far is shown as the final card
 * shows the winner, from the search's own seeds: its greedy episode, its curves, its terms.
 */
import { interimCardKey } from '../shared/store/keys.ts';
import type { SearchStore } from '../shared/store/search-store.ts';
import { renderCardHtml } from '../shared/card/card-html.ts';
import { assembleCard } from '../shared/card/assemble-card.ts';

/** Writes the card after `generation`; returns its key, or '' when nothing has trained yet. */
export async function writeInterimCard(store: SearchStore, searchId: string, generation: number, waiting: boolean): Promise<string> {
  if (!(await store.meta(searchId)).best) return '';
  const key = interimCardKey(searchId, generation);
  const { card } = await assembleCard(store, searchId, [], new Date().toISOString(), waiting);
  if (card.winner === null) return '';
  await store.blobs.put(key, renderCardHtml(card), 'text/html');
  return key;
}
