/**
 * `eureka feedback ID`: answer a search that waits for a person ("Wait for feedback"): the task
 * token stored in its table goes back with SendTaskSuccess (@aws-sdk/client-sfn), the answer as the
 * token's output. With --stack, to Step Functions on AWS; without, to the search running in
 * --data-dir (local/feedback-wait.ts serves SendTaskSuccess while it waits).
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { SendTaskSuccessCommand, SFNClient } from '@aws-sdk/client-sfn';
import { z } from 'zod';
import type { FeedbackAnswer } from '../../functions/shared/search/contracts.ts';
import type { FeedbackRecord } from '../../functions/shared/store/records.ts';
import { SearchStore } from '../../functions/shared/store/search-store.ts';
import { Table } from '../../functions/shared/store/table.ts';
import { S3BlobStore } from '../../functions/shared/store/blob-s3.ts';
import { parseFlags, UsageError } from '../flags.ts';
import { FEEDBACK_ENDPOINT_FILE } from '../feedback-wait.ts';
import { withLocalStore } from '../runtime.ts';
import { explainAws, stackOutputs } from '../stack-outputs.ts';

const FeedbackFlags = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,80}$/, { error: 'must be a search id' }),
  text: z.string().trim().min(1, { error: 'must not be empty' }).max(4000, { error: 'must be at most 4000 characters' }).optional(),
  continue: z.boolean().default(false),
  stop: z.boolean().default(false),
  stack: z.string().min(1).optional(),
  dataDir: z.string().default('.eureka'),
  json: z.boolean().default(false),
});

type Flags = z.infer<typeof FeedbackFlags>;

export async function feedbackCommand(raw: unknown): Promise<void> {
  const flags = parseFlags(FeedbackFlags, raw);
  const answer = answerOf(flags);
  const answered = flags.stack === undefined
    ? await answerLocally(flags.dataDir, flags.id, answer)
    : await answerOnAws(flags.stack, flags.id, answer);
  const what = answer.action === 'stop' ? 'the search goes to the fresh seeds with the best so far' : 'the search goes on';
  if (flags.json) process.stdout.write(`${JSON.stringify({ searchId: flags.id, generation: answered.generation, ...answer })}\n`);
  else process.stdout.write(`answered the pause after generation ${answered.generation} of ${flags.id}: ${what}${answer.text ? ', your words in the next prompt' : ''}\n`);
}

function answerOf(flags: Flags): FeedbackAnswer {
  if (flags.continue && flags.stop) throw new UsageError('--continue and --stop: give one of them');
  if (!flags.continue && !flags.stop && flags.text === undefined) throw new UsageError('give --text "...", --continue or --stop');
  return { action: flags.stop ? 'stop' : 'continue', ...(flags.text === undefined ? {} : { text: flags.text }) };
}

/**
 * The search's open pause, answered: `send` hands the answer to the paused execution, and that is
 * all. Nothing is written to the table here: the execution resumes the moment the token arrives,
 * and the search itself keeps the copy that `eureka show` and the card read (Propose, or Finish
 * early after a "stop"), so the answer never waits on a write that could come too late.
 */
async function answerPause(store: SearchStore, searchId: string, send: (pause: FeedbackRecord) => Promise<void>): Promise<FeedbackRecord> {
  await store.meta(searchId).catch(() => { throw new UsageError(`no search ${searchId}`); });
  const pauses = await store.feedbacks(searchId);
  const open = pauses.filter((p) => !p.answer).at(-1);
  if (!open) {
    const last = pauses.at(-1);
    throw new UsageError(last
      ? `search ${searchId} is not waiting for feedback: its last pause, after generation ${last.generation}, was answered`
      : `search ${searchId} is not waiting for feedback (start it with feedback "wait" to be asked)`);
  }
  if (Date.parse(open.deadline) <= Date.now()) {
    throw new UsageError(`the pause after generation ${open.generation} of ${searchId} timed out at ${open.deadline}: the search went on by itself`);
  }
  await send(open);
  return open;
}

/** The token's output: the answer and the generation it answers. */
const tokenOutput = (pause: FeedbackRecord, answer: FeedbackAnswer): string => JSON.stringify({ ...answer, generation: pause.generation });

async function answerLocally(dataDir: string, searchId: string, answer: FeedbackAnswer): Promise<FeedbackRecord> {
  return withLocalStore(dataDir, (store) => answerPause(store, searchId, async (pause) => {
    const endpoint = (await readFile(join(resolve(dataDir), FEEDBACK_ENDPOINT_FILE), 'utf8').catch(() => '')).trim();
    if (endpoint === '') throw new UsageError(`search ${searchId} is not running in ${dataDir}: resume it (eureka search --resume ${searchId}) to be asked again`);
    const sfn = new SFNClient({ endpoint });
    try {
      await sfn.send(new SendTaskSuccessCommand({ taskToken: pause.token, output: tokenOutput(pause, answer) }));
    } catch (err) {
      throw tokenRefused(err, searchId) ?? err;
    } finally {
      sfn.destroy();
    }
  }));
}

/** A token that can no longer be answered, in words; undefined for any other error. */
function tokenRefused(err: unknown, searchId: string): UsageError | undefined {
  const e = err as Error;
  if (e.name === 'TaskTimedOut' || e.name === 'TaskDoesNotExist' || e.name === 'InvalidToken') {
    return new UsageError(`the pause of ${searchId} can no longer be answered (${e.name}): it timed out or the execution ended`);
  }
  return undefined;
}

async function answerOnAws(stack: string, searchId: string, answer: FeedbackAnswer): Promise<FeedbackRecord> {
  try {
    const { tableName, bucketName } = await stackOutputs(stack, ['tableName', 'bucketName']);
    const store = new SearchStore(new Table(tableName), new S3BlobStore(bucketName));
    const sfn = new SFNClient({});
    return await answerPause(store, searchId, async (pause) => {
      await sfn.send(new SendTaskSuccessCommand({ taskToken: pause.token, output: tokenOutput(pause, answer) }));
    });
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw tokenRefused(err, searchId) ?? explainAws(err, stack, 'could not answer the search');
  }
}
