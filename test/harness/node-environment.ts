/**
 * Jest's own Node environment (jest-environment-node), with one change to how a Jest worker process
 * ends.
 *
 * At the end of a run Jest asks each worker to stop and waits 500 ms before killing it, printing "A
 * worker process has failed to exit gracefully" when it had to. A worker whose work is done ends
 * naturally once its event loop is empty, and Node then tears its V8 heap down page by page: about a
 * millisecond per megabyte here. A worker's heap holds several hundred megabytes of garbage by the
 * end of a run (the heap stays near 100 MB when collected after each test file, so nothing leaks),
 * and on two cores three of them tearing down at once took over 500 ms. `process.exit()` ends the
 * process without that teardown (Node's documented exit path), so the worker calls it as its event
 * loop empties ('beforeExit'), which only happens after Jest has told it to stop: until then its IPC
 * channel keeps the loop alive.
 *
 * This module is loaded once per worker, outside the test files' sandboxes, so `process` is the
 * worker's own. A run in band (one file, or --runInBand) has no worker: nothing changes there.
 */
import { TestEnvironment } from 'jest-environment-node';

if (process.send !== undefined && process.env.JEST_WORKER_ID !== undefined) {
  process.once('beforeExit', (code) => process.exit(code));
}

export default TestEnvironment;
