import { createConnection } from 'node:net';

/**
 * Whether a real server (Redis, PostgreSQL) answers on 127.0.0.1. Tests that
 * need one skip with a message when it is absent, except under CI=true, where
 * a missing server is a failure.
 */
export async function serverAvailable(port: number, name: string): Promise<boolean> {
  const up = await new Promise<boolean>((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
  if (!up) {
    if (process.env.CI === 'true') throw new Error(`${name} is not reachable on 127.0.0.1:${port}, and CI=true requires it`);
    console.warn(`${name} is not reachable on 127.0.0.1:${port}: skipping the tests that need it`);
  }
  return up;
}

/** Waits until `check` holds, polling, for at most `timeoutMs`. */
export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 10000, everyMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * The same check, synchronously, so a test file can choose `describe` or
 * `describe.skip` when it is loaded.
 */
export function serverAvailableSync(port: number, name: string): boolean {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
  const probe = `const s=require('net').createConnection({host:'127.0.0.1',port:${port}});s.setTimeout(1000,()=>process.exit(1));s.on('connect',()=>process.exit(0));s.on('error',()=>process.exit(1));`;
  const up = spawnSync(process.execPath, ['-e', probe], { timeout: 3000 }).status === 0;
  if (!up) {
    if (process.env.CI === 'true') throw new Error(`${name} is not reachable on 127.0.0.1:${port}, and CI=true requires it`);
    console.warn(`${name} is not reachable on 127.0.0.1:${port}: skipping the tests that need it`);
  }
  return up;
}
