/**
 * `eureka train --remote` and `eureka check-reward --remote`: the same seed-run (or sandbox
 * check) on the deployed TrainSeed function. The reward is uploaded where TrainSeed may read it
 * (searches/<id>/...), the function is invoked with @aws-sdk/client-lambda exactly as the state
 * machine invokes it, and the result it stored is read back, so the output is the local one.
 */
import { randomBytes } from 'node:crypto';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { S3BlobStore } from '../functions/shared/store/blob-s3.ts';
import { checkKey, rewardKey, seedResultKey } from '../functions/shared/store/keys.ts';
import type { Budget, CheckItem, CheckRecord, ChunkAnswer, SeedResult, SeedTask } from '../functions/shared/search/types.ts';
import { explainAws, stackOutputs } from './stack-outputs.ts';

/** The candidate id the uploaded reward gets: one per command run. */
const CANDIDATE = 'remote-reward';

export class RemoteFailure extends Error {
  override readonly name: string = 'RemoteFailure';
}

interface Remote {
  functionName: string;
  blobs: S3BlobStore;
  searchId: string;
}

async function connect(stack: string, source: string): Promise<Remote> {
  const { trainSeedFunctionName, bucketName } = await stackOutputs(stack, ['trainSeedFunctionName', 'bucketName']);
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const remote = { functionName: trainSeedFunctionName, blobs: new S3BlobStore(bucketName), searchId: `remote-${stamp}-${randomBytes(3).toString('hex')}` };
  await remote.blobs.put(rewardKey(remote.searchId, 1, CANDIDATE), source, 'text/javascript');
  return remote;
}

/**
 * One seed-run on the deployed function, invoked chunk after chunk as "Train one seed" invokes it
 * (each invocation trains one chunk, the task's own size unless chunkSteps says); the SeedResult it stored.
 */
export async function trainRemotely(stack: string, task: string, source: string, seed: number, budget: Budget, chunkSteps?: number): Promise<SeedResult> {
  return onStack(stack, async () => {
    const remote = await connect(stack, source);
    const item = { searchId: remote.searchId, task, generation: 1, candidateId: CANDIDATE, seed, budget, ...(chunkSteps === undefined ? {} : { chunkSteps }) };
    for (let answer = await invoke(remote, item); !(answer as ChunkAnswer).done; answer = await invoke(remote, item));
    return readJson<SeedResult>(remote, seedResultKey(item.searchId, 1, CANDIDATE, seed));
  });
}

/** The sandbox check on the deployed function; the CheckRecord it stored. */
export async function checkRemotely(stack: string, task: string, source: string): Promise<CheckRecord> {
  return onStack(stack, async () => {
    const remote = await connect(stack, source);
    const item: CheckItem = { kind: 'check', searchId: remote.searchId, task, generation: 1, candidateId: CANDIDATE };
    await invoke(remote, item);
    return readJson<CheckRecord>(remote, checkKey(item.searchId, 1, CANDIDATE));
  });
}

/**
 * A TrainSeed process that hosted a sandbox memory fault stores its result and exits before it
 * answers (functions/train-seed/handler.ts); Lambda reports Runtime.ExitError. The state machine
 * retries that error (RETIRED_PROCESS_ERRORS in infra/workflow-names.ts, twice), and so does this:
 * the retry lands on a fresh container and returns the stored result.
 */
const RETIRED_PROCESS_ERROR = 'Runtime.ExitError';
const RETIRED_PROCESS_RETRIES = 2;

async function invoke(remote: Remote, payload: Omit<SeedTask, 'targetSteps' | 'chunkSteps'> | CheckItem): Promise<unknown> {
  for (let retries = 0; ; retries++) {
    try {
      return await invokeOnce(remote, payload);
    } catch (err) {
      if (!(err instanceof FunctionFailed && err.errorType === RETIRED_PROCESS_ERROR && retries < RETIRED_PROCESS_RETRIES)) throw err;
    }
  }
}

/** The function answered with an error: what the state machine would see as the Task's error. */
class FunctionFailed extends RemoteFailure {
  override readonly name = 'FunctionFailed';
  constructor(message: string, readonly errorType: string) {
    super(message);
  }
}

async function invokeOnce(remote: Remote, payload: Omit<SeedTask, 'targetSteps' | 'chunkSteps'> | CheckItem): Promise<unknown> {
  const out = await new LambdaClient({}).send(new InvokeCommand({
    FunctionName: remote.functionName, InvocationType: 'RequestResponse', Payload: new TextEncoder().encode(JSON.stringify(payload)),
  }));
  if (out.FunctionError) {
    const body = out.Payload ? new TextDecoder().decode(out.Payload) : '';
    let error: { errorType?: string; errorMessage?: string } = {};
    try {
      error = JSON.parse(body) as typeof error;
    } catch {
      error = { errorMessage: body };
    }
    // What the state machine would record: a Lambda out of memory or time is an outcome.
    const errorType = error.errorType ?? 'Error';
    throw new FunctionFailed(`${remote.functionName} failed (${out.FunctionError}): ${errorType}: ${error.errorMessage ?? 'no message'}`, errorType);
  }
  return out.Payload ? JSON.parse(new TextDecoder().decode(out.Payload)) as unknown : null;
}

async function readJson<T>(remote: Remote, key: string): Promise<T> {
  const text = await remote.blobs.getText(key);
  if (text === undefined) throw new RemoteFailure(`${remote.functionName} answered, but ${key} is not in ${remote.blobs.location}`);
  return JSON.parse(text) as T;
}

async function onStack<T>(stack: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof RemoteFailure) throw err;
    throw explainAws(err, stack, 'could not run on the deployed function');
  }
}
