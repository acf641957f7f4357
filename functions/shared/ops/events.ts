/**
 * The search's own EventBridge events (source eureka-serverless) sent from a handler: to the
 * default bus on AWS, or appended to the file EUREKA_EVENTS_FILE names locally (the local runtime
 * points it at <data-dir>/events.jsonl, where "Announce the winner" writes too).
 */
import { appendFile } from 'node:fs/promises';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { EVENT_ENTRY_ERROR, EVENT_ENTRY_LIMIT_BYTES } from '../../../infra/aws-quotas.ts';
import { EVENT_SOURCE } from '../../../infra/config.ts';
import { optionalEnv } from './env.ts';

interface EventEntry { Source: string; DetailType: string; Detail: string; Resources?: string[] }

/** An entry past EventBridge's 256 KB, with the error EventBridge answers (`prefix`: Step Functions' service name). */
export class EventTooLarge extends Error {
  override readonly name: string;
  constructor(readonly bytes: number, prefix = '') {
    super(`${EVENT_ENTRY_ERROR.message} (an entry of ${bytes} bytes; EventBridge takes at most ${EVENT_ENTRY_LIMIT_BYTES})`);
    this.name = `${prefix}${EVENT_ENTRY_ERROR.name}`;
  }
}

/** A PutEvents entry's size as EventBridge computes it (no Time given): Source, DetailType, Detail, Resources in UTF-8. */
export function eventEntryBytes(entry: EventEntry): number {
  const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');
  return utf8(entry.Source) + utf8(entry.DetailType) + utf8(entry.Detail) + (entry.Resources ?? []).reduce((n, r) => n + utf8(r), 0);
}

/** Throws EventTooLarge for an entry EventBridge would refuse (the local events file holds to it too). */
export function checkEventEntry(entry: EventEntry, prefix = ''): void {
  const bytes = eventEntryBytes(entry);
  if (bytes >= EVENT_ENTRY_LIMIT_BYTES) throw new EventTooLarge(bytes, prefix);
}

let client: EventBridgeClient | undefined;

export async function putEvent(detailType: string, detail: Record<string, unknown>): Promise<void> {
  const file = optionalEnv('EUREKA_EVENTS_FILE');
  const entry = { Source: EVENT_SOURCE, DetailType: detailType, Detail: JSON.stringify(detail) };
  if (file !== undefined) {
    checkEventEntry(entry);
    await appendFile(file, `${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);
    return;
  }
  client ??= new EventBridgeClient({});
  const out = await client.send(new PutEventsCommand({ Entries: [entry] }));
  if ((out.FailedEntryCount ?? 0) > 0) {
    const failed = out.Entries?.find((e) => e.ErrorCode);
    throw new Error(`EventBridge refused the "${detailType}" event: ${failed?.ErrorCode ?? 'unknown'} ${failed?.ErrorMessage ?? ''}`.trim());
  }
}
