import { randomBytes } from 'node:crypto';
import { type IssuedKeyResponse } from '@svc/presentation';
import { TEST_ADMIN_TOKEN, TestApp } from '../harness/create-test-app';
import { type HttpAnswer } from '../harness/http';
import { downloadFile, signedLinkOf } from '../harness/model-download';
import { rawRequest } from '../harness/raw-http';
import { modelChecksum } from '../harness/sha256';

/**
 * GET /v1/models/list, /v1/models/{name}, /v1/models/{name}/download and the
 * service's own model host (/model-files), over a registry built through the
 * admin API (SAMPLE_MODELS=false: the registry starts empty).
 */

type Tier = 'free' | 'research' | 'commercial' | 'enterprise';
const TIERS: Tier[] = ['free', 'research', 'commercial', 'enterprise'];

interface Fixture {
  readonly name: string;
  readonly type: 'SvcLDA' | 'SvcQDA' | 'SvcProbit';
  readonly paradigm: string;
  readonly requires: Tier;
  /** How the model is published: an uploaded file, an explicit URL, or not at all. */
  readonly published: 'file' | 'url' | 'no';
  readonly owner?: 'owner';
}

/** The registry of this suite. Names sort differently from insertion order on purpose. */
const FIXTURES: Fixture[] = [
  { name: 'p300_binary_v1', type: 'SvcProbit', paradigm: 'p300', requires: 'research', published: 'file' },
  { name: 'motor_imagery_4class_v1', type: 'SvcLDA', paradigm: 'motor_imagery', requires: 'free', published: 'file' },
  { name: 'ssvep_multiclass_v1', type: 'SvcLDA', paradigm: 'ssvep', requires: 'research', published: 'file' },
  { name: 'motor_imagery_2class_v1', type: 'SvcQDA', paradigm: 'motor_imagery', requires: 'free', published: 'file' },
  { name: 'ssvep_cdn_v2', type: 'SvcQDA', paradigm: 'ssvep', requires: 'free', published: 'url' },
  { name: 'motor_imagery_6class_v1', type: 'SvcProbit', paradigm: 'motor_imagery', requires: 'commercial', published: 'file' },
  { name: 'a_motor_imagery_hd_v1', type: 'SvcLDA', paradigm: 'motor_imagery', requires: 'enterprise', published: 'file' },
  { name: 'p300_fast_v1', type: 'SvcLDA', paradigm: 'p300', requires: 'commercial', published: 'file' },
  { name: 'motor_imagery_draft_v1', type: 'SvcLDA', paradigm: 'motor_imagery', requires: 'free', published: 'no' },
  { name: 'acme_custom_mi_v1', type: 'SvcLDA', paradigm: 'motor_imagery', requires: 'commercial', published: 'file', owner: 'owner' },
];

/** What each tier sees with no filter (custom models aside), by paradigm then name. */
const VISIBLE: Record<Tier, string[]> = {
  free: ['motor_imagery_2class_v1', 'motor_imagery_4class_v1', 'ssvep_cdn_v2'],
  research: ['motor_imagery_2class_v1', 'motor_imagery_4class_v1', 'p300_binary_v1', 'ssvep_cdn_v2', 'ssvep_multiclass_v1'],
  commercial: [
    'motor_imagery_2class_v1',
    'motor_imagery_4class_v1',
    'motor_imagery_6class_v1',
    'p300_binary_v1',
    'p300_fast_v1',
    'ssvep_cdn_v2',
    'ssvep_multiclass_v1',
  ],
  enterprise: [
    'a_motor_imagery_hd_v1',
    'motor_imagery_2class_v1',
    'motor_imagery_4class_v1',
    'motor_imagery_6class_v1',
    'p300_binary_v1',
    'p300_fast_v1',
    'ssvep_cdn_v2',
    'ssvep_multiclass_v1',
  ],
};

const byName = new Map(FIXTURES.map((f) => [f.name, f]));

/** The filter combinations every tier is checked against, with the subset each keeps. */
const FILTERS: Array<[string, string, (f: Fixture) => boolean]> = [
  ['no filter', '', () => true],
  ['paradigm=motor_imagery', '&paradigm=motor_imagery', (f) => f.paradigm === 'motor_imagery'],
  ['paradigm=p300', '&paradigm=p300', (f) => f.paradigm === 'p300'],
  ['type=SvcLDA', '&type=SvcLDA', (f) => f.type === 'SvcLDA'],
  ['type=SvcProbit', '&type=SvcProbit', (f) => f.type === 'SvcProbit'],
  [
    'paradigm=motor_imagery&type=SvcQDA',
    '&paradigm=motor_imagery&type=SvcQDA',
    (f) => f.paradigm === 'motor_imagery' && f.type === 'SvcQDA',
  ],
  ['paradigm=ssvep&type=SvcLDA', '&paradigm=ssvep&type=SvcLDA', (f) => f.paradigm === 'ssvep' && f.type === 'SvcLDA'],
  ['an unknown paradigm', '&paradigm=eeg_sleep', () => false],
  ['a paradigm in another case', '&paradigm=P300', () => false],
];

/** The query of a signed link (CONTRACT 7), as a regular expression's text. */
const SIGNED = '\\?expires=\\d+&signature=[A-Za-z0-9_-]{43}';

const CDN_URL = 'https://cdn.example.com/models/ssvep_cdn_v2-2.0.bin';
/** An external file's identity, as the CLI (or any tool) computes it from the file; CONTRACT 7 requires both. */
const CDN_CHECKSUM = `sha256:${'5'.repeat(64)}`;
const CDN_SIZE_BYTES = 3_141_593;

function recordOf(f: Fixture, ownerUserId: string | null): Record<string, unknown> {
  return {
    name: f.name,
    version: '1.0.0',
    type: f.type,
    paradigm: f.paradigm,
    n_features: 24,
    n_classes: 4,
    requires_license: f.requires,
    ...(f.published === 'url' ? { download_url: CDN_URL, checksum: CDN_CHECKSUM, size_bytes: CDN_SIZE_BYTES } : {}),
    ...(ownerUserId ? { owner_user_id: ownerUserId } : {}),
    metadata: {
      description: `Test model ${f.name}`,
      training_subjects: 9,
      accuracy: '0.70-0.80',
      feature_type: 'csp',
      recommended_use: 'e2e tests',
    },
  };
}

describe('Model registry (public)', () => {
  let t: TestApp;
  const files = new Map<string, Buffer>();
  const keys = {} as Record<Tier, IssuedKeyResponse>;
  /** The owner of the custom model, with one key per tier; and another user. */
  const owner = {} as Record<Tier, IssuedKeyResponse>;
  const stranger = {} as Record<Tier, IssuedKeyResponse>;

  const list = (key: string, query = ''): Promise<HttpAnswer> => t.get(`/v1/models/list?api_key=${key}${query}`);

  beforeAll(async () => {
    t = await TestApp.start({ env: { SAMPLE_MODELS: 'false' } });
    for (const tier of TIERS) {
      keys[tier] = await t.issueKey({ licenseType: tier, email: `${tier}@example.org` });
    }
    owner.free = await t.issueKey({ licenseType: 'free', email: 'owner@acme.example' });
    stranger.free = await t.issueKey({ licenseType: 'free', email: 'someone@else.example' });
    for (const tier of TIERS.slice(1)) {
      owner[tier] = await t.issueKey({ licenseType: tier, userId: owner.free.user_id });
      stranger[tier] = await t.issueKey({ licenseType: tier, userId: stranger.free.user_id });
    }
    for (const f of FIXTURES) {
      const created = await t.admin('POST', '/admin/v1/models', recordOf(f, f.owner ? owner.free.user_id : null));
      expect(created.status).toBe(201);
      if (f.published === 'file') {
        const bytes = randomBytes(1000 + files.size * 37);
        files.set(f.name, bytes);
        const uploaded = await t.request('PUT', `/admin/v1/models/${f.name}/file`, {
          raw: bytes,
          headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/octet-stream' },
        });
        expect(uploaded.status).toBe(200);
      }
    }
  });
  afterAll(async () => {
    await t.close();
  });

  describe('GET /v1/models/list', () => {
    describe('200', () => {
      describe.each(TIERS)('a %s key', (tier) => {
        it.each(FILTERS)('with %s: the published models at or below the tier, by paradigm then name', async (_label, query, keep) => {
          const res = await list(keys[tier].api_key, query);
          expect(res.status).toBe(200);
          const expected = VISIBLE[tier].filter((name) => keep(byName.get(name)!));
          expect(res.body.models.map((m: { name: string }) => m.name)).toEqual(expected);
          expect(res.body.total).toBe(expected.length);
          expect(res.body.total).toBe(res.body.models.length);
        });
      });

      it('an unknown paradigm is an empty list, not an error', async () => {
        const res = await list(keys.enterprise.api_key, '&paradigm=telepathy');
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ models: [], total: 0 });
      });

      it('lists sorted by paradigm, then by name, whatever the insertion order', async () => {
        const res = await list(keys.enterprise.api_key);
        const pairs = res.body.models.map((m: { paradigm: string; name: string }) => [m.paradigm, m.name]);
        const sorted = [...pairs].sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1));
        expect(pairs).toEqual(sorted);
        expect(pairs.map((p: string[]) => p[0])).toEqual([
          'motor_imagery',
          'motor_imagery',
          'motor_imagery',
          'motor_imagery',
          'p300',
          'p300',
          'ssvep',
          'ssvep',
        ]);
      });

      it('answers each record in the SPEC 2.4 shape, with exact types', async () => {
        const res = await list(keys.free.api_key, '&paradigm=motor_imagery&type=SvcLDA');
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        const bytes = files.get('motor_imagery_4class_v1')!;
        const record = res.body.models[0];
        expect(record).toEqual({
          name: 'motor_imagery_4class_v1',
          version: '1.0.0',
          type: 'SvcLDA',
          paradigm: 'motor_imagery',
          n_features: 24,
          n_classes: 4,
          size_mb: bytes.length / 1_000_000,
          size_bytes: bytes.length,
          download_url: expect.stringMatching(
            new RegExp(`^${t.baseUrl}/model-files/motor_imagery_4class_v1-1\\.0\\.0-[0-9a-f]{24}\\.bin${SIGNED}$`),
          ),
          checksum: modelChecksum(bytes),
          requires_license: 'free',
          metadata: {
            description: 'Test model motor_imagery_4class_v1',
            training_subjects: 9,
            accuracy: '0.70-0.80',
            feature_type: 'csp',
            recommended_use: 'e2e tests',
          },
        });
        expect(Object.keys(res.body).sort()).toEqual(['models', 'total']);
        for (const model of (await list(keys.enterprise.api_key)).body.models) {
          expect(typeof model.name).toBe('string');
          expect(typeof model.version).toBe('string');
          expect(model.version).toMatch(/^\d+(\.\d+)*$/);
          expect(['SvcLDA', 'SvcQDA', 'SvcProbit']).toContain(model.type);
          expect(Number.isInteger(model.n_features)).toBe(true);
          expect(Number.isInteger(model.n_classes)).toBe(true);
          expect(typeof model.download_url).toBe('string');
          expect(['free', 'research', 'commercial', 'enterprise']).toContain(model.requires_license);
          expect(typeof model.metadata).toBe('object');
          // every listed record is complete (CONTRACT 7), external ones included
          expect(model.checksum).toMatch(/^sha256:[0-9a-f]{64}$/);
          expect(typeof model.size_mb).toBe('number');
          expect(model.size_mb).toBe(model.size_bytes / 1_000_000);
        }
      });

      it("a model published by an explicit address lists that address with the external file's checksum and size", async () => {
        const res = await list(keys.free.api_key, '&paradigm=ssvep');
        expect(res.body.models).toEqual([
          expect.objectContaining({
            name: 'ssvep_cdn_v2',
            download_url: CDN_URL,
            checksum: CDN_CHECKSUM,
            size_mb: 3.141593,
            size_bytes: CDN_SIZE_BYTES,
          }),
        ]);
      });

      it('an unpublished record (no file, no address) is listed to no one', async () => {
        for (const tier of TIERS) {
          const names = (await list(keys[tier].api_key)).body.models.map((m: { name: string }) => m.name);
          expect(names).not.toContain('motor_imagery_draft_v1');
        }
      });

      it("a custom model is listed to its owner's commercial and enterprise keys only", async () => {
        for (const tier of ['commercial', 'enterprise'] as const) {
          const names = (await list(owner[tier].api_key, '&paradigm=motor_imagery')).body.models.map((m: { name: string }) => m.name);
          expect(names).toContain('acme_custom_mi_v1');
          expect(names[0]).toBe(tier === 'enterprise' ? 'a_motor_imagery_hd_v1' : 'acme_custom_mi_v1');
        }
        for (const tier of ['free', 'research'] as const) {
          const res = await list(owner[tier].api_key);
          expect(res.body.models.map((m: { name: string }) => m.name)).toEqual(VISIBLE[tier]);
        }
        for (const tier of TIERS) {
          const res = await list(stranger[tier].api_key);
          expect(res.body.models.map((m: { name: string }) => m.name)).toEqual(VISIBLE[tier]);
          expect(res.body.total).toBe(VISIBLE[tier].length);
        }
      });

      it('reads the key from X-API-Key first, then from the api_key query parameter', async () => {
        const header = await t.get('/v1/models/list', { 'x-api-key': keys.research.api_key });
        expect(header.status).toBe(200);
        expect(header.body.total).toBe(VISIBLE.research.length);
        const headerWins = await t.get(`/v1/models/list?api_key=${keys.free.api_key}`, { 'x-api-key': keys.enterprise.api_key });
        expect(headerWins.body.total).toBe(VISIBLE.enterprise.length);
      });

      it('answers at the unversioned alias /models/list', async () => {
        const res = await t.get(`/models/list?api_key=${keys.research.api_key}&type=SvcProbit`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ models: [expect.objectContaining({ name: 'p300_binary_v1' })], total: 1 });
      });
    });

    describe('400', () => {
      it.each(['Bogus', 'svclda', 'SvcLDA ', 'SvcBayes', ''])('INVALID_PARAMETER for type=%j', async (type) => {
        const res = await list(keys.enterprise.api_key, `&type=${encodeURIComponent(type)}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          error: 'Invalid parameter',
          code: 'INVALID_PARAMETER',
          message: 'type must be one of SvcLDA, SvcQDA, SvcProbit',
        });
      });

      it.each([
        ['type given twice', '&type=SvcLDA&type=SvcQDA', 'type'],
        ['paradigm given twice', '&paradigm=p300&paradigm=ssvep', 'paradigm'],
      ])('INVALID_PARAMETER for %s', async (_label, query, field) => {
        const res = await list(keys.enterprise.api_key, query);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'Invalid parameter', code: 'INVALID_PARAMETER', message: expect.stringContaining(field) });
      });

      it('key errors win over INVALID_PARAMETER', async () => {
        const missing = await t.get('/v1/models/list?type=Bogus');
        expect(missing.status).toBe(400);
        expect(missing.body.code).toBe('MISSING_KEY');
        const blank = await t.get('/v1/models/list?api_key=%20%20&type=Bogus');
        expect(blank.body.code).toBe('MISSING_KEY');
        const malformed = await t.get('/v1/models/list?api_key=nope&type=Bogus');
        expect(malformed.status).toBe(400);
        expect(malformed.body).toEqual({ error: 'Invalid API key format', code: 'INVALID_FORMAT' });
        const twice = await t.get(`/v1/models/list?api_key=${keys.free.api_key}&api_key=${keys.free.api_key}&type=Bogus`);
        expect(twice.body.code).toBe('INVALID_FORMAT');
        const unknown = await t.get(`/v1/models/list?api_key=svc_live_${'1'.repeat(48)}&type=Bogus`);
        expect(unknown.status).toBe(401);
        expect(unknown.body).toEqual({ error: 'Invalid or inactive API key', code: 'INVALID_KEY' });
        const expired = await t.issueKey({ licenseType: 'enterprise', expiresAt: new Date('2020-01-01T00:00:00Z') });
        const late = await t.get(`/v1/models/list?api_key=${expired.api_key}&type=Bogus`);
        expect(late.status).toBe(401);
        expect(late.body.code).toBe('KEY_EXPIRED');
      });
    });

    describe('401', () => {
      it('a revoked key is INVALID_KEY', async () => {
        const key = await t.issueKey({ licenseType: 'enterprise' });
        await t.post('/v1/auth/revoke', { api_key: key.api_key });
        const res = await list(key.api_key);
        expect(res.status).toBe(401);
        expect(res.body.code).toBe('INVALID_KEY');
      });
    });
  });

  describe('GET /v1/models/{name}', () => {
    describe('200', () => {
      it('answers the same record as the list', async () => {
        const listed = (await list(keys.research.api_key, '&paradigm=p300')).body.models[0];
        const res = await t.get('/v1/models/p300_binary_v1', { 'x-api-key': keys.research.api_key });
        expect(res.status).toBe(200);
        // The two calls may fall either side of a second, so each link is signed with its own expiry:
        // the record is the same, and so is the file the link names.
        const withoutLink = ({ download_url, ...rest }: Record<string, unknown>) => ({
          ...rest,
          file: new URL(String(download_url)).pathname,
        });
        expect(withoutLink(res.body)).toEqual(withoutLink(listed));
        expect(res.body.checksum).toBe(modelChecksum(files.get('p300_binary_v1')!));
      });

      it("answers a custom model to its owner's commercial and enterprise keys", async () => {
        for (const tier of ['commercial', 'enterprise'] as const) {
          const res = await t.get(`/v1/models/acme_custom_mi_v1?api_key=${owner[tier].api_key}`);
          expect(res.status).toBe(200);
          expect(res.body).toMatchObject({ name: 'acme_custom_mi_v1', requires_license: 'commercial' });
          expect(res.body).not.toHaveProperty('owner_user_id');
        }
      });
    });

    describe('403 INSUFFICIENT_LICENSE', () => {
      it.each([
        ['free', 'p300_binary_v1', 'research'],
        ['free', 'motor_imagery_6class_v1', 'commercial'],
        ['research', 'p300_fast_v1', 'commercial'],
        ['commercial', 'a_motor_imagery_hd_v1', 'enterprise'],
      ] as const)('a %s key asking for %s is told the %s tier is needed', async (tier, name, needed) => {
        const res = await t.get(`/v1/models/${name}?api_key=${keys[tier].api_key}`);
        expect(res.status).toBe(403);
        expect(res.body).toEqual({
          error: 'Insufficient license',
          code: 'INSUFFICIENT_LICENSE',
          message: `This model requires the ${needed} license or higher`,
        });
      });

      it("the owner's own keys below commercial", async () => {
        for (const tier of ['free', 'research'] as const) {
          const res = await t.get(`/v1/models/acme_custom_mi_v1?api_key=${owner[tier].api_key}`);
          expect(res.status).toBe(403);
          expect(res.body).toEqual({
            error: 'Insufficient license',
            code: 'INSUFFICIENT_LICENSE',
            message: 'This model requires the commercial license or higher',
          });
        }
      });
    });

    describe('404 MODEL_NOT_FOUND', () => {
      const notFound = { error: 'Model not found', code: 'MODEL_NOT_FOUND' };

      it.each(['no_such_model', 'motor_imagery_draft_v1', 'MOTOR_IMAGERY_4CLASS_V1', 'list.json', 'a%2Fb'])('for %s', async (name) => {
        const res = await t.get(`/v1/models/${name}?api_key=${keys.enterprise.api_key}`);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(notFound);
      });

      it("another user's custom model, at every tier (its existence is not revealed)", async () => {
        for (const tier of TIERS) {
          const res = await t.get(`/v1/models/acme_custom_mi_v1?api_key=${stranger[tier].api_key}`);
          expect(res.status).toBe(404);
          expect(res.body).toEqual(notFound);
          const download = await t.get(`/v1/models/acme_custom_mi_v1/download?api_key=${stranger[tier].api_key}`);
          expect(download.status).toBe(404);
        }
      });

      it('key errors win over MODEL_NOT_FOUND', async () => {
        expect((await t.get('/v1/models/no_such_model')).body.code).toBe('MISSING_KEY');
        expect((await t.get('/v1/models/no_such_model?api_key=x')).body.code).toBe('INVALID_FORMAT');
      });
    });
  });

  describe('GET /v1/models/{name}/download', () => {
    it('302 to the download_url, which serves bytes whose SHA-256 is the checksum', async () => {
      for (const name of ['motor_imagery_4class_v1', 'p300_binary_v1']) {
        const record = (await t.get(`/v1/models/${name}?api_key=${keys.research.api_key}`)).body;
        const res = await t.get(`/v1/models/${name}/download?api_key=${keys.research.api_key}`);
        expect(res.status).toBe(302);
        // Both links are signed "now" on the real clock: same file, an expiry at most a second later.
        const link = new URL(res.headers.get('location')!);
        const listed = new URL(record.download_url);
        expect(link.origin + link.pathname).toBe(listed.origin + listed.pathname);
        const later = Number(link.searchParams.get('expires')) - Number(listed.searchParams.get('expires'));
        expect(later === 0 || later === 1).toBe(true);
        const file = await downloadFile(res.headers.get('location')!);
        expect(file.status).toBe(200);
        expect(file.headers['content-type']).toBe('application/octet-stream');
        expect(modelChecksum(file.bytes)).toBe(record.checksum);
        expect(file.bytes.length).toBe(record.size_bytes);
        expect(Number(file.headers['content-length'])).toBe(record.size_bytes);
      }
    });

    it('302 to an explicit address as given', async () => {
      const res = await t.get('/v1/models/ssvep_cdn_v2/download', { 'x-api-key': keys.free.api_key });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(CDN_URL);
    });

    it("302 for the owner's commercial key to its custom model", async () => {
      const res = await t.get(`/v1/models/acme_custom_mi_v1/download?api_key=${owner.commercial.api_key}`);
      expect(res.status).toBe(302);
      const { bytes } = await downloadFile(res.headers.get('location')!);
      expect(modelChecksum(bytes)).toBe(modelChecksum(files.get('acme_custom_mi_v1')!));
    });

    it('the same 403 and 404 rules as GET /v1/models/{name}, and key errors first', async () => {
      const above = await t.get(`/v1/models/p300_binary_v1/download?api_key=${keys.free.api_key}`);
      expect(above.status).toBe(403);
      expect(above.body.message).toBe('This model requires the research license or higher');
      const own = await t.get(`/v1/models/acme_custom_mi_v1/download?api_key=${owner.research.api_key}`);
      expect(own.status).toBe(403);
      expect((await t.get(`/v1/models/motor_imagery_draft_v1/download?api_key=${keys.enterprise.api_key}`)).status).toBe(404);
      expect((await t.get(`/v1/models/nope/download?api_key=${keys.enterprise.api_key}`)).body.code).toBe('MODEL_NOT_FOUND');
      expect((await t.get('/v1/models/p300_binary_v1/download')).body.code).toBe('MISSING_KEY');
    });

    it('answers at the unversioned alias too', async () => {
      const res = await t.get(`/models/motor_imagery_2class_v1/download?api_key=${keys.free.api_key}`);
      expect(res.status).toBe(302);
    });

    it('builds the address from the Host the caller used', async () => {
      const res = await rawRequest(t.baseUrl, 'GET', `/v1/models/motor_imagery_2class_v1?api_key=${keys.free.api_key}`, {
        headers: { host: 'models.internal:8443' },
      });
      expect(res.status).toBe(200);
      expect(res.body.download_url).toMatch(
        new RegExp(`^http://models\\.internal:8443/model-files/motor_imagery_2class_v1-1\\.0\\.0-[0-9a-f]{24}\\.bin${SIGNED}$`),
      );
    });
  });

  describe('GET /model-files/{file}', () => {
    it('404 NOT_FOUND for a signed link to a file the store does not hold, and for names that try to leave it', async () => {
      for (const file of ['nope-1.0-000000000000000000000000.bin', '..%2F..%2Fetc%2Fpasswd', '.upload-0.tmp', 'x%00.bin']) {
        const unsigned = await t.get(`/model-files/${file}`);
        expect(unsigned.status).toBe(403);
        expect(unsigned.body.code).toBe('LINK_INVALID');
        const res = await t.get((await signedLinkOf(t.app, `${t.baseUrl}/model-files/${file}`)).slice(t.baseUrl.length));
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: 'Not found', code: 'NOT_FOUND', message: 'No such model file' });
      }
    });
  });
});
