/**
 * "Wait for feedback" on this machine, with a task token as on AWS. aws-local-stepfunctions has no
 * task tokens: it runs a Task state's local handler and waits for its promise, racing the state's
 * TimeoutSecondsPath. So the handler here is the pause: it runs the reflect function's 'feedback'
 * kind (record, interim card, event), then answers Step Functions' SendTaskSuccess on a loopback
 * port (its address in <data-dir>/feedback.endpoint) until `eureka feedback` sends the pause's
 * token back. As on AWS, the answer is the Task's output and the execution resumes the moment it
 * arrives: nothing is written to the table on the way, so the local runs see what AWS does. Past
 * the deadline the pause fails with States.Timeout, as on AWS.
 */
import { rm, writeFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { FeedbackAnswer, FeedbackEvent } from '../functions/shared/search/contracts.ts';
import type { FeedbackRecord } from '../functions/shared/store/records.ts';
import type { SearchStore } from '../functions/shared/store/search-store.ts';

/** Where a running search's pause takes SendTaskSuccess, under its data directory. */
export const FEEDBACK_ENDPOINT_FILE = 'feedback.endpoint';

type Handler = (event: unknown) => Promise<unknown>;

export interface Waiting {
  searchId: string;
  generation: number;
  deadline: string;
  cardKey: string;
}

export function localFeedbackWait(askForFeedback: Handler, store: () => SearchStore, onWaiting: (w: Waiting) => void): Handler {
  return async (input) => {
    // lambda:invoke.waitForTaskToken hands the function {FunctionName, Payload}.
    const event = (input as { Payload: FeedbackEvent }).Payload;
    await askForFeedback(event);
    const asked = await store().feedback(event.searchId, event.generation);
    if (asked === undefined) throw new Error(`generation ${event.generation}'s pause was not recorded`);
    // Answered before (a resumed search that comes back to this pause): the answer stands.
    if (asked.answer) return answerOf(asked, asked.answer);
    const dataDir = process.env.EUREKA_DATA_DIR;
    if (!dataDir) throw new Error('EUREKA_DATA_DIR is not set: the local runtime sets it');
    const pause = await openTokenEndpoint(event.token, asked, join(dataDir, FEEDBACK_ENDPOINT_FILE));
    onWaiting({ searchId: event.searchId, generation: event.generation, deadline: asked.deadline, cardKey: asked.cardKey });
    try {
      return await pause.answer;
    } finally {
      await pause.close();
    }
  };
}

function answerOf(pause: FeedbackRecord, answer: NonNullable<FeedbackRecord['answer']>): FeedbackAnswer {
  return { action: answer.action, ...(answer.text === undefined ? {} : { text: answer.text }), generation: pause.generation };
}

interface TokenEndpoint {
  /** SendTaskSuccess's output; rejects with States.Timeout at the pause's deadline. */
  answer: Promise<unknown>;
  close(): Promise<void>;
}

/** A loopback server that speaks the one call of the Step Functions API a person makes: SendTaskSuccess. */
async function openTokenEndpoint(token: string, pause: FeedbackRecord, file: string): Promise<TokenEndpoint> {
  let settled = false;
  let resolve!: (output: unknown) => void;
  let reject!: (error: Error) => void;
  const answer = new Promise<unknown>((res, rej) => { resolve = res; reject = rej; });
  answer.catch(() => {});
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.headers['x-amz-target'] !== 'AWSStepFunctions.SendTaskSuccess') return fail(res, 'UnknownOperationException', 'only SendTaskSuccess is served here');
      let body: { taskToken?: unknown; output?: unknown };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
      } catch {
        return fail(res, 'InvalidOutput', 'the request is not JSON');
      }
      if (body.taskToken !== token) return fail(res, 'InvalidToken', 'not the token of this pause');
      if (settled) return fail(res, 'TaskTimedOut', `the pause after generation ${pause.generation} is over`);
      let output: unknown;
      try {
        output = JSON.parse(String(body.output));
      } catch {
        return fail(res, 'InvalidOutput', 'output is not JSON');
      }
      // The execution resumes first; the caller hears back after.
      settled = true;
      resolve(output);
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      res.end('{}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  await writeFile(file, `http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
  const timer = setTimeout(() => {
    settled = true;
    reject(Object.assign(new Error(`nobody answered generation ${pause.generation}'s feedback in time`), { name: 'States.Timeout' }));
  }, Math.max(0, Date.parse(pause.deadline) - Date.now()));
  return {
    answer,
    async close() {
      clearTimeout(timer);
      await rm(file, { force: true });
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

function fail(res: ServerResponse, type: string, message: string): void {
  res.writeHead(400, { 'content-type': 'application/x-amz-json-1.0' });
  res.end(JSON.stringify({ __type: type, message }));
}
