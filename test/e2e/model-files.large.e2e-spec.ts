import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { modelFileLinkPayload, modelFileLinkQuery, modelFilePathOf } from '@svc/domain';
import { HmacModelLinkSigner } from '@svc/infrastructure';
import { TEST_ADMIN_TOKEN } from '../harness/create-test-app';
import { modelRecordBody, residentBytes, sampleResident, streamUpload } from '../harness/model-uploads';
import { streamDownload } from '../harness/model-download';
import { ServiceProcess } from '../harness/service-process';
import { type TestDatabase, createTestDatabase } from '../harness/test-database';

/**
 * CONTRACT 7: large files stay cheap. A 200 MB model file is
 * uploaded (admin PUT, streamed from a generator: the test holds no 200 MB
 * buffer either) to the built service running as a process of its own, then
 * downloaded through a signed link, while the service's resident memory
 * (/proc/<pid>/status VmRSS) is sampled: it grows by less than 50 MB, and the
 * SHA-256 of what comes back is the SHA-256 of what went in.
 */

const SIZE = 200 * 1024 * 1024;
const SECRET = 'large-file-test-model-url-secret-0123456789';
const MB = 1024 * 1024;

function call(url: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('A 200 MB model file, uploaded and downloaded by the service as a process of its own', () => {
  let folder: string;
  let database: TestDatabase;
  let service: ServiceProcess;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'svc-large-'));
    // the project's database (SQLite, PostgreSQL or MySQL): the record lives there, the bytes in the store
    database = await createTestDatabase(folder);
    service = await ServiceProcess.start({
      DATABASE_URL: database.url,
      MODEL_STORE_DIR: join(folder, 'models'),
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      SAMPLE_MODELS: 'false',
      MODEL_URL_SECRET: SECRET,
    });
  }, 30000);

  afterAll(async () => {
    await service?.stop('SIGKILL');
    await database?.drop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('streams both ways: resident memory grows by less than 50 MB, and the bytes come back whole', async () => {
    const pid = service.child.pid!;
    const created = await call(
      `${service.baseUrl}/admin/v1/models`,
      'POST',
      { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      JSON.stringify(modelRecordBody('large_v1', 'A large model')),
    );
    expect(created.status).toBe(201);
    // warm the upload and download paths (code loaded, pools sized) before the baseline
    await call(`${service.baseUrl}/api/health`, 'GET', {});
    const baseline = residentBytes(pid);
    const started = Date.now();

    const uploadSampler = sampleResident(pid);
    const uploaded = await streamUpload(`${service.baseUrl}/admin/v1/models/large_v1/file`, SIZE);
    const uploadPeak = uploadSampler.stop();
    expect(uploaded.status).toBe(200);
    const record = JSON.parse(uploaded.text) as { checksum: string; size_bytes: number; stored_file: string };
    expect(record.size_bytes).toBe(SIZE);
    expect(record.checksum).toBe(`sha256:${uploaded.sha256}`);

    // the signed link a key is handed (the same format and MAC, under the same secret)
    const path = modelFilePathOf(record.stored_file);
    const expires = Math.floor(Date.now() / 1000) + 600;
    const link = `${service.baseUrl}${path}?${modelFileLinkQuery(expires, new HmacModelLinkSigner(SECRET).sign(modelFileLinkPayload(path, expires)))}`;
    const downloadSampler = sampleResident(pid);
    const downloaded = await streamDownload(link);
    const downloadPeak = downloadSampler.stop();
    expect(downloaded.status).toBe(200);
    expect(downloaded.bytes).toBe(SIZE);
    expect(downloaded.checksum).toBe(record.checksum);

    const growth = { upload: (uploadPeak - baseline) / MB, download: (downloadPeak - baseline) / MB };
    console.log(`200 MB in ${Date.now() - started} ms; resident memory growth (MB): ${JSON.stringify(growth)}`);
    expect(growth.upload).toBeLessThan(50);
    expect(growth.download).toBeLessThan(50);
  }, 60000);
});
