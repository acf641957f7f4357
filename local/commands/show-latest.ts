/**
 * Which local search `eureka show` shows without an id, and what a `running` one is here
 * (local/search-process.ts): the latest search that finished or is running. A later one whose
 * process is gone (stopped) or whose execution failed is not "the latest" to show in its place:
 * a line on stderr names it and how to continue it. With none finished or running, the latest
 * one, with its state.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { SearchStore } from '../../functions/shared/store/search-store.ts';
import { UsageError } from '../flags.ts';
import { withLocalStore } from '../runtime.ts';
import { localState } from '../search-process.ts';

/** What `eureka show` calls a search: the table's status, or what became of a `running` one here. */
export type ShownStatus = 'running' | 'finished' | 'stopped' | 'failed';

export interface LocalStatus {
  status: ShownStatus;
  /** For stopped and failed: what happened and how to go on, in one line. */
  detail: string | null;
}

/** The status a local search shows: a `running` one whose process is gone is `stopped`. */
export async function localStatus(dataDir: string, searchId: string, tableStatus: string): Promise<LocalStatus> {
  if (tableStatus !== 'running') return { status: tableStatus === 'finished' ? 'finished' : 'running', detail: null };
  const here = await localState(dataDir, searchId);
  const resume = `eureka search --resume ${searchId} --data-dir ${dataDir}`;
  if (here.state === 'stopped') return { status: 'stopped', detail: `stopped: the process that ran it is gone (killed or closed); ${resume} continues it` };
  if (here.state === 'failed') return { status: 'failed', detail: `failed: ${here.reason}; ${resume} tries again from where it stopped` };
  return { status: 'running', detail: null };
}

/** The search a bare `eureka show` shows, and the later ones it passed over, with why (stderr). */
export async function latestSearch(dataDir: string): Promise<string> {
  const ids = await readdir(join(dataDir, 'bucket', 'searches')).catch(() => [] as string[]);
  if (ids.length === 0) throw new UsageError(`no searches in ${dataDir}: run eureka search first`);
  const searches = await withLocalStore(dataDir, (store: SearchStore) => Promise.all(ids.map(async (id) => {
    const meta = await store.meta(id).catch(() => undefined);
    return { id, startedAt: meta?.startedAt ?? '', tableStatus: meta?.status ?? 'running' };
  })));
  searches.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  const passedOver: string[] = [];
  for (const search of searches) {
    const { status, detail } = await localStatus(dataDir, search.id, search.tableStatus);
    if (status === 'finished' || status === 'running') {
      for (const line of passedOver) process.stderr.write(`eureka: showing ${search.id}, the latest search that ${status === 'finished' ? 'finished' : 'is running'}; ${line}\n`);
      return search.id;
    }
    passedOver.push(`${search.id}, started later, ${detail}`);
  }
  return searches[0].id;
}
