/** How long `eventually` polls, and how often. */
export interface EventuallyOptions {
  /** The bound: after this long with the check still false, it fails (default 10 s). */
  readonly timeoutMs?: number;
  /** The pause between two checks (default 100 ms). */
  readonly intervalMs?: number;
}

/**
 * Waits until `check` holds, checking at once and then every `intervalMs`, for at most `timeoutMs`
 * (a last check is made at the bound). A check that throws ends the wait with its error. The one
 * way the tests wait for something to happen: never a fixed sleep before a check.
 */
export async function eventually(check: () => Promise<boolean> | boolean, options: EventuallyOptions = {}): Promise<void> {
  const { timeoutMs = 10_000, intervalMs = 100 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
