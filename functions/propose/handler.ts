/** Propose: one generation's candidate rewards, asked for once and cached in the table. */
import { z } from 'zod';
import type { ProposeResult } from '../shared/contracts.ts';
import { SearchStore } from '../shared/search-store.ts';
import { propose } from './propose.ts';
import { createProposer } from './proposers.ts';

const store = SearchStore.fromEnv();

const ProposeEventSchema = z.object({
  searchId: z.string().min(1),
  generation: z.number().int().min(1),
});

export async function handler(event: unknown): Promise<ProposeResult> {
  return propose(store, ProposeEventSchema.parse(event), createProposer);
}
