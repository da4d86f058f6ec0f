import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateMultipartUploadCommand } from '@aws-sdk/client-s3';
import Redis from 'ioredis';
import { S3ModelStore } from '../../libs/infrastructure/src/model-store/s3-model-store';
import { TEST_ADMIN_TOKEN } from '../harness/create-test-app';
import { type HttpAnswer, request } from '../harness/http';
import { type Jwks, fetchJwks, verifyIndependently } from '../harness/license-token';
import { downloadFile, streamDownload } from '../harness/model-download';
import { modelRecordBody, residentBytes, streamUpload } from '../harness/model-uploads';
import { S3RVER_CREDENTIALS, S3TestServer } from '../harness/s3-server';
import { expectedDatabaseLine } from '../harness/cli-stderr';
import { BUILT_CLI, ROOT, ServiceProcess } from '../harness/service-process';
import { eventually } from '../harness/eventually';
import { serverAvailableSync } from '../harness/services';
import { type TestDatabase, createTestDatabase, testDatabaseKind } from '../harness/test-database';
import { modelChecksum } from '../harness/sha256';

/**
 * CONTRACT 19: three processes of the built service, each working
 * in a temporary folder of its own (nothing shared on disk), on one database
 * server (PostgreSQL or MySQL: this file is left out on the SQLite run, whose
 * database is a shared file), one Redis and one object store (s3rver, started
 * here), as the shipped Kubernetes layout runs them: no signing key and no
 * link secret configured, so every instance reads the ones generated once
 * and kept in the database (CONTRACT 19).
 */
const onServerDatabase = testDatabaseKind() !== 'sqlite';
const redisUp = serverAvailableSync(6379, 'Redis');
const PREFIX = 'prod/models';
const MB = 1024 * 1024;

const RECORD = (name: string) => modelRecordBody(name, 'Object store test');

(onServerDatabase ? describe : describe.skip)('Three instances sharing nothing on disk, with model files in an object store', () => {
  const namespace = `svc-test:${randomBytes(6).toString('hex')}:`;
  let s3: S3TestServer;
  let folder: string;
  let database: TestDatabase;
  let env: Record<string, string>;
  let instances: ServiceProcess[] = [];
  let apiKey: string;

  const admin = (i: number, method: string, path: string, json?: unknown): Promise<HttpAnswer> =>
    request(instances[i].baseUrl, method, `/admin/v1${path}`, { json, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
  const keyed = (i: number, path: string): Promise<HttpAnswer> =>
    request(instances[i].baseUrl, 'GET', path, { headers: { 'x-api-key': apiKey } });
  const jwksOf = (i: number): Promise<Jwks> => fetchJwks(instances[i].baseUrl);
  const tokenOf = async (i: number): Promise<string> => {
    const validated = await request(instances[i].baseUrl, 'POST', '/v1/auth/validate', { json: { api_key: apiKey } });
    expect(validated.status).toBe(200);
    return validated.body.license_token;
  };
  const nowSeconds = (): number => Math.floor(Date.now() / 1000);
  const startInstance = (n: number): Promise<ServiceProcess> =>
    // a generous bound: three processes start at once on a machine shared with other test runs
    ServiceProcess.start(env, { cwd: mkdtempSync(join(folder, `instance-${n}-`)), startTimeoutMs: 60000 });

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'svc-instances-s3-'));
    s3 = await S3TestServer.start();
    database = await createTestDatabase(folder, undefined, { empty: true }); // the first instance migrates it
    env = {
      DATABASE_URL: database.url,
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      SAMPLE_MODELS: 'false',
      TIERS_FILE: join(ROOT, 'config/tiers.json'),
      MODEL_URL_TTL_SECONDS: '600',
      RATE_LIMIT_MODELS_PER_MINUTE: '100000',
      RATE_LIMIT_VALIDATE_PER_MINUTE: '100000',
      AUTH_FAILURE_LIMIT_PER_MINUTE: '0',
      // the SDK's notice that its 2027 versions need Node 22 is not what these tests look at
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ...s3.envFor(PREFIX),
      ...(redisUp ? { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_KEY_PREFIX: namespace } : {}),
    };
    // the first migrates the empty database; the other two start together on it
    instances = [await startInstance(0)];
    instances.push(...(await Promise.all([startInstance(1), startInstance(2)])));
    const key = await admin(0, 'POST', '/keys', { email: 'object-store@example.com', license_type: 'free' });
    expect(key.status).toBe(201);
    apiKey = key.body.api_key;
  }, 150000);

  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop('SIGKILL')));
    await database?.drop();
    await s3?.dispose();
    rmSync(folder, { recursive: true, force: true });
    if (redisUp) {
      const redis = new Redis(6379, '127.0.0.1');
      const keys = await redis.keys(`${namespace}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    }
  });

  it('a model uploaded through one downloads byte-exact through the links of the other two (whole and by range)', async () => {
    expect((await admin(0, 'POST', '/models', RECORD('shared_v1'))).status).toBe(201);
    const size = 7 * MB + 12345; // past one 5 MiB part: a multipart upload
    const uploaded = await streamUpload(`${instances[0].baseUrl}/admin/v1/models/shared_v1/file`, size);
    expect(uploaded.status).toBe(200);
    const record = JSON.parse(uploaded.text) as { checksum: string; size_bytes: number; stored_file: string };
    expect(record).toMatchObject({ checksum: `sha256:${uploaded.sha256}`, size_bytes: size });
    expect(await s3.objectKeys()).toEqual([`${PREFIX}/${record.stored_file}`]);
    expect(await s3.unfinishedUploadKeys()).toEqual([]);

    for (const i of [1, 2]) {
      const redirect = await keyed(i, '/v1/models/shared_v1/download');
      expect(redirect.status).toBe(302);
      const link = redirect.headers.get('location')!;
      expect(link.startsWith(`${s3.endpoint}/${s3.bucket}/${PREFIX}/${record.stored_file}?`)).toBe(true);
      // MODEL_URL_TTL_SECONDS, plus the minute links are made for (s3-model-store.ts)
      expect(new URL(link).searchParams.get('X-Amz-Expires')).toBe('660');
      const whole = await downloadFile(link);
      expect(whole.status).toBe(200);
      expect(whole.bytes.length).toBe(size);
      expect(modelChecksum(whole.bytes)).toBe(record.checksum);
      const part = await downloadFile(link, { range: 'bytes=5242870-5242889' });
      expect(part.status).toBe(206);
      expect(part.bytes.equals(whole.bytes.subarray(5242870, 5242890))).toBe(true);

      const listed = await keyed(i, '/v1/models/list');
      expect(listed.status).toBe(200);
      const entry = listed.body.models.find((m: { name: string }) => m.name === 'shared_v1');
      expect(entry.download_url.startsWith(`${s3.endpoint}/${s3.bucket}/${PREFIX}/${record.stored_file}?`)).toBe(true);
      expect(modelChecksum((await downloadFile(entry.download_url)).bytes)).toBe(record.checksum);
    }
  });

  it('no signing key configured: the license token of each verifies against the JWKS of every one (one key, generated in the database)', async () => {
    const jwks = await Promise.all([0, 1, 2].map(jwksOf));
    expect(jwks[0].keys).toHaveLength(1);
    expect(jwks[1]).toEqual(jwks[0]);
    expect(jwks[2]).toEqual(jwks[0]);
    for (const from of [0, 1, 2]) {
      const token = await tokenOf(from);
      for (const keys of jwks) expect(verifyIndependently(token, keys, nowSeconds()).license_type).toBe('free');
    }
  });

  it('an upload cut midway leaves no object, no unfinished multipart upload and no file on the record', async () => {
    expect((await admin(1, 'POST', '/models', RECORD('cut_v1'))).status).toBe(201);
    const before = await s3.objectKeys();

    const cut = await streamUpload(`${instances[1].baseUrl}/admin/v1/models/cut_v1/file`, 40 * MB, 17 * MB);
    expect(cut.status).toBe(0);

    // the service notices the cut, aborts the multipart upload, and answers nobody
    await eventually(async () => (await s3.unfinishedUploadKeys()).length === 0 && (await s3.objectKeys()).length === before.length, {
      timeoutMs: 15000,
    });
    expect(await s3.objectKeys()).toEqual(before);
    const shown = await admin(2, 'GET', '/models/cut_v1');
    expect(shown.body).toMatchObject({ stored_file: null, checksum: null, size_bytes: null, published: false });
    // and the instance goes on serving uploads
    const after = await streamUpload(`${instances[1].baseUrl}/admin/v1/models/cut_v1/file`, MB);
    expect(after.status).toBe(200);
  });

  it('a 200 MB upload into the object store: the resident memory of the instance grows by less than 50 MB', async () => {
    expect((await admin(2, 'POST', '/models', RECORD('large_v1'))).status).toBe(201);
    const pid = instances[2].child.pid!;
    await request(instances[2].baseUrl, 'GET', '/api/health');
    const baseline = residentBytes(pid);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), 20);
    const started = Date.now();
    let uploaded;
    try {
      uploaded = await streamUpload(`${instances[2].baseUrl}/admin/v1/models/large_v1/file`, 200 * MB);
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, residentBytes(pid));
    expect(uploaded.status).toBe(200);
    const record = JSON.parse(uploaded.text) as { checksum: string; size_bytes: number };
    expect(record).toMatchObject({ checksum: `sha256:${uploaded.sha256}`, size_bytes: 200 * MB });
    const growth = (peak - baseline) / MB;
    console.log(`200 MB into the object store in ${Date.now() - started} ms; resident memory growth ${growth.toFixed(1)} MB`);
    expect(growth).toBeLessThan(50);

    // the bytes in the store are the bytes sent, through another instance's link
    const link = (await keyed(0, '/v1/models/large_v1/download')).headers.get('location')!;
    const streamed = await streamDownload(link);
    expect(streamed.status).toBe(200);
    expect(streamed.checksum).toBe(record.checksum);
  }, 120000);

  it('the store stopped: downloads and uploads 503 with Retry-After, not ready; keys, analytics and listings answer; back: recovered', async () => {
    await s3.stop();
    try {
      for (let i = 0; i < 3; i++) {
        const ready = await request(instances[i].baseUrl, 'GET', '/api/health/ready');
        expect(ready.status).toBe(503);
        expect(ready.body.error).toEqual({ model_store: { status: 'down', message: 'Model store is not reachable' } });
        expect(ready.body.info.database).toEqual({ status: 'up' });

        const downloaded = await keyed(i, '/v1/models/shared_v1/download');
        expect(downloaded.status).toBe(503);
        expect(downloaded.body).toEqual({ error: 'Service unavailable', code: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
        expect(Number(downloaded.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

        const upload = await request(instances[i].baseUrl, 'PUT', '/admin/v1/models/cut_v1/file', {
          raw: randomBytes(1000),
          headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/octet-stream' },
        });
        expect(upload.status).toBe(503);
        expect(upload.body.code).toBe('SERVICE_UNAVAILABLE');
        expect(Number(upload.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

        const validated = await request(instances[i].baseUrl, 'POST', '/v1/auth/validate', { json: { api_key: apiKey } });
        expect(validated.status).toBe(200);
        expect(validated.body.valid).toBe(true);
        const logged = await request(instances[i].baseUrl, 'POST', '/v1/analytics/log', {
          json: { api_key: apiKey, event_type: 'model_load' },
        });
        expect(logged.status).toBe(202);
        const listed = await keyed(i, '/v1/models/list');
        expect(listed.status).toBe(200);
        expect(listed.body.models.map((m: { name: string }) => m.name)).toContain('shared_v1');
        expect((await request(instances[i].baseUrl, 'GET', '/api/health')).status).toBe(200);
      }
    } finally {
      await s3.resume();
    }

    for (let i = 0; i < 3; i++) {
      await eventually(async () => (await request(instances[i].baseUrl, 'GET', '/api/health/ready')).status === 200, { timeoutMs: 10000 });
      const redirect = await keyed(i, '/v1/models/shared_v1/download');
      expect(redirect.status).toBe(302);
      expect((await downloadFile(redirect.headers.get('location')!)).status).toBe(200);
    }
  }, 60000);

  it('an instance replaced by a fresh one in a new directory agrees: its token verifies everywhere, its links download byte-exact', async () => {
    const before = await jwksOf(0);
    const earlierToken = await tokenOf(2);
    const checksum = (await admin(0, 'GET', '/models/shared_v1')).body.checksum as string;
    await instances[2].stop('SIGTERM');
    instances[2] = await startInstance(3);
    expect(await jwksOf(2)).toEqual(before);
    expect(verifyIndependently(earlierToken, await jwksOf(2), nowSeconds()).license_type).toBe('free');
    expect(verifyIndependently(await tokenOf(2), before, nowSeconds()).license_type).toBe('free');
    const redirect = await keyed(2, '/v1/models/shared_v1/download');
    expect(redirect.status).toBe(302);
    expect(modelChecksum((await downloadFile(redirect.headers.get('location')!)).bytes)).toBe(checksum);
  }, 90000);

  it('the CLI sweep aborts multipart uploads unfinished for over a day, keeps younger ones and every named object', async () => {
    const client = S3ModelStore.clientFor(
      { bucket: s3.bucket, prefix: '', endpoint: s3.endpoint, forcePathStyle: true },
      { region: 'us-east-1', credentials: S3RVER_CREDENTIALS },
    );
    const stale = `stale_v1-1.0.0-${'a'.repeat(24)}.bin`;
    const fresh = `fresh_v1-1.0.0-${'b'.repeat(24)}.bin`;
    await client.send(new CreateMultipartUploadCommand({ Bucket: s3.bucket, Key: `${PREFIX}/${stale}` }));
    await s3.backdateUnfinishedUploads(new Date(Date.now() - 25 * 3600_000));
    await client.send(new CreateMultipartUploadCommand({ Bucket: s3.bucket, Key: `${PREFIX}/${fresh}` }));
    const objects = await s3.objectKeys();

    const swept = await new Promise<{ status: number; stdout: string; stderr: string }>((done) => {
      execFile(
        process.execPath,
        [BUILT_CLI, 'models', 'sweep', '--json'],
        { env: { PATH: process.env.PATH ?? '', ...env }, cwd: folder, timeout: 30000 },
        (error, stdout, stderr) => done({ status: error ? -1 : 0, stdout: String(stdout), stderr: String(stderr) }),
      );
    });
    // stderr: only the line naming the database
    expect(swept.stderr).toBe(`${expectedDatabaseLine(env.DATABASE_URL)}\n`);
    expect(swept.status).toBe(0);
    expect(JSON.parse(swept.stdout)).toEqual({ removed: [], kept: objects.length, aborted_uploads: [stale] });
    expect(await s3.unfinishedUploadKeys()).toEqual([`${PREFIX}/${fresh}`]);
    expect(await s3.objectKeys()).toEqual(objects);
  }, 60000);
});
