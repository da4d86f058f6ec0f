import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { TEST_ADMIN_TOKEN, TestApp } from '../harness/create-test-app';
import { rawRequest } from '../harness/raw-http';

/**
 * CONTRACT 1 and SPEC 5.7: a key's plaintext is shown once, at issuance, and
 * never again: not in the database (file and write-ahead log), not in any log
 * line, whatever the key went through.
 */
describe('key plaintexts never reach the database or the logs', () => {
  let t: TestApp;
  /** Every plaintext the service ever issued or was shown, and near-miss copies of them. */
  const secrets: string[] = [];
  const keyIds: string[] = [];

  beforeAll(async () => {
    t = await TestApp.start({ env: { LOG_LEVEL: 'trace' } });
  });
  afterAll(async () => {
    // Closes the app a second time (harmless) after the test below closed it, drops the database, removes the folder.
    await t.close();
  });

  /** Every file under the app's temporary folder (database, WAL, shared memory, model store). */
  function folderBytes(): Array<[string, Buffer]> {
    const files: Array<[string, Buffer]> = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else files.push([path, readFileSync(path)]);
      }
    };
    if (existsSync(t.folder)) walk(t.folder);
    return files;
  }

  /** The database's own view of everything it stores (SQLite file and WAL, or every PostgreSQL row), as text. */
  async function expectStoredRowsWithoutSecrets(): Promise<void> {
    const contents = await t.databaseContents();
    for (const id of keyIds) expect(contents).toContain(id);
    for (const secret of secrets) {
      for (const form of [secret, secret.slice(9)]) expect({ form, found: contents.includes(form) }).toEqual({ form, found: false });
    }
  }

  function expectNoSecretIn(files: Array<[string, Buffer]>): void {
    for (const [path, bytes] of files) {
      for (const secret of secrets) {
        for (const form of [secret, secret.slice(9)]) {
          expect({ path, form, found: bytes.includes(Buffer.from(form, 'utf8')) }).toEqual({ path, form, found: false });
          expect({ path, form, utf16: bytes.includes(Buffer.from(form, 'utf16le')) }).toEqual({ path, form, utf16: false });
        }
      }
    }
  }

  it('issues keys through the admin API and the use case, and uses them on every endpoint, failing calls included', async () => {
    const viaAdmin = [
      await t.admin('POST', '/admin/v1/keys', { email: 'sec@example.org', name: 'Sec', license_type: 'research' }),
      await t.admin('POST', '/admin/v1/keys', { email: 'sec2@example.org', license_type: 'free', environment: 'test', monthly_limit: 0 }),
      await t.admin('POST', '/admin/v1/keys', {
        email: 'sec3@example.org',
        license_type: 'enterprise',
        expires_at: '2020-01-01T00:00:00Z',
      }),
    ];
    for (const res of viaAdmin) expect(res.status).toBe(201);
    const viaUseCase = [await t.issueKey(), await t.issueKey({ licenseType: 'commercial', environment: 'test' })];
    const issued = [...viaAdmin.map((res) => res.body as { key_id: string; api_key: string; user_id: string }), ...viaUseCase];
    for (const key of issued) {
      secrets.push(...variantsOf(key.api_key));
      keyIds.push(key.key_id);
    }
    const [research, quotaless, expired, plain, commercial] = issued;
    const json = { 'content-type': 'application/json' };

    // Successful calls.
    expect((await t.post('/v1/auth/validate', { api_key: research.api_key })).status).toBe(200);
    expect((await t.post('/auth/validate', { api_key: plain.api_key })).status).toBe(200);
    expect((await t.post('/v1/auth/refresh', { api_key: quotaless.api_key })).status).toBe(200);
    expect((await t.post('/auth/refresh', { api_key: commercial.api_key })).status).toBe(200);
    expect((await t.admin('PATCH', `/admin/v1/keys/${plain.key_id}`, { license_type: 'enterprise' })).status).toBe(200);
    for (const key of issued) {
      expect((await t.admin('GET', `/admin/v1/keys/${key.key_id}`)).status).toBe(200);
      expect((await t.admin('GET', `/admin/v1/audit?key_id=${key.key_id}`)).status).toBe(200);
    }

    // Failing calls that carry a key somewhere.
    const failures = [
      t.post('/v1/auth/validate', { api_key: quotaless.api_key }), // 429 QUOTA_EXCEEDED
      t.post('/v1/auth/validate', { api_key: expired.api_key }), // 401 KEY_EXPIRED
      t.post('/v1/auth/refresh', { api_key: expired.api_key }),
      t.post('/v1/auth/validate', { api_key: research.api_key.toUpperCase() }), // INVALID_FORMAT (prefix upper-cased)
      t.post('/v1/auth/validate', { api_key: secrets[2] }), // well-formed but unknown: INVALID_KEY
      t.post('/v1/auth/validate', { api_key: `${research.api_key}0` }),
      t.post('/v1/auth/validate', { api_key: ` ${research.api_key}` }),
      t.post('/v1/auth/validate', { api_key: { nested: research.api_key } }),
      t.post('/v1/auth/revoke', { api_key: research.api_key, reason: 42 }), // 400 after the key check
      t.post('/v1/auth/revoke', { api_key: secrets[2] }), // 404 KEY_NOT_FOUND
      t.request('GET', `/v1/auth/validate?api_key=${research.api_key}`), // 405
      t.request('PUT', '/v1/auth/refresh', { json: { api_key: research.api_key } }), // 405
      t.get(`/nope?api_key=${research.api_key}`), // 404
      t.get(`/v1/auth/${research.api_key}`), // 404
      t.request('POST', '/v1/auth/validate', { raw: `{"api_key":"${research.api_key}"`, headers: json }), // bad JSON
      t.request('POST', '/v1/auth/validate', { raw: `api_key=${research.api_key}`, headers: { 'content-type': 'text/plain' } }), // 415
      t.request('POST', '/v1/auth/validate', {
        raw: JSON.stringify({ api_key: research.api_key, pad: 'x'.repeat(70_000) }),
        headers: json,
      }), // 413
      rawRequest(t.baseUrl, 'POST', `/v1/auth/%zz?api_key=${research.api_key}`), // malformed URL
      t.request('GET', '/admin/v1/audit', { headers: { authorization: `Bearer ${research.api_key}` } }), // 401
      t.request('GET', `/admin/v1/keys/${research.api_key}`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } }), // 404
      t.request('GET', `/admin/v1/audit?key_id=${research.api_key}`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } }),
      t.admin('POST', '/admin/v1/keys', { email: 'x@example.org', license_type: research.api_key }), // 400
    ];
    for (const res of await Promise.all(failures)) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      for (const secret of secrets) expect(res.text).not.toContain(secret);
    }

    // Revocations, by the holder and by an operator.
    // A key pasted into a reason (the revoked one, or another) is stored and shown as [REDACTED].
    expect((await t.post('/v1/auth/revoke', { api_key: research.api_key, reason: `rotated: ${research.api_key} leaked` })).status).toBe(
      200,
    );
    expect((await t.post('/auth/revoke', { api_key: expired.api_key })).status).toBe(200);
    expect(
      (await t.admin('POST', `/admin/v1/keys/${commercial.key_id}/revoke`, { reason: `abuse by ${commercial.api_key.toUpperCase()}` }))
        .status,
    ).toBe(200);
    expect((await t.post('/v1/auth/validate', { api_key: research.api_key })).status).toBe(401);
    expect((await t.post('/v1/auth/revoke', { api_key: research.api_key })).status).toBe(404);

    // Operators never see the plaintext either.
    const audit = await t.admin('GET', '/admin/v1/audit');
    expect(audit.body.entries.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(audit.text).not.toContain(secret);
    expect(audit.text.toLowerCase()).not.toContain(commercial.api_key.slice(9));
    expect(audit.body.entries.map((entry: { reason: string | null }) => entry.reason)).toEqual(
      expect.arrayContaining(['rotated: [REDACTED] leaked', 'abuse by [REDACTED]']),
    );
  });

  it('not in the database, its files or its write-ahead log while the service runs', async () => {
    await expectStoredRowsWithoutSecrets();
    const files = folderBytes();
    if (t.databaseKind === 'sqlite') {
      expect(files.map(([path]) => path)).toEqual(expect.arrayContaining([t.databasePath, `${t.databasePath}-wal`]));
      // The stored rows are there (so the search is meaningful), the plaintexts are not.
      const all = Buffer.concat(files.map(([, bytes]) => bytes));
      for (const id of keyIds) expect(all.includes(Buffer.from(id))).toBe(true);
    }
    expectNoSecretIn(files);
  });

  it('not in any log line, even when a request fails inside the service', async () => {
    // With the database gone, key lookups fail inside the service and are logged as errors.
    await t.app.get(DataSource).destroy();
    for (const secret of secrets.slice(0, 3)) {
      const res = await t.post('/v1/auth/validate', { api_key: secret });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.text).not.toContain(secret);
    }
    await t.app.close();

    // The failures above were logged (so the search below covers the error path too; not the start's plain-text warning).
    expect(t.logger.lines.some((line) => /^(error|warn) /.test(line) && !line.includes('stored in plain text'))).toBe(true);
    for (const line of t.logger.lines) {
      for (const secret of secrets) {
        for (const form of [secret, secret.slice(9)]) {
          expect({ line: line.slice(0, 300), leaked: line.includes(form) }).toEqual({ line: line.slice(0, 300), leaked: false });
        }
      }
    }
  });

  it('not in the database or its files after shutdown (WAL checkpointed)', async () => {
    await expectStoredRowsWithoutSecrets();
    const files = folderBytes();
    if (t.databaseKind === 'sqlite') {
      expect(files.map(([path]) => path)).toContain(t.databasePath);
      const all = Buffer.concat(files.map(([, bytes]) => bytes));
      for (const id of keyIds) expect(all.includes(Buffer.from(id))).toBe(true);
    }
    expectNoSecretIn(files);
  });
});

/** A key, its all-upper-case copy (malformed) and its upper-case-hex copy (well-formed, unknown). */
function variantsOf(key: string): string[] {
  const hexAt = key.lastIndexOf('_') + 1;
  return [key, key.toUpperCase(), key.slice(0, hexAt) + key.slice(hexAt).toUpperCase()];
}
