/**
 * A search store on a real table (dynalite) and a directory for the bucket, for the suite it is
 * called in: started before its tests, closed after, the AWS environment restored.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { FsBlobStore } from '../../functions/shared/store/blob-fs.ts';
import { SearchStore } from '../../functions/shared/store/search-store.ts';
import { Table } from '../../functions/shared/store/table.ts';
import { localAwsEnv, startLocalTable, type LocalTable } from '../../local/dynalite.ts';

export function realStore(prefix: string): { store: () => SearchStore; table: () => Table } {
  let dir = '';
  let local: LocalTable;
  let store: SearchStore;
  const saved = { ...process.env };
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
    local = await startLocalTable({ dir: join(dir, 'table') });
    Object.assign(process.env, localAwsEnv(local));
    store = new SearchStore(new Table(local.tableName), new FsBlobStore(join(dir, 'bucket')));
  });
  after(async () => {
    await local.close();
    await rm(dir, { recursive: true, force: true });
    process.env = saved;
  });
  return { store: () => store, table: () => new Table(local.tableName) };
}
