/**
 * Whether a real server (Redis, PostgreSQL, MySQL / MariaDB) answers on 127.0.0.1, checked
 * synchronously (in a child process) so that a test file can choose `describe` or `describe.skip`
 * when it is loaded. Tests that need one skip with a message when it is absent, except under
 * CI=true, where a missing server is a failure. The harness's one port probe.
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
