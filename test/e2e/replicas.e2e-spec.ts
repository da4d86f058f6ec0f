import 'reflect-metadata';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@svc/config';
import { mysqlDataSourceOptions } from '@svc/infrastructure/persistence/mysql/mysql-data-source';
import { postgresDataSourceOptions } from '@svc/infrastructure/persistence/postgres/postgres-data-source';
import { sqliteDataSourceOptions } from '@svc/infrastructure/persistence/sqlite/sqlite-data-source';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { GENEROUS_LIMITS } from '../harness/create-test-app';
import { request } from '../harness/http';
import { type Jwk, verifyIndependently } from '../harness/license-token';
import { downloadFile } from '../harness/model-download';
import { modelRecordBody } from '../harness/model-uploads';
import { SHIPPED_TIERS_FILE, ServiceProcess } from '../harness/service-process';
import { type TestDatabase, createTestDatabase } from '../harness/test-database';

/**
 * CONTRACT 19: replicas with nothing shared on disk (each process in a working directory of its
 * own, so a data directory of its own) on one database, no secret configured, agree on the
 * generated secrets: the license signing key (equal JWKS, every token verifies against every
 * instance's JWKS) and the link secret (a link one signs opens on another). Runs on the
 * project's database: a SQLite file, or a PostgreSQL or MySQL database of this file's own.
 * Needs `npm run build` first.
 */

const ADMIN_TOKEN = 'replicas-admin-token-0123456789abcdef';
/**
 * How long a pod may take to answer: three processes starting at once on two busy cores took
 * ~20 s when measured (one alone: 3-5 s); three times that.
 */
const POD_START_TIMEOUT_MS = 60_000;

type Jwks = { keys: Jwk[] };

/** The database migrated with the service's own options, as a running instance would have left it. */
async function migrated(url: string): Promise<DataSource> {
  const { database } = loadConfig({ DATABASE_URL: url });
  const options: DataSourceOptions =
    database.kind === 'sqlite'
      ? sqliteDataSourceOptions(database)
      : database.kind === 'postgres'
        ? postgresDataSourceOptions(database)
        : mysqlDataSourceOptions(database);
  return new DataSource({ ...options, migrationsRun: true }).initialize();
}

async function storedSecrets(dataSource: DataSource): Promise<{ signingKeys: string[]; linkSecrets: string[] }> {
  const keys: Array<{ private_key: string }> = await dataSource.query('SELECT private_key FROM license_signing_keys ORDER BY generation');
  const secrets: Array<{ value: string }> = await dataSource.query('SELECT value FROM generated_secrets');
  return { signingKeys: keys.map((row) => row.private_key), linkSecrets: secrets.map((row) => row.value) };
}

function bodyOf(pem: string): string {
  return pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('Replicas with nothing shared on disk agree on the generated secrets (CONTRACT 19)', () => {
  let folder: string;
  const running = new Set<ServiceProcess>();
  const databases: TestDatabase[] = [];
  const dataSources: DataSource[] = [];

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'svc-replicas-'));
  });
  afterAll(async () => {
    await Promise.all([...running].map((p) => p.stop('SIGKILL')));
    await Promise.all(dataSources.map((d) => d.destroy()));
    for (const database of databases) await database.drop();
    rmSync(folder, { recursive: true, force: true });
  });

  /** A database of its own (a SQLite file in a folder of its own), migrated, with nothing generated yet. */
  async function freshDatabase(): Promise<{ url: string; dataSource: DataSource; database: TestDatabase }> {
    const database = await createTestDatabase(mkdtempSync(join(folder, 'db-')));
    databases.push(database);
    const dataSource = await migrated(database.url);
    dataSources.push(dataSource);
    return { url: database.url, dataSource, database };
  }

  /** An instance as a pod: the built service in a new, empty working directory of its own. */
  async function pod(databaseUrl: string, env: Record<string, string> = {}, cwd = mkdtempSync(join(folder, 'pod-'))) {
    const process = await ServiceProcess.start(
      {
        DATABASE_URL: databaseUrl,
        TIERS_FILE: SHIPPED_TIERS_FILE,
        ADMIN_TOKEN,
        CONSOLE_ENABLED: 'false',
        SAMPLE_MODELS: 'false',
        ...GENEROUS_LIMITS,
        ...env,
      },
      { cwd, startTimeoutMs: POD_START_TIMEOUT_MS },
    );
    running.add(process);
    return { process, cwd, baseUrl: process.baseUrl };
  }
  type Pod = Awaited<ReturnType<typeof pod>>;

  async function stop(instance: Pod): Promise<void> {
    await instance.process.stop();
    running.delete(instance.process);
  }

  const admin = (instance: Pod, method: string, path: string, json?: unknown) =>
    request(instance.baseUrl, method, path, { json, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });

  async function jwksOf(instance: Pod): Promise<Jwks> {
    const res = await request(instance.baseUrl, 'GET', '/v1/license/jwks');
    expect(res.status).toBe(200);
    return res.body as Jwks;
  }

  async function issuedKey(instance: Pod): Promise<string> {
    const res = await admin(instance, 'POST', '/admin/v1/keys', { email: 'pod@example.org', license_type: 'research' });
    expect(res.status).toBe(201);
    return res.body.api_key as string;
  }

  async function tokenOf(instance: Pod, apiKey: string): Promise<string> {
    const res = await request(instance.baseUrl, 'POST', '/v1/auth/validate', { json: { api_key: apiKey } });
    expect(res.status).toBe(200);
    return res.body.license_token as string;
  }

  /** Publishes a model whose file goes into `instance`'s own store (its data directory). */
  async function publish(instance: Pod, name: string, bytes: Buffer): Promise<void> {
    const created = await admin(instance, 'POST', '/admin/v1/models', modelRecordBody(name, 'Replica test'));
    expect(created.status).toBe(201);
    const uploaded = await request(instance.baseUrl, 'PUT', `/admin/v1/models/${name}/file`, {
      raw: bytes,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/octet-stream' },
    });
    expect(uploaded.status).toBe(200);
  }

  /** The signed link `signer` hands a key, opened on `holder` (where the file lives): what agreement on the secret allows. */
  async function openLinkOf(signer: Pod, holder: Pod, name: string, apiKey: string) {
    const res = await request(signer.baseUrl, 'GET', `/v1/models/${name}/download?api_key=${apiKey}`);
    expect(res.status).toBe(302);
    const link = new URL(res.headers.get('location')!);
    expect(link.origin).toBe(signer.baseUrl);
    expect(link.searchParams.get('signature')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    return downloadFile(`${holder.baseUrl}${link.pathname}${link.search}`);
  }

  describe('three instances started at the same moment on one database', () => {
    let db: Awaited<ReturnType<typeof freshDatabase>>;
    let pods: Pod[];
    let apiKey: string;
    const bytes = randomBytes(4096);

    beforeAll(async () => {
      db = await freshDatabase();
      pods = await Promise.all([0, 1, 2].map(() => pod(db.url)));
      apiKey = await issuedKey(pods[0]);
      await publish(pods[0], 'replica_v1', bytes);
    }, 150_000);

    it('generate one signing key: equal JWKS, and the token of each verifies against the JWKS of every one', async () => {
      const jwks = await Promise.all(pods.map(jwksOf));
      expect(jwks[0].keys).toHaveLength(1);
      expect(jwks[1]).toEqual(jwks[0]);
      expect(jwks[2]).toEqual(jwks[0]);
      for (const from of pods) {
        const token = await tokenOf(from, apiKey);
        for (const keys of jwks) expect(verifyIndependently(token, keys, nowSeconds()).license_type).toBe('research');
      }
      expect((await storedSecrets(db.dataSource)).signingKeys).toHaveLength(1);
    });

    it('generate one link secret: a link signed by one opens on the instance that holds the file', async () => {
      for (const signer of pods) {
        const res = await openLinkOf(signer, pods[0], 'replica_v1', apiKey);
        expect(res.status).toBe(200);
        expect(res.bytes.equals(bytes)).toBe(true);
      }
      expect((await storedSecrets(db.dataSource)).linkSecrets).toHaveLength(1);
    });

    it('write no secret under their data directories, and log none', async () => {
      const { signingKeys, linkSecrets } = await storedSecrets(db.dataSource);
      for (const instance of pods) {
        expect(existsSync(join(instance.cwd, 'data', 'license-signing-key.pem'))).toBe(false);
        expect(existsSync(join(instance.cwd, 'data', 'model-url.secret'))).toBe(false);
        expect(instance.process.output).not.toContain(bodyOf(signingKeys[0]));
        expect(instance.process.output).not.toContain(linkSecrets[0]);
      }
    });

    it('a pod replaced by a fresh one in a new directory agrees on both', async () => {
      const before = await jwksOf(pods[0]);
      const earlierToken = await tokenOf(pods[2], apiKey);
      await stop(pods[2]);
      pods[2] = await pod(db.url);
      expect(await jwksOf(pods[2])).toEqual(before);
      expect(verifyIndependently(earlierToken, await jwksOf(pods[2]), nowSeconds()).license_type).toBe('research');
      expect(verifyIndependently(await tokenOf(pods[2], apiKey), before, nowSeconds()).license_type).toBe('research');
      const res = await openLinkOf(pods[2], pods[0], 'replica_v1', apiKey);
      expect(res.status).toBe(200);
      expect(res.bytes.equals(bytes)).toBe(true);
    }, 90_000);
  });

  describe('upgrading from files under the data directory, and configured values', () => {
    it('configured values are used and never stored; the files an earlier version kept are taken over, so its tokens and links stay valid', async () => {
      const db = await freshDatabase();
      const dataDirectory = mkdtempSync(join(folder, 'pod-upgraded-'));
      const { privateKey } = generateKeyPairSync('ed25519', {
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
        publicKeyEncoding: { type: 'spki', format: 'pem' },
      });
      const linkSecret = randomBytes(32).toString('base64url');
      const bytes = randomBytes(2048);

      // configured: they sign, and nothing is written to the database
      const configured = await pod(db.url, { LICENSE_SIGNING_KEY: privateKey, MODEL_URL_SECRET: linkSecret }, dataDirectory);
      const apiKey = await issuedKey(configured);
      const earlierToken = await tokenOf(configured, apiKey);
      const earlierKid = (await jwksOf(configured)).keys[0].kid;
      await publish(configured, 'upgrade_v1', bytes);
      const earlierLink = new URL(
        (await request(configured.baseUrl, 'GET', `/v1/models/upgrade_v1/download?api_key=${apiKey}`)).headers.get('location')!,
      );
      await stop(configured);
      expect(await storedSecrets(db.dataSource)).toEqual({ signingKeys: [], linkSecrets: [] });
      const contents = await db.database.contents();
      expect(contents).not.toContain(bodyOf(privateKey));
      expect(contents).not.toContain(linkSecret);

      // the files the version before kept under the data directory (./data of the working directory)
      mkdirSync(join(dataDirectory, 'data'), { recursive: true });
      writeFileSync(join(dataDirectory, 'data', 'license-signing-key.pem'), `${privateKey.trim()}\n`, { mode: 0o600 });
      writeFileSync(join(dataDirectory, 'data', 'model-url.secret'), `${linkSecret}\n`, { mode: 0o600 });

      const upgraded = await pod(db.url, {}, dataDirectory);
      expect((await jwksOf(upgraded)).keys.map((key) => key.kid)).toEqual([earlierKid]);
      expect(verifyIndependently(earlierToken, await jwksOf(upgraded), nowSeconds()).license_type).toBe('research');
      const reopened = await downloadFile(`${upgraded.baseUrl}${earlierLink.pathname}${earlierLink.search}`);
      expect(reopened.status).toBe(200);
      expect(reopened.bytes.equals(bytes)).toBe(true);
      expect(await storedSecrets(db.dataSource)).toEqual({ signingKeys: [privateKey.trim()], linkSecrets: [linkSecret] });

      // a new pod with an empty directory reads them from the database
      const added = await pod(db.url);
      expect(await jwksOf(added)).toEqual(await jwksOf(upgraded));
      const res = await openLinkOf(added, upgraded, 'upgrade_v1', apiKey);
      expect(res.status).toBe(200);
      for (const instance of [upgraded, added]) {
        expect(instance.process.output).not.toContain(bodyOf(privateKey));
        expect(instance.process.output).not.toContain(linkSecret);
      }
    }, 240_000);
  });
});
