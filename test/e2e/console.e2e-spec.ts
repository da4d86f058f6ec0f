import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CreateOperator } from '@svc/application';
import { FixedClock } from '@svc/domain';
import { TestApp } from '../harness/create-test-app';

/**
 * The operator console (CONTRACT 17) as the service serves it: the built files
 * of dist/console (`npm run build` makes them) at /console, with a strict
 * Content-Security-Policy, the single-page app's deep links, and nothing at all
 * without an admin token or with CONSOLE_ENABLED=false. The browser test
 * (console.browser.e2e-spec.ts) drives the app itself.
 */
const ROOT = join(__dirname, '..', '..');
const BUILT = join(ROOT, 'dist', 'console', 'index.html');

const POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
];

/** Every directive of `policy` by name. */
function directivesOf(policy: string): Map<string, string> {
  return new Map(
    policy
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => [part.split(/\s+/)[0], part] as const),
  );
}

function assetsOf(html: string): string[] {
  return [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]).filter((url) => !url.startsWith('data:'));
}

describe('Operator console: serving', () => {
  beforeAll(() => {
    if (!existsSync(BUILT)) throw new Error(`${BUILT} is missing: run "npm run build" first (npm test does)`);
  });

  describe('with ADMIN_TOKEN set', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await TestApp.start();
    });
    afterAll(async () => {
      await t.close();
    });

    it('serves index.html at /console with the strict policy and the service security headers', async () => {
      for (const path of ['/console', '/console/']) {
        const page = await t.get(path);
        expect({ path, status: page.status }).toEqual({ path, status: 200 });
        expect(page.headers.get('content-type')).toMatch(/^text\/html/);
        const directives = directivesOf(page.headers.get('content-security-policy') ?? '');
        for (const expected of POLICY) expect(directives.get(expected.split(' ')[0])).toBe(expected);
        expect(page.headers.get('content-security-policy')).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
        expect(page.headers.get('x-frame-options')).toBe('DENY');
        expect(page.headers.get('x-content-type-options')).toBe('nosniff');
        expect(page.headers.get('referrer-policy')).toBe('no-referrer');
        expect(page.headers.get('x-request-id')).toBeTruthy();
        expect(page.text).toContain('<div id="app">');
      }
    });

    it('index.html has no inline script, no inline style, no event attribute and no third-party address', async () => {
      const html = (await t.get('/console')).text;
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length).toBeGreaterThan(0);
      for (const [, attributes, body] of scripts) {
        expect(attributes).toMatch(/\bsrc="\/console\/assets\/[^"]+\.js"/);
        expect(body.trim()).toBe('');
      }
      expect(html).not.toMatch(/<style\b/i);
      expect(html).not.toMatch(/\sstyle=/i);
      expect(html).not.toMatch(/\son[a-z]+=/i);
      expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i);
    });

    it('serves every asset index.html names, hashed ones cacheable for good, all under the policy', async () => {
      const html = (await t.get('/console')).text;
      const assets = assetsOf(html);
      expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
      expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
      for (const asset of assets) {
        expect(asset.startsWith('/console/assets/')).toBe(true);
        const answer = await t.get(asset);
        expect({ asset, status: answer.status }).toEqual({ asset, status: 200 });
        expect(answer.headers.get('content-type')).toMatch(asset.endsWith('.js') ? /^application\/javascript/ : /^text\/css/);
        expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        expect(answer.headers.get('content-security-policy')).toContain("script-src 'self'");
        expect(answer.text.length).toBeGreaterThan(100);
      }
      // the page itself is revalidated, so a new build is picked up at once
      expect((await t.get('/console')).headers.get('cache-control')).toBe('no-cache');
    });

    it('answers index.html for deep links of the app, and a JSON 404 for a missing asset', async () => {
      const index = (await t.get('/console')).text;
      for (const path of ['/console/keys', '/console/keys/key_0123456789abcdef', '/console/models', '/console/audit?action=key.issued']) {
        const page = await t.get(path);
        expect({ path, status: page.status, same: page.text === index }).toEqual({ path, status: 200, same: true });
        expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      }
      for (const path of [
        '/console/assets/nope-12345678.js',
        '/console/favicon.ico',
        '/console/../package.json',
        '/console/%2e%2e/package.json',
      ]) {
        const missing = await t.get(path);
        expect({ path, status: missing.status, type: missing.headers.get('content-type') }).toEqual({
          path,
          status: 404,
          type: expect.stringMatching(/^application\/json/),
        });
        expect(missing.body).toEqual({ error: 'Not found', code: 'NOT_FOUND', message: expect.any(String) });
      }
    });

    it('sends exactly the policy docs/CONSOLE.md and docs/OPERATIONS.md document', async () => {
      const sent = (await t.get('/console')).headers.get('content-security-policy');
      const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
      const consoleDoc = /Content-Security-Policy \(`([^`]+)`\)/.exec(readFileSync(join(ROOT, 'docs/CONSOLE.md'), 'utf8'));
      const operations = /Content-Security-Policy: ([^`]+)`/.exec(readFileSync(join(ROOT, 'docs/OPERATIONS.md'), 'utf8'));
      expect({ consoleDoc: oneLine(consoleDoc?.[1] ?? ''), operations: oneLine(operations?.[1] ?? '') }).toEqual({
        consoleDoc: sent,
        operations: sent,
      });
    });

    it('refuses other methods with 405 and Allow', async () => {
      const answer = await t.request('POST', '/console/keys', { json: {} });
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')).toContain('GET');
    });

    it('keeps the API as it was: no policy on API answers; admin answers are never stored', async () => {
      const health = await t.get('/api/health/live');
      expect(health.headers.get('content-security-policy')).toBeNull();
      const models = await t.admin('GET', '/admin/v1/models');
      expect(models.status).toBe(200);
      expect(models.headers.get('content-security-policy')).toBeNull();
      expect(models.headers.get('cache-control')).toBe('no-store');
      const audit = await t.admin('GET', '/admin/v1/audit');
      expect(audit.headers.get('cache-control')).toBe('no-store');
      const refused = await t.get('/admin/v1/audit');
      expect(refused.status).toBe(401);
      expect(refused.headers.get('cache-control')).toBe('no-store');
    });
  });

  it.each<[string, Record<string, string>]>([
    ['without ADMIN_TOKEN', { ADMIN_TOKEN: '' }],
    ['with CONSOLE_ENABLED=false', { CONSOLE_ENABLED: 'false' }],
  ])('does not exist %s (404)', async (_case, env) => {
    const t = await TestApp.start({ env });
    try {
      for (const path of ['/console', '/console/', '/console/keys/key_x', '/console/assets/index.js']) {
        const answer = await t.get(path);
        expect({ path, status: answer.status, code: answer.body?.code }).toEqual({ path, status: 404, code: 'NOT_FOUND' });
        expect(answer.headers.get('content-security-policy')).toBeNull();
      }
      // the admin API follows ADMIN_TOKEN (or an operator: below) alone
      expect((await t.admin('GET', '/admin/v1/models')).status).toBe(env.ADMIN_TOKEN === '' ? 404 : 200);
    } finally {
      await t.close();
    }
  });

  it('without ADMIN_TOKEN comes up with the admin API once an operator is enabled (CONTRACT 21)', async () => {
    const clock = new FixedClock(new Date('2026-05-10T08:00:00.000Z'));
    const t = await TestApp.start({ clock, env: { ADMIN_TOKEN: '' } });
    try {
      const status = async (path: string) => (await t.get(path)).status;
      expect(await status('/console')).toBe(404);
      const manage = await t.app.resolve(CreateOperator);
      const owner = await manage.execute({ name: 'First owner', role: 'owner', actor: { type: 'cli', user: 'root' } });
      clock.advance(60_000); // the presence of operators is read at most once a minute
      const page = await t.get('/console/keys');
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect((await t.get('/admin/v1/me', { authorization: `Bearer ${owner.token}` })).body).toMatchObject({ role: 'owner' });
    } finally {
      await t.close();
    }
  });
});
