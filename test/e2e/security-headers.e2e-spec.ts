import { TestApp } from '../harness/create-test-app';
import { type HttpAnswer } from '../harness/http';

/** Helmet's headers for a JSON API (no Content-Security-Policy except on the docs page), never X-Powered-By. */
const EXPECTED: Record<string, string | RegExp> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': /^max-age=\d+/,
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'x-permitted-cross-domain-policies': 'none',
};

function expectSecurityHeaders(res: HttpAnswer, where: string): void {
  for (const [name, value] of Object.entries(EXPECTED)) {
    const actual = res.headers.get(name);
    if (typeof value === 'string') expect({ where, name, actual }).toEqual({ where, name, actual: value });
    else expect({ where, name, matches: actual !== null && value.test(actual) }).toEqual({ where, name, matches: true });
  }
  expect({ where, poweredBy: res.headers.get('x-powered-by') }).toEqual({ where, poweredBy: null });
}

describe('Security headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(async () => {
    await t.close();
  });

  it('on every kind of answer: success, key errors, routing errors, body errors, health, metrics', async () => {
    const key = await t.issueKey();
    const answers: Array<[string, HttpAnswer]> = [
      ['validate 200', await t.post('/v1/auth/validate', { api_key: key.api_key })],
      ['validate 401', await t.post('/v1/auth/validate', { api_key: `svc_live_${'0'.repeat(48)}` })],
      ['models 200', await t.get(`/v1/models/list?api_key=${key.api_key}`)],
      ['download 302', await t.get(`/v1/models/motor_imagery_4class_v1/download?api_key=${key.api_key}`)],
      ['unknown 404', await t.get('/nope')],
      ['method 405', await t.request('DELETE', '/v1/auth/validate')],
      ['media 415', await t.request('POST', '/v1/auth/validate', { raw: 'x', headers: { 'content-type': 'text/plain' } })],
      ['health', await t.get('/api/health')],
      ['metrics', await t.get('/metrics')],
      ['admin 401', await t.get('/admin/v1/audit')],
      ['docs json', await t.get('/api/docs-json')],
    ];
    for (const [where, res] of answers) {
      expectSecurityHeaders(res, where);
      expect({ where, csp: res.headers.get('content-security-policy') }).toEqual({ where, csp: null });
    }
  });

  it('the documentation page alone has a Content-Security-Policy', async () => {
    const page = await t.get('/api/docs');
    expectSecurityHeaders(page, 'docs');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("'unsafe-eval'");
  });
});
