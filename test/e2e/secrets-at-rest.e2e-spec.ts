import { spawn } from 'node:child_process';
import { createPrivateKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GeneratedSecretRepository, LicenseSigningKeyRepository, ModelLinkSigner } from '@svc/domain';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { splitCliStderr } from '../harness/cli-stderr';
import { TestApp } from '../harness/create-test-app';
import { type Jwk, verifyIndependently } from '../harness/license-token';
import { BUILT_API, BUILT_CLI, ROOT, freePort } from '../harness/service-process';
import { eventually } from '../harness/eventually';
import { type TestDatabase, createTestDatabase, testDatabaseKind } from '../harness/test-database';
import { type ReceivedWebhook, WebhookReceiver } from '../harness/webhook-receiver';

/**
 * The secrets the service keeps in the database (the generated license
 * signing key, the generated model link secret, webhook signing secrets) are encrypted at rest
 * with SECRETS_KEY (AES-256-GCM, a nonce each), so the raw rows hold none of them while the
 * service still signs licenses that verify against its JWKS and webhooks that verify; a wrong
 * or missing key stops the start with a line naming SECRETS_KEY; `license rotate-secrets-key`
 * (the built CLI) moves them to NEW_SECRETS_KEY, after which the service starts with the new
 * key only. Values written in plain text before a key was set still read. On the project's
 * database (SQLite file, PostgreSQL or MySQL); the SQLite file's modes on SQLite. Needs
 * `npm run build` (the CLI and the service process).
 */

// several service and CLI processes start in a test: on a busy 2-core machine, each may take seconds
jest.setTimeout(180_000);

const INSECURE = { WEBHOOK_ALLOW_INSECURE: 'true', SAMPLE_MODELS: 'false' };
const newKey = (): string => randomBytes(32).toString('base64');
/** Bounds one CLI run or one failing start (a busy machine: generous). */
const RUN_TIMEOUT_MS = 60_000;

interface Ran {
  readonly code: number | null;
  readonly output: string;
}

/**
 * The built program (CLI or service) with exactly `env` (and PATH), until it exits (killed past RUN_TIMEOUT_MS: code null).
 * `output` is stdout, then stderr without the CLI's first line naming the database.
 */
function run(program: string, env: Record<string, string>, ...args: string[]): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [program, ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output: stdout + splitCliStderr(stderr).rest });
    });
  });
}

/** The signature is exactly `secret`'s over this message (Standard Webhooks: one signature per signing secret). */
function signedBy(secret: string, message: ReceivedWebhook): boolean {
  const id = String(message.headers['webhook-id']);
  const timestamp = new Date(Number(message.headers['webhook-timestamp']) * 1000);
  return String(message.headers['webhook-signature'])
    .split(' ')
    .includes(new Webhook(secret).sign(id, timestamp, message.body));
}

/**
 * Every form an app's secrets could be found in, in the raw rows: the signing key's PEM line
 * (an Ed25519 PKCS#8 key is one line of base64) and its JWK `d` (base64url, base64 and hex of
 * the seed), the link secret, and each webhook secret whole and without its `whsec_` prefix.
 * `stored`: the forms a plain-text row holds (to show the search finds them when they are there).
 */
async function secretFormsOf(t: TestApp, webhookSecrets: readonly string[]): Promise<{ all: string[]; stored: string[] }> {
  const [signing] = await t.app.get(LicenseSigningKeyRepository).list();
  const pemLines = signing.privateKey.split('\n').filter((line) => line !== '' && !line.startsWith('-----'));
  const d = createPrivateKey(signing.privateKey).export({ format: 'jwk' }).d!;
  const seed = Buffer.from(d, 'base64url');
  const link = (await t.app.get(GeneratedSecretRepository).find('model-link-secret'))!;
  const stored = [...pemLines, link, ...webhookSecrets];
  return {
    all: [...stored, d, seed.toString('base64'), seed.toString('hex'), ...webhookSecrets.map((s) => s.slice('whsec_'.length))],
    stored,
  };
}

/** The rows of the three tables that keep secrets, as the database returns them (no decryption). */
async function secretRows(t: TestApp): Promise<string> {
  const dataSource = t.app.get(DataSource);
  const rows = await Promise.all(
    [
      'SELECT name, value FROM generated_secrets',
      'SELECT generation, private_key FROM license_signing_keys',
      'SELECT id, secret, previous_secret FROM webhook_endpoints',
    ].map((sql) => dataSource.query<unknown[]>(sql)),
  );
  return JSON.stringify(rows);
}

async function jwksOf(t: TestApp): Promise<{ keys: Jwk[] }> {
  const res = await t.get('/v1/license/jwks');
  expect(res.status).toBe(200);
  return res.body as { keys: Jwk[] };
}

/** A license token for a new key, verified against `t`'s JWKS by a verifier with none of the service's code. */
async function verifiedLicense(t: TestApp): Promise<{ token: string; kid: string }> {
  const key = await t.issueKey({ email: `${randomBytes(4).toString('hex')}@example.org` });
  const res = await t.post('/v1/auth/validate', { api_key: key.api_key });
  expect(res.status).toBe(200);
  const token = res.body.license_token as string;
  expect(verifyIndependently(token, await jwksOf(t), Math.floor(Date.now() / 1000)).sub).toBe(key.key_id);
  return { token, kid: (JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8')) as { kid: string }).kid };
}

/** Sends a test event to endpoint `id` and answers the message the receiver got. */
async function testDelivery(t: TestApp, receiver: WebhookReceiver, id: string): Promise<ReceivedWebhook> {
  const before = receiver.received.length;
  const sent = await t.admin('POST', `/admin/v1/webhooks/${id}/test`);
  expect(sent.status).toBeLessThan(300);
  await eventually(() => receiver.received.length > before, { timeoutMs: 20_000 });
  return receiver.received[receiver.received.length - 1];
}

describe('Secrets at rest with SECRETS_KEY, and moving to a new key', () => {
  const [firstKey, secondKey, wrongKey] = [newKey(), newKey(), newKey()];
  let receiver: WebhookReceiver;
  let a: TestApp;
  let b: TestApp | undefined;
  let endpointId = '';
  /** The endpoint's secrets: the first (replaced, still signing for 24 h) and the current one. */
  const webhookSecrets: string[] = [];
  let forms: string[] = [];
  let kid = '';
  let linkSecret = '';
  let signedLink = '';
  let cliEnv: Record<string, string>;
  let folder: string;
  let database: TestDatabase;
  let aClosed = false;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    // a database of the test's own, so that the first instance can stop and a second start on it
    folder = mkdtempSync(join(tmpdir(), 'svc-secrets-'));
    database = await createTestDatabase(folder);
    cliEnv = { DATABASE_URL: database.url, MODEL_STORE_DIR: join(folder, 'models'), LOG_LEVEL: 'error' };
    a = await TestApp.start({ env: { ...INSECURE, ...cliEnv, LOG_LEVEL: 'info', SECRETS_KEY: firstKey } });
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    if (!aClosed) await a?.close();
    await receiver?.close();
    await database?.drop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('keeps no secret in plain text in the raw rows; licenses verify against the JWKS and webhooks verify', async () => {
    const created = await a.admin('POST', '/admin/v1/webhooks', { url: receiver.url, events: ['model.deleted'] });
    expect(created.status).toBe(201);
    endpointId = created.body.id;
    webhookSecrets.push(created.body.secret);
    const replaced = await a.admin('POST', `/admin/v1/webhooks/${endpointId}/secret`);
    expect(replaced.status).toBe(201);
    webhookSecrets.push(replaced.body.secret);

    kid = (await verifiedLicense(a)).kid;
    const message = await testDelivery(a, receiver, endpointId);
    expect(new Webhook(webhookSecrets[1]).verify(message.body, message.headers as Record<string, string>)).toMatchObject({
      type: 'webhook.test',
    });
    expect(webhookSecrets.map((secret) => signedBy(secret, message))).toEqual([true, true]);
    linkSecret = (await a.app.get(GeneratedSecretRepository).find('model-link-secret'))!;
    expect(linkSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    signedLink = a.app.get(ModelLinkSigner).sign('models/m.bin:1893456000');

    // the raw database (SQLite: the file and its write-ahead log, byte for byte; the servers: every row of every table)
    forms = (await secretFormsOf(a, webhookSecrets)).all;
    const contents = await database.contents();
    expect(contents).toContain(endpointId);
    expect(contents).toContain('enc:v1:');
    for (const form of forms) expect({ form, found: contents.includes(form) }).toEqual({ form, found: false });
    const rows = JSON.parse(await secretRows(a)) as Array<Array<Record<string, unknown>>>;
    const stored = rows
      .flat()
      .flatMap((row) => Object.entries(row).filter(([column]) => column !== 'name' && column !== 'generation' && column !== 'id'));
    expect(stored.length).toBe(4); // the link secret, the signing key, the endpoint's secret and its previous one
    for (const [column, value] of stored) expect({ column, value: String(value).slice(0, 7) }).toEqual({ column, value: 'enc:v1:' });

    // no key, no secret in any log line; no plain-text warning with a key set
    const logs = a.logger.lines.join('\n');
    for (const text of [firstKey, ...forms]) expect(logs).not.toContain(text);
    expect(logs).not.toContain('stored in plain text');
  });

  /** Starts the built service on `a`'s database with `env`: it should stop at once, with its output. */
  async function failedStart(env: Record<string, string>): Promise<Ran> {
    const port = await freePort();
    return run(BUILT_API, {
      ...INSECURE,
      DATABASE_URL: a.databaseUrl,
      MODEL_STORE_DIR: a.config.models.storeDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      ...env,
    });
  }

  it('a wrong SECRETS_KEY, or none, stops the start with one line naming SECRETS_KEY (never a key)', async () => {
    const wrong = await failedStart({ SECRETS_KEY: wrongKey });
    expect(wrong.code).toBe(1);
    // the first kept secret read (the link secret, or the signing key) names it
    expect(wrong.output).toMatch(
      /^Invalid configuration: SECRETS_KEY cannot decrypt (generated_secrets\.value of model-link-secret|license_signing_keys\.private_key of generation 1): it was encrypted with another key \(or altered\)\. Set SECRETS_KEY to the key it was encrypted with/m,
    );
    const none = await failedStart({});
    expect(none.code).toBe(1);
    expect(none.output).toMatch(
      /^Invalid configuration: (generated_secrets\.value of model-link-secret|license_signing_keys\.private_key of generation 1) is encrypted at rest and SECRETS_KEY is not set/m,
    );
    // every kept secret is checked at start-up, not only those the start reads: with the signing key and the link
    // secret configured nothing reads a kept one, and the check still stops it
    const { privateKey } = generateKeyPairSync('ed25519');
    const configured = await failedStart({
      SECRETS_KEY: wrongKey,
      LICENSE_SIGNING_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      MODEL_URL_SECRET: 'x'.repeat(40),
    });
    expect(configured.code).toBe(1);
    expect(configured.output).toMatch(
      /^Invalid configuration: SECRETS_KEY cannot decrypt [a-z_.]+ of \S+: it was encrypted with another key/m,
    );
    for (const ran of [wrong, none, configured]) {
      for (const text of [wrongKey, firstKey, ...forms]) expect(ran.output).not.toContain(text);
    }
  });

  it('license rotate-secrets-key moves every secret to NEW_SECRETS_KEY; the service starts with the new key only', async () => {
    // without the current key the CLI stops before it writes anything, as the service does
    const refused = await run(BUILT_CLI, { ...cliEnv, NEW_SECRETS_KEY: secondKey }, 'license', 'rotate-secrets-key');
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(
      /^Invalid configuration: NEW_SECRETS_KEY cannot decrypt .*Set SECRETS_KEY to the key it was encrypted with/,
    );

    const moved = await run(
      BUILT_CLI,
      { ...cliEnv, SECRETS_KEY: firstKey, NEW_SECRETS_KEY: secondKey },
      'license',
      'rotate-secrets-key',
      '--json',
    );
    expect(moved.code).toBe(0);
    expect(moved.code === 0 ? JSON.parse(moved.output) : moved.output).toEqual({
      encrypted_under: 'NEW_SECRETS_KEY',
      resealed: 4,
      unchanged: 0,
    });
    // run again (or after a failure half-way): nothing left to move
    const again = await run(BUILT_CLI, { ...cliEnv, SECRETS_KEY: firstKey, NEW_SECRETS_KEY: secondKey }, 'license', 'rotate-secrets-key');
    expect(again.code).toBe(0);
    expect(again.output).toContain('Encrypted 0 secret(s) kept in the database under NEW_SECRETS_KEY; 4 already were.');
    expect(again.output).toContain('Now set SECRETS_KEY to the new key');
    for (const text of [firstKey, secondKey, ...forms]) expect(moved.output + again.output).not.toContain(text);

    // every instance restarts with the new key, as the command says: one left on the old key could
    // claim a delivery and fail to read its endpoint's secret
    await a.close();
    aClosed = true;
    // the old key no longer reads them; the new one does, and nothing changed for SDKs and receivers
    const old = await failedStart({ SECRETS_KEY: firstKey });
    expect({ code: old.code, refused: old.output.includes('Invalid configuration: SECRETS_KEY cannot decrypt ') }).toEqual({
      code: 1,
      refused: true,
    });
    b = await TestApp.start({ env: { ...INSECURE, ...cliEnv, LOG_LEVEL: 'info', SECRETS_KEY: secondKey } });
    expect((await jwksOf(b)).keys.map((key) => key.kid)).toEqual([kid]);
    expect((await verifiedLicense(b)).kid).toBe(kid);
    expect(await b.app.get(GeneratedSecretRepository).find('model-link-secret')).toBe(linkSecret);
    // a link signed before the move opens after it
    expect(b.app.get(ModelLinkSigner).verify('models/m.bin:1893456000', signedLink)).toBe(true);
    const message = await testDelivery(b, receiver, endpointId);
    expect(webhookSecrets.map((secret) => signedBy(secret, message))).toEqual([true, true]);

    const rows = await secretRows(b);
    expect(rows.match(/enc:v1:/g)).toHaveLength(4);
    for (const form of forms) expect({ form, found: rows.includes(form) }).toEqual({ form, found: false });
  });
});

describe('Secrets written in plain text before SECRETS_KEY was set', () => {
  const key = newKey();
  let receiver: WebhookReceiver;
  let plain: TestApp;
  let keyed: TestApp | undefined;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    plain = await TestApp.start({ env: INSECURE });
  }, 60_000);
  afterAll(async () => {
    await keyed?.close();
    await plain?.close();
    await receiver?.close();
  });

  it('without SECRETS_KEY: stored in plain text, and the start logs exactly one warning saying so', async () => {
    const warnings = plain.logger.lines.filter((line) => line.includes('stored in plain text'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warn .*SECRETS_KEY is not set: the secrets kept in the database/);
    const created = await plain.admin('POST', '/admin/v1/webhooks', { url: receiver.url, events: ['model.deleted'] });
    expect(created.status).toBe(201);
    // what SECRETS_KEY protects against: the rows hold the secrets as they are
    const rows = await secretRows(plain);
    expect(rows).toContain(created.body.secret);
    expect(rows).not.toContain('enc:v1:');
  });

  it('with SECRETS_KEY set they still read, new ones are encrypted, and the command encrypts the rest', async () => {
    const [endpoint] = (await plain.admin('GET', '/admin/v1/webhooks')).body.webhooks as Array<{ id: string }>;
    const before = await secretFormsOf(plain, []);
    const kid = (await verifiedLicense(plain)).kid;
    const env = { ...INSECURE, DATABASE_URL: plain.databaseUrl, MODEL_STORE_DIR: plain.config.models.storeDir };
    // the command needs a key to encrypt under
    const refused = await run(BUILT_CLI, { ...env, LOG_LEVEL: 'error' }, 'license', 'rotate-secrets-key');
    expect({ code: refused.code, output: refused.output }).toEqual({
      code: 1,
      output: expect.stringContaining('error: set NEW_SECRETS_KEY to the key to encrypt under'),
    });
    // (`plain` keeps running: closing it would drop the test's database)

    keyed = await TestApp.start({ env: { ...env, SECRETS_KEY: key } });
    expect(keyed.logger.lines.filter((line) => line.includes('stored in plain text'))).toEqual([]);
    expect((await verifiedLicense(keyed)).kid).toBe(kid);
    // a new secret is written encrypted (and its predecessor, still signing, with it)
    const replaced = await keyed.admin('POST', `/admin/v1/webhooks/${endpoint.id}/secret`);
    expect(replaced.status).toBe(201);
    const message = await testDelivery(keyed, receiver, endpoint.id);
    expect(signedBy(replaced.body.secret, message)).toBe(true);
    let rows = await secretRows(keyed);
    expect(rows).not.toContain(replaced.body.secret);
    expect(rows.match(/enc:v1:/g)).toHaveLength(2);
    // the signing key and the link secret are still as they were written
    for (const form of before.stored) expect({ form, found: rows.includes(form) }).toEqual({ form, found: true });

    const ran = await run(BUILT_CLI, { ...env, SECRETS_KEY: key, LOG_LEVEL: 'error' }, 'license', 'rotate-secrets-key', '--json');
    expect({ code: ran.code, output: ran.code === 0 ? JSON.parse(ran.output) : ran.output }).toEqual({
      code: 0,
      output: { encrypted_under: 'SECRETS_KEY', resealed: 2, unchanged: 2 },
    });
    rows = await secretRows(keyed);
    expect(rows.match(/enc:v1:/g)).toHaveLength(4);
    for (const form of before.all) expect({ form, found: rows.includes(form) }).toEqual({ form, found: false });
    expect((await verifiedLicense(keyed)).kid).toBe(kid);
  });
});

(testDatabaseKind() === 'sqlite' ? describe : describe.skip)("The SQLite file is its user's only", () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'svc-modes-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8);

  it('the service creates the data folder 0700 and the database 0600 (its -wal and -shm files alike)', async () => {
    const path = join(folder, 'service', 'data', 'service.db');
    const t = await TestApp.start({ env: { DATABASE_URL: `sqlite:${path}`, SAMPLE_MODELS: 'false' } });
    try {
      expect(await verifiedLicense(t)).toBeTruthy();
      expect({ folder: modeOf(join(folder, 'service')), data: modeOf(join(folder, 'service', 'data')), file: modeOf(path) }).toEqual({
        folder: '700',
        data: '700',
        file: '600',
      });
      for (const companion of [`${path}-wal`, `${path}-shm`]) if (existsSync(companion)) expect(modeOf(companion)).toBe('600');
    } finally {
      await t.close();
    }
  });

  it('so does the CLI', async () => {
    const path = join(folder, 'cli', 'data', 'service.db');
    const ran = await run(BUILT_CLI, { DATABASE_URL: `sqlite:${path}`, MODEL_STORE_DIR: join(folder, 'cli', 'models') }, 'migrate');
    expect(ran.code).toBe(0);
    expect([modeOf(join(folder, 'cli', 'data')), modeOf(path)]).toEqual(['700', '600']);
  });
});
