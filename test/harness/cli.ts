import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { splitCliStderr } from './cli-stderr';
import { BUILT_CLI, ROOT } from './service-process';

/** How a child process ended, with everything it wrote. */
export interface Ran {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A Node process the test started: its output so far, and its end. */
export interface Started {
  readonly child: ChildProcess;
  /** stdout then stderr, as written so far. */
  output(): string;
  readonly ended: Promise<Ran>;
}

/**
 * One CLI run (about a second on an idle machine) or a built entry point's stop: a busy 2-core
 * machine gets a wide margin; a hung process is still caught.
 */
export const RUN_TIMEOUT_MS = 60_000;

/** Starts `node <entry> <args>` with exactly `env` (pass PATH yourself where it matters), in `cwd` (the repository by default). */
export function startNode(entry: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd: string = ROOT): Started {
  const child = spawn(process.execPath, [entry, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const ended = new Promise<Ran>((done, fail) => {
    child.once('error', fail);
    child.once('close', (code, signal) => done({ code, signal, stdout, stderr }));
  });
  return { child, output: () => stdout + stderr, ended };
}

/** Resolves `promise`, or fails after `ms` saying `what` did not finish (killing `child` if given). */
export async function within<T>(promise: Promise<T>, ms: number, what: string, child?: ChildProcess): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => {
      child?.kill('SIGKILL');
      fail(new Error(`${what} did not finish within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A CLI run: `database` is its first line on stderr, naming the database it worked on (null when it never got that far); `stderr` is the rest. */
export interface CliRan extends Ran {
  readonly database: string | null;
}

/**
 * Runs the BUILT operator CLI (`dist/apps/cli/main.js`, as an operator runs it) with `args` and
 * exactly `env`, bounded by `timeoutMs` (a run that hangs is killed and fails the test).
 */
export async function runCli(
  args: readonly string[],
  options: { readonly env: NodeJS.ProcessEnv; readonly cwd?: string; readonly timeoutMs?: number },
): Promise<CliRan> {
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run "npm run build" first (npm test does)`);
  const run = startNode(BUILT_CLI, args, options.env, options.cwd);
  const ran = await within(run.ended, options.timeoutMs ?? RUN_TIMEOUT_MS, `cli ${args.join(' ')}`, run.child);
  const { database, rest } = splitCliStderr(ran.stderr);
  return { ...ran, stderr: rest, database };
}
