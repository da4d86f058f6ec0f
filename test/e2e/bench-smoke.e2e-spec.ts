import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BUILT_API } from '../harness/service-process';

const ROOT = join(__dirname, '..', '..');
const BENCH_MAIN = join(ROOT, 'dist/bench/main.js');

/**
 * The bundled bench (`npm run build:bench`: nest build bench), rebuilt here when missing or older than
 * its sources or than the built API (the libraries it bundles are the API's). Webpack without a type
 * check takes a few seconds; the bound leaves a busy 2-core machine ten times that.
 */
function ensureBenchBuilt(): void {
  const sources = readdirSync(join(ROOT, 'bench')).filter((f) => f.endsWith('.ts'));
  const builtAt = existsSync(BENCH_MAIN) ? statSync(BENCH_MAIN).mtimeMs : 0;
  const inputs = [...sources.map((f) => join(ROOT, 'bench', f)), BUILT_API];
  if (inputs.every((file) => statSync(file).mtimeMs <= builtAt)) return;
  const nest = spawnSync(process.execPath, [require.resolve('@nestjs/cli/bin/nest.js'), 'build', 'bench'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 100_000,
  });
  if (nest.status !== 0) throw new Error(`nest build bench failed: ${nest.stdout}${nest.stderr}`);
}

function runSmoke(args: readonly string[] = ['--smoke']): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    // with --expose-gc, as `npm run bench` starts it (the load generator collects its own heap before each measurement)
    const child = spawn(process.execPath, ['--expose-gc', BENCH_MAIN, ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // a few seconds on an idle machine (two servers started, 100 keys, one 0.5 s round); 90 s is a
    // margin for a busy 2-core machine, and still ends a hung run
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/**
 * `npm run bench -- --smoke`: the benchmark itself is not part of
 * the tests, but its smoke mode is, so it cannot rot. It needs the built
 * service (npm test builds it first) and nothing else: SQLite, 100 keys, one
 * short round against the built service and the ceiling fixture.
 */
describe('npm run bench -- --smoke', () => {
  let run: { code: number | null; output: string };

  beforeAll(async () => {
    if (!existsSync(BUILT_API)) throw new Error(`${BUILT_API} is missing: run "npm run build" first (npm test does)`);
    ensureBenchBuilt();
    run = await runSmoke();
  }, 210_000); // the build (100 s at most) and the run (90 s at most)

  it('exits 0 and reports no errors and no non-2xx answers', () => {
    expect(run.output).toContain('result: no errors, no non-2xx answers');
    expect(run.code).toBe(0);
  });

  it('prints the table: each endpoint against the full ceiling, validate and analytics against the bare one too, no errors anywhere', () => {
    expect(run.output).toContain(
      '| endpoint | service req/s | p50 | p99 | cpu | bare req/s | p50 | p99 | cpu | **service/bare** | ceiling req/s | p50 | p99 | service/ceiling | errors / non-2xx |',
    );
    for (const endpoint of ['POST /v1/auth/validate', 'POST /v1/analytics/log', 'GET /v1/models/list', 'GET /api/health']) {
      const row = run.output.split('\n').find((line) => line.startsWith(`| ${endpoint} |`));
      expect(row).toBeDefined();
      const cells = row!.split('|').map((cell) => cell.trim());
      // | endpoint | rps | p50 | p99 | cpu | bare rps | p50 | p99 | cpu | service/bare | ceiling rps | p50 | p99 | service/ceiling | errors |
      expect(Number(cells[2])).toBeGreaterThan(0);
      expect(Number(cells[11])).toBeGreaterThan(0);
      expect(Number(cells[14])).toBeGreaterThan(0);
      expect(cells[15]).toBe('0 / 0');
      if (endpoint.startsWith('POST')) {
        expect(Number(cells[6])).toBeGreaterThan(0);
        expect(Number(cells[10].replace(/\*/g, ''))).toBeGreaterThan(0);
      } else {
        expect(cells[6]).toBe('–');
      }
    }
  });

  it('paces each endpoint and server once, open loop, and reports its latency', () => {
    const paced = run.output.split('\n').filter((line) => /^\| (POST|GET) \S+ \| (service|bare|ceiling) \|/.test(line));
    expect(paced).toHaveLength(10);
    for (const line of paced) {
      const cells = line.split('|').map((cell) => cell.trim());
      expect(Number(cells[3])).toBeGreaterThan(0);
      expect(Number(cells[5])).toBeGreaterThan(0);
    }
  });

  it("collects the load generator's own heap before each measurement and reports its longest stall beside each paced one", () => {
    expect(run.output).toContain('load generator (this process): its heap collected before each measurement');
    const measured = run.output.split('\n').filter((line) => /^paced \d+\/s round /.test(line));
    expect(measured).toHaveLength(10);
    for (const line of measured) expect(line).toMatch(/ generator stall \d+(\.\d+)? ms$/);
  });

  it('reports the service memory under load and its start-to-healthy time', () => {
    expect(run.output).toMatch(/service RSS under load: peak \d+(\.\d+)? MiB.*; bare ceiling peak \d+(\.\d+)? MiB/);
    expect(run.output).toMatch(/start to healthy .*: \d+ ms/);
  });
});

/**
 * `npm run bench -- --smoke --device-fingerprint`: validate names a device (X-Device-Fingerprint), one
 * activated per key in the setup, so validate is measured with the device check (docs/DEVICES.md).
 */
describe('npm run bench -- --smoke --device-fingerprint --endpoints validate', () => {
  let run: { code: number | null; output: string };

  beforeAll(async () => {
    if (!existsSync(BUILT_API)) throw new Error(`${BUILT_API} is missing: run "npm run build" first (npm test does)`);
    ensureBenchBuilt();
    run = await runSmoke(['--smoke', '--device-fingerprint', '--endpoints', 'validate']);
  }, 210_000);

  it("activates each key's device, then validates naming it, with no errors and no non-2xx answers", () => {
    expect(run.output).toMatch(/devices: 100 activated in [\d.]+ s; validate names each key's device \(X-Device-Fingerprint\)/);
    expect(run.output).toContain('result: no errors, no non-2xx answers');
    expect(run.code).toBe(0);
    const row = run.output.split('\n').find((line) => line.startsWith('| POST /v1/auth/validate |'));
    expect(Number(row!.split('|').map((cell) => cell.trim())[2])).toBeGreaterThan(0);
  });
});

/**
 * `npm run bench -- --admin-scale --smoke [--pg|--mysql]`: the admin reads' bench seeds each database in
 * bulk below the adapters (its own INSERTs from the records' columns), so a schema change can break one
 * database's seeding alone (the audit log's generated `seq` did, on PostgreSQL). Its smoke run on each of
 * the three keeps it working: 1,000 keys, 10,000 events, 5 requests per read.
 */
describe.each([
  ['SQLite', []],
  ['PostgreSQL', ['--pg']],
  ['MySQL', ['--mysql']],
])('npm run bench -- --admin-scale --smoke on %s', (_, database) => {
  let run: { code: number | null; output: string };

  beforeAll(async () => {
    if (!existsSync(BUILT_API)) throw new Error(`${BUILT_API} is missing: run "npm run build" first (npm test does)`);
    ensureBenchBuilt();
    run = await runSmoke(['--admin-scale', '--smoke', ...database]);
  }, 210_000);

  it('seeds, times every read and exits 0 with every read answered 200', () => {
    expect(run.output).toContain('result: every read answered 200');
    expect(run.code).toBe(0);
    const rows = run.output.split('\n').filter((line) => /^\| (keys|usage|overview|audit|who)/.test(line));
    expect(rows.length).toBeGreaterThanOrEqual(15);
    expect(run.output).toMatch(/\| who am I \(GET \/me\), an operator's token \| [\d.]+ \|/);
    for (const row of rows) expect(row.split('|').map((cell) => cell.trim())[5]).toBe('0');
  });
});
