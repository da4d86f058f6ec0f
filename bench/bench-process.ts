import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';

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

/** One GET on 127.0.0.1; resolves to the status, or 0 when nothing answers. */
function statusOf(port: number, path: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', agent: false, timeout: 1000 }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(0));
    req.end();
  });
}

/**
 * A server under test as a child process on 127.0.0.1: the built service or
 * the ceiling fixture. Its output goes straight to a log file (not through
 * this process, which generates the load).
 */
export class BenchProcess {
  private exitCode: number | null = null;
  private readonly exited: Promise<number | null>;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
    readonly port: number,
    readonly logFile: string,
    /** From spawn to the first 200 of the health path. */
    readonly startToHealthyMs: number,
    exited: Promise<number | null>,
  ) {
    this.exited = exited;
    void exited.then((code) => (this.exitCode = code));
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.exitCode === null && this.child.exitCode === null;
  }

  static async start(
    name: string,
    args: readonly string[],
    env: Record<string, string>,
    logFile: string,
    cwd: string,
    timeoutMs = 30_000,
  ): Promise<BenchProcess> {
    const port = await freePort();
    const log = openSync(logFile, 'a');
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), ...env },
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    let exitCode: number | null = null;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve((exitCode = code ?? -1))));
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (exitCode !== null) throw new Error(`${name} exited with ${exitCode} before it was healthy: see ${logFile}`);
      if ((await statusOf(port, '/api/health')) === 200) break;
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`${name} was not healthy within ${timeoutMs} ms: see ${logFile}`);
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    const startToHealthyMs = Number(process.hrtime.bigint() - started) / 1e6;
    return new BenchProcess(name, child, port, logFile, startToHealthyMs, exited);
  }

  /** Resident memory now, from /proc/<pid>/status (VmRSS), in MiB; null once gone. */
  rssMiB(): number | null {
    try {
      const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${this.pid}/status`, 'utf8'));
      return match ? Number(match[1]) / 1024 : null;
    } catch {
      return null;
    }
  }

  /** SIGTERM, then SIGKILL after `timeoutMs`; resolves to the exit code. */
  async stop(timeoutMs = 15_000): Promise<number | null> {
    if (this.running) this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  kill(): void {
    if (this.running) this.child.kill('SIGKILL');
  }
}

/** Samples a process's RSS on an interval while load runs. */
export class RssSampler {
  private readonly samples: number[] = [];
  private timer?: NodeJS.Timeout;

  constructor(private readonly target: BenchProcess) {}

  start(everyMs = 250): void {
    this.stop();
    this.timer = setInterval(() => {
      const rss = this.target.rssMiB();
      if (rss !== null) this.samples.push(rss);
    }, everyMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  get peak(): number | null {
    return this.samples.length === 0 ? null : Math.max(...this.samples);
  }

  get count(): number {
    return this.samples.length;
  }
}
