import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { type ClientRequest, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { TEST_ADMIN_TOKEN, TestApp } from '../harness/create-test-app';
import { type HttpAnswer } from '../harness/http';
import { downloadFile, signedLinkOf } from '../harness/model-download';
import { eventually } from '../harness/eventually';
import { modelChecksum } from '../harness/sha256';

/**
 * The operators' model calls (CONTRACT 12) and the sample catalogue. For a
 * file the service holds, `checksum`, `size_mb` and `size_bytes` are computed
 * from the uploaded bytes (a body's values must equal them); an external
 * `download_url` needs the file's `checksum` and `size_bytes` (CONTRACT 7).
 */

const UNAUTHORIZED = { error: 'Unauthorized', code: 'UNAUTHORIZED', message: 'Send Authorization: Bearer <admin token>' };
const MODEL_NOT_FOUND = { error: 'Model not found', code: 'MODEL_NOT_FOUND' };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const METADATA = {
  description: 'Operator test model',
  training_subjects: 20,
  accuracy: '0.72-0.81',
  feature_type: 'csp',
  recommended_use: 'Cue-based motor imagery',
};

function record(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    version: '2.1.0',
    type: 'SvcQDA',
    paradigm: 'motor_imagery',
    n_features: 12,
    n_classes: 3,
    requires_license: 'research',
    metadata: METADATA,
    ...extra,
  };
}

const CDN_CHECKSUM = `sha256:${'c'.repeat(64)}`;

function invalidRequestNaming(field: string): object {
  return { error: 'Invalid request', code: 'INVALID_REQUEST', message: expect.stringContaining(field) };
}

function upload(t: TestApp, name: string, bytes: Uint8Array, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  return t.request('PUT', `/admin/v1/models/${name}/file`, {
    raw: bytes,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/octet-stream', ...headers },
  });
}

async function download(url: string): Promise<Uint8Array> {
  const res = await downloadFile(url);
  expect(res.status).toBe(200);
  return new Uint8Array(res.bytes);
}

/** A raw upload over node:http: chunked, aborted half-way, or with a declared length and no body. */
function rawUpload(
  t: TestApp,
  name: string,
  headers: Record<string, string | number>,
  send: (req: ClientRequest) => void,
): Promise<{ status: number; text: string }> {
  const url = new URL(t.baseUrl);
  return new Promise((done, fail) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: 'PUT',
        path: `/admin/v1/models/${name}/file`,
        agent: false,
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/octet-stream', ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', fail);
    send(req);
  });
}

function chunkedUpload(t: TestApp, name: string, chunks: Buffer[]): Promise<{ status: number; text: string }> {
  return rawUpload(t, name, { 'transfer-encoding': 'chunked' }, (req) => {
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

function declaredUpload(t: TestApp, name: string, length: number): Promise<{ status: number; text: string }> {
  return rawUpload(t, name, { 'content-length': length }, (req) => req.write(Buffer.from('x')));
}

/** Sends part of a declared body, then drops the connection. */
async function abortedUpload(t: TestApp, name: string, part: Buffer): Promise<void> {
  await rawUpload(t, name, { 'content-length': part.length * 4 }, (req) => {
    req.write(part, () => setTimeout(() => req.destroy(), 100));
  }).catch(() => undefined);
}

describe('Admin API: models (/admin/v1/models)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start({ env: { SAMPLE_MODELS: 'false' } });
  });
  afterAll(async () => {
    await t.close();
  });

  const storedFiles = (): string[] => readdirSync(t.config.models.storeDir).sort();

  describe('POST /admin/v1/models', () => {
    describe('201', () => {
      it('registers a record that is not yet published: no file, no address, no checksum', async () => {
        const res = await t.admin('POST', '/admin/v1/models', record('mi_draft_v1', { surprise: 'ignored' }));
        expect(res.status).toBe(201);
        expect(res.body).toEqual({
          name: 'mi_draft_v1',
          version: '2.1.0',
          type: 'SvcQDA',
          paradigm: 'motor_imagery',
          n_features: 12,
          n_classes: 3,
          size_mb: null,
          size_bytes: null,
          download_url: null,
          checksum: null,
          requires_license: 'research',
          metadata: METADATA,
          owner_user_id: null,
          published: false,
          stored_file: null,
          created_at: expect.stringMatching(ISO),
          updated_at: expect.stringMatching(ISO),
        });
        const key = await t.issueKey({ licenseType: 'enterprise' });
        expect((await t.get(`/v1/models/list?api_key=${key.api_key}`)).body).toEqual({ models: [], total: 0 });
        expect((await t.get(`/v1/models/mi_draft_v1?api_key=${key.api_key}`)).body).toEqual(MODEL_NOT_FOUND);
      });

      it('keeps extra metadata fields as given', async () => {
        const res = await t.admin(
          'POST',
          '/admin/v1/models',
          record('mi_meta_v1', { metadata: { ...METADATA, channels: ['C3', 'Cz', 'C4'] } }),
        );
        expect(res.status).toBe(201);
        expect(res.body.metadata).toEqual({ ...METADATA, channels: ['C3', 'Cz', 'C4'] });
      });

      it('a custom model names an existing user as its owner', async () => {
        const key = await t.issueKey({ licenseType: 'commercial' });
        const res = await t.admin(
          'POST',
          '/admin/v1/models',
          record('custom_owned_v1', { owner_user_id: key.user_id, requires_license: 'commercial' }),
        );
        expect(res.status).toBe(201);
        expect(res.body.owner_user_id).toBe(key.user_id);
      });
    });

    describe('400 INVALID_REQUEST naming the field', () => {
      it.each([
        ['checksum', { checksum: `sha256:${'0'.repeat(64)}` }],
        ['size_mb', { size_mb: 1.5 }],
        ['size_bytes', { size_bytes: 1500000 }],
      ])('refuses %s without an external download_url: it is computed from the uploaded file', async (field, extra) => {
        const res = await t.admin('POST', '/admin/v1/models', record('computed_v1', extra));
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          error: 'Invalid request',
          code: 'INVALID_REQUEST',
          message: `${field} can be set only with an external download_url; otherwise it is computed from the uploaded model file`,
        });
      });

      it.each([
        ['checksum', { checksum: 'sha256:ABC' }],
        ['checksum', { checksum: 'md5:0123' }],
        ['size_bytes', { size_bytes: 0 }],
        ['size_bytes', { size_bytes: 1.5 }],
        ['size_bytes', { size_bytes: '12' }],
        ['size_mb', { size_mb: -1 }],
        ['size_mb', { size_mb: 'big' }],
      ])('refuses a malformed %s: %j', async (field, extra) => {
        const res = await t.admin(
          'POST',
          '/admin/v1/models',
          record('malformed_v1', { download_url: 'https://cdn.example.com/x.bin', checksum: CDN_CHECKSUM, size_bytes: 10, ...extra }),
        );
        expect(res.status).toBe(400);
        expect(res.body).toEqual(invalidRequestNaming(field));
      });

      it.each([
        ['name', { name: undefined }],
        ['name', { name: 'Upper_Case' }],
        ['name', { name: 'list' }],
        ['name', { name: '_leading' }],
        ['name', { name: 'has/slash' }],
        ['name', { name: 'x'.repeat(101) }],
        ['version', { version: undefined }],
        ['version', { version: 'v1' }],
        ['version', { version: '1.0-beta' }],
        ['version', { version: 1 }],
        ['type', { type: 'SvcBayes' }],
        ['type', { type: undefined }],
        ['paradigm', { paradigm: 'Motor Imagery' }],
        ['paradigm', { paradigm: 3 }],
        ['n_features', { n_features: 0 }],
        ['n_features', { n_features: 1.5 }],
        ['n_features', { n_features: '12' }],
        ['n_classes', { n_classes: 1 }],
        ['requires_license', { requires_license: 'gold' }],
        ['requires_license', { requires_license: undefined }],
        ['download_url', { download_url: 'ftp://example.com/x.bin' }],
        ['download_url', { download_url: 'not a url' }],
        ['metadata', { metadata: undefined }],
        ['metadata', { metadata: [1] }],
        ['metadata.training_subjects', { metadata: { ...METADATA, training_subjects: -1 } }],
        ['metadata.accuracy', { metadata: { ...METADATA, accuracy: 0.8 } }],
        ['metadata.description', { metadata: { ...METADATA, description: undefined } }],
        ['owner_user_id', { owner_user_id: 42 }],
        ['requires_license', { owner_user_id: 'usr_x', requires_license: 'research' }],
      ])('%s, when %j', async (field, extra) => {
        const res = await t.admin('POST', '/admin/v1/models', record('bad_v1', extra));
        expect(res.status).toBe(400);
        expect(res.body).toEqual(invalidRequestNaming(field));
      });

      it('a body that is not a JSON object', async () => {
        const res = await t.request('POST', '/admin/v1/models', {
          raw: '[1,2]',
          headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
        });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('INVALID_REQUEST');
      });
    });

    it('404 USER_NOT_FOUND for an owner the service does not know', async () => {
      const res = await t.admin(
        'POST',
        '/admin/v1/models',
        record('custom_orphan_v1', { owner_user_id: 'usr_nobody', requires_license: 'commercial' }),
      );
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('USER_NOT_FOUND');
    });

    it('409 MODEL_EXISTS for a name already registered', async () => {
      expect((await t.admin('POST', '/admin/v1/models', record('dup_v1'))).status).toBe(201);
      const res = await t.admin('POST', '/admin/v1/models', record('dup_v1', { version: '9.9' }));
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'Model already exists', code: 'MODEL_EXISTS', message: expect.stringContaining('dup_v1') });
      expect((await t.admin('GET', '/admin/v1/models/dup_v1')).body.version).toBe('2.1.0');
    });
  });

  describe('PUT /admin/v1/models/{name}/file', () => {
    it('stores the bytes, computes checksum and size from them, and publishes the model', async () => {
      await t.admin('POST', '/admin/v1/models', record('mi_upload_v1', { requires_license: 'free' }));
      const bytes = randomBytes(5000);
      const res = await upload(t, 'mi_upload_v1', bytes);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        name: 'mi_upload_v1',
        checksum: modelChecksum(bytes),
        size_bytes: 5000,
        size_mb: 0.005,
        published: true,
        stored_file: expect.stringMatching(/^mi_upload_v1-2\.1\.0-[0-9a-f]{24}\.bin$/),
      });
      expect(res.body.download_url).toBe(`${t.baseUrl}/model-files/${res.body.stored_file}`);
      expect(readFileSync(join(t.config.models.storeDir, res.body.stored_file))).toEqual(bytes);
      expect(await download(await signedLinkOf(t.app, res.body.download_url))).toEqual(new Uint8Array(bytes));
      const key = await t.issueKey({ licenseType: 'free' });
      const listed = await t.get(`/v1/models/list?api_key=${key.api_key}`);
      expect(listed.body.models).toEqual([
        expect.objectContaining({ name: 'mi_upload_v1', checksum: modelChecksum(bytes), size_bytes: 5000 }),
      ]);
    });

    it('takes a file far larger than the 64 KiB public limit (300 KiB), streamed', async () => {
      await t.admin('POST', '/admin/v1/models', record('mi_large_v1'));
      const bytes = randomBytes(300 * 1024);
      const res = await upload(t, 'mi_large_v1', bytes);
      expect(res.status).toBe(200);
      expect(res.body.size_bytes).toBe(307200);
      expect(res.body.size_mb).toBe(0.3072);
      expect(res.body.checksum).toBe(modelChecksum(bytes));
      const got = await download(await signedLinkOf(t.app, res.body.download_url));
      expect(got.length).toBe(307200);
      expect(modelChecksum(got)).toBe(res.body.checksum);
    });

    it('a new upload replaces the file: new checksum, and the old file is gone', async () => {
      await t.admin('POST', '/admin/v1/models', record('mi_replace_v1'));
      const first = await upload(t, 'mi_replace_v1', randomBytes(2000));
      const second = await upload(t, 'mi_replace_v1', Buffer.from('a different model file'));
      expect(second.status).toBe(200);
      expect(second.body.checksum).toBe(modelChecksum(Buffer.from('a different model file')));
      expect(second.body.size_bytes).toBe(22);
      expect(second.body.stored_file).not.toBe(first.body.stored_file);
      expect(storedFiles()).not.toContain(first.body.stored_file);
      expect(storedFiles()).toContain(second.body.stored_file);
      expect((await downloadFile(await signedLinkOf(t.app, first.body.download_url))).status).toBe(404);
      expect(await download(await signedLinkOf(t.app, second.body.download_url))).toEqual(
        new Uint8Array(Buffer.from('a different model file')),
      );
    });

    it('concurrent uploads to one model leave exactly one file, the one the record names', async () => {
      await t.admin('POST', '/admin/v1/models', record('mi_race_v1'));
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => upload(t, 'mi_race_v1', randomBytes(4000 + i))));
      expect(answers.every((a) => a.status === 200)).toBe(true);
      const shown = (await t.admin('GET', '/admin/v1/models/mi_race_v1')).body;
      const mine = storedFiles().filter((f) => f.startsWith('mi_race_v1-'));
      expect(mine).toEqual([shown.stored_file]);
      expect(modelChecksum(readFileSync(join(t.config.models.storeDir, shown.stored_file)))).toBe(shown.checksum);
    });

    it('takes a chunked upload (no Content-Length), hashing it as it streams', async () => {
      await t.admin('POST', '/admin/v1/models', record('mi_chunked_v1'));
      const chunks = [randomBytes(40_000), randomBytes(40_000), randomBytes(123)];
      const res = await chunkedUpload(t, 'mi_chunked_v1', chunks);
      expect(res.status).toBe(200);
      const body = JSON.parse(res.text);
      expect(body.checksum).toBe(modelChecksum(Buffer.concat(chunks)));
      expect(body.size_bytes).toBe(80_123);
    });

    it('a client that gives up mid-upload leaves no file behind, and the record keeps its old file', async () => {
      await t.admin('POST', '/admin/v1/models', record('mi_abort_v1'));
      const first = await upload(t, 'mi_abort_v1', Buffer.from('the first file'));
      await abortedUpload(t, 'mi_abort_v1', randomBytes(50_000));
      // the service notices the closed connection and removes its temporary file (milliseconds; bounded)
      const partial = () => readdirSync(t.config.models.storeDir).filter((f) => f.startsWith('.upload-'));
      await eventually(() => partial().length === 0, { timeoutMs: 10_000, intervalMs: 20 }).catch(() => undefined);
      expect(partial()).toEqual([]);
      expect(storedFiles().filter((f) => f.startsWith('mi_abort_v1-'))).toEqual([first.body.stored_file]);
      expect((await t.admin('GET', '/admin/v1/models/mi_abort_v1')).body.checksum).toBe(first.body.checksum);
    });

    it('413 PAYLOAD_TOO_LARGE at once for a declared size over the 1 GiB model limit', async () => {
      await t.admin('POST', '/admin/v1/models', record('mi_huge_v1'));
      const res = await declaredUpload(t, 'mi_huge_v1', 2 * 1024 ** 3);
      expect(res.status).toBe(413);
      expect(JSON.parse(res.text)).toEqual({
        error: 'Payload too large',
        code: 'PAYLOAD_TOO_LARGE',
        message: 'Model files are limited to 1073741824 bytes',
      });
    });

    it('an upload to a record with an external download_url serves the uploaded file: its checksum, its address', async () => {
      const url = 'https://cdn.example.com/m/mi_cdn_v1.bin';
      await t.admin('POST', '/admin/v1/models', record('mi_cdn_v1', { download_url: url, checksum: CDN_CHECKSUM, size_bytes: 700 }));
      const bytes = randomBytes(700);
      const res = await upload(t, 'mi_cdn_v1', bytes);
      expect(res.body).toMatchObject({ checksum: modelChecksum(bytes), size_bytes: 700, published: true });
      expect(res.body.download_url).toBe(`${t.baseUrl}/model-files/${res.body.stored_file}`);
      expect(await download(await signedLinkOf(t.app, res.body.download_url))).toEqual(new Uint8Array(bytes));
    });

    it('404 MODEL_NOT_FOUND for an unknown model, and nothing is stored', async () => {
      const before = storedFiles();
      const res = await upload(t, 'no_such_model', randomBytes(100));
      expect(res.status).toBe(404);
      expect(res.body).toEqual(MODEL_NOT_FOUND);
      expect(storedFiles()).toEqual(before);
    });

    it('400 INVALID_REQUEST for an empty file, and nothing is stored', async () => {
      await t.admin('POST', '/admin/v1/models', record('mi_empty_v1'));
      const before = storedFiles();
      const res = await upload(t, 'mi_empty_v1', new Uint8Array(0));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Invalid request', code: 'INVALID_REQUEST', message: 'the model file is empty' });
      expect(storedFiles()).toEqual(before);
      expect((await t.admin('GET', '/admin/v1/models/mi_empty_v1')).body.published).toBe(false);
    });

    it('415 for a body that is not application/octet-stream', async () => {
      await t.admin('POST', '/admin/v1/models', record('mi_media_v1'));
      const json = await t.request('PUT', '/admin/v1/models/mi_media_v1/file', {
        json: { bytes: 'AAAA' },
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      });
      expect(json.status).toBe(415);
      expect(json.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      const text = await upload(t, 'mi_media_v1', Buffer.from('abc'), { 'content-type': 'text/plain' });
      expect(text.status).toBe(415);
    });

    it('octet-stream bodies elsewhere are still 415, or 413 over 64 KiB', async () => {
      const key = await t.issueKey();
      const small = await t.request('POST', '/v1/auth/validate', {
        raw: Buffer.from(key.api_key),
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(small.status).toBe(415);
      expect(small.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      const large = await t.request('POST', '/v1/auth/validate', {
        raw: randomBytes(70 * 1024),
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(large.status).toBe(413);
      expect(large.body.code).toBe('PAYLOAD_TOO_LARGE');
      const create = await t.request('POST', '/admin/v1/models', {
        raw: randomBytes(100),
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/octet-stream' },
      });
      expect(create.status).toBe(415);
    });
  });

  describe('PUT /admin/v1/models/{name}', () => {
    it('replaces the record; the uploaded file, checksum and size stay', async () => {
      await t.admin('POST', '/admin/v1/models', record('mi_put_v1', { requires_license: 'free' }));
      const bytes = randomBytes(1234);
      const uploaded = await upload(t, 'mi_put_v1', bytes);
      const res = await t.admin('PUT', '/admin/v1/models/mi_put_v1', {
        version: '2.2',
        type: 'SvcLDA',
        paradigm: 'ssvep',
        n_features: 40,
        n_classes: 5,
        requires_license: 'research',
        metadata: { ...METADATA, accuracy: '0.80-0.90' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        name: 'mi_put_v1',
        version: '2.2',
        type: 'SvcLDA',
        paradigm: 'ssvep',
        n_features: 40,
        n_classes: 5,
        requires_license: 'research',
        metadata: { ...METADATA, accuracy: '0.80-0.90' },
        checksum: modelChecksum(bytes),
        size_bytes: 1234,
        stored_file: uploaded.body.stored_file,
        download_url: uploaded.body.download_url,
        published: true,
        created_at: uploaded.body.created_at,
      });
      const free = await t.issueKey({ licenseType: 'free' });
      expect((await t.get(`/v1/models/mi_put_v1?api_key=${free.api_key}`)).status).toBe(403);
    });

    it('a full replacement: a download_url left out is removed', async () => {
      await t.admin(
        'POST',
        '/admin/v1/models',
        record('mi_put_url_v1', { download_url: 'https://cdn.example.com/a.bin', checksum: CDN_CHECKSUM, size_bytes: 5 }),
      );
      const res = await t.admin('PUT', '/admin/v1/models/mi_put_url_v1', record('mi_put_url_v1'));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ download_url: null, checksum: null, size_bytes: null, size_mb: null, published: false });
    });

    it('400 when the body names another model, or carries a checksum', async () => {
      await t.admin('POST', '/admin/v1/models', record('mi_put_bad_v1'));
      const renamed = await t.admin('PUT', '/admin/v1/models/mi_put_bad_v1', record('mi_other_v1'));
      expect(renamed.status).toBe(400);
      expect(renamed.body).toEqual(invalidRequestNaming('name'));
      const checksum = await t.admin(
        'PUT',
        '/admin/v1/models/mi_put_bad_v1',
        record('mi_put_bad_v1', { checksum: `sha256:${'a'.repeat(64)}` }),
      );
      expect(checksum.status).toBe(400);
      expect(checksum.body).toEqual(invalidRequestNaming('checksum'));
    });

    it('404 MODEL_NOT_FOUND for an unknown model', async () => {
      const res = await t.admin('PUT', '/admin/v1/models/no_such_model', record('no_such_model'));
      expect(res.status).toBe(404);
      expect(res.body).toEqual(MODEL_NOT_FOUND);
    });
  });

  describe('complete records and round trips (CONTRACT 7)', () => {
    const EXTERNAL = 'https://cdn.example.com/models/ssvep_ext_v1.bin';

    it.each([
      ['checksum', { size_bytes: 2_500_000 }],
      ['size_bytes', { checksum: CDN_CHECKSUM }],
      ['checksum', { checksum: null, size_bytes: 2_500_000 }],
    ])('POST: an external download_url without %s is 400 naming it, and nothing is registered', async (field, extra) => {
      const res = await t.admin('POST', '/admin/v1/models', record('ext_incomplete_v1', { download_url: EXTERNAL, ...extra }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalidRequestNaming(field));
      expect(res.body.message).toContain('external download_url');
      expect((await t.admin('GET', '/admin/v1/models/ext_incomplete_v1')).status).toBe(404);
    });

    it('POST: with both, the record is published and listed to a key with exactly those values', async () => {
      const res = await t.admin(
        'POST',
        '/admin/v1/models',
        record('ssvep_ext_v1', {
          paradigm: 'ssvep',
          requires_license: 'free',
          download_url: EXTERNAL,
          checksum: CDN_CHECKSUM,
          size_bytes: 2_500_001,
        }),
      );
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        download_url: EXTERNAL,
        checksum: CDN_CHECKSUM,
        size_bytes: 2_500_001,
        size_mb: 2.500001,
        stored_file: null,
        published: true,
      });
      const key = await t.issueKey({ licenseType: 'free' });
      const listed = await t.get(`/v1/models/list?api_key=${key.api_key}&paradigm=ssvep`);
      expect(listed.body.models).toEqual([
        expect.objectContaining({
          name: 'ssvep_ext_v1',
          download_url: EXTERNAL,
          checksum: CDN_CHECKSUM,
          size_bytes: 2_500_001,
          size_mb: 2.500001,
        }),
      ]);
      const redirect = await t.get(`/v1/models/ssvep_ext_v1/download?api_key=${key.api_key}`);
      expect(redirect.status).toBe(302);
      expect(redirect.headers.get('location')).toBe(EXTERNAL);
    });

    it('POST: size_mb, if given, must be size_bytes / 1,000,000', async () => {
      const res = await t.admin(
        'POST',
        '/admin/v1/models',
        record('ext_mb_v1', { download_url: EXTERNAL, checksum: CDN_CHECKSUM, size_bytes: 1_000_000, size_mb: 2 }),
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalidRequestNaming('size_mb'));
      const fine = await t.admin(
        'POST',
        '/admin/v1/models',
        record('ext_mb_v1', { download_url: EXTERNAL, checksum: CDN_CHECKSUM, size_bytes: 1_000_000, size_mb: 1 }),
      );
      expect(fine.status).toBe(201);
    });

    it('PUT: an external download_url without checksum or size_bytes is 400 naming it, and the record is unchanged', async () => {
      await t.admin('POST', '/admin/v1/models', record('ext_put_v1'));
      const bytes = randomBytes(321);
      const uploaded = await upload(t, 'ext_put_v1', bytes);
      const noChecksum = await t.admin(
        'PUT',
        '/admin/v1/models/ext_put_v1',
        record('ext_put_v1', { download_url: EXTERNAL, size_bytes: 321 }),
      );
      expect(noChecksum.status).toBe(400);
      expect(noChecksum.body).toEqual(invalidRequestNaming('checksum'));
      const noSize = await t.admin(
        'PUT',
        '/admin/v1/models/ext_put_v1',
        record('ext_put_v1', { download_url: EXTERNAL, checksum: modelChecksum(bytes) }),
      );
      expect(noSize.status).toBe(400);
      expect(noSize.body).toEqual(invalidRequestNaming('size_bytes'));
      expect((await t.admin('GET', '/admin/v1/models/ext_put_v1')).body).toEqual(uploaded.body);
    });

    it("PUT: moving a stored record to an external address takes the body's checksum and size and removes the stored file", async () => {
      await t.admin('POST', '/admin/v1/models', record('ext_move_v1'));
      const uploaded = await upload(t, 'ext_move_v1', randomBytes(100));
      const res = await t.admin(
        'PUT',
        '/admin/v1/models/ext_move_v1',
        record('ext_move_v1', { download_url: EXTERNAL, checksum: CDN_CHECKSUM, size_bytes: 4096 }),
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        download_url: EXTERNAL,
        checksum: CDN_CHECKSUM,
        size_bytes: 4096,
        size_mb: 0.004096,
        stored_file: null,
        published: true,
      });
      expect(storedFiles()).not.toContain(uploaded.body.stored_file);
    });

    it('GET -> edit -> PUT round-trips a record whose file the service holds: 200, the file kept', async () => {
      await t.admin('POST', '/admin/v1/models', record('rt_stored_v1', { requires_license: 'free' }));
      const bytes = randomBytes(2345);
      await upload(t, 'rt_stored_v1', bytes);
      const shown = (await t.admin('GET', '/admin/v1/models/rt_stored_v1')).body;
      const res = await t.admin('PUT', '/admin/v1/models/rt_stored_v1', {
        ...shown,
        version: '2.2.0',
        metadata: { ...shown.metadata, accuracy: '0.9' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...shown,
        version: '2.2.0',
        metadata: { ...shown.metadata, accuracy: '0.9' },
        updated_at: expect.stringMatching(ISO),
      });
      expect(res.body).toMatchObject({
        checksum: modelChecksum(bytes),
        size_bytes: 2345,
        download_url: `${t.baseUrl}/model-files/${shown.stored_file}`,
      });
      expect(await download(await signedLinkOf(t.app, res.body.download_url))).toEqual(new Uint8Array(bytes));
    });

    it('a download_url naming the stored file keeps it, whatever its query (a signed link) or host', async () => {
      await t.admin('POST', '/admin/v1/models', record('rt_signed_v1'));
      const uploaded = (await upload(t, 'rt_signed_v1', randomBytes(50))).body;
      for (const url of [
        `${uploaded.download_url}?expires=1893456000&signature=${'ab'.repeat(32)}`,
        `https://models.example.com/files/${uploaded.stored_file}`,
      ]) {
        const res = await t.admin('PUT', '/admin/v1/models/rt_signed_v1', { ...uploaded, download_url: url });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({
          stored_file: uploaded.stored_file,
          download_url: uploaded.download_url,
          checksum: uploaded.checksum,
        });
      }
    });

    it.each([
      ['checksum', { checksum: `sha256:${'0'.repeat(64)}` }],
      ['size_bytes', { size_bytes: 51 }],
      ['size_mb', { size_mb: 0.000051 }],
    ])("PUT with a %s other than the stored file's is 400 naming it", async (field, change) => {
      await t.admin('POST', '/admin/v1/models', record(`rt_diff_${field}_v1`));
      const uploaded = (await upload(t, `rt_diff_${field}_v1`, randomBytes(50))).body;
      const res = await t.admin('PUT', `/admin/v1/models/rt_diff_${field}_v1`, { ...uploaded, ...change });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalidRequestNaming(field));
      expect(res.body.message).toContain('stored file');
      expect((await t.admin('GET', `/admin/v1/models/rt_diff_${field}_v1`)).body).toEqual(uploaded);
    });

    it('GET -> PUT round-trips an external record too', async () => {
      await t.admin('POST', '/admin/v1/models', record('rt_ext_v1', { download_url: EXTERNAL, checksum: CDN_CHECKSUM, size_bytes: 77 }));
      const shown = (await t.admin('GET', '/admin/v1/models/rt_ext_v1')).body;
      const res = await t.admin('PUT', '/admin/v1/models/rt_ext_v1', { ...shown, n_features: 13 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...shown, n_features: 13, updated_at: expect.stringMatching(ISO) });
    });
  });

  describe('audit (GET /admin/v1/audit)', () => {
    it('create, upload, replace and delete are audit events naming the model, version, checksum and channel api', async () => {
      await t.admin('POST', '/admin/v1/models', record('audited_v1'));
      const bytes = randomBytes(99);
      await upload(t, 'audited_v1', bytes);
      await t.admin('PUT', '/admin/v1/models/audited_v1', record('audited_v1', { version: '3.0' }));
      await t.admin('DELETE', '/admin/v1/models/audited_v1');
      const res = await t.admin('GET', '/admin/v1/audit');
      expect(res.status).toBe(200);
      const mine = res.body.entries.filter((e: { details?: { model?: string } }) => e.details?.model === 'audited_v1');
      const entry = (action: string, version: string, checksum: string | null): object => ({
        id: expect.any(String),
        at: expect.stringMatching(ISO),
        action,
        key_id: null,
        details: { model: 'audited_v1', version, checksum, channel: 'api' },
        actor: { type: 'bootstrap' },
      });
      expect(mine).toEqual([
        entry('model.deleted', '3.0', modelChecksum(bytes)),
        entry('model.replaced', '3.0', modelChecksum(bytes)),
        entry('model.uploaded', '2.1.0', modelChecksum(bytes)),
        entry('model.created', '2.1.0', null),
      ]);
    });

    it('a refused change is not audited', async () => {
      const before = (await t.admin('GET', '/admin/v1/audit?limit=200')).body.entries.map((e: { id: string }) => e.id);
      await t.admin('POST', '/admin/v1/models', record('audit_refused_v1', { download_url: 'https://cdn.example.com/x.bin' }));
      await t.admin('DELETE', '/admin/v1/models/no_such_model');
      expect((await t.admin('GET', '/admin/v1/audit?limit=200')).body.entries.map((e: { id: string }) => e.id)).toEqual(before);
    });
  });

  describe('DELETE /admin/v1/models/{name}', () => {
    it('204, then the model and its file are gone', async () => {
      await t.admin('POST', '/admin/v1/models', record('mi_delete_v1', { requires_license: 'free' }));
      const uploaded = await upload(t, 'mi_delete_v1', randomBytes(300));
      const res = await t.admin('DELETE', '/admin/v1/models/mi_delete_v1');
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await t.admin('GET', '/admin/v1/models/mi_delete_v1')).body).toEqual(MODEL_NOT_FOUND);
      expect(storedFiles()).not.toContain(uploaded.body.stored_file);
      expect((await downloadFile(await signedLinkOf(t.app, uploaded.body.download_url))).status).toBe(404);
      const key = await t.issueKey({ licenseType: 'enterprise' });
      expect((await t.get(`/v1/models/mi_delete_v1?api_key=${key.api_key}`)).status).toBe(404);
      const again = await t.admin('DELETE', '/admin/v1/models/mi_delete_v1');
      expect(again.status).toBe(404);
      expect(again.body).toEqual(MODEL_NOT_FOUND);
    });

    it('the name can be registered again afterwards', async () => {
      await t.admin('POST', '/admin/v1/models', record('mi_reuse_v1'));
      await t.admin('DELETE', '/admin/v1/models/mi_reuse_v1');
      expect((await t.admin('POST', '/admin/v1/models', record('mi_reuse_v1'))).status).toBe(201);
    });
  });

  describe('GET /admin/v1/models and /admin/v1/models/{name}', () => {
    it('lists every record, unpublished and custom ones included, by paradigm then name', async () => {
      const res = await t.admin('GET', '/admin/v1/models');
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(res.body.models.length);
      const names = res.body.models.map((m: { name: string }) => m.name);
      expect(names).toEqual(expect.arrayContaining(['mi_draft_v1', 'custom_owned_v1', 'mi_upload_v1']));
      const pairs = res.body.models.map((m: { paradigm: string; name: string }) => `${m.paradigm} ${m.name}`);
      expect(pairs).toEqual([...pairs].sort());
      for (const model of res.body.models) {
        expect(Object.keys(model)).toEqual(expect.arrayContaining(['owner_user_id', 'size_bytes', 'published', 'stored_file']));
      }
    });

    it('shows one record; 404 MODEL_NOT_FOUND for an unknown name', async () => {
      expect((await t.admin('GET', '/admin/v1/models/mi_draft_v1')).body).toMatchObject({ name: 'mi_draft_v1', published: false });
      const res = await t.admin('GET', '/admin/v1/models/nope');
      expect(res.status).toBe(404);
      expect(res.body).toEqual(MODEL_NOT_FOUND);
    });
  });

  describe('401 UNAUTHORIZED', () => {
    it.each([
      ['GET', '/admin/v1/models'],
      ['POST', '/admin/v1/models'],
      ['GET', '/admin/v1/models/mi_draft_v1'],
      ['PUT', '/admin/v1/models/mi_draft_v1'],
      ['PUT', '/admin/v1/models/mi_draft_v1/file'],
      ['DELETE', '/admin/v1/models/mi_draft_v1'],
    ])('%s %s without the admin token, or with a wrong one', async (method, path) => {
      const none = await t.request(
        method,
        path,
        method === 'PUT' && path.endsWith('/file')
          ? { raw: Buffer.from('x'), headers: { 'content-type': 'application/octet-stream' } }
          : { json: method === 'POST' || method === 'PUT' ? record('mi_draft_v1') : undefined },
      );
      expect(none.status).toBe(401);
      expect(none.body).toEqual(UNAUTHORIZED);
      const wrong = await t.request(method, path, { headers: { authorization: 'Bearer not-the-admin-token-at-all' } });
      expect(wrong.status).toBe(401);
    });

    it('an upload answered before it is read (401, 404) closes its connection rather than leave it half-read', async () => {
      const unauthorized = await t.request('PUT', '/admin/v1/models/mi_draft_v1/file', {
        raw: randomBytes(2 * 1024 * 1024),
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(unauthorized.status).toBe(401);
      expect(unauthorized.headers.get('connection')).toBe('close');
      const unknown = await upload(t, 'no_such_model', randomBytes(2 * 1024 * 1024));
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get('connection')).toBe('close');
      const fine = await upload(t, 'mi_upload_v1', randomBytes(1000));
      expect(fine.status).toBe(200);
      expect(fine.headers.get('connection')).not.toBe('close');
    });

    it('nothing changed through them', async () => {
      expect((await t.admin('GET', '/admin/v1/models/mi_draft_v1')).body.published).toBe(false);
    });
  });
});

describe('Admin API: models with MODEL_HOST', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start({ env: { SAMPLE_MODELS: 'false', MODEL_HOST: 'https://models.example.com/files/' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('download_url is the stored file under MODEL_HOST, and /model-files is not mounted', async () => {
    await t.admin('POST', '/admin/v1/models', record('mi_host_v1', { requires_license: 'free' }));
    const bytes = randomBytes(64);
    const res = await upload(t, 'mi_host_v1', bytes);
    expect(res.status).toBe(200);
    expect(res.body.download_url).toBe(`https://models.example.com/files/${res.body.stored_file}`);
    expect(res.body.checksum).toBe(modelChecksum(bytes));
    const key = await t.issueKey({ licenseType: 'free' });
    const listed = await t.get(`/v1/models/list?api_key=${key.api_key}`);
    expect(listed.body.models[0].download_url).toBe(res.body.download_url);
    const redirect = await t.get(`/v1/models/mi_host_v1/download?api_key=${key.api_key}`);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe(res.body.download_url);
    const local = await t.get(`/model-files/${res.body.stored_file}`);
    expect(local.status).toBe(404);
    expect(local.body).toEqual({ error: 'Not found', code: 'NOT_FOUND', message: 'No such endpoint' });
  });
});

describe('Model store sweep at start-up', () => {
  let first: TestApp;
  let second: TestApp | undefined;
  beforeAll(async () => {
    first = await TestApp.start({ env: { SAMPLE_MODELS: 'true' } });
  });
  afterAll(async () => {
    await second?.close();
    await first.close();
  });

  it('removes an orphan file and keeps every file a record names (and a young one)', async () => {
    const storeDir = first.config.models.storeDir;
    const named = (await first.admin('GET', '/admin/v1/models')).body.models.map((m: { stored_file: string }) => m.stored_file).sort();
    expect(named.length).toBeGreaterThan(0);
    const orphan = 'forgotten_v1-1.0-0123456789abcdef01234567.bin';
    const young = 'uploading_v1-1.0-89abcdef0123456789abcdef.bin';
    writeFileSync(join(storeDir, orphan), 'no record names me');
    writeFileSync(join(storeDir, young), 'my record is about to name me');
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(join(storeDir, orphan), hourAgo, hourAgo);
    for (const file of named) utimesSync(join(storeDir, file), hourAgo, hourAgo);

    second = await TestApp.start({ env: { SAMPLE_MODELS: 'true', DATABASE_URL: first.databaseUrl, MODEL_STORE_DIR: storeDir } });

    expect(readdirSync(storeDir).sort()).toEqual([...named, young].sort());
    // a research key is listed every model: each named file is still there, byte for byte
    const key = await second.issueKey({ licenseType: 'research' });
    const listed = (await second.get(`/v1/models/list?api_key=${key.api_key}`)).body.models;
    expect(listed.map((m: { stored_file?: string; name: string }) => m.name)).toHaveLength(named.length);
    for (const model of listed) expect(modelChecksum(await download(model.download_url))).toBe(model.checksum);
  });
});

describe('Sample catalogue (SAMPLE_MODELS=true)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start({ env: { SAMPLE_MODELS: 'true' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('a fresh service lists the free sample models to a free key', async () => {
    const key = await t.issueKey({ licenseType: 'free' });
    const res = await t.get(`/v1/models/list?api_key=${key.api_key}`);
    expect(res.status).toBe(200);
    expect(res.body.models.map((m: { name: string }) => m.name)).toEqual(['motor_imagery_2class_v1', 'motor_imagery_4class_v1']);
    expect(res.body.total).toBe(2);
    expect(res.body.models[1]).toMatchObject({ type: 'SvcLDA', paradigm: 'motor_imagery', n_classes: 4, requires_license: 'free' });
    expect(res.body.models[0]).toMatchObject({ type: 'SvcQDA', n_classes: 2 });
  });

  it('and all four to a research key, each with a checksum and size computed from its shipped file', async () => {
    const key = await t.issueKey({ licenseType: 'research' });
    const res = await t.get(`/v1/models/list?api_key=${key.api_key}`);
    expect(res.body.models.map((m: Record<string, string>) => [m.name, m.type, m.paradigm, m.requires_license])).toEqual([
      ['motor_imagery_2class_v1', 'SvcQDA', 'motor_imagery', 'free'],
      ['motor_imagery_4class_v1', 'SvcLDA', 'motor_imagery', 'free'],
      ['p300_binary_v1', 'SvcProbit', 'p300', 'research'],
      ['ssvep_multiclass_v1', 'SvcLDA', 'ssvep', 'research'],
    ]);
    for (const model of res.body.models) {
      const shipped = readFileSync(join(__dirname, '../../config/sample-models', `${model.name}.json`));
      expect(model.checksum).toBe(modelChecksum(shipped));
      expect(model.size_bytes).toBe(shipped.length);
      expect(model.metadata.description).toContain('SAMPLE');
      expect(JSON.parse(shipped.toString('utf8'))).toMatchObject({ sample: true, name: model.name });
    }
  });

  it('a downloaded sample verifies against its checksum', async () => {
    const key = await t.issueKey({ licenseType: 'research' });
    const redirect = await t.get(`/v1/models/p300_binary_v1/download?api_key=${key.api_key}`);
    expect(redirect.status).toBe(302);
    const record = (await t.get(`/v1/models/p300_binary_v1?api_key=${key.api_key}`)).body;
    const bytes = await download(redirect.headers.get('location')!);
    expect(modelChecksum(bytes)).toBe(record.checksum);
    expect(bytes.length).toBe(record.size_bytes);
  });

  it('operators see the samples as ordinary records they can replace or delete', async () => {
    const res = await t.admin('GET', '/admin/v1/models');
    expect(res.body.total).toBe(4);
    expect(res.body.models.every((m: { published: boolean; owner_user_id: unknown }) => m.published && m.owner_user_id === null)).toBe(
      true,
    );
  });
});

describe('SAMPLE_MODELS left unset: on for SQLite, off for PostgreSQL and MySQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(async () => {
    await t.close();
  });

  it('a fresh service publishes the samples on SQLite only', async () => {
    const key = await t.issueKey({ licenseType: 'free' });
    const names = (await t.get(`/v1/models/list?api_key=${key.api_key}`)).body.models.map((m: { name: string }) => m.name);
    expect(names).toEqual(t.databaseKind === 'sqlite' ? ['motor_imagery_2class_v1', 'motor_imagery_4class_v1'] : []);
    expect(t.config.models.seedSamples).toBe(t.databaseKind === 'sqlite');
  });

  it('a downloaded sample verifies against its checksum on SQLite; on PostgreSQL and MySQL there is none to download', async () => {
    const key = await t.issueKey({ licenseType: 'free' });
    const record = await t.get(`/v1/models/motor_imagery_4class_v1?api_key=${key.api_key}`);
    const redirect = await t.get(`/v1/models/motor_imagery_4class_v1/download?api_key=${key.api_key}`);
    if (t.databaseKind === 'sqlite') {
      expect([record.status, redirect.status]).toEqual([200, 302]);
      expect(modelChecksum(await download(redirect.headers.get('location')!))).toBe(record.body.checksum);
    } else {
      expect([record.status, redirect.status]).toEqual([404, 404]);
      expect([record.body.code, redirect.body.code]).toEqual(['MODEL_NOT_FOUND', 'MODEL_NOT_FOUND']);
    }
  });
});

describe('SAMPLE_MODELS=false', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start({ env: { SAMPLE_MODELS: 'false' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('a fresh service has an empty registry', async () => {
    const key = await t.issueKey({ licenseType: 'enterprise' });
    expect((await t.get(`/v1/models/list?api_key=${key.api_key}`)).body).toEqual({ models: [], total: 0 });
    expect((await t.admin('GET', '/admin/v1/models')).body).toEqual({ models: [], total: 0 });
  });
});
