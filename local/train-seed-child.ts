/**
 * A warm TrainSeed worker, as a Lambda container is one: the parent sends one invocation at a time
 * ({id, event}); this process runs the real handler and answers with the summary or the error, then
 * waits for the next. The handler itself ends the process after a sandbox memory fault (see
 * functions/train-seed/handler.ts), as it ends a Lambda container. It says `ready` once the handler's
 * modules are loaded: Lambda's Init phase, which an invocation's timeout does not count.
 */
import { handler } from '../functions/train-seed/handler.ts';

process.on('message', async ({ id, event }: { id: number; event: unknown }) => {
  try {
    const summary = await handler(event);
    process.send?.({ type: 'result', id, summary });
  } catch (err) {
    const error = err instanceof Error ? err : new Error(String(err));
    process.send?.({ type: 'error', id, name: error.name, message: error.message });
  }
});
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'ready' });
