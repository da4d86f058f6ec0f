/**
 * That a write is refused: the promise rejects. Not `.rejects.toThrow()`: better-sqlite3's native addon
 * keeps the SqliteError class of the first test file a Jest worker loaded, so in a later file (another
 * realm) its errors are not `instanceof Error` and toThrow reports "did not throw" although the promise
 * rejected. That happens whenever a unit file shares a worker with an e2e file.
 */
export async function expectRefused(write: Promise<unknown>): Promise<void> {
  const outcome = write.then(
    (value) => `resolved with ${JSON.stringify(value)}`,
    (error: unknown) => (typeof (error as { message?: unknown })?.message === 'string' ? 'refused' : `rejected with ${String(error)}`),
  );
  await expect(outcome).resolves.toBe('refused');
}
