import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { TestApp } from '../harness/create-test-app';
import { WebhookReceiver, outboxSettled } from '../harness/webhook-receiver';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Distinctive raw fingerprints, none a substring of another, and never stored. */
const FINGERPRINTS = ['raw-fp-alpha-5f1e0c3a9d7b2e48', 'raw-fp-bravo-0c9d8e7f6a5b4c3d', 'raw-fp-charlie-1a2b3c4d5e6f7081'];

/** A table as the database's catalogue names it, with its columns. */
interface CatalogTable {
  readonly name: string;
  readonly columns: readonly string[];
}

/** Every table of the database the app runs on, and its columns, as its own catalogue lists them (nothing hard-coded). */
async function catalogue(t: TestApp): Promise<CatalogTable[]> {
  const db = t.app.get(DataSource);
  if (t.databaseKind === 'sqlite') {
    const tables: Array<{ name: string }> = await db.query("SELECT name FROM sqlite_master WHERE type = 'table'");
    return Promise.all(
      tables.map(async ({ name }) => ({
        name: `"${name}"`,
        columns: (await db.query<Array<{ name: string }>>(`PRAGMA table_info("${name}")`)).map((c) => `"${c.name}"`),
      })),
    );
  }
  const postgres = t.databaseKind === 'postgres';
  const rows: Array<{ table_schema: string; table_name: string; column_name: string }> = await db.query(
    postgres
      ? `SELECT c.table_schema, c.table_name, c.column_name FROM information_schema.columns c
           JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
          WHERE t.table_type = 'BASE TABLE' AND c.table_schema NOT IN ('pg_catalog', 'information_schema')`
      : `SELECT c.TABLE_SCHEMA AS table_schema, c.TABLE_NAME AS table_name, c.COLUMN_NAME AS column_name FROM information_schema.columns c
           JOIN information_schema.tables t ON t.TABLE_SCHEMA = c.TABLE_SCHEMA AND t.TABLE_NAME = c.TABLE_NAME
          WHERE t.TABLE_TYPE = 'BASE TABLE' AND c.TABLE_SCHEMA = DATABASE()`,
  );
  const quote = (name: string) => (postgres ? `"${name}"` : `\`${name}\``);
  const tables = new Map<string, string[]>();
  for (const row of rows) {
    const table = `${quote(row.table_schema)}.${quote(row.table_name)}`;
    tables.set(table, [...(tables.get(table) ?? []), quote(row.column_name)]);
  }
  return [...tables].map(([name, columns]) => ({ name, columns }));
}

/** Every value of every column of every table, read as text by the database itself, one table a section. */
async function everyTableAsText(t: TestApp): Promise<{ tables: string[]; text: string }> {
  const db = t.app.get(DataSource);
  const asText = (column: string) =>
    t.databaseKind === 'postgres' ? `${column}::text` : t.databaseKind === 'mysql' ? `CAST(${column} AS CHAR)` : `CAST(${column} AS TEXT)`;
  const tables = await catalogue(t);
  const sections: string[] = [];
  for (const table of tables) {
    const rows: Array<Record<string, unknown>> = await db.query(
      `SELECT ${table.columns.map((c, i) => `${asText(c)} AS v${i}`).join(', ')} FROM ${table.name}`,
    );
    sections.push(`${table.name}\n${rows.map((row) => Object.values(row).map(String).join('\t')).join('\n')}`);
  }
  return { tables: tables.map((table) => table.name), text: sections.join('\n') };
}

/**
 * CONTRACT 23: the service stores only a fingerprint's SHA-256, never the value, on each database.
 * Devices are activated, named on key calls (validate, refresh, analytics; header and body), heartbeat
 * and deactivated, with a webhook endpoint subscribed to everything; then every table the database's
 * catalogue lists is read, every column as text: no raw fingerprint anywhere, and each one's digest
 * there (so the dump does reach the devices).
 */
describe('No raw fingerprint in the database (CONTRACT 23)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await TestApp.start({ env: { WEBHOOK_ALLOW_INSECURE: 'true', SAMPLE_MODELS: 'false', WEBHOOK_POLL_INTERVAL_MS: '100' } });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('keeps only SHA-256 digests of fingerprints, in every table, after activations, named calls and deactivations', async () => {
    const events = ['device.activated', 'device.deactivated', 'device.limit_reached', 'key.issued', 'quota.warning'];
    expect((await t.admin('POST', '/admin/v1/webhooks', { url: receiver.url, events })).status).toBe(201);
    // a value of another table, to show the dump reads them all as text
    const { api_key } = await t.issueKey({ licenseType: 'free', organization: 'Marker Lab 7c1d-e2f0' });
    const research = await t.issueKey({ licenseType: 'research' });
    const [first, second, third] = FINGERPRINTS;
    expect((await t.post('/v1/devices/activate', { api_key, fingerprint: first, name: 'lab PC', platform: 'linux-x64' })).status).toBe(201);
    // refused for a full license: a device.limit_reached, and nothing of the fingerprint kept
    expect((await t.post('/v1/devices/activate', { api_key, fingerprint: second })).status).toBe(409);
    expect((await t.post('/v1/devices/activate', { api_key: research.api_key, fingerprint: second })).status).toBe(201);
    expect((await t.post('/v1/devices/activate', { api_key: research.api_key, fingerprint: third })).status).toBe(201);

    const named = { 'x-device-fingerprint': first };
    expect((await t.post('/v1/auth/validate', { api_key }, named)).status).toBe(200);
    expect((await t.post('/v1/auth/refresh', { api_key }, named)).status).toBe(200);
    expect((await t.post('/v1/auth/validate', { api_key: research.api_key, fingerprint: second })).status).toBe(200);
    const inference = { event_type: 'inference', model_name: 'm', inference_type: 'batch', success: true };
    expect((await t.post('/v1/analytics/log', { api_key, ...inference }, named)).status).toBe(202);
    expect((await t.post('/v1/analytics/log', { api_key: research.api_key, ...inference, fingerprint: third })).status).toBe(202);
    // a fingerprint that is not active is refused, and not kept either
    expect((await t.post('/v1/auth/validate', { api_key }, { 'x-device-fingerprint': third })).status).toBe(403);
    expect((await t.post('/v1/devices/heartbeat', { api_key: research.api_key, fingerprint: third })).status).toBe(200);
    expect((await t.post('/v1/devices/deactivate', { api_key: research.api_key, fingerprint: third })).status).toBe(200);
    await outboxSettled(t.baseUrl);

    const { tables, text } = await everyTableAsText(t);
    expect(tables.some((name) => name.includes('devices'))).toBe(true);
    expect(tables.length).toBeGreaterThan(10);
    expect(text).toContain('Marker Lab 7c1d-e2f0');
    for (const raw of FINGERPRINTS) {
      expect(text).not.toContain(raw);
      expect(text).toContain(sha256(raw));
    }
    // nor in what was sent or logged
    for (const raw of FINGERPRINTS) {
      expect(receiver.received.map((r) => r.body).join('\n')).not.toContain(raw);
      expect(t.logger.lines.join('\n')).not.toContain(raw);
    }
    expect(receiver.received.length).toBeGreaterThan(0);
  });
});
