import { Controller, Get, Module } from '@nestjs/common';
import { FixedClock } from '@svc/domain';
import { QuotaHintModule } from '../extension/quota-hint.module';
import { TestApp } from '../harness/create-test-app';
import { keyRoutesWithoutKeyAuth } from '../harness/key-routes';

const START = new Date('2026-11-21T10:00:00Z');
const RESET_S = String(START.getTime() / 1000 + 60);

/**
 * docs/EXTENDING.md, kept honest: QuotaHintModule (test/extension) is built
 * exactly as the guide says, mounted beside the service's own modules, and
 * answers with its key checks, its own limit and its OpenAPI entry.
 */
describe('a feature module built as docs/EXTENDING.md says', () => {
  let t: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    t = await TestApp.start({ features: [QuotaHintModule], clock: new FixedClock(START), env: { SAMPLE_MODELS: 'false' } });
    apiKey = (await t.issueKey({ licenseType: 'free' })).api_key;
  });
  afterAll(() => t.close());

  it('answers for a key, counted against a limit of its own (3), with the headers and the 429 envelope', async () => {
    for (let remaining = 2; remaining >= 0; remaining--) {
      const res = await t.get('/v1/quota-hint', { 'x-api-key': apiKey });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ used: 0, remaining: 10000 });
      expect([
        res.headers.get('x-ratelimit-limit'),
        res.headers.get('x-ratelimit-remaining'),
        res.headers.get('x-ratelimit-reset'),
      ]).toEqual(['3', String(remaining), RESET_S]);
    }
    const over = await t.get(`/v1/quota-hint?api_key=${apiKey}`);
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ error: 'Too many requests', code: 'RATE_LIMIT_EXCEEDED', message: expect.any(String) });
    expect(over.headers.get('retry-after')).toBe('60');
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it("does not draw on the service's own endpoint limits", async () => {
    const res = await t.post('/v1/auth/validate', { api_key: apiKey });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBe(t.config.rateLimit.perEndpoint.validate.toString());
  });

  it('answers the key errors of CONTRACT 2, in order, with the rate-limit headers', async () => {
    const missing = await t.get('/v1/quota-hint');
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'MISSING_KEY' });
    expect(missing.headers.get('x-ratelimit-limit')).toBe('3');
    const malformed = await t.get('/v1/quota-hint', { 'x-api-key': 'svc_live_nothex' });
    expect(malformed.body).toMatchObject({ code: 'INVALID_FORMAT' });
    const unknown = await t.get('/v1/quota-hint', { 'x-api-key': `svc_live_${'0'.repeat(48)}` });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ error: 'Invalid or inactive API key', code: 'INVALID_KEY' });
  });

  it('is in the OpenAPI document with its key placements, limit headers and error codes', async () => {
    const doc = (await t.get('/api/docs-json')).body as { paths: Record<string, { get?: Record<string, unknown> }> };
    const operation = doc.paths['/v1/quota-hint']?.get as { security: unknown[]; responses: Record<string, unknown> } | undefined;
    expect(operation).toBeDefined();
    expect(operation?.security).toEqual([{ api_key_header: [] }, { api_key_query: [] }]);
    // 403: the call may name its device (CONTRACT 23: DEVICE_NOT_ACTIVATED, DEVICE_REQUIRED)
    expect(Object.keys(operation?.responses ?? {}).sort()).toEqual(['200', '400', '401', '403', '405', '429', '500', '503']);
  });

  it('serves its admin route to the roles its permission names, under the admin path, with the admin codes', async () => {
    const { key_id: keyId } = await t.issueKey({ licenseType: 'research' });
    const viewer = await t.admin('POST', '/admin/v1/operators', { name: 'Hint viewer', role: 'viewer' });
    expect(viewer.status).toBe(201);
    const asViewer = await t.request('GET', `/admin/v1/quota-hint/${keyId}`, { headers: { authorization: `Bearer ${viewer.body.token}` } });
    expect(asViewer).toMatchObject({ status: 200, body: { used: 0, remaining: 50000 } });
    expect(asViewer.headers.get('cache-control')).toBe('no-store');
    expect((await t.request('GET', `/admin/v1/quota-hint/${keyId}`)).status).toBe(401);
    expect((await t.admin('GET', '/admin/v1/quota-hint/key_nothing')).body).toMatchObject({ code: 'KEY_NOT_FOUND' });

    const doc = (await t.get('/api/docs-json')).body as { paths: Record<string, { get?: Record<string, unknown> }> };
    expect(doc.paths['/admin/v1/quota-hint/{key_id}']?.get?.['x-permission']).toEqual({ name: 'usage.read', role: 'viewer' });
  });

  it('carries @ApiKeyAuth on every key-taking route, its own included', () => {
    expect(keyRoutesWithoutKeyAuth(t.app)).toEqual([]);
  });
});

@Controller('v1/naked')
class NakedController {
  @Get()
  show(): { ok: true } {
    return { ok: true };
  }
}

@Module({ controllers: [NakedController] })
class NakedModule {}

describe('a key-taking route registered without @ApiKeyAuth', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ features: [NakedModule], env: { SAMPLE_MODELS: 'false' } });
  });
  afterAll(() => t.close());

  it('is found by the audit that holds every /v1 route to the composite decorator', () => {
    expect(keyRoutesWithoutKeyAuth(t.app)).toEqual(['GET v1/naked']);
  });

  it('is also not rate limited (nothing names its throttler): the decorator is what limits a route', async () => {
    const res = await t.get('/v1/naked');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
  });
});
