import { type KeyObject, generateKeyPairSync, randomBytes, sign, verify } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { FixedClock } from '@svc/domain';
import { TestApp } from '../harness/create-test-app';

const PATH = '/v1/installer/github-token';
const ISO_SECOND = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const MINUTE = 60 * 1000;
const SUCCESS_MESSAGE = 'GitHub token retrieved successfully';
const UNKNOWN_KEY = `svc_live_${'0'.repeat(48)}`;

const APP_ID = '424242';
const INSTALLATION_ID = '98765432';
const REPO = { owner: 'acme-neuro', name: 'bci-core-private' };
/** Something GitHub might put in an error body; it must never reach a client or the logs. */
const UPSTREAM_SECRET = 'ghs_UPSTREAM_SECRET_must_not_leak_0123456789';

type FakeMode = 'ok' | 'fail' | 'hang' | 'garbage';

/**
 * A fake GitHub REST API on 127.0.0.1: it verifies the App JWT's RS256
 * signature with the App's public key, its claims, the path and the body, and
 * counts requests and mints. Anything wrong goes to `problems` (and a 401).
 */
class FakeGithub {
  mode: FakeMode = 'ok';
  /** Requests to the access-token endpoint, successful or not. */
  attempts = 0;
  mints = 0;
  readonly problems: string[] = [];
  readonly issued: string[] = [];
  readonly bodies: unknown[] = [];
  /** Lifetime of a minted token, measured from the service's clock like GitHub's one hour. */
  tokenLifetimeMs = 60 * MINUTE;
  private server!: Server;
  url = '';

  constructor(
    private readonly publicKey: KeyObject,
    private readonly clock: FixedClock,
  ) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const reject = (problem: string) => {
      this.problems.push(problem);
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ message: problem }));
    };

    if (req.method !== 'POST' || req.url !== `/app/installations/${INSTALLATION_ID}/access_tokens`) {
      return reject(`unexpected ${req.method} ${req.url}`);
    }
    this.attempts += 1;
    const problem = this.checkJwt(req.headers.authorization);
    if (problem) return reject(problem);
    if (!req.headers['user-agent']) return reject('no User-Agent (GitHub requires one)');
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return reject('body is not JSON');
    }
    this.bodies.push(body);
    if (JSON.stringify(body) !== JSON.stringify({ repositories: [REPO.name], permissions: { contents: 'read' } })) {
      return reject(`unexpected body ${raw}`);
    }

    await new Promise((resolve) => setTimeout(resolve, 100)); // keep the mint in flight a while
    switch (this.mode) {
      case 'hang':
        return; // never answers
      case 'fail':
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ message: `internal error near ${UPSTREAM_SECRET}`, documentation_url: 'https://docs.github.com' }));
        return;
      case 'garbage':
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ note: UPSTREAM_SECRET }));
        return;
      case 'ok': {
        this.mints += 1;
        // Deliberately not GitHub's usual shape: the service must not assume a token's length or format.
        const token = `ghs_${this.mints}|${randomBytes(40).toString('base64url')}.x/y+z`;
        this.issued.push(token);
        const expiresAt = new Date(this.clock.now().getTime() + this.tokenLifetimeMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
        res.writeHead(201, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            token,
            expires_at: expiresAt,
            permissions: { contents: 'read' },
            repository_selection: 'selected',
            repositories: [{ id: 1, name: REPO.name, full_name: `${REPO.owner}/${REPO.name}` }],
          }),
        );
      }
    }
  }

  /** Verifies `Authorization: Bearer <RS256 JWT>` against the App's public key; returns a problem or null. */
  private checkJwt(authorization: string | undefined): string | null {
    const match = /^Bearer (\S+)$/i.exec(authorization ?? '');
    if (!match) return 'no bearer token';
    const parts = match[1].split('.');
    if (parts.length !== 3) return 'not a JWT';
    const [header, claims, signature] = parts;
    const valid = verify('sha256', Buffer.from(`${header}.${claims}`), this.publicKey, Buffer.from(signature, 'base64url'));
    if (!valid) return 'JWT signature does not verify with the App public key';
    const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: string };
    if (head.alg !== 'RS256') return `JWT alg ${head.alg}`;
    const payload = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as { iss?: unknown; iat?: unknown; exp?: unknown };
    if (String(payload.iss) !== APP_ID) return `JWT iss ${String(payload.iss)}`;
    if (typeof payload.iat !== 'number' || typeof payload.exp !== 'number') return 'JWT without iat/exp';
    if (payload.exp <= payload.iat || payload.exp - payload.iat > 11 * 60) return 'JWT lifetime out of range';
    const now = Math.floor(this.clock.now().getTime() / 1000);
    if (payload.iat > now || payload.exp <= now || payload.exp > now + 10 * 60) return 'JWT not valid now';
    return null;
  }
}

function rsaKeyPair(): { privatePem: string; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privatePem: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(), publicKey };
}

function nowToTheSecond(): Date {
  return new Date(Math.floor(Date.now() / 1000) * 1000);
}

async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** GITHUB_REQUEST_TIMEOUT_MS here (the default is 10 s): the hang case waits this long, not the default. */
const GITHUB_REQUEST_TIMEOUT_MS = 1_000;

function githubAppEnv(privatePem: string, apiUrl: string): Record<string, string> {
  return {
    GITHUB_REQUEST_TIMEOUT_MS: String(GITHUB_REQUEST_TIMEOUT_MS),
    GITHUB_APP_ID: APP_ID,
    GITHUB_APP_PRIVATE_KEY: privatePem,
    GITHUB_APP_INSTALLATION_ID: INSTALLATION_ID,
    INSTALLER_REPOSITORY: `${REPO.owner}/${REPO.name}`,
    GITHUB_API_URL: apiUrl,
  };
}

function expectEnvelope(res: { status: number; body: any }, status: number, code: string): void {
  expect(res.status).toBe(status);
  expect(res.body).toEqual(expect.objectContaining({ error: expect.any(String), code }));
  expect(Object.keys(res.body).every((k) => ['error', 'code', 'message'].includes(k))).toBe(true);
}

async function auditOf(t: TestApp, keyId: string): Promise<{ text: string; entries: any[] }> {
  const res = await t.admin('GET', `/admin/v1/audit?key_id=${keyId}`);
  expect(res.status).toBe(200);
  return { text: res.text, entries: (res.body.entries as any[]).filter((e) => e.action === 'installer.token_issued') };
}

/** A clock that reads the system time, as the service's own does (the fake GitHub judges JWTs by it). */
class SystemTimeClock extends FixedClock {
  constructor() {
    super(new Date());
  }
  override now(): Date {
    return new Date();
  }
}

describe('GET and POST /v1/installer/github-token', () => {
  describe('with a GitHub App and the system clock (no test clock: no time difference)', () => {
    const { privatePem, publicKey } = rsaKeyPair();
    const github = new FakeGithub(publicKey, new SystemTimeClock());
    let t: TestApp;

    beforeAll(async () => {
      await github.start();
      t = await TestApp.start({ env: githubAppEnv(privatePem, github.url) });
    });
    afterAll(async () => {
      await t?.close();
      await github.close();
    });

    it('mints with a JWT dated now (auth-app dates it 1970 when handed a time difference of 0)', async () => {
      const key = await t.issueKey();
      const res = await t.get(PATH, { 'x-api-key': key.api_key });
      expect(github.problems).toEqual([]);
      expect(res.status).toBe(200);
      expect(github.mints).toBe(1);
    });
  });

  describe('with a GitHub App', () => {
    const { privatePem, publicKey } = rsaKeyPair();
    const clock = new FixedClock(nowToTheSecond());
    const github = new FakeGithub(publicKey, clock);
    const STATIC_TOKEN = 'static-token-that-must-lose-to-the-app';
    let t: TestApp;
    let apiKey: string;
    let keyId: string;

    beforeAll(async () => {
      await github.start();
      t = await TestApp.start({
        env: { ...githubAppEnv(privatePem, github.url), INSTALLER_GITHUB_TOKEN: STATIC_TOKEN },
        clock,
      });
      const key = await t.issueKey();
      apiKey = key.api_key;
      keyId = key.key_id;
    });
    afterAll(async () => {
      await t?.close();
      await github.close();
    });
    afterEach(() => {
      expect(github.problems).toEqual([]);
    });

    it('the fake GitHub really checks the JWT signature (sanity check of the test double)', async () => {
      const forger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
      const now = Math.floor(clock.now().getTime() / 1000);
      const head = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT' })).toString('base64url');
      const claims = Buffer.from(JSON.stringify({ iat: now - 60, exp: now + 500, iss: APP_ID })).toString('base64url');
      const forged = `${head}.${claims}.${sign('sha256', Buffer.from(`${head}.${claims}`), forger).toString('base64url')}`;
      const res = await fetch(`${github.url}/app/installations/${INSTALLATION_ID}/access_tokens`, {
        method: 'POST',
        headers: { authorization: `Bearer ${forged}`, 'user-agent': 'test' },
        body: JSON.stringify({ repositories: [REPO.name], permissions: { contents: 'read' } }),
      });
      expect(res.status).toBe(401);
      expect(github.problems).toEqual(['JWT signature does not verify with the App public key']);
      github.problems.length = 0;
      github.attempts = 0;
    });

    describe('200', () => {
      it('20 simultaneous requests (GET and POST) share exactly one mint, scoped to the one repository', async () => {
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? t.get(PATH, { 'x-api-key': apiKey }) : t.post(PATH, { api_key: apiKey }))),
        );
        expect(github.mints).toBe(1);
        expect(github.attempts).toBe(1);
        expect(github.bodies).toEqual([{ repositories: [REPO.name], permissions: { contents: 'read' } }]);
        const minted = github.issued[0];
        for (const res of answers) {
          expect(res.status).toBe(200);
          expect(res.headers.get('cache-control')).toBe('no-store');
          expect(res.headers.get('content-type')).toMatch(/^application\/json/);
          expect(res.body).toEqual({
            success: true,
            github_token: minted,
            expires_at: new Date(clock.now().getTime() + 60 * MINUTE).toISOString().replace(/\.\d{3}Z$/, 'Z'),
            message: SUCCESS_MESSAGE,
          });
          expect(res.body.expires_at).toMatch(ISO_SECOND);
        }
        expect(minted).not.toBe(STATIC_TOKEN); // the App is preferred when both are configured
      });

      it('reuses the token while it has at least 10 minutes left, and mints anew below that', async () => {
        const first = github.issued[github.issued.length - 1];
        const mintsBefore = github.mints;

        clock.advance(49 * MINUTE); // 11 minutes left
        let res = await t.get(`${PATH}?api_key=${apiKey}`);
        expect(res.status).toBe(200);
        expect(res.body.github_token).toBe(first);

        clock.advance(1 * MINUTE); // exactly 10 minutes left: still reused
        res = await t.post(PATH, { api_key: apiKey });
        expect(res.body.github_token).toBe(first);
        expect(github.mints).toBe(mintsBefore);

        clock.advance(1000); // 9:59 left: not reused
        res = await t.get(PATH, { 'x-api-key': apiKey });
        expect(res.status).toBe(200);
        expect(github.mints).toBe(mintsBefore + 1);
        expect(res.body.github_token).toBe(github.issued[github.issued.length - 1]);
        expect(res.body.github_token).not.toBe(first);

        res = await t.get(PATH, { 'x-api-key': apiKey });
        expect(res.body.github_token).toBe(github.issued[github.issued.length - 1]);
        expect(github.mints).toBe(mintsBefore + 1);
      });

      it('a token GitHub hands out with less than 10 minutes of life is returned but not reused', async () => {
        clock.advance(2 * 60 * MINUTE); // the cached token has expired
        github.tokenLifetimeMs = 5 * MINUTE;
        try {
          const mintsBefore = github.mints;
          const a = await t.get(PATH, { 'x-api-key': apiKey });
          const b = await t.get(PATH, { 'x-api-key': apiKey });
          expect(a.status).toBe(200);
          expect(b.status).toBe(200);
          expect(github.mints).toBe(mintsBefore + 2);
          expect(a.body.github_token).not.toBe(b.body.github_token);
        } finally {
          github.tokenLifetimeMs = 60 * MINUTE;
        }
      });

      it('records each issuance in the audit log (key id, provider, expiry), never the token', async () => {
        const res = await t.post(PATH, { api_key: apiKey });
        expect(res.status).toBe(200);
        const audit = await auditOf(t, keyId);
        // Entries written at the same (fixed) instant have no defined order: look for this one.
        expect(audit.entries).toContainEqual(
          expect.objectContaining({
            action: 'installer.token_issued',
            key_id: keyId,
            details: { provider: 'github_app', expires_at: new Date(res.body.expires_at).toISOString() },
          }),
        );
        for (const token of github.issued) expect(audit.text).not.toContain(token);
      });
    });

    describe('502', () => {
      it('GitHub answering 500 gives UPSTREAM_ERROR with nothing of its answer; the next request tries again', async () => {
        clock.advance(2 * 60 * MINUTE); // nothing reusable in the cache
        github.mode = 'fail';
        const attemptsBefore = github.attempts;

        const res = await t.get(PATH, { 'x-api-key': apiKey });
        expectEnvelope(res, 502, 'UPSTREAM_ERROR');
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(res.text).not.toContain(UPSTREAM_SECRET);
        expect(res.text).not.toContain('internal error');
        expect(github.attempts).toBe(attemptsBefore + 1);

        // Concurrent callers during a failing mint share it; a failure is not cached.
        const many = await Promise.all(Array.from({ length: 5 }, () => t.post(PATH, { api_key: apiKey })));
        for (const r of many) expectEnvelope(r, 502, 'UPSTREAM_ERROR');
        expect(github.attempts).toBe(attemptsBefore + 2);

        github.mode = 'ok';
        const mintsBefore = github.mints;
        const recovered = await t.get(PATH, { 'x-api-key': apiKey });
        expect(recovered.status).toBe(200);
        expect(github.mints).toBe(mintsBefore + 1);
        expect(recovered.body.github_token).toBe(github.issued[github.issued.length - 1]);
      });

      it('a 2xx answer without a token is UPSTREAM_ERROR too', async () => {
        clock.advance(2 * 60 * MINUTE);
        github.mode = 'garbage';
        try {
          const res = await t.post(PATH, { api_key: apiKey });
          expectEnvelope(res, 502, 'UPSTREAM_ERROR');
          expect(res.text).not.toContain(UPSTREAM_SECRET);
        } finally {
          github.mode = 'ok';
        }
      });

      it(
        'GitHub not answering is bounded (GITHUB_REQUEST_TIMEOUT_MS) and gives UPSTREAM_ERROR',
        async () => {
          clock.advance(2 * 60 * MINUTE);
          github.mode = 'hang';
          try {
            const started = Date.now();
            const res = await t.get(PATH, { 'x-api-key': apiKey });
            const elapsed = Date.now() - started;
            expectEnvelope(res, 502, 'UPSTREAM_ERROR');
            // the request is abandoned at GITHUB_REQUEST_TIMEOUT_MS, never before (a timer does not fire
            // early; 100 ms for clock granularity), and the answer follows at once: 5 s above it is a margin
            // for a busy 2-core machine, and short of the 10 s default, so the setting is shown to be used;
            // a hang would last until the TCP timeout (minutes)
            expect(elapsed).toBeGreaterThanOrEqual(GITHUB_REQUEST_TIMEOUT_MS - 100);
            expect(elapsed).toBeLessThan(GITHUB_REQUEST_TIMEOUT_MS + 5_000);
          } finally {
            github.mode = 'ok';
          }
          const res = await t.get(PATH, { 'x-api-key': apiKey });
          expect(res.status).toBe(200);
        },
        GITHUB_REQUEST_TIMEOUT_MS + 20_000,
      );

      it("logs the failures for operators, but never a token nor GitHub's answer", () => {
        const log = t.logger.lines.join('\n');
        expect(log).toContain('GitHub answered HTTP 500');
        expect(log).toContain('timed out');
        expect(log).not.toContain(UPSTREAM_SECRET);
        for (const token of github.issued) expect(log).not.toContain(token);
        expect(log).not.toContain(apiKey);
        expect(log).not.toContain(privatePem.split('\n')[1]);
      });
    });
  });

  describe('with a GitHub App that cannot be reached', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await TestApp.start({ env: githubAppEnv(rsaKeyPair().privatePem, await closedPortUrl()) });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('502 UPSTREAM_ERROR, and the next request tries again', async () => {
      const key = await t.issueKey();
      for (let i = 0; i < 2; i++) {
        const res = await t.post(PATH, { api_key: key.api_key });
        expectEnvelope(res, 502, 'UPSTREAM_ERROR');
        expect(res.body.message).toEqual(expect.any(String));
      }
      expect(t.logger.lines.filter((l) => l.includes('could not be reached'))).toHaveLength(2);
    });
  });

  describe('with a static token', () => {
    const STATIC_TOKEN = `ghp_static_${randomBytes(12).toString('hex')}`;
    let t: TestApp;
    let apiKey: string;
    let keyId: string;

    beforeAll(async () => {
      t = await TestApp.start({ env: { INSTALLER_GITHUB_TOKEN: STATIC_TOKEN } });
      const key = await t.issueKey();
      apiKey = key.api_key;
      keyId = key.key_id;
    });
    afterAll(async () => {
      await t?.close();
    });

    const OK = { success: true, github_token: STATIC_TOKEN, expires_at: null, message: SUCCESS_MESSAGE };

    describe('200', () => {
      it('GET with X-API-Key', async () => {
        const res = await t.get(PATH, { 'x-api-key': apiKey });
        expect(res.status).toBe(200);
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(res.body).toEqual(OK);
      });

      it('GET with the api_key query parameter', async () => {
        const res = await t.get(`${PATH}?api_key=${apiKey}`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual(OK);
      });

      it('POST with the body api_key', async () => {
        const res = await t.post(PATH, { api_key: apiKey });
        expect(res.status).toBe(200);
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(res.body).toEqual(OK);
      });

      it('POST with an empty body, no Content-Type and the key in X-API-Key', async () => {
        const res = await t.request('POST', PATH, { headers: { 'x-api-key': apiKey } });
        expect(res.status).toBe(200);
        expect(res.body).toEqual(OK);
      });

      it('POST with an empty JSON-typed body and the key in X-API-Key', async () => {
        const res = await t.request('POST', PATH, { raw: '', headers: { 'x-api-key': apiKey, 'content-type': 'application/json' } });
        expect(res.status).toBe(200);
      });

      it('answers at the unversioned alias used by the Julia wrapper (POST, key in body)', async () => {
        const res = await t.post('/installer/github-token', { api_key: apiKey });
        expect(res.status).toBe(200);
        expect(res.body).toEqual(OK);
      });

      it('any active key gets a token whatever its quota', async () => {
        const exhausted = await t.issueKey({ licenseType: 'free', monthlyLimit: 0 });
        const validate = await t.post('/v1/auth/validate', { api_key: exhausted.api_key });
        expect(validate.status).toBe(429);
        const res = await t.get(PATH, { 'x-api-key': exhausted.api_key });
        expect(res.status).toBe(200);
        expect(res.body).toEqual(OK);
      });

      it('audits the issuance with provider and null expiry, never the token', async () => {
        await t.get(PATH, { 'x-api-key': apiKey });
        const audit = await auditOf(t, keyId);
        expect(audit.entries.length).toBeGreaterThanOrEqual(1);
        expect(audit.entries[0]).toEqual(expect.objectContaining({ key_id: keyId, details: { provider: 'static', expires_at: null } }));
        expect(audit.text).not.toContain(STATIC_TOKEN);
      });
    });

    describe('key precedence', () => {
      it('GET: the header wins over the query', async () => {
        let res = await t.get(`${PATH}?api_key=not-a-key`, { 'x-api-key': apiKey });
        expect(res.status).toBe(200);
        res = await t.get(`${PATH}?api_key=${apiKey}`, { 'x-api-key': 'not-a-key' });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'Invalid API key format', code: 'INVALID_FORMAT' });
        res = await t.get(`${PATH}?api_key=${apiKey}`, { 'x-api-key': UNKNOWN_KEY });
        expect(res.status).toBe(401);
        expect(res.body.code).toBe('INVALID_KEY');
      });

      it('POST: the header wins over the body', async () => {
        let res = await t.post(PATH, { api_key: 'not-a-key' }, { 'x-api-key': apiKey });
        expect(res.status).toBe(200);
        res = await t.post(PATH, { api_key: apiKey }, { 'x-api-key': UNKNOWN_KEY });
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: 'Invalid or inactive API key', code: 'INVALID_KEY' });
      });

      it('GET does not read the body, POST does not read the query', async () => {
        const res = await t.request('POST', `${PATH}?api_key=${apiKey}`, { json: {} });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('MISSING_KEY');
      });
    });

    describe('400', () => {
      it.each([
        ['GET without a key', () => t.get(PATH)],
        ['GET with an empty query key', () => t.get(`${PATH}?api_key=`)],
        ['POST without a body', () => t.request('POST', PATH)],
        ['POST with an empty object', () => t.post(PATH, {})],
        ['POST with a null key', () => t.post(PATH, { api_key: null })],
        ['POST with a blank key', () => t.post(PATH, { api_key: '   ' })],
      ])('MISSING_KEY: %s', async (_label, send) => {
        const res = await send();
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: expect.any(String), code: 'MISSING_KEY', message: expect.any(String) });
      });

      it.each([
        ['a short key in the header', () => t.get(PATH, { 'x-api-key': 'svc_live_abc' })],
        ['a wrong prefix in the query', () => t.get(`${PATH}?api_key=xyz_live_${'a'.repeat(48)}`)],
        ['a number in the body', () => t.post(PATH, { api_key: 42 })],
      ])('INVALID_FORMAT: %s', async (_label, send) => {
        const res = await send();
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'Invalid API key format', code: 'INVALID_FORMAT' });
      });
    });

    describe('401', () => {
      it('INVALID_KEY for an unknown key', async () => {
        const res = await t.get(PATH, { 'x-api-key': UNKNOWN_KEY });
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: 'Invalid or inactive API key', code: 'INVALID_KEY' });
      });

      it('INVALID_KEY for a revoked key', async () => {
        const key = await t.issueKey();
        const revoked = await t.admin('POST', `/admin/v1/keys/${key.key_id}/revoke`, { reason: 'test' });
        expect(revoked.status).toBe(200);
        const res = await t.post(PATH, { api_key: key.api_key });
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: 'Invalid or inactive API key', code: 'INVALID_KEY' });
      });

      it('KEY_EXPIRED for an expired key', async () => {
        const key = await t.issueKey({ expiresAt: new Date(Date.now() - 1000) });
        const res = await t.get(PATH, { 'x-api-key': key.api_key });
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: 'API key has expired', code: 'KEY_EXPIRED', message: expect.any(String) });
      });
    });

    describe('405', () => {
      it.each(['PUT', 'DELETE', 'PATCH'])('%s answers METHOD_NOT_ALLOWED with Allow', async (method) => {
        const res = await t.request(method, PATH, { headers: { 'x-api-key': apiKey } });
        expect(res.status).toBe(405);
        expect(res.body.code).toBe('METHOD_NOT_ALLOWED');
        const allow = (res.headers.get('allow') ?? '').split(/,\s*/);
        expect(allow.sort()).toEqual(['GET', 'POST']);
        expect(res.text).not.toContain(STATIC_TOKEN);
      });

      it('HEAD answers 405 without issuing a token (no audit entry)', async () => {
        const key = await t.issueKey();
        const res = await t.request('HEAD', PATH, { headers: { 'x-api-key': key.api_key } });
        expect(res.status).toBe(405);
        expect(res.headers.get('allow')).toBe('GET, POST');
        const audit = await t.admin('GET', `/admin/v1/audit?key_id=${key.key_id}`);
        expect(audit.body.entries.map((e: { action: string }) => e.action)).toEqual(['key.issued']);
      });
    });

    it('never logs the token', () => {
      const log = t.logger.lines.join('\n');
      expect(log).not.toContain(STATIC_TOKEN);
      expect(log).not.toContain(apiKey);
    });
  });

  describe('with a static token that expires', () => {
    const STATIC_TOKEN = `ghp_expiring_${randomBytes(12).toString('hex')}`;
    const expiresAt = new Date(nowToTheSecond().getTime() + 30 * MINUTE);
    const clock = new FixedClock(nowToTheSecond());
    let t: TestApp;
    beforeAll(async () => {
      t = await TestApp.start({
        env: { INSTALLER_GITHUB_TOKEN: STATIC_TOKEN, INSTALLER_GITHUB_TOKEN_EXPIRES_AT: expiresAt.toISOString() },
        clock,
      });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('reports the configured expiry to the second, then answers NOT_CONFIGURED once it has passed', async () => {
      const key = await t.issueKey();
      let res = await t.get(PATH, { 'x-api-key': key.api_key });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        github_token: STATIC_TOKEN,
        expires_at: expiresAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
        message: SUCCESS_MESSAGE,
      });

      clock.advance(30 * MINUTE);
      res = await t.get(PATH, { 'x-api-key': key.api_key });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: expect.any(String), code: 'NOT_CONFIGURED', message: expect.stringMatching(/contact support/i) });
      expect(res.text).not.toContain(STATIC_TOKEN);
      expect(t.logger.lines.join('\n')).not.toContain(STATIC_TOKEN);
    });
  });

  describe('with a static token whose expiry passed before start-up', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await TestApp.start({
        env: { INSTALLER_GITHUB_TOKEN: 'ghp_long_gone', INSTALLER_GITHUB_TOKEN_EXPIRES_AT: '2020-01-01T00:00:00Z' },
      });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('503 NOT_CONFIGURED', async () => {
      const key = await t.issueKey();
      const res = await t.post(PATH, { api_key: key.api_key });
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('NOT_CONFIGURED');
      expect(res.text).not.toContain('ghp_long_gone');
    });
  });

  describe('not configured', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await TestApp.start();
    });
    afterAll(async () => {
      await t?.close();
    });

    it('503 NOT_CONFIGURED with a message advising to contact support', async () => {
      const key = await t.issueKey();
      for (const res of [await t.get(PATH, { 'x-api-key': key.api_key }), await t.post(PATH, { api_key: key.api_key })]) {
        expect(res.status).toBe(503);
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(res.body).toEqual({
          error: expect.any(String),
          code: 'NOT_CONFIGURED',
          message: expect.stringMatching(/contact support/i),
        });
      }
    });

    it('key errors win over NOT_CONFIGURED', async () => {
      const expired = await t.issueKey({ expiresAt: new Date(Date.now() - 1000) });
      const cases: Array<[Promise<any>, number, string]> = [
        [t.get(PATH), 400, 'MISSING_KEY'],
        [t.post(PATH, { api_key: 'nope' }), 400, 'INVALID_FORMAT'],
        [t.get(PATH, { 'x-api-key': UNKNOWN_KEY }), 401, 'INVALID_KEY'],
        [t.post(PATH, { api_key: expired.api_key }), 401, 'KEY_EXPIRED'],
      ];
      for (const [pending, status, code] of cases) {
        const res = await pending;
        expect(res.status).toBe(status);
        expect(res.body.code).toBe(code);
      }
    });

    it('writes no audit entry when nothing was issued', async () => {
      const key = await t.issueKey();
      await t.get(PATH, { 'x-api-key': key.api_key });
      const audit = await auditOf(t, key.key_id);
      expect(audit.entries).toEqual([]);
    });
  });
});
