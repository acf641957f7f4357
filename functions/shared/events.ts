/**
 * The search's own EventBridge events (source eureka-serverless) sent from a handler: to the
 * default bus on AWS, or appended to the file EUREKA_EVENTS_FILE names locally (the local runtime
 * points it at <data-dir>/events.jsonl, where "Announce the winner" writes too).
 */
import { appendFile } from 'node:fs/promises';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { EVENT_SOURCE } from '../../infra/config.ts';
import { optionalEnv } from './env.ts';

let client: EventBridgeClient | undefined;

export async function putEvent(detailType: string, detail: Record<string, unknown>): Promise<void> {
  const file = optionalEnv('EUREKA_EVENTS_FILE');
  const entry = { Source: EVENT_SOURCE, DetailType: detailType, Detail: JSON.stringify(detail) };
  if (file !== undefined) {
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
