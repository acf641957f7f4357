/**
 * A warm TrainSeed worker, as a Lambda container is one: the parent sends one invocation at a time
 * ({id, event}); this process runs the real handler and answers with the summary or the error, then
 * waits for the next. The handler itself ends the process after a sandbox memory fault (see
 * functions/train-seed/handler.ts), as it ends a Lambda container. It says `ready` once the handler's
 * modules are loaded: Lambda's Init phase, which an invocation's timeout does not count.
 */
import { handler } from '../functions/train-seed/handler.ts';

/** A message to the parent; with the parent gone there is nobody to answer, and the worker ends quietly. */
const answer = (message: object) => process.send?.(message, undefined, undefined, (err) => {
  if (err) process.exit(0);
});

process.on('message', async ({ id, event }: { id: number; event: unknown }) => {
  try {
    const summary = await handler(event);
    answer({ type: 'result', id, summary });
  } catch (err) {
    const error = err instanceof Error ? err : new Error(String(err));
    answer({ type: 'error', id, name: error.name, message: error.message });
  }
});
process.on('disconnect', () => process.exit(0));
answer({ type: 'ready' });
