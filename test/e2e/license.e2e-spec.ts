import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { FixedClock, LicenseSigningKeyRepository } from '@svc/domain';
import { Sha256SecretHasher } from '@svc/infrastructure';
import { TestApp } from '../harness/create-test-app';
import { fetchJwks, tampered, verifyIndependently } from '../harness/license-token';

const NOW = new Date('2026-03-15T12:00:00Z');
const NOW_S = NOW.getTime() / 1000;
const DAY_S = 86_400;
const RESEARCH_FEATURES = ['batch_inference', 'streaming', 'training', 'model_calibration', 'model_export'];

function ed25519Pair(): { privateKey: string; publicKey: string } {
  return generateKeyPairSync('ed25519', {
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
}

function partOf(token: string, index: 0 | 1): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[index], 'base64url').toString('utf8')) as Record<string, unknown>;
}

async function licenseTokenOf(t: TestApp, apiKey: string, route = '/v1/auth/validate'): Promise<string> {
  const res = await t.post(route, { api_key: apiKey });
  expect(res.status).toBe(200);
  return res.body.license_token as string;
}

/**
 * CONTRACT 15: validate and refresh return a signed offline license that any
 * JOSE library (or a verifier written from the RFCs) checks against the JWKS.
 */
describe('Offline licenses: license_token and GET /v1/license/jwks', () => {
  const clock = new FixedClock(NOW);
  let t: TestApp;

  beforeAll(async () => {
    // no refresh job: what validate hands out on its own is tested here (license.stored.e2e-spec.ts runs the job)
    t = await TestApp.start({
      clock,
      env: { LICENSE_TOKEN_TTL_SECONDS: String(DAY_S), SAMPLE_MODELS: 'false', LICENSE_REFRESH_PER_SECOND: '0' },
    });
  });
  afterAll(() => t.close());
  beforeEach(() => clock.set(NOW));

  it("validate's token verifies with an independent Ed25519 verifier over the JWKS, and carries exactly CONTRACT 15's claims", async () => {
    const key = await t.issueKey({ licenseType: 'research', expiresAt: new Date('2027-01-31T08:30:00Z') });
    const token = await licenseTokenOf(t, key.api_key);
    const jwks = await fetchJwks(t.baseUrl);

    const claims = verifyIndependently(token, jwks, NOW_S);

    expect(partOf(token, 0)).toEqual({ alg: 'EdDSA', typ: 'JWT', kid: jwks.keys[0].kid });
    expect(claims).toEqual({
      iss: 'svc-licensing',
      sub: key.key_id,
      uid: key.user_id,
      license_type: 'research',
      features: RESEARCH_FEATURES,
      quota: { monthly_limit: 50000, resets_at: '2026-04-01T00:00:00Z' },
      key_expires_at: '2027-01-31T08:30:00Z',
      environment: 'live',
      iat: NOW_S,
      exp: NOW_S + DAY_S,
    });
    const payload = Buffer.from(token.split('.')[1], 'base64url').toString('utf8');
    for (const secret of [key.api_key, new Sha256SecretHasher(null).digest(key.api_key), 'ada@example.org']) {
      expect(payload).not.toContain(secret);
    }
  });

  it('a standard JOSE library verifies it too, and refuses it once expired', async () => {
    const key = await t.issueKey({ licenseType: 'free', environment: 'test' });
    const token = await licenseTokenOf(t, key.api_key);
    const keySet = createLocalJWKSet(await fetchJwks(t.baseUrl));

    const { payload, protectedHeader } = await jwtVerify(token, keySet, {
      currentDate: NOW,
      issuer: 'svc-licensing',
      algorithms: ['EdDSA'],
    });
    expect(protectedHeader.alg).toBe('EdDSA');
    expect(payload).toMatchObject({ sub: key.key_id, license_type: 'free', environment: 'test', quota: { monthly_limit: 10000 } });

    await expect(jwtVerify(token, keySet, { currentDate: new Date((NOW_S + DAY_S) * 1000) })).rejects.toMatchObject({
      code: 'ERR_JWT_EXPIRED',
    });
  });

  it('fails verification when the payload or the header is tampered with, under another key, and once expired', async () => {
    const key = await t.issueKey({ licenseType: 'free' });
    const token = await licenseTokenOf(t, key.api_key);
    const jwks = await fetchJwks(t.baseUrl);
    expect(() => verifyIndependently(token, jwks, NOW_S)).not.toThrow();

    const upgraded = tampered(token, 'payload', (claims) => (claims.license_type = 'enterprise'));
    const unlimited = tampered(token, 'payload', (claims) => (claims.quota = { monthly_limit: null, resets_at: '2026-04-01T00:00:00Z' }));
    const prolonged = tampered(token, 'payload', (claims) => (claims.exp = NOW_S + 3650 * DAY_S));
    const reheaded = tampered(token, 'header', (header) => (header.typ = 'at+jwt'));
    for (const forged of [upgraded, unlimited, prolonged, reheaded]) {
      expect(() => verifyIndependently(forged, jwks, NOW_S)).toThrow('bad signature');
      await expect(jwtVerify(forged, createLocalJWKSet(jwks), { currentDate: NOW })).rejects.toMatchObject({
        code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
      });
    }

    // another key under the same kid: the signature does not verify
    const other = (await import('node:crypto')).createPublicKey(ed25519Pair().publicKey).export({ format: 'jwk' });
    const impostor = { keys: [{ ...jwks.keys[0], x: other.x as string }] };
    expect(() => verifyIndependently(token, impostor, NOW_S)).toThrow('bad signature');

    // the clock of the verifier at and after exp
    const { exp } = partOf(token, 1) as { exp: number };
    expect(() => verifyIndependently(token, jwks, exp)).toThrow('expired');
    expect(() => verifyIndependently(token, jwks, exp + 1)).toThrow('expired');
  });

  it("never lets exp pass the key's expiry", async () => {
    const expiresAt = new Date(NOW.getTime() + 3_600_000 + 500);
    const key = await t.issueKey({ licenseType: 'research', expiresAt });
    const claims = verifyIndependently(await licenseTokenOf(t, key.api_key), await fetchJwks(t.baseUrl), NOW_S);
    expect(claims.exp).toBe(Math.floor(expiresAt.getTime() / 1000));
    expect(claims.exp as number).toBeLessThan(NOW_S + DAY_S);
    expect(claims.key_expires_at).toBe('2026-03-15T13:00:00Z');
  });

  it('refresh answers a new token with the current license and quota: tier and limit changes, the next period', async () => {
    const key = await t.issueKey({ licenseType: 'research' });
    const jwks = await fetchJwks(t.baseUrl);
    const before = verifyIndependently(await licenseTokenOf(t, key.api_key, '/v1/auth/refresh'), jwks, NOW_S);
    expect(before).toMatchObject({ license_type: 'research', quota: { monthly_limit: 50000 } });

    const patched = await t.admin('PATCH', `/admin/v1/keys/${key.key_id}`, { license_type: 'commercial', monthly_limit: 1234 });
    expect(patched.status).toBe(200);
    clock.set(new Date('2026-04-02T00:00:00Z'));
    const later = new Date('2026-04-02T00:00:00Z').getTime() / 1000;
    const after = verifyIndependently(await licenseTokenOf(t, key.api_key, '/v1/auth/refresh'), jwks, later);
    expect(after).toMatchObject({
      license_type: 'commercial',
      features: expect.arrayContaining(['priority_support', 'custom_models']),
      quota: { monthly_limit: 1234, resets_at: '2026-05-01T00:00:00Z' },
      iat: later,
      exp: later + DAY_S,
    });
  });

  it('hands out the stored token while the license says the same, for three quarters of its lifetime; a change of terms is signed at once', async () => {
    const USABLE_S = (DAY_S * 3) / 4; // 64,800 s
    const key = await t.issueKey({ licenseType: 'research' });
    const first = await licenseTokenOf(t, key.api_key);
    expect(await licenseTokenOf(t, key.api_key, '/v1/auth/refresh')).toBe(first);
    // events spent are not a term of the license
    expect((await t.post('/v1/analytics/log', { api_key: key.api_key, event_type: 'inference' })).status).toBe(202);
    clock.set(new Date(NOW.getTime() + 59_000));
    expect(await licenseTokenOf(t, key.api_key)).toBe(first);

    expect((await t.admin('PATCH', `/admin/v1/keys/${key.key_id}`, { monthly_limit: 777 })).status).toBe(200);
    const changed = verifyIndependently(await licenseTokenOf(t, key.api_key), await fetchJwks(t.baseUrl), NOW_S + 59);
    expect(changed).toMatchObject({ quota: { monthly_limit: 777 }, iat: NOW_S + 59 });

    clock.set(new Date(NOW.getTime() + (59 + USABLE_S - 1) * 1000));
    expect(await licenseTokenOf(t, key.api_key)).toBe(await licenseTokenOf(t, key.api_key, '/v1/auth/refresh'));
    expect(verifyIndependently(await licenseTokenOf(t, key.api_key), await fetchJwks(t.baseUrl), NOW_S + 59 + USABLE_S - 1)).toMatchObject({
      iat: NOW_S + 59,
    });
    clock.set(new Date(NOW.getTime() + (59 + USABLE_S) * 1000));
    const renewed = verifyIndependently(await licenseTokenOf(t, key.api_key), await fetchJwks(t.baseUrl), NOW_S + 59 + USABLE_S);
    expect(renewed).toMatchObject({ quota: { monthly_limit: 777 }, iat: NOW_S + 59 + USABLE_S });
  });

  it('serves the JWKS without a key, cacheable for an hour, not rate-limited, at /v1/license/jwks and its alias', async () => {
    const res = await t.get('/v1/license/jwks');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after']) {
      expect(res.headers.get(name)).toBeNull();
    }
    expect(res.body).toEqual({
      keys: [
        {
          kty: 'OKP',
          crv: 'Ed25519',
          x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          kid: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          alg: 'EdDSA',
          use: 'sig',
        },
      ],
    });
    const alias = await t.get('/license/jwks');
    expect(alias.status).toBe(200);
    expect(alias.body).toEqual(res.body);
    const refused = await t.post('/v1/license/jwks', {});
    expect(refused.status).toBe(405);
  });

  it('keeps the generated signing key in the database, not under the data directory, and logs neither it nor any token', async () => {
    expect(existsSync(t.config.license.signingKeyFile)).toBe(false);
    const kept = await t.app.get(LicenseSigningKeyRepository).list();
    expect(kept).toHaveLength(1);
    const pem = kept[0].privateKey;
    expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----/);

    const key = await t.issueKey({ licenseType: 'research' });
    const tokens = [await licenseTokenOf(t, key.api_key), await licenseTokenOf(t, key.api_key, '/v1/auth/refresh')];
    const logged = t.logger.lines.join('\n');
    const keyBody = pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
    expect(logged).not.toContain(keyBody);
    for (const token of tokens) {
      for (const part of token.split('.')) expect(logged).not.toContain(part);
    }
  });
});

describe('Offline licenses: one signing key across instances and restarts', () => {
  it('two instances configured with one key sign alike and verify each other’s tokens', async () => {
    const { privateKey } = ed25519Pair();
    const a = await TestApp.start({ env: { LICENSE_SIGNING_KEY: privateKey, SAMPLE_MODELS: 'false' } });
    try {
      const b = await TestApp.start({ env: { LICENSE_SIGNING_KEY: privateKey, DATABASE_URL: a.databaseUrl, SAMPLE_MODELS: 'false' } });
      try {
        const key = await a.issueKey({ licenseType: 'research' });
        const [jwksA, jwksB] = [await fetchJwks(a.baseUrl), await fetchJwks(b.baseUrl)];
        expect(jwksB).toEqual(jwksA);
        const now = Math.floor(Date.now() / 1000);
        expect(verifyIndependently(await licenseTokenOf(a, key.api_key), jwksB, now).sub).toBe(key.key_id);
        expect(verifyIndependently(await licenseTokenOf(b, key.api_key), jwksA, now).sub).toBe(key.key_id);
      } finally {
        await b.close();
      }
    } finally {
      await a.close();
    }
  });

  it('publishes the old public keys of LICENSE_VERIFY_KEYS_FILE after the current one, so earlier tokens still verify', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'svc-license-'));
    const [older, oldest, current] = [ed25519Pair(), ed25519Pair(), ed25519Pair()];
    try {
      const before = await TestApp.start({ env: { LICENSE_SIGNING_KEY: older.privateKey, SAMPLE_MODELS: 'false' } });
      let oldToken: string;
      let oldKid: string;
      try {
        const key = await before.issueKey({ licenseType: 'research' });
        oldToken = await licenseTokenOf(before, key.api_key);
        oldKid = (await fetchJwks(before.baseUrl)).keys[0].kid;
      } finally {
        await before.close();
      }

      writeFileSync(join(folder, 'current.pem'), current.privateKey, { mode: 0o600 });
      writeFileSync(join(folder, 'verify.pem'), `${older.publicKey}\n${oldest.publicKey}`);
      const after = await TestApp.start({
        env: {
          LICENSE_SIGNING_KEY_FILE: join(folder, 'current.pem'),
          LICENSE_VERIFY_KEYS_FILE: join(folder, 'verify.pem'),
          SAMPLE_MODELS: 'false',
        },
      });
      try {
        const jwks = await fetchJwks(after.baseUrl);
        expect(jwks.keys).toHaveLength(3);
        expect(jwks.keys[1].kid).toBe(oldKid);
        const key = await after.issueKey({ licenseType: 'free' });
        const newToken = await licenseTokenOf(after, key.api_key);
        expect(partOf(newToken, 0).kid).toBe(jwks.keys[0].kid);
        const now = Math.floor(Date.now() / 1000);
        expect(verifyIndependently(oldToken, jwks, now).license_type).toBe('research');
        expect(verifyIndependently(newToken, jwks, now).license_type).toBe('free');
      } finally {
        await after.close();
      }

      // the same old keys as a JWKS file
      writeFileSync(
        join(folder, 'verify.json'),
        JSON.stringify({
          keys: [
            { kty: 'OKP', crv: 'Ed25519', x: (await import('node:crypto')).createPublicKey(older.publicKey).export({ format: 'jwk' }).x },
          ],
        }),
      );
      const fromJwks = await TestApp.start({
        env: { LICENSE_SIGNING_KEY: current.privateKey, LICENSE_VERIFY_KEYS_FILE: join(folder, 'verify.json'), SAMPLE_MODELS: 'false' },
      });
      try {
        expect((await fetchJwks(fromJwks.baseUrl)).keys.map((k) => k.kid)).toEqual([expect.any(String), oldKid]);
      } finally {
        await fromJwks.close();
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
