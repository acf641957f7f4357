/**
 * The local table: dynalite (the DynamoDB API on LevelDB) in this process, on a free loopback
 * port, persisted under a directory. Handlers reach it the way they reach DynamoDB on AWS, through
 * the SDK's standard environment (`localAwsEnv`), so nothing in functions/ knows it is local.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';

export interface LocalTable {
  /** `http://127.0.0.1:<port>`, for AWS_ENDPOINT_URL_DYNAMODB. */
  endpoint: string;
  tableName: string;
  /** Stops the server and closes the LevelDB store, releasing the directory for the next start. */
  close(): Promise<void>;
}

export interface LocalTableOptions {
  /** Directory of the LevelDB store; created if missing. */
  dir: string;
  /** @default 'eureka-searches' */
  tableName?: string;
  /** Loopback port. @default 0 (any free port) */
  port?: number;
  /** How long to wait for the table to become ACTIVE. @default 10_000 */
  activeTimeoutMs?: number;
}

/** dynalite ships no types: the part of it used here. */
type Dynalite = (options: { path?: string; createTableMs?: number }) => Server;
const dynalite = createRequire(import.meta.url)('dynalite') as Dynalite;

/** Region and credentials the SDK insists on; dynalite checks neither. */
const LOCAL_REGION = 'us-east-1';
const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

const PID_FILE = 'eureka-dynalite.pid';
const ENDPOINT_FILE = 'eureka-dynalite.endpoint';

/**
 * The table of a directory: the server of the process that holds it (a search that is running,
 * found through its endpoint file), or a server of our own when none does.
 */
export async function openLocalTable(options: LocalTableOptions): Promise<LocalTable> {
  const holder = Number.parseInt(await readFile(join(options.dir, PID_FILE), 'utf8').catch(() => ''), 10);
  const endpoint = (await readFile(join(options.dir, ENDPOINT_FILE), 'utf8').catch(() => '')).trim();
  if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder) && endpoint !== '') {
    return { endpoint, tableName: options.tableName ?? 'eureka-searches', close: async () => {} };
  }
  return startLocalTable(options);
}

export async function startLocalTable(options: LocalTableOptions): Promise<LocalTable> {
  const tableName = options.tableName ?? 'eureka-searches';
  await mkdir(options.dir, { recursive: true });
  const unlock = await lockDirectory(options.dir);
  // createTableMs 0: a table left CREATING by a process killed right after CreateTable is rare.
  const server = dynalite({ path: options.dir, createTableMs: 0 });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
    });
  } catch (error) {
    await unlock();
    throw error;
  }
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Where another process (eureka feedback, eureka show) reaches the table while this one runs.
  await writeFile(join(options.dir, ENDPOINT_FILE), `${endpoint}\n`);
  const close = async (): Promise<void> => {
    await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    await rm(join(options.dir, ENDPOINT_FILE), { force: true });
    await unlock();
  };

  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  try {
    await ensureTable(client, tableName, options.activeTimeoutMs ?? 10_000);
  } catch (error) {
    await close();
    throw error;
  } finally {
    client.destroy();
  }
  return { endpoint, tableName, close };
}

/**
 * The environment that points the AWS SDK (and so the handlers, in this process or a child) at
 * the local table: the standard per-service endpoint variable, a region and dummy credentials.
 */
export function localAwsEnv(table: Pick<LocalTable, 'endpoint' | 'tableName'>): Record<string, string> {
  return {
    AWS_ENDPOINT_URL_DYNAMODB: table.endpoint,
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    EUREKA_TABLE: table.tableName,
  };
}

/**
 * One server per directory. A second dynalite on a LevelDB store another one holds does not fail
 * cleanly: it throws "Database is closed" from a callback and takes the whole process down. So a
 * pid file claims the directory first; one left by a process that is gone is taken over.
 */
async function lockDirectory(dir: string): Promise<() => Promise<void>> {
  const pidFile = join(dir, PID_FILE);
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFile(pidFile, `${process.pid}\n`, { flag: 'wx' });
      return () => rm(pidFile, { force: true });
    } catch (error) {
      if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST') || attempt > 0) throw error;
    }
    const holder = Number.parseInt(await readFile(pidFile, 'utf8').catch(() => ''), 10);
    if (Number.isInteger(holder) && isAlive(holder)) {
      throw new Error(`The local table in ${dir} is already open in process ${holder}; stop it first`);
    }
    await rm(pidFile, { force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}

async function ensureTable(client: DynamoDBClient, tableName: string, timeoutMs: number): Promise<void> {
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        AttributeDefinitions: [
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error; // it exists: reuse it
  }
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await client
      .send(new DescribeTableCommand({ TableName: tableName }))
      .then((out) => out.Table?.TableStatus)
      .catch((error: unknown) => {
        if (error instanceof ResourceNotFoundException) return undefined;
        throw error;
      });
    if (status === 'ACTIVE') return;
    if (Date.now() > deadline) {
      throw new Error(`Local table ${tableName} is still ${status ?? 'missing'} after ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
