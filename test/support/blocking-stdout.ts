/**
 * Makes this test file's stdout blocking, so that `--test-force-exit` cannot drop its last results.
 * Each test file's process streams its results to the runner over a pipe, and on Linux a pipe's
 * writes are asynchronous: the process.exit() of a forced exit could quit with the last frames
 * still buffered, and the runner then counted fewer tests, exit 0 (node#64833, open; seen here as
 * test/card.test.ts's last 1 to 11 tests missing from some runs, without a failure). A blocking
 * handle writes each frame before the next line of the file runs, as Node does for a TTY.
 */
const handle = (process.stdout as unknown as { _handle?: { setBlocking?: (blocking: boolean) => void } })._handle;
handle?.setBlocking?.(true);
