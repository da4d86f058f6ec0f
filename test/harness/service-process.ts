import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { eventually } from './eventually';

export const ROOT = join(__dirname, '..', '..');
export const BUILT_API = join(ROOT, 'dist/apps/api/main.js');
export const BUILT_CLI = join(ROOT, 'dist/apps/cli/main.js');
/** The shipped tier matrix, for processes whose working directory is not the repository. */
export const SHIPPED_TIERS_FILE = join(ROOT, 'config/tiers.json');

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * How long a start may take: about a second on an idle machine; a minute leaves a busy 2-core
 * machine (several services starting at once, other test runs beside) a wide margin.
 */
const START_TIMEOUT_MS = 60_000;

/** The built service running as a real process on 127.0.0.1, with its output kept. */
export class ServiceProcess {
  output = '';
  exitCode: number | null = null;
  private readonly exited: Promise<number | null>;

  private constructor(
    readonly child: ChildProcess,
    readonly baseUrl: string,
  ) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve((this.exitCode = code))));
  }

  /**
   * Starts the built service with `env` (and nothing else of this process's). `cwd`: the
   * working directory (the repository by default); a directory of its own gives the process
   * its own data directory (./data), as a pod with nothing shared on disk has. `startTimeoutMs`
   * bounds the wait until it answers (default START_TIMEOUT_MS, a minute).
   */
  static async start(
    env: Record<string, string>,
    options: { readonly cwd?: string; readonly startTimeoutMs?: number } = {},
  ): Promise<ServiceProcess> {
    if (!existsSync(BUILT_API)) throw new Error(`${BUILT_API} is missing: run "npm run build" first (npm test does)`);
    const port = await freePort();
    const child = spawn(process.execPath, [BUILT_API], {
      cwd: options.cwd ?? ROOT,
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const service = new ServiceProcess(child, `http://127.0.0.1:${port}`);
    try {
      await eventually(
        async () => {
          if (service.exitCode !== null) throw new Error(`service exited with ${service.exitCode}: ${service.output}`);
          return fetch(`${service.baseUrl}/api/health/live`).then(
            (r) => r.ok,
            () => false,
          );
        },
        { timeoutMs: options.startTimeoutMs ?? START_TIMEOUT_MS },
      );
    } catch (error) {
      child.kill('SIGKILL');
      throw new Error(`${(error as Error).message}; its output: ${service.output.slice(-2000)}`);
    }
    return service;
  }

  /** Sends a signal and waits (bounded) for the exit code. */
  async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 15000): Promise<number | null> {
    if (this.exitCode === null) this.child.kill(signal);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }
}
