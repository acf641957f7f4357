/**
 * One TrainSeed invocation in its own process, as a Lambda would run it: the parent sends the
 * task, this process runs the real handler and sends back the summary (or the error), then exits.
 */
import { handler } from '../functions/train-seed/handler.ts';

process.once('message', async (task: unknown) => {
  try {
    const summary = await handler(task);
    process.send?.({ type: 'result', summary });
  } catch (err) {
    const error = err instanceof Error ? err : new Error(String(err));
    process.send?.({ type: 'error', name: error.name, message: error.message });
  } finally {
    process.disconnect();
  }
});
