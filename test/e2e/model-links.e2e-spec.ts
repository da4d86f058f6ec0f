import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FixedClock, GeneratedSecretRepository } from '@svc/domain';
import { modelRecordBody } from '../harness/model-uploads';
import { TEST_ADMIN_TOKEN, TestApp } from '../harness/create-test-app';
import { downloadFile } from '../harness/model-download';
import { modelChecksum } from '../harness/sha256';

/**
 * CONTRACT 7: links to the embedded store are signed and expire. The
 * download_url handed to a key is `/model-files/<file>?expires=&signature=`
 * (HMAC-SHA256 of path and expiry under MODEL_URL_SECRET); the file route
 * answers 403 LINK_INVALID to an unsigned, malformed or altered link and
 * 403 LINK_EXPIRED to a correctly signed one past its expiry; one Range is
 * answered 206. With MODEL_HOST the links are the CDN's, unsigned.
 */

const SECRET = 'model-url-secret-for-tests-0123456789abcdef';
const TTL = 600;

async function publish(t: TestApp, name: string, bytes: Uint8Array): Promise<void> {
  const created = await t.admin('POST', '/admin/v1/models', modelRecordBody(name, 'Signed link test model'));
  expect(created.body).toMatchObject({ name });
  expect(created.status).toBe(201);
  const uploaded = await t.request('PUT', `/admin/v1/models/${name}/file`, {
    raw: bytes,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/octet-stream' },
  });
  expect(uploaded.status).toBe(200);
}

/** The link a key is handed, split into its parts. */
function partsOf(link: string): { path: string; expires: string; signature: string; origin: string } {
  const url = new URL(link);
  return {
    origin: url.origin,
    path: url.pathname,
    expires: url.searchParams.get('expires')!,
    signature: url.searchParams.get('signature')!,
  };
}

describe('Signed model file links (embedded store)', () => {
  const start = new Date(Math.floor(Date.now() / 1000) * 1000);
  const clock = new FixedClock(start);
  const bytes = randomBytes(10_000);
  let t: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    t = await TestApp.start({ clock, env: { SAMPLE_MODELS: 'false', MODEL_URL_SECRET: SECRET, MODEL_URL_TTL_SECONDS: String(TTL) } });
    await publish(t, 'links_v1', bytes);
    apiKey = (await t.issueKey({ licenseType: 'free' })).api_key;
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(() => clock.set(start));

  async function freshLink(): Promise<string> {
    const res = await t.get(`/v1/models/links_v1/download?api_key=${apiKey}`);
    expect(res.status).toBe(302);
    return res.headers.get('location')!;
  }

  describe('a fresh link', () => {
    it('downloads the right bytes: SHA-256 equals the record checksum', async () => {
      const record = (await t.get(`/v1/models/links_v1?api_key=${apiKey}`)).body;
      const link = await freshLink();
      expect(link).toBe(record.download_url);
      expect(partsOf(link).expires).toBe(String(start.getTime() / 1000 + TTL));
      const file = await downloadFile(link);
      expect(file.status).toBe(200);
      expect(file.headers['accept-ranges']).toBe('bytes');
      expect(file.headers['content-type']).toBe('application/octet-stream');
      expect(modelChecksum(file.bytes)).toBe(record.checksum);
    });

    it('list and get hand out links signed now, and the redirect always a fresh one', async () => {
      const first = await freshLink();
      clock.advance(5_000);
      const second = await freshLink();
      expect(Number(partsOf(second).expires)).toBe(Number(partsOf(first).expires) + 5);
      const listed = (await t.get(`/v1/models/list?api_key=${apiKey}`)).body.models[0].download_url;
      expect(listed).toBe(second);
    });

    it('still works the last second before it expires', async () => {
      const link = await freshLink();
      clock.advance((TTL - 1) * 1000);
      expect((await downloadFile(link)).status).toBe(200);
    });
  });

  describe('403', () => {
    async function expectRefused(url: string, code: 'LINK_INVALID' | 'LINK_EXPIRED'): Promise<void> {
      const res = await downloadFile(url);
      expect(res.status).toBe(403);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(res.bytes.toString())).toMatchObject({ code, error: code === 'LINK_EXPIRED' ? 'Link expired' : 'Invalid link' });
    }

    it('LINK_EXPIRED once the link is past its expiry (controllable clock)', async () => {
      const link = await freshLink();
      clock.advance(TTL * 1000);
      await expectRefused(link, 'LINK_EXPIRED');
      clock.advance(3600_000);
      await expectRefused(link, 'LINK_EXPIRED');
    });

    it('LINK_INVALID for an altered signature', async () => {
      const { origin, path, expires, signature } = partsOf(await freshLink());
      const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
      await expectRefused(`${origin}${path}?expires=${expires}&signature=${flipped}`, 'LINK_INVALID');
    });

    it('LINK_INVALID for an altered path (a signature for one file on another)', async () => {
      await publish(t, 'links_other_v1', randomBytes(100));
      const other = partsOf((await t.get(`/v1/models/links_other_v1/download?api_key=${apiKey}`)).headers.get('location')!);
      const { origin, expires, signature } = partsOf(await freshLink());
      await expectRefused(`${origin}${other.path}?expires=${expires}&signature=${signature}`, 'LINK_INVALID');
    });

    it('LINK_INVALID for an altered expiry, even one in the future', async () => {
      const { origin, path, expires, signature } = partsOf(await freshLink());
      await expectRefused(`${origin}${path}?expires=${Number(expires) + 3600}&signature=${signature}`, 'LINK_INVALID');
    });

    it('LINK_INVALID, not LINK_EXPIRED, for an altered expiry in the past', async () => {
      const { origin, path, signature } = partsOf(await freshLink());
      await expectRefused(`${origin}${path}?expires=${start.getTime() / 1000 - 10}&signature=${signature}`, 'LINK_INVALID');
    });

    it('LINK_INVALID for a missing signature, a missing expiry, and none at all', async () => {
      const { origin, path, expires, signature } = partsOf(await freshLink());
      await expectRefused(`${origin}${path}?expires=${expires}`, 'LINK_INVALID');
      await expectRefused(`${origin}${path}?signature=${signature}`, 'LINK_INVALID');
      await expectRefused(`${origin}${path}`, 'LINK_INVALID');
    });

    it('LINK_INVALID for malformed parameters', async () => {
      const { origin, path, expires, signature } = partsOf(await freshLink());
      for (const query of [
        `expires=${expires}x&signature=${signature}`,
        `expires=-1&signature=${signature}`,
        `expires=${expires}&signature=${signature}==`,
        `expires=${expires}&signature=${signature.slice(1)}`,
        `expires=${expires}&expires=${expires}&signature=${signature}`,
      ]) {
        await expectRefused(`${origin}${path}?${query}`, 'LINK_INVALID');
      }
    });
  });

  describe('Range', () => {
    async function ranged(range: string): Promise<{ status: number; headers: Record<string, unknown>; bytes: Buffer }> {
      const link = await freshLink();
      const { request } = await import('node:http');
      return new Promise((resolve, reject) => {
        request(link, { agent: false, headers: { range } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
          res.on('error', reject);
        })
          .on('error', reject)
          .end();
      });
    }

    it.each([
      ['bytes=0-99', 0, 99],
      ['bytes=9000-', 9000, 9999],
      ['bytes=-500', 9500, 9999],
      ['bytes=9990-20000', 9990, 9999],
      ['bytes=1234-1234', 1234, 1234],
    ])('206 with Content-Range and exactly the bytes for %s', async (range, first, last) => {
      const res = await ranged(range);
      expect(res.status).toBe(206);
      expect(res.headers['content-range']).toBe(`bytes ${first}-${last}/10000`);
      expect(Number(res.headers['content-length'])).toBe(last - first + 1);
      expect(res.bytes.equals(bytes.subarray(first, last + 1))).toBe(true);
    });

    it.each([['bytes=10000-'], ['bytes=20000-30000'], ['bytes=-0']])('416 with Content-Range: bytes */size for %s', async (range) => {
      const res = await ranged(range);
      expect(res.status).toBe(416);
      expect(res.headers['content-range']).toBe('bytes */10000');
      expect(JSON.parse(res.bytes.toString())).toMatchObject({ code: 'RANGE_NOT_SATISFIABLE' });
    });

    it('the whole file, 200, for several ranges or a Range it cannot read', async () => {
      for (const range of ['bytes=0-1,5-9', 'items=0-1']) {
        const res = await ranged(range);
        expect(res.status).toBe(200);
        expect(res.bytes.equals(bytes)).toBe(true);
      }
    });

    it('checks the link before the range: an unsigned ranged request is 403', async () => {
      const { origin, path } = partsOf(await freshLink());
      const res = await downloadFile(`${origin}${path}`);
      expect(res.status).toBe(403);
    });
  });

  it('a second instance on the same database and the same MODEL_URL_SECRET accepts a link signed by the first', async () => {
    const second = await TestApp.start({
      clock,
      env: { DATABASE_URL: t.databaseUrl, SAMPLE_MODELS: 'false', MODEL_URL_SECRET: SECRET, MODEL_STORE_DIR: t.config.models.storeDir },
    });
    try {
      const { path, expires, signature } = partsOf(await freshLink());
      const res = await downloadFile(`${second.baseUrl}${path}?expires=${expires}&signature=${signature}`);
      expect(res.status).toBe(200);
      expect(res.bytes.equals(bytes)).toBe(true);
      // and the first accepts the second's
      const fromSecond = (await second.get(`/v1/models/links_v1/download?api_key=${apiKey}`)).headers.get('location')!;
      const back = partsOf(fromSecond);
      expect((await downloadFile(`${t.baseUrl}${back.path}?expires=${back.expires}&signature=${back.signature}`)).status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('an instance with another secret refuses the link (LINK_INVALID)', async () => {
    const other = await TestApp.start({
      clock,
      env: {
        DATABASE_URL: t.databaseUrl,
        SAMPLE_MODELS: 'false',
        MODEL_URL_SECRET: `${SECRET}-rotated`,
        MODEL_STORE_DIR: t.config.models.storeDir,
      },
    });
    try {
      const { path, expires, signature } = partsOf(await freshLink());
      const res = await downloadFile(`${other.baseUrl}${path}?expires=${expires}&signature=${signature}`);
      expect(res.status).toBe(403);
      expect(JSON.parse(res.bytes.toString()).code).toBe('LINK_INVALID');
    } finally {
      await other.close();
    }
  });

  it('never logs the secret', () => {
    expect(JSON.stringify(t.logger.lines)).not.toContain(SECRET);
  });
});

describe('Signed model file links: the embedded default', () => {
  it('generates a secret, keeps it in the database (no file beside the model store): links survive a restart', async () => {
    const first = await TestApp.start({ env: { SAMPLE_MODELS: 'false' } });
    let restarted: TestApp | undefined;
    try {
      await publish(first, 'restart_v1', Buffer.from('bytes that outlive a restart'));
      const apiKey = (await first.issueKey({ licenseType: 'free' })).api_key;
      const link = (await first.get(`/v1/models/restart_v1/download?api_key=${apiKey}`)).headers.get('location')!;
      expect(link).toMatch(/\?expires=\d+&signature=[A-Za-z0-9_-]{43}$/);
      expect(first.config.models.urlSecretFile).toBe(join(first.folder, 'model-url.secret'));
      expect(existsSync(first.config.models.urlSecretFile)).toBe(false);
      await expect(first.app.get(GeneratedSecretRepository).find('model-link-secret')).resolves.toMatch(/^[A-Za-z0-9_-]{43}$/);
      // the service as it starts again over the same data directory (no MODEL_URL_SECRET either time)
      restarted = await TestApp.start({
        env: { DATABASE_URL: first.databaseUrl, SAMPLE_MODELS: 'false', MODEL_STORE_DIR: first.config.models.storeDir },
      });
      const url = new URL(link);
      const res = await downloadFile(`${restarted.baseUrl}${url.pathname}${url.search}`);
      expect(res.status).toBe(200);
      expect(res.bytes.toString()).toBe('bytes that outlive a restart');
    } finally {
      await restarted?.close();
      await first.close();
    }
  });
});

describe('Model file links with MODEL_HOST', () => {
  it('are the CDN URLs, unsigned, as configured', async () => {
    const t = await TestApp.start({ env: { SAMPLE_MODELS: 'false', MODEL_HOST: 'https://cdn.example.com/files/' } });
    try {
      await publish(t, 'cdn_v1', Buffer.from('cdn bytes'));
      const stored = (await t.admin('GET', '/admin/v1/models/cdn_v1')).body.stored_file;
      const apiKey = (await t.issueKey({ licenseType: 'free' })).api_key;
      const expected = `https://cdn.example.com/files/${stored}`;
      expect((await t.get(`/v1/models/cdn_v1?api_key=${apiKey}`)).body.download_url).toBe(expected);
      expect((await t.get(`/v1/models/list?api_key=${apiKey}`)).body.models[0].download_url).toBe(expected);
      expect((await t.get(`/v1/models/cdn_v1/download?api_key=${apiKey}`)).headers.get('location')).toBe(expected);
    } finally {
      await t.close();
    }
  });
});
