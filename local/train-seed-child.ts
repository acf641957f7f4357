/**
 * A warm TrainSeed worker, as a Lambda container is one: the parent sends one invocation at a time
 * ({id, event}); this process runs the real handler and answers with the summary or the error, then
 * waits for the next. The handler itself ends the process after a sandbox memory fault (see
 * functions/train-seed/handler.ts), as it ends a Lambda container. It says `ready` once the handler's
 * modules are loaded: Lambda's Init phase, which the pool caps apart from the invocation.
 */
import { testMoment } from '../functions/shared/ops/test-hold.ts';

// A message the parent can no longer take (it was killed, not Ctrl-C'd with its process group) is an
// 'error' on this process, the handler's progress reports included: nobody is left to answer, so the
// worker ends quietly instead of with an unhandled EPIPE and a page of stack on the terminal.
process.on('error', () => process.exit(0));

// The pool test's moment (test-hold.ts): Init begun, the handler not loaded yet.
testMoment('init', 'worker');
// Imported here rather than at the top, so that the moment above comes before the handler's modules
// load; the listener below waits for them, so an invocation sent during Init is not lost.
const loading = import('../functions/train-seed/handler.ts');

process.on('message', async ({ id, event }: { id: number; event: unknown }) => {
  try {
    const { handler } = await loading;
    const summary = await handler(event);
    process.send?.({ type: 'result', id, summary });
  } catch (err) {
    const error = err instanceof Error ? err : new Error(String(err));
    process.send?.({ type: 'error', id, name: error.name, message: error.message });
  }
});
process.on('disconnect', () => process.exit(0));
await loading;
process.send?.({ type: 'ready' });
