import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { type CliRan, runCli } from '../harness/cli';
import { printedJson } from '../harness/cli-stderr';
import { TestApp } from '../harness/create-test-app';
import { modelChecksum } from '../harness/sha256';
import { SHIPPED_TIERS_FILE } from '../harness/service-process';

/**
 * Every CLI command that reads or writes the database, once each, on the database of the project
 * that runs this file: a SQLite file, PostgreSQL or MySQL / MariaDB (the CLI's other suites run once,
 * on SQLite, and prove the commands' every option and message). The BUILT CLI works on the same
 * database as a service started beside it in-process, which sees each change at once.
 * Needs `npm run build` (as `npm test` does).
 */

jest.setTimeout(180_000);

const ISO_SECOND = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const METADATA = JSON.stringify({
  description: 'Published by the CLI on each database',
  training_subjects: 3,
  accuracy: '0.70',
  feature_type: 'csp',
  recommended_use: 'CLI e2e test',
});

describe('operator CLI (built): every command that uses the database, on this project’s database', () => {
  let t: TestApp;
  let env: NodeJS.ProcessEnv;
  let folder: string;
  const printed: string[] = [];

  async function cli(...args: string[]): Promise<CliRan> {
    const ran = await runCli(args, { env });
    printed.push(ran.stdout, ran.stderr);
    return ran;
  }

  /** A command expected to succeed with `--json`: stderr holds only the line naming this database. */
  async function cliJson(...args: string[]): Promise<any> {
    return printedJson(await cli(...args, '--json'), t.databaseUrl);
  }

  beforeAll(async () => {
    t = await TestApp.start({ env: { SAMPLE_MODELS: 'false' } });
    folder = mkdtempSync(join(tmpdir(), 'svc-cli-storage-'));
    env = {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: t.databaseUrl,
      MODEL_STORE_DIR: join(t.folder, 'models'),
      TIERS_FILE: SHIPPED_TIERS_FILE,
      SAMPLE_MODELS: 'false',
    };
  });

  afterAll(async () => {
    await t?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('migrate finds the database up to date', async () => {
    const migrated = await cliJson('migrate');
    expect(migrated).toEqual({ applied: expect.any(Array), pending: [] });
    // the run's template applied them all (thirteen or more, named for this database's dialect)
    expect(migrated.applied.length).toBeGreaterThanOrEqual(13);
  });

  it('keys: create, list, show, update, rotate, revoke, audit and usage show, each seen by the service at once', async () => {
    const issued = await cliJson('keys', 'create', '--email', 'Ada@Example.org', '--name', 'Ada', '--license-type', 'research');
    expect(issued).toMatchObject({ key_id: expect.stringMatching(/^key_/), api_key: expect.stringMatching(/^svc_live_/) });
    expect(await t.post('/v1/auth/validate', { api_key: issued.api_key })).toMatchObject({
      status: 200,
      body: { valid: true, license_type: 'research' },
    });

    const listed = await cliJson('keys', 'list', '--email', 'ada@example.ORG', '--tier', 'research', '--status', 'active');
    expect(listed.keys.map((k: { key_id: string }) => k.key_id)).toEqual([issued.key_id]);

    const shown = await cliJson('keys', 'show', issued.key_id);
    expect(await t.admin('GET', `/admin/v1/keys/${issued.key_id}`)).toMatchObject({ status: 200, body: shown });

    const updated = await cliJson('keys', 'update', issued.key_id, '--license-type', 'commercial', '--monthly-limit', '7');
    expect(updated).toMatchObject({ license_type: 'commercial', monthly_limit: 7, monthly_limit_source: 'override' });
    expect((await t.post('/v1/auth/validate', { api_key: issued.api_key })).body).toMatchObject({
      license_type: 'commercial',
      quota: { monthly_limit: 7, used: 0 },
    });

    expect((await t.post('/v1/analytics/log', { api_key: issued.api_key, event_type: 'inference' })).status).toBe(202);
    const rotated = await cliJson('keys', 'rotate', issued.key_id, '--grace-seconds', '3600');
    expect(rotated).toMatchObject({ key_id: expect.stringMatching(/^key_/), previous_key_expires_at: expect.stringMatching(ISO_SECOND) });
    expect(await t.post('/v1/analytics/log', { api_key: rotated.api_key, event_type: 'inference' })).toMatchObject({
      status: 202,
      body: { quota: { used: 2, remaining: 5 } },
    });

    const period = new Date().toISOString().slice(0, 7);
    const usage = await cliJson('usage', 'show', '--license', issued.key_id, '--period', period);
    expect(usage).toMatchObject({
      license_id: issued.key_id,
      used: 2,
      monthly_limit: 7,
      by_key: { [issued.key_id]: 1, [rotated.key_id]: 1 },
    });
    expect(await t.admin('GET', `/admin/v1/usage?license_id=${issued.key_id}&period=${period}`)).toMatchObject({
      status: 200,
      body: usage,
    });

    const revoked = await cliJson('keys', 'revoke', rotated.key_id, '--reason', 'contract ended');
    expect(revoked).toMatchObject({ key_id: rotated.key_id, status: 'revoked' });
    expect(await t.post('/v1/auth/validate', { api_key: rotated.api_key })).toMatchObject({ status: 401, body: { code: 'INVALID_KEY' } });

    const audit = await cliJson('audit', '--key', issued.key_id);
    // the license's trail: the rotated key's revocation included
    expect(audit.entries.map((e: { action: string }) => e.action)).toEqual(['key.revoked', 'key.rotated', 'key.updated', 'key.issued']);
    for (const entry of audit.entries) expect(entry.actor).toEqual({ type: 'cli', user: userInfo().username });
    expect((await t.admin('GET', `/admin/v1/audit?key_id=${issued.key_id}`)).body.entries).toEqual(audit.entries);

    // the plaintext keys were printed once, by create and rotate, and are stored nowhere
    const contents = await t.databaseContents();
    const output = printed.join('\n');
    for (const key of [issued.api_key, rotated.api_key]) {
      expect({ key, stored: contents.includes(key), printed: output.split(key).length - 1 }).toEqual({ key, stored: false, printed: 1 });
    }
  });

  it('models: publish, list, show, delete and sweep, on the records the service serves', async () => {
    const bytes = randomBytes(20_000);
    const file = join(folder, 'storage_model.bin');
    writeFileSync(file, bytes);
    const published = await cliJson(
      ...['models', 'publish', file, '--name', 'storage_model', '--version', '1.0.0', '--type', 'SvcProbit'],
      ...['--paradigm', 'p300', '--n-features', '8', '--n-classes', '2', '--requires-license', 'free', '--metadata', METADATA],
    );
    expect(published).toMatchObject({ name: 'storage_model', size_bytes: 20_000, checksum: modelChecksum(bytes) });

    const key = await t.issueKey({ licenseType: 'free' });
    const listedByService = await t.get(`/v1/models/list?api_key=${key.api_key}`);
    expect(listedByService.body.models.map((m: { name: string }) => m.name)).toEqual(['storage_model']);
    expect((await cliJson('models', 'list')).models.map((m: { name: string }) => m.name)).toEqual(['storage_model']);
    expect(await cliJson('models', 'show', 'storage_model')).toMatchObject({ name: 'storage_model', stored_file: published.stored_file });

    expect(await cliJson('models', 'delete', 'storage_model')).toEqual({ name: 'storage_model', deleted: true });
    expect((await t.admin('GET', '/admin/v1/models/storage_model')).status).toBe(404);

    // a file no record names, older than the sweep's 10 minutes, goes; the records are read from this database
    const orphan = join(env.MODEL_STORE_DIR!, 'orphan-1.0.0-000000000000000000000000.bin');
    writeFileSync(orphan, 'left behind');
    const anHourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(orphan, anHourAgo, anHourAgo);
    expect(await cliJson('models', 'sweep')).toMatchObject({ removed: [expect.stringContaining('orphan-1.0.0-')], aborted_uploads: [] });
    expect(existsSync(orphan)).toBe(false);
  });

  it('license rotate-signing-key: the service publishes the new key in its JWKS', async () => {
    const before = (await t.get('/v1/license/jwks')).body.keys.map((k: { kid: string }) => k.kid);
    const rotation = await cliJson('license', 'rotate-signing-key');
    expect(rotation).toMatchObject({ kid: expect.any(String), generation: expect.any(Number), signs_from: expect.stringMatching(/Z$/) });
    // running instances read the keys again within a minute; a fresh read of the JWKS is what they publish
    const restarted = await TestApp.start({ env: { DATABASE_URL: t.databaseUrl, MODEL_STORE_DIR: join(t.folder, 'models') } });
    try {
      const after = (await restarted.get('/v1/license/jwks')).body.keys.map((k: { kid: string }) => k.kid);
      expect(after).toEqual(expect.arrayContaining([...before, rotation.kid]));
    } finally {
      await restarted.close();
    }
  });

  it('operators: create, list, token and disable, as the service authenticates them', async () => {
    const owner = await cliJson('operators', 'create', '--name', 'Storage owner', '--role', 'owner');
    const me = (token: string) => t.request('GET', '/admin/v1/me', { headers: { authorization: `Bearer ${token}` } });
    expect((await me(owner.token)).body).toMatchObject({ operator_id: owner.operator_id, role: 'owner' });
    const viewer = await cliJson('operators', 'create', '--name', 'Storage viewer', '--role', 'viewer');
    const listed = await cliJson('operators', 'list');
    expect(listed.operators.map((o: { name: string }) => o.name)).toEqual(['Storage owner', 'Storage viewer']);
    expect(JSON.stringify(listed)).not.toContain(owner.token);

    const replaced = await cliJson('operators', 'token', viewer.operator_id);
    expect([(await me(viewer.token)).status, (await me(replaced.token)).status]).toEqual([401, 200]);
    expect((await cliJson('operators', 'disable', viewer.operator_id)).disabled_at).toMatch(/Z$/);
    expect((await me(replaced.token)).status).toBe(401);
  });
});
