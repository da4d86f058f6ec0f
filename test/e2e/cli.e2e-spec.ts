import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type CliRan, type Ran, type Started, RUN_TIMEOUT_MS, startNode, within } from '../harness/cli';
import { eventually } from '../harness/eventually';
import { freePort } from '../harness/service-process';
import { commandTableIn } from '../../apps/cli/src/shared/command-table';
import { CLI_DATABASE_LINE, splitCliStderr } from '../harness/cli-stderr';
import { createTestDatabase } from '../harness/test-database';

/**
 * The operator CLI (CONTRACT 12), run as the operator runs it: the BUILT
 * `dist` entry points as child processes, on a SQLite file of their own, with
 * the built API started beside it on the same file. Needs `npm run build` first.
 */

const ROOT = resolve(__dirname, '../..');
const CLI_MAIN = join(ROOT, 'dist/apps/cli/main.js');
const API_MAIN = join(ROOT, 'dist/apps/api/main.js');
const COMMAND_TABLE_MAIN = join(ROOT, 'dist/apps/cli/write-command-table.js');
const ADMIN_TOKEN = 'cli-e2e-admin-token-0123456789abcdef';
const ISO_SECOND = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const ISO_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/**
 * Bounds every wait: one CLI run, the API's start, the API's stop. Each takes about a second on an
 * idle machine; the bounds (and the tests' own, several runs each) leave a busy 2-core machine a
 * wide margin. A hung process is still caught.
 */
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;
jest.setTimeout(180_000);

const children = new Set<ChildProcess>();

/** Starts a built entry point, kept in `children` until it ends (so a failing test leaves no process behind). */
function start(entry: string, args: readonly string[], env: NodeJS.ProcessEnv): Started {
  const run = startNode(entry, args, env);
  children.add(run.child);
  void run.ended.finally(() => children.delete(run.child)).catch(() => undefined);
  return run;
}

describe('operator CLI (built), on the database the API serves', () => {
  let folder: string;
  let dbPath: string;
  let env: NodeJS.ProcessEnv;
  /** Everything the CLI printed after `keys create` handed out the key. */
  const laterOutput: string[] = [];
  let api: { child: ChildProcess; output: () => string; ended: Promise<Ran>; baseUrl: string } | undefined;
  let issued: { key_id: string; api_key: string; user_id: string; expires_at: string };
  let licenseToken: string;

  async function cli(...args: string[]): Promise<CliRan> {
    return cliWith(env, ...args);
  }

  async function cliWith(cliEnv: NodeJS.ProcessEnv, ...args: string[]): Promise<CliRan> {
    const run = start(CLI_MAIN, args, cliEnv);
    const ran = await within(run.ended, RUN_TIMEOUT_MS, `cli ${args.join(' ')}`, run.child);
    if (issued) laterOutput.push(ran.stdout, ran.stderr);
    const { database, rest } = splitCliStderr(ran.stderr);
    return { ...ran, stderr: rest, database };
  }

  /** Runs a command expected to succeed with `--json`, and answers its JSON. */
  async function cliJson(...args: string[]): Promise<any> {
    const ran = await cli(...args, '--json');
    // stderr: only the line naming the database (this test's file); stdout: the JSON alone
    expect({ code: ran.code, database: ran.database, stderr: ran.stderr }).toEqual({
      code: 0,
      database: `${CLI_DATABASE_LINE}sqlite ${dbPath}`,
      stderr: '',
    });
    // one line of JSON, so `| jq` and line-wise scripts read it (README's walk)
    expect(ran.stdout).toMatch(/^\{[^\n]*\}\n$/);
    return JSON.parse(ran.stdout);
  }

  async function http(
    method: string,
    path: string,
    json?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: any }> {
    const response = await fetch(`${api!.baseUrl}${path}`, {
      method,
      headers: json === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: json === undefined ? undefined : JSON.stringify(json),
      signal: AbortSignal.timeout(5000),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  }

  const admin = (method: string, path: string) => http(method, path, undefined, { authorization: `Bearer ${ADMIN_TOKEN}` });

  async function startApi(): Promise<void> {
    const port = await freePort();
    const run = start(API_MAIN, [], { ...env, PORT: String(port), HOST: '127.0.0.1', ADMIN_TOKEN, LOG_LEVEL: 'info' });
    api = { ...run, baseUrl: `http://127.0.0.1:${port}` };
    let exited = false;
    void run.ended.then(() => (exited = true));
    await eventually(
      async () => {
        if (exited) throw new Error(`the API exited while starting:\n${run.output()}`);
        return fetch(`${api!.baseUrl}/api/health`, { signal: AbortSignal.timeout(1000) }).then(
          (r) => r.status === 200,
          () => false,
        );
      },
      { timeoutMs: START_TIMEOUT_MS },
    ).catch((error: Error) => {
      throw new Error(`${error.message}: the API did not answer:\n${run.output()}`);
    });
    // the start-up line says where the API, its OpenAPI page and the console are (written just
    // after the port opens, so it may reach the pipe after the first answer)
    const line = `listening on ${api.baseUrl} (sqlite): API under ${api.baseUrl}/v1/, OpenAPI page ${api.baseUrl}/api/docs, console ${api.baseUrl}/console`;
    await eventually(() => run.output().includes(line), { timeoutMs: START_TIMEOUT_MS, intervalMs: 50 }).catch(() => undefined);
    expect(run.output()).toContain(line);
  }

  /** SIGTERM, then the exit, bounded; SIGKILL if it hangs. */
  async function stopApi(): Promise<Ran | undefined> {
    if (!api) return undefined;
    const { child, ended } = api;
    child.kill('SIGTERM');
    return within(ended, STOP_TIMEOUT_MS, 'the API after SIGTERM', child);
  }

  function databaseBytes(): Buffer {
    return Buffer.concat([dbPath, `${dbPath}-wal`].filter(existsSync).map((file) => readFileSync(file)));
  }

  beforeAll(() => {
    const missing = [CLI_MAIN, API_MAIN].filter((file) => !existsSync(file));
    if (missing.length > 0) {
      throw new Error(
        `Built entry points missing (${missing.map((f) => f.slice(ROOT.length + 1)).join(', ')}): run \`npm run build\` first.`,
      );
    }
    folder = mkdtempSync(join(tmpdir(), 'svc-cli-test-'));
    dbPath = join(folder, 'cli.db');
    env = { PATH: process.env.PATH ?? '', DATABASE_URL: `sqlite:${dbPath}`, MODEL_STORE_DIR: join(folder, 'models') };
  });

  afterAll(async () => {
    await stopApi().catch(() => undefined);
    for (const child of children) child.kill('SIGKILL');
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('migrate applies the migrations to a fresh database and exits', async () => {
    const out = await cliJson('migrate');
    expect(out).toEqual({ applied: expect.any(Array), pending: [] });
    expect(out.applied.length).toBeGreaterThan(0);
    expect(existsSync(dbPath)).toBe(true);
  });

  it('keys create --json issues a key that the running API validates (SPEC 4.1)', async () => {
    const out = await cliJson(
      'keys',
      'create',
      '--email',
      'ada@example.org',
      '--name',
      'Ada Lovelace',
      '--organization',
      'Analytical Engines Ltd',
      '--license-type',
      'research',
    );
    expect(out).toEqual({
      key_id: expect.stringMatching(/^key_/),
      api_key: expect.stringMatching(/^svc_live_[0-9a-f]{48}$/),
      user_id: expect.stringMatching(/^usr_/),
      license_type: 'research',
      environment: 'live',
      expires_at: expect.stringMatching(ISO_SECOND),
      monthly_limit: 50000,
    });
    issued = out;

    await startApi();
    const res = await http('POST', '/v1/auth/validate', { api_key: issued.api_key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      valid: true,
      user_id: issued.user_id,
      email: 'ada@example.org',
      name: 'Ada Lovelace',
      organization: 'Analytical Engines Ltd',
      license_type: 'research',
      features: ['batch_inference', 'streaming', 'training', 'model_calibration', 'model_export'],
      quota: { monthly_limit: 50000, used: 0, remaining: 50000, resets_at: expect.stringMatching(ISO_SECOND) },
      expires_at: issued.expires_at,
      license_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      rotation_recommended: false,
    });
    licenseToken = res.body.license_token;
  });

  it('license verify checks a token against the JWKS URL, a file or the configured keys; license keygen makes a pair it accepts', async () => {
    const jwksUrl = `${api!.baseUrl}/v1/license/jwks`;
    const [byUrl, byConfig] = await Promise.all([
      cliJson('license', 'verify', licenseToken, '--jwks', jwksUrl),
      cliJson('license', 'verify', licenseToken),
    ]);
    expect(byUrl).toEqual({
      valid: true,
      kid: expect.any(String),
      claims: expect.objectContaining({ iss: 'svc-licensing', sub: issued.key_id, uid: issued.user_id, license_type: 'research' }),
    });
    expect(byConfig).toEqual(byUrl);
    const human = await cli('license', 'verify', licenseToken);
    expect(human.stdout).toMatch(/^The token verifies \(kid [\w-]+\); it may be trusted offline until \d{4}-/);

    const [header, payload, signature] = licenseToken.split('.');
    const forgedClaims = { ...JSON.parse(Buffer.from(payload, 'base64url').toString()), license_type: 'enterprise' };
    const forged = [header, Buffer.from(JSON.stringify(forgedClaims)).toString('base64url'), signature].join('.');
    const refused = await cli('license', 'verify', forged, '--jwks', jwksUrl);
    expect(refused).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'error: the token does not verify: the signature is not one of the published keys (tampered, or signed with another key)\n',
    });

    const pair = await cliJson('license', 'keygen');
    expect(pair).toEqual({
      kid: expect.stringMatching(/^[\w-]{43}$/),
      private_key: expect.stringMatching(/^-----BEGIN PRIVATE KEY-----\n/),
      public_key: expect.stringMatching(/^-----BEGIN PUBLIC KEY-----\n/),
    });
    writeFileSync(join(folder, 'other.pem'), pair.public_key);
    const otherKey = await cli('license', 'verify', licenseToken, '--jwks', join(folder, 'other.pem'));
    expect(otherKey).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^error: the token does not verify: no published key has its kid/),
    });
    // the new private key is one LICENSE_SIGNING_KEY accepts; the token was signed with the kept one
    const underNewKey = await cliWith({ ...env, LICENSE_SIGNING_KEY: pair.private_key }, 'license', 'verify', licenseToken);
    expect(underNewKey).toMatchObject({ code: 1, stderr: expect.stringMatching(/no published key has its kid/) });
    expect(underNewKey.stderr).not.toContain(pair.private_key.split('\n')[1]);
  });

  it('show, update, revoke and audit with --json answer exactly what the admin API answers', async () => {
    const id = issued.key_id;
    const [shown, human, second] = await Promise.all([
      cliJson('keys', 'show', id),
      cli('keys', 'show', id),
      cli('keys', 'create', '--email', 'grace@example.org', '--license-type', 'free', '--environment', 'test'),
    ]);
    expect(shown).toEqual({
      key_id: id,
      user_id: issued.user_id,
      email: 'ada@example.org',
      prefix: issued.api_key.slice(0, 12),
      license_type: 'research',
      environment: 'live',
      status: 'active',
      expires_at: issued.expires_at,
      revoked_at: null,
      monthly_limit: 50000,
      monthly_limit_source: 'tier',
      max_devices: 3,
      max_devices_source: 'tier',
      quota: { monthly_limit: 50000, used: 0, remaining: 50000, resets_at: expect.stringMatching(ISO_SECOND) },
      license_id: id,
      rotated_from: null,
      rotated_to: null,
      update_bounds: {
        monthly_limit_max: 50000,
        max_devices_max: 3,
        expires_at_max: new Date(Date.parse(issued.expires_at) + 365 * 86_400_000).toISOString().replace('.000Z', 'Z'),
      },
    });
    expect(await admin('GET', `/admin/v1/keys/${id}`)).toEqual({ status: 200, body: shown });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(id);
    expect(human.stdout).toContain('research');
    // without --json, keys create says plainly that the key is shown this once
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/api_key\s+svc_test_[0-9a-f]{48}/);
    expect(second.stdout).toMatch(/shown this once/i);

    // a tier change with an unlimited override (null), then back to the new tier's limit
    const unlimited = await cliJson('keys', 'update', id, '--license-type', 'commercial', '--monthly-limit', 'unlimited');
    expect(unlimited).toMatchObject({
      license_type: 'commercial',
      monthly_limit: null,
      monthly_limit_source: 'override',
      status: 'active',
    });
    expect(unlimited.quota).toMatchObject({ monthly_limit: null, remaining: null });
    const back = await cliJson('keys', 'update', id, '--monthly-limit', 'tier');
    expect(back).toMatchObject({ license_type: 'commercial', monthly_limit: 500000, monthly_limit_source: 'tier' });
    expect(back.quota).toMatchObject({ monthly_limit: 500000, used: 0, remaining: 500000 });
    expect(Object.keys(back).sort()).toEqual(Object.keys(shown).sort());
    // the running service sees the operator's change at once
    expect((await http('POST', '/v1/auth/validate', { api_key: issued.api_key })).body).toMatchObject({ license_type: 'commercial' });

    const revoked = await cliJson('keys', 'revoke', id, '--reason', 'contract ended');
    expect(revoked).toMatchObject({ key_id: id, status: 'revoked', revoked_at: expect.stringMatching(ISO_SECOND) });
    expect(await admin('GET', `/admin/v1/keys/${id}`)).toEqual({ status: 200, body: revoked });
    expect(await http('POST', '/v1/auth/validate', { api_key: issued.api_key })).toMatchObject({
      status: 401,
      body: { code: 'INVALID_KEY' },
    });

    const [audit, all] = await Promise.all([cliJson('audit', '--key', id), cliJson('audit')]);
    expect(audit).toEqual({ entries: expect.any(Array) });
    expect(audit.entries.map((e: { action: string }) => e.action)).toEqual(['key.revoked', 'key.updated', 'key.updated', 'key.issued']);
    for (const entry of audit.entries) {
      expect(entry).toEqual(
        expect.objectContaining({ id: expect.stringMatching(/^aud_/), at: expect.stringMatching(ISO_MILLIS), key_id: id }),
      );
    }
    expect(audit.entries[0]).toMatchObject({ reason: 'contract ended' });
    expect(await admin('GET', `/admin/v1/audit?key_id=${id}`)).toEqual({ status: 200, body: { ...audit, next_cursor: null } });
    expect(all.entries.map((e: { id: string }) => e.id)).toEqual(expect.arrayContaining(audit.entries.map((e: { id: string }) => e.id)));
    expect(all.entries.length).toBeGreaterThan(audit.entries.length);
  });

  it("`npm run -s cli -- … --json` prints the command's JSON alone, without npm's banner (README pipes it into jq)", async () => {
    const npm = spawn('npm', ['run', '-s', 'cli', '--', 'keys', 'show', issued.key_id, '--json'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(npm);
    let stdout = '';
    npm.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const code = await within(new Promise<number | null>((done) => npm.once('close', done)), RUN_TIMEOUT_MS * 2, 'npm run -s cli', npm);
    children.delete(npm);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^\{[^\n]*\}\n$/);
    expect(JSON.parse(stdout)).toEqual(expect.objectContaining({ key_id: issued.key_id }));
  });

  it('refuses with the domain code on stderr and exit status 1', async () => {
    const [again, unknown, badTier, badUrl] = await Promise.all([
      cli('keys', 'revoke', issued.key_id, '--json'),
      cli('keys', 'show', 'key_000000000000000000000000', '--json'),
      cli('keys', 'create', '--email', 'x@example.org', '--license-type', 'platinum', '--json'),
      cliWith({ ...env, DATABASE_URL: 'mssql://sa:hunter2@localhost/keys' }, 'audit', '--json'),
    ]);
    expect(again).toMatchObject({ code: 1, stdout: '', stderr: expect.stringMatching(/^KEY_REVOKED: /) });
    expect(unknown).toMatchObject({ code: 1, stdout: '', stderr: expect.stringMatching(/^KEY_NOT_FOUND: /) });
    expect(badTier).toMatchObject({ code: 1, stdout: '', stderr: expect.stringMatching(/^INVALID_REQUEST: .*license_type/) });
    expect(badUrl).toMatchObject({ code: 1, stdout: '', database: null });
    expect(badUrl.stderr.trim().split('\n')).toEqual([expect.stringContaining('DATABASE_URL')]);
    expect(badUrl.stderr).not.toContain('mssql://sa:hunter2@localhost/keys');
  });

  it('keys rotate: a new key for the same license, the old one in its grace; audited on both; show names the chain (CONTRACT 16)', async () => {
    const old = await cliJson('keys', 'create', '--email', 'rita@example.org', '--license-type', 'commercial', '--monthly-limit', '321');
    expect((await http('POST', '/v1/analytics/log', { api_key: old.api_key, event_type: 'inference' })).status).toBe(202);
    const rotated = await cliJson('keys', 'rotate', old.key_id, '--grace-seconds', '3600');
    expect(rotated).toEqual({
      api_key: expect.stringMatching(/^svc_live_[0-9a-f]{48}$/),
      key_id: expect.stringMatching(/^key_/),
      expires_at: old.expires_at,
      previous_key_expires_at: expect.stringMatching(ISO_SECOND),
      message: expect.stringContaining('store the new key'),
    });
    // the running service takes both keys at once, on one counter
    const viaNew = await http('POST', '/v1/analytics/log', { api_key: rotated.api_key, event_type: 'inference' });
    expect(viaNew).toMatchObject({ status: 202, body: { quota: { used: 2, remaining: 319 } } });
    expect(await http('POST', '/v1/auth/validate', { api_key: old.api_key })).toMatchObject({
      status: 200,
      body: { license_type: 'commercial' },
    });

    const [shownOld, shownNew] = await Promise.all([cliJson('keys', 'show', old.key_id), cliJson('keys', 'show', rotated.key_id)]);
    expect(shownOld).toMatchObject({ rotated_to: rotated.key_id, rotated_from: null, license_id: old.key_id, quota: { used: 2 } });
    expect(shownNew).toMatchObject({
      rotated_from: old.key_id,
      rotated_to: null,
      license_id: old.key_id,
      monthly_limit: 321,
      monthly_limit_source: 'override',
    });
    const human = await cli('keys', 'show', rotated.key_id);
    expect(human.stdout).toMatch(new RegExp(`rotated_from\\s+${old.key_id}`));

    // usage show: the license's counter and the split by key, by either key or by the license, as GET /admin/v1/usage answers
    const period = new Date().toISOString().slice(0, 7);
    const byLicense = await cliJson('usage', 'show', '--license', old.key_id, '--period', period);
    expect(byLicense).toEqual({
      key_id: rotated.key_id,
      license_id: old.key_id,
      period,
      used: 2,
      monthly_limit: 321,
      by_key: { [old.key_id]: 1, [rotated.key_id]: 1 },
      by_event_type: expect.objectContaining({ inference: 2 }),
      by_model: {},
      by_outcome: { success: 0, failure: 0, unreported: 2 },
      // the license's latest events with both times and how they came (CONTRACT 22), newest first
      recent_events: [rotated.key_id, old.key_id].map((keyId) => ({
        event_id: expect.stringMatching(/^evt_/),
        key_id: keyId,
        event_type: 'inference',
        model_name: null,
        received_at: expect.stringMatching(/Z$/),
        occurred_at: expect.stringMatching(/Z$/),
        batched: false,
      })),
    });
    const byOldKey = await cliJson('usage', 'show', old.key_id);
    expect(byOldKey).toEqual({ ...byLicense, key_id: old.key_id });
    const api = await http('GET', `/admin/v1/usage?license_id=${old.key_id}&period=${period}`, undefined, {
      authorization: `Bearer ${ADMIN_TOKEN}`,
    });
    expect(api).toEqual({ status: 200, body: byLicense });
    const summary = await cli('usage', 'show', rotated.key_id);
    expect(summary.code).toBe(0);
    expect(summary.stdout).toContain(`License ${old.key_id}, ${period}: 2 of 321 used`);
    // one line a key (listed in the order the report tallies them)
    expect(summary.stdout).toMatch(new RegExp(`\\n\\s+${old.key_id}\\s+1\\n`));
    expect(summary.stdout).toMatch(new RegExp(`\\n\\s+${rotated.key_id}\\s+1\\n`));
    expect(summary.stdout).toMatch(/recent events \(received, occurred, how\):\n\s+\S+Z\s+\S+Z\s+log\s+inference/);
    const lastYear = await cliJson('usage', 'show', '--license', old.key_id, '--period', '2020-01');
    expect(lastYear).toMatchObject({ used: 0, by_key: {} });
    const [neither, both, unknownLicense, badPeriod] = await Promise.all([
      cli('usage', 'show', '--json'),
      cli('usage', 'show', old.key_id, '--license', old.key_id, '--json'),
      cli('usage', 'show', '--license', 'key_000000000000000000000000', '--json'),
      cli('usage', 'show', old.key_id, '--period', '2026-13', '--json'),
    ]);
    expect(neither).toMatchObject({ code: 1, stdout: '', stderr: expect.stringContaining('a key id or --license') });
    expect(both).toMatchObject({ code: 1, stdout: '', stderr: expect.stringContaining('one of the two') });
    expect(unknownLicense).toMatchObject({ code: 1, stdout: '', stderr: expect.stringMatching(/^KEY_NOT_FOUND: /) });
    expect(badPeriod).toMatchObject({ code: 1, stdout: '', stderr: expect.stringMatching(/^INVALID_REQUEST: .*period/) });

    for (const keyId of [old.key_id, rotated.key_id]) {
      const audit = await cliJson('audit', '--key', keyId);
      expect(audit.entries.map((e: { action: string }) => e.action)).toContain('key.rotated');
      expect(JSON.stringify(audit)).not.toContain(rotated.api_key);
    }

    const again = await cli('keys', 'rotate', old.key_id, '--json');
    expect(again).toMatchObject({ code: 1, stdout: '', stderr: expect.stringMatching(/^KEY_ROTATED: /) });
    const badGrace = await cli('keys', 'rotate', rotated.key_id, '--grace-seconds', '604801', '--json');
    expect(badGrace).toMatchObject({ code: 1, stderr: expect.stringMatching(/^INVALID_REQUEST: .*grace-seconds/) });
    const plain = await cli('keys', 'rotate', rotated.key_id, '--grace-seconds', '0');
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/api_key\s+svc_live_[0-9a-f]{48}/);
    expect(plain.stdout).toMatch(/shown this once/i);
    expect(await http('POST', '/v1/auth/validate', { api_key: rotated.api_key })).toMatchObject({
      status: 401,
      body: { code: 'INVALID_KEY' },
    });
  });

  // about 20 CLI runs (a second of CPU each): a loaded 2-core machine takes minutes, hence the bound of its own
  it('keys list: the admin API list, filtered (--email in any case, --tier, --status), paged by --cursor; --json is its body', async () => {
    const mixed = await cliJson('keys', 'create', '--email', 'Mixed.Case@Example.org', '--license-type', 'enterprise');
    const expired = await cliJson(
      'keys',
      'create',
      '--email',
      'lapsed@example.org',
      '--license-type',
      'free',
      '--expires-at',
      '2020-01-01T00:00:00Z',
    );
    const everyKey = await admin('GET', '/admin/v1/keys?limit=200');
    expect(everyKey.status).toBe(200);
    const all: Array<{ key_id: string; email: string; status: string; license_type: string }> = everyKey.body.keys;
    expect(everyKey.body.next_cursor).toBeNull();
    // the keys of the earlier tests and these two: enough to page through, every status present
    expect(all.length).toBeGreaterThanOrEqual(7);
    expect(new Set(all.map((k) => k.status))).toEqual(new Set(['active', 'expired', 'revoked']));
    const ids = (keys: Array<{ key_id: string }>) => keys.map((k) => k.key_id);

    // one run at a time: on a loaded 2-core machine parallel runs each take longer than their bound
    const unfiltered = await cliJson('keys', 'list', '--limit', '200');
    const byEmail = await cliJson('keys', 'list', '--email', 'mixed.case@EXAMPLE.ORG');
    const byUpperEmail = await cliJson('keys', 'list', '--email', 'ADA@example.org');
    const active = await cliJson('keys', 'list', '--status', 'active');
    const expiredOnes = await cliJson('keys', 'list', '--status', 'expired');
    const revoked = await cliJson('keys', 'list', '--status', 'revoked');
    const freeActive = await cliJson('keys', 'list', '--tier', 'free', '--status', 'active');
    // no filter: exactly the admin API's body (newest first)
    expect(unfiltered).toEqual(everyKey.body);
    // --email matches the whole address in any case, both ways round
    expect(byEmail).toEqual({
      keys: [expect.objectContaining({ key_id: mixed.key_id, email: 'Mixed.Case@Example.org' })],
      next_cursor: null,
    });
    expect(byEmail).toEqual((await admin('GET', '/admin/v1/keys?email=mixed.case%40EXAMPLE.ORG')).body);
    expect(ids(byUpperEmail.keys)).toEqual([issued.key_id]);
    // --status and --tier: what the admin API answers to the same filters
    for (const [status, listed] of [
      ['active', active],
      ['expired', expiredOnes],
      ['revoked', revoked],
    ] as const) {
      expect(listed.keys.length).toBeGreaterThan(0);
      expect(ids(listed.keys)).toEqual(ids(all.filter((k) => k.status === status)));
      expect(listed).toEqual((await admin('GET', `/admin/v1/keys?status=${status}`)).body);
    }
    expect(ids(expiredOnes.keys)).toContain(expired.key_id);
    expect(freeActive.keys.map((k: { email: string }) => k.email)).toEqual(['grace@example.org']);
    expect(freeActive).toEqual((await admin('GET', '/admin/v1/keys?license_type=free&status=active')).body);

    // paging by 3: the first page as the table (a header, a line per key, the next page's cursor),
    // the rest with --json from that cursor on; every key exactly once, in the list's order
    const table = await cli('keys', 'list', '--limit', '3');
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^KEY_ID\s+EMAIL\s+TIER\s+ENV\s+STATUS\s+PREFIX\s+CREATED\s+EXPIRES\s+MONTHLY_LIMIT$/);
    for (const [i, key] of all.slice(0, 3).entries()) {
      const dots = key.email.replace(/\./g, '\\.');
      expect(lines[i + 1]).toMatch(new RegExp(`^${key.key_id}\\s+${dots}\\s+${key.license_type}\\s+\\w+\\s+${key.status}\\s`));
    }
    expect(lines[4]).toBe('');
    const more = lines[5].match(/^More keys: run again with --cursor (\S+)$/);
    expect(lines).toHaveLength(6);
    const paged = lines.slice(1, 4).map((line) => line.split(/\s+/)[0]);
    let cursor: string | null = more![1];
    let pages = 1;
    while (cursor !== null) {
      const page: { keys: Array<{ key_id: string }>; next_cursor: string | null } = await cliJson(
        'keys',
        'list',
        '--limit',
        '3',
        '--cursor',
        cursor,
      );
      expect(page.keys.length).toBeGreaterThan(0);
      expect(page.keys.length).toBeLessThanOrEqual(3);
      paged.push(...ids(page.keys));
      cursor = page.next_cursor;
      pages += 1;
      expect(pages).toBeLessThanOrEqual(all.length);
    }
    expect(paged).toEqual(ids(all));
    expect(pages).toBe(Math.ceil(all.length / 3));
    // never a key, in either form
    expect(table.stdout).not.toContain(issued.api_key);

    const none = await cli('keys', 'list', '--email', 'mixed.case@example');
    const badTier = await cli('keys', 'list', '--tier', 'platinum', '--json');
    const badStatus = await cli('keys', 'list', '--status', 'Active', '--json');
    const badLimit = await cli('keys', 'list', '--limit', '201', '--json');
    // a cursor of another list is not one of this list's
    const auditCursor = await cli(
      'keys',
      'list',
      '--cursor',
      Buffer.from(JSON.stringify(['audit', 0, 'aud_1'])).toString('base64url'),
      '--json',
    );
    expect(none).toMatchObject({ code: 0, stdout: 'No keys.\n', stderr: '' });
    expect(badTier).toMatchObject({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(/^INVALID_REQUEST: .*--tier must be one of free, research/),
    });
    expect(badStatus).toMatchObject({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(/^INVALID_REQUEST: .*--status must be one of active/),
    });
    expect(badLimit).toMatchObject({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(/^INVALID_REQUEST: .*--limit must be an integer from 1 to 200/),
    });
    expect(auditCursor).toMatchObject({ code: 1, stdout: '', stderr: expect.stringMatching(/^INVALID_REQUEST: .*--cursor/) });
  }, 420_000);

  it('never stores nor prints the plaintext key after issuing it', async () => {
    const key = issued.api_key;
    expect(databaseBytes().includes(key)).toBe(false);

    const stopped = await stopApi();
    expect(stopped!.stdout + stopped!.stderr).toContain('listening');
    expect(stopped!.stdout + stopped!.stderr).not.toContain(key);
    expect(databaseBytes().length).toBeGreaterThan(0);
    expect(databaseBytes().includes(key)).toBe(false);

    expect(laterOutput.length).toBeGreaterThan(0);
    for (const printed of laterOutput) expect(printed).not.toContain(key);
  });
});

describe('operator CLI (built): which database it works on (stderr, never stdout)', () => {
  let folder: string;
  const drops: Array<() => Promise<void>> = [];

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'svc-cli-database-test-'));
  });
  afterAll(async () => {
    for (const drop of drops) await drop().catch(() => undefined);
    rmSync(folder, { recursive: true, force: true });
  });

  async function run(databaseUrl: string, ...args: string[]): Promise<Ran> {
    const env = {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: databaseUrl,
      MODEL_STORE_DIR: join(folder, 'models'),
      SAMPLE_MODELS: 'false',
    };
    const started = start(CLI_MAIN, args, env);
    return within(started.ended, RUN_TIMEOUT_MS, `cli ${args.join(' ')}`, started.child);
  }

  /** Issues a key, then lists it by its e-mail in another case: stdout is the JSON alone, stderr the one line naming the database. */
  async function expectWorksOn(databaseUrl: string, line: string): Promise<void> {
    const created = await run(databaseUrl, 'keys', 'create', '--email', 'Where@Example.org', '--license-type', 'free', '--json');
    expect({ code: created.code, stderr: created.stderr }).toEqual({ code: 0, stderr: `${line}\n` });
    const keyId = JSON.parse(created.stdout).key_id;
    const listed = await run(databaseUrl, 'keys', 'list', '--email', 'where@EXAMPLE.org', '--json');
    expect({ code: listed.code, stderr: listed.stderr }).toEqual({ code: 0, stderr: `${line}\n` });
    expect(listed.stdout).toMatch(/^\{[^\n]*\}\n$/);
    expect(JSON.parse(listed.stdout)).toEqual({
      keys: [expect.objectContaining({ key_id: keyId, email: 'Where@Example.org' })],
      next_cursor: null,
    });
    // the human output too: the line on stderr, the table on stdout
    const table = await run(databaseUrl, 'keys', 'list');
    expect({ code: table.code, stderr: table.stderr }).toEqual({ code: 0, stderr: `${line}\n` });
    expect(table.stdout).not.toContain(CLI_DATABASE_LINE);
    // a refusal comes after the line
    const refused = await run(databaseUrl, 'keys', 'show', 'key_000000000000000000000000', '--json');
    expect(refused).toMatchObject({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(new RegExp(`^${literal(line)}\\nKEY_NOT_FOUND: `)),
    });
  }

  function literal(text: string): string {
    return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }

  it('SQLite: the file, by its absolute path', async () => {
    const file = join(folder, 'where.db');
    await expectWorksOn(`sqlite:${file}`, `${CLI_DATABASE_LINE}sqlite ${file}`);
  });

  it('PostgreSQL: the URL, its password masked and printed nowhere', async () => {
    const database = await createTestDatabase(folder, 'postgres');
    drops.push(() => database.drop());
    // the server trusts local connections, so any password connects: the CLI must still never print it
    const url = new URL(database.url);
    url.password = 'not-to-be-printed-0123';
    const shown = new URL(database.url);
    shown.password = '***';
    await expectWorksOn(url.toString(), `${CLI_DATABASE_LINE}postgres ${shown.toString()}`);
    const again = await run(url.toString(), 'migrate', '--json');
    expect(again.code).toBe(0);
    expect(again.stdout + again.stderr).not.toContain('not-to-be-printed-0123');
    expect(again.stderr).toContain(':***@');
  });

  it('MySQL / MariaDB: the URL (root, no password here)', async () => {
    const database = await createTestDatabase(folder, 'mysql');
    drops.push(() => database.drop());
    await expectWorksOn(database.url, `${CLI_DATABASE_LINE}mysql ${database.url}`);
  });
});

describe("README's table of commands: the CLI's own help (npm run docs:cli)", () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'svc-cli-help-test-'));
  });
  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  async function run(entry: string, ...args: string[]): Promise<Ran> {
    const env = {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: `sqlite:${join(folder, 'help.db')}`,
      MODEL_STORE_DIR: join(folder, 'models'),
    };
    const started = start(entry, args, env);
    return within(started.ended, RUN_TIMEOUT_MS, `${entry} ${args.join(' ')}`, started.child);
  }

  /** The names `--help` lists under "Commands:" (the first word of each entry; commander's own `help` left out). */
  function commandsIn(help: string): string[] {
    const section = help.split('\nCommands:\n')[1] ?? '';
    return [...section.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1]).filter((name) => name !== 'help');
  }

  it('the README holds exactly the table rendered from the built CLI, and it has a row for every command --help lists', async () => {
    const rendered = await run(COMMAND_TABLE_MAIN);
    expect({ code: rendered.code, stderr: rendered.stderr }).toEqual({ code: 0, stderr: '' });
    const table = rendered.stdout.trimEnd();
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    // run `npm run docs:cli` after changing a command
    expect(commandTableIn(readme)).toBe(table);

    const rows = table.split('\n').slice(2);
    const terms = rows.map((row) => row.match(/^\| `([^`]+)` \|/)![1]);
    expect(terms).toEqual(expect.arrayContaining(['keys list', 'models list', 'operators list', 'migrate']));
    expect(rows.find((row) => row.startsWith('| `keys list` |'))).toContain('`--cursor <cursor>`');

    const top = await run(CLI_MAIN, '--help');
    expect(top.code).toBe(0);
    const groups = commandsIn(top.stdout);
    expect(groups).toEqual(expect.arrayContaining(['keys', 'models', 'operators', 'audit', 'migrate']));
    const fromHelp: string[] = [];
    for (const group of groups) {
      // one at a time (a loaded 2-core machine)
      const subcommands = commandsIn((await run(CLI_MAIN, group, '--help')).stdout);
      fromHelp.push(...(subcommands.length === 0 ? [group] : subcommands.map((name) => `${group} ${name}`)));
    }
    // the same commands, in the order --help lists them (arguments follow the name in the table)
    expect(
      terms.map((term) =>
        term
          .split(' ')
          .filter((word) => /^[a-z]/.test(word))
          .join(' '),
      ),
    ).toEqual(fromHelp);
  }, 420_000);
});
