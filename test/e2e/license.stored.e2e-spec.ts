import { createHash } from 'node:crypto';
import { ModuleRef } from '@nestjs/core';
import { ON_REQUEST_REASONS, OfflineLicenses, RefreshStoredLicenses, RotateLicenseSigningKey } from '@svc/application';
import { BillingPeriod, FixedClock, StoredLicenseRepository, toSecondTimestamp } from '@svc/domain';
import { type JSONWebKeySet, createLocalJWKSet, jwtVerify } from 'jose';
import { TestApp } from '../harness/create-test-app';
import { fetchJwks } from '../harness/license-token';

/**
 * Licenses signed ahead (issue 40): three instances on one database (the project's: a SQLite
 * file, PostgreSQL or MySQL) and one controllable clock. A key's license is signed when its
 * terms change and kept in the database, so every instance hands out the same token for the
 * same terms without signing; the refresh job (run here by hand on the clock) re-signs what is
 * past half its lifetime, a new period's and a new signing key's. Every token is verified with
 * jose against the JWKS the instances publish.
 */

const TTL_S = 86_400;
const DAY_MS = 86_400_000;

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** The `device` claim of a fingerprint (CONTRACT 23): its SHA-256, lowercase hex. */
function digestOf(fingerprint: string): string {
  return createHash('sha256').update(fingerprint, 'utf8').digest('hex');
}

function kidOf(token: string): string {
  return (JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8')) as { kid: string }).kid;
}

describe('Licenses signed ahead, kept in the database (issue 40)', () => {
  // the first of a month at noon: a period rollover is a few weeks ahead, and the clock agrees with the real one's month
  const start = new Date(Date.now());
  const clock = new FixedClock(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), 1, 12)));
  let instances: TestApp[] = [];
  let a: TestApp;
  /** The refresh job's round (the use case LicenseRefresher runs every second), run by hand. */
  let job: RefreshStoredLicenses;
  const jobRound = () => job.execute(1000);

  beforeAll(async () => {
    const env = { LICENSE_TOKEN_TTL_SECONDS: String(TTL_S), SAMPLE_MODELS: 'false' };
    // no instance runs the job on its timer: its rounds run by hand below, on the clock, so that nothing
    // re-signs between a change and the answers a test expects before the job's next round
    a = await TestApp.start({ clock, env: { ...env, LICENSE_REFRESH_PER_SECOND: '0' } });
    const shared = { ...env, DATABASE_URL: a.databaseUrl, MODEL_STORE_DIR: a.config.models.storeDir, LICENSE_REFRESH_PER_SECOND: '0' };
    instances = [a, await TestApp.start({ clock, env: shared }), await TestApp.start({ clock, env: shared })];
    job = await a.app.get(ModuleRef).create(RefreshStoredLicenses);
  }, 60_000);
  afterAll(async () => {
    for (const t of [...instances].reverse()) await t.close();
  });

  const farExpiry = () => new Date(clock.now().getTime() + 730 * DAY_MS);
  const onRequest = () =>
    instances.reduce((n, t) => n + Object.values(t.app.get(OfflineLicenses).signedOnRequest).reduce((x, y) => x + y, 0), 0);
  const stored = (t: TestApp = a) => t.app.get(StoredLicenseRepository);

  /** Validates on every instance at once: each answer's token, verified with jose against that instance's JWKS at the clock's time. */
  async function tokensOf(apiKey: string): Promise<string[]> {
    return Promise.all(
      instances.map(async (t) => {
        const res = await t.post('/v1/auth/validate', { api_key: apiKey });
        expect(res.status).toBe(200);
        const token = res.body.license_token as string;
        await jwtVerify(token, createLocalJWKSet((await fetchJwks(t.baseUrl)) as JSONWebKeySet), {
          currentDate: clock.now(),
          issuer: 'svc-licensing',
        });
        return token;
      }),
    );
  }

  /** The one token every instance hands out (they agree), checked to say `expected`. */
  async function sameTokenOf(apiKey: string, expected: Record<string, unknown> = {}): Promise<string> {
    const tokens = await tokensOf(apiKey);
    expect(new Set(tokens).size).toBe(1);
    expect(claimsOf(tokens[0])).toMatchObject(expected);
    return tokens[0];
  }

  it('signs at issue: every instance hands out the stored token, without signing', async () => {
    const before = onRequest();
    const key = await a.issueKey({ licenseType: 'research', expiresAt: farExpiry() });
    const token = await sameTokenOf(key.api_key, {
      sub: key.key_id,
      license_type: 'research',
      iat: Math.floor(clock.now().getTime() / 1000),
    });
    expect((await stored().find(key.key_id))?.token).toBe(token);
    clock.advance(60_000);
    expect(await sameTokenOf(key.api_key)).toBe(token);
    expect(onRequest()).toBe(before);
  });

  it('a key without a stored license (an install from before): the instances that sign at once all hand out the one stored', async () => {
    const key = await a.issueKey({ expiresAt: farExpiry() });
    await stored().forget(key.key_id);
    const before = onRequest();
    const token = await sameTokenOf(key.api_key);
    expect((await stored().find(key.key_id))?.token).toBe(token);
    expect(onRequest() - before).toBeGreaterThanOrEqual(1);
    expect(onRequest() - before).toBeLessThanOrEqual(3);
    const metrics = await a.get('/metrics');
    expect(metrics.text).toMatch(/svc_license_signatures_total\{path="ahead",reason="none"\} \d+/);
  });

  it('after the upgrade that added the stored licenses, the job signs the keys that have none (once per process)', async () => {
    const keys = await Promise.all([0, 1].map(() => a.issueKey({ expiresAt: farExpiry() })));
    const revoked = await a.issueKey({ expiresAt: farExpiry() });
    expect((await a.admin('POST', `/admin/v1/keys/${revoked.key_id}/revoke`, { reason: 'test' })).status).toBe(200);
    for (const key of [...keys, revoked]) await stored().forget(key.key_id);
    // a process's job that has not looked for them yet (as after a start)
    const job = await a.app.get(ModuleRef).create(RefreshStoredLicenses);
    await job.execute(1000);
    for (const key of keys) {
      const kept = (await stored().find(key.key_id))!;
      expect(kept.signedAt).toEqual(clock.now());
      const before = onRequest();
      expect(await sameTokenOf(key.api_key)).toBe(kept.token);
      expect(onRequest()).toBe(before);
    }
    expect(await stored().find(revoked.key_id)).toBeNull();
  });

  it('a tier change, a limit change and a rotation each give a new token at once on every instance, signed ahead', async () => {
    const key = await a.issueKey({ licenseType: 'free', expiresAt: farExpiry() });
    const first = await sameTokenOf(key.api_key, { license_type: 'free' });
    const before = onRequest();

    clock.advance(1000);
    expect((await instances[1].admin('PATCH', `/admin/v1/keys/${key.key_id}`, { license_type: 'research' })).status).toBe(200);
    const upgraded = await sameTokenOf(key.api_key, { license_type: 'research', quota: { monthly_limit: 50000 } });
    expect(upgraded).not.toBe(first);

    clock.advance(1000);
    expect((await instances[2].admin('PATCH', `/admin/v1/keys/${key.key_id}`, { monthly_limit: 1234 })).status).toBe(200);
    const limited = await sameTokenOf(key.api_key, { license_type: 'research', quota: { monthly_limit: 1234 } });
    expect(limited).not.toBe(upgraded);

    clock.advance(1000);
    const rotated = await a.post('/v1/auth/rotate', { api_key: key.api_key });
    expect(rotated.status).toBe(200);
    await sameTokenOf(rotated.body.api_key as string, {
      sub: rotated.body.key_id,
      license_type: 'research',
      quota: { monthly_limit: 1234 },
    });
    // the predecessor, in its grace, hands out a license expiring with the grace, signed ahead too
    const graceEnd = Math.floor(Date.parse(rotated.body.previous_key_expires_at as string) / 1000);
    await sameTokenOf(key.api_key, { sub: key.key_id, exp: graceEnd });
    expect(onRequest()).toBe(before);
  });

  it('the job re-signs licenses past half their lifetime on the clock; every instance then hands out the new one', async () => {
    const key = await a.issueKey({ expiresAt: farExpiry() });
    const first = await sameTokenOf(key.api_key);

    clock.advance(TTL_S * 400); // before half its lifetime: nothing to do for it
    await jobRound();
    expect(await sameTokenOf(key.api_key)).toBe(first);

    clock.advance(TTL_S * 200); // past the refresh point (half, plus at most a tenth)
    const before = onRequest();
    await jobRound();
    const renewed = (await stored().find(key.key_id))!;
    expect(renewed.signedAt).toEqual(clock.now());
    expect(await sameTokenOf(key.api_key, { iat: Math.floor(clock.now().getTime() / 1000) })).toBe(renewed.token);
    expect(onRequest()).toBe(before);
  });

  it('a period rollover gives a new token at once on every instance (the new resets_at); the job re-signs the others', async () => {
    const hot = await a.issueKey({ expiresAt: farExpiry() });
    const idle = await a.issueKey({ expiresAt: farExpiry() });
    const resetsAt = BillingPeriod.containing(clock.now()).resetsAt;
    const before = await sameTokenOf(hot.api_key, { quota: { resets_at: toSecondTimestamp(resetsAt) } });

    clock.set(new Date(resetsAt.getTime() + 1000));
    const next = BillingPeriod.containing(clock.now()).resetsAt;
    const after = await sameTokenOf(hot.api_key, { quota: { resets_at: toSecondTimestamp(next) } });
    expect(after).not.toBe(before);

    // the key validated nowhere yet is re-signed by the job (due at its period's end)
    await jobRound();
    const idleStored = (await stored().find(idle.key_id))!;
    expect(claimsOf(idleStored.token).quota).toMatchObject({ resets_at: toSecondTimestamp(next) });
    const onRequestBefore = onRequest();
    expect(await sameTokenOf(idle.api_key)).toBe(idleStored.token);
    expect(onRequest()).toBe(onRequestBefore);
  });

  /** The licenses the instances signed on validate's and refresh's path, every reason, as their /metrics say. */
  async function signedOnRequestByMetrics(): Promise<number> {
    let total = 0;
    for (const t of instances) {
      const text = (await t.get('/metrics')).text;
      const lines = [...text.matchAll(/^svc_license_signatures_total\{path="request",reason="[a-z_]+"\} (\d+)$/gm)];
      expect(lines).toHaveLength(ON_REQUEST_REASONS.length);
      for (const line of lines) total += Number(line[1]);
    }
    return total;
  }

  /** Validates naming `fingerprint` on every instance: the one token they all hand out, verified with jose, its claims checked. */
  async function namedTokenOf(apiKey: string, fingerprint: string, expected: Record<string, unknown> = {}): Promise<string> {
    const tokens = await Promise.all(
      instances.map(async (t) => {
        const res = await t.post('/v1/auth/validate', { api_key: apiKey }, { 'x-device-fingerprint': fingerprint });
        expect(res.status).toBe(200);
        const token = res.body.license_token as string;
        const { payload } = await jwtVerify(token, createLocalJWKSet((await fetchJwks(t.baseUrl)) as JSONWebKeySet), {
          currentDate: clock.now(),
          issuer: 'svc-licensing',
        });
        expect(payload).toMatchObject({ device: digestOf(fingerprint), ...expected });
        return token;
      }),
    );
    expect(new Set(tokens).size).toBe(1);
    return tokens[0];
  }

  it("a device's license is signed at activation: the named validate hands it out on every instance without signing", async () => {
    const key = await a.issueKey({ expiresAt: farExpiry() });
    const plain = await sameTokenOf(key.api_key);
    const fingerprint = 'machine-00000042-fingerprint';
    const before = await signedOnRequestByMetrics();
    expect((await instances[1].post('/v1/devices/activate', { api_key: key.api_key, fingerprint })).status).toBe(201);
    const kept = (await stored().find(key.key_id, digestOf(fingerprint)))!;
    expect(kept.signedAt).toEqual(clock.now());
    clock.advance(60_000);
    expect(await namedTokenOf(key.api_key, fingerprint, { sub: key.key_id })).toBe(kept.token);
    expect(await sameTokenOf(key.api_key)).toBe(plain);
    expect(await signedOnRequestByMetrics()).toBe(before);
  });

  it("a tier change, a limit change and a rotation re-sign the license's active devices' licenses ahead", async () => {
    const key = await a.issueKey({ licenseType: 'free', expiresAt: farExpiry() });
    const fingerprint = 'machine-00000043-fingerprint';
    expect((await a.post('/v1/devices/activate', { api_key: key.api_key, fingerprint })).status).toBe(201);
    const first = await namedTokenOf(key.api_key, fingerprint, { license_type: 'free' });
    const before = await signedOnRequestByMetrics();

    clock.advance(1000);
    expect((await instances[1].admin('PATCH', `/admin/v1/keys/${key.key_id}`, { license_type: 'research' })).status).toBe(200);
    const upgraded = await namedTokenOf(key.api_key, fingerprint, { license_type: 'research', quota: { monthly_limit: 50000 } });
    expect(upgraded).not.toBe(first);

    clock.advance(1000);
    expect((await instances[2].admin('PATCH', `/admin/v1/keys/${key.key_id}`, { monthly_limit: 1234 })).status).toBe(200);
    await namedTokenOf(key.api_key, fingerprint, { license_type: 'research', quota: { monthly_limit: 1234 } });

    // the successor shares the license's devices: its license for the device is signed at the rotation
    clock.advance(1000);
    const rotated = await a.post('/v1/auth/rotate', { api_key: key.api_key });
    expect(rotated.status).toBe(200);
    await namedTokenOf(rotated.body.api_key as string, fingerprint, { sub: rotated.body.key_id, quota: { monthly_limit: 1234 } });
    expect(await signedOnRequestByMetrics()).toBe(before);
  });

  it('after the upgrade that signs device licenses ahead, the job signs those of devices holding a seat without one (once per process)', async () => {
    const key = await a.issueKey({ expiresAt: farExpiry() });
    const held = 'machine-00000050-fingerprint';
    const gone = 'machine-00000051-fingerprint';
    for (const fingerprint of [held, gone]) {
      expect((await a.post('/v1/devices/activate', { api_key: key.api_key, fingerprint })).status).toBe(201);
    }
    expect((await a.post('/v1/devices/deactivate', { api_key: key.api_key, fingerprint: gone })).status).toBe(200);
    // as on an install from before: the active device's license is not stored
    await stored().forget(key.key_id, digestOf(held));
    clock.advance(1000);
    // a process's job that has not walked the keys yet (as after a start)
    await (await a.app.get(ModuleRef).create(RefreshStoredLicenses)).execute(1000);
    const signed = (await stored().find(key.key_id, digestOf(held)))!;
    expect(signed.signedAt).toEqual(clock.now());
    expect(await stored().find(key.key_id, digestOf(gone))).toBeNull();
    const before = await signedOnRequestByMetrics();
    expect(await namedTokenOf(key.api_key, held, { sub: key.key_id })).toBe(signed.token);
    expect(await signedOnRequestByMetrics()).toBe(before);
  });

  it("the job re-signs an active device's license and forgets a deactivated one's; deactivation forgets the device's license", async () => {
    const key = await a.issueKey({ licenseType: 'research', expiresAt: farExpiry() });
    const [kept, gone] = ['machine-00000044-fingerprint', 'machine-00000045-fingerprint'];
    const activated = [];
    for (const fingerprint of [kept, gone]) {
      const res = await a.post('/v1/devices/activate', { api_key: key.api_key, fingerprint });
      expect(res.status).toBe(201);
      activated.push(res.body.device_id as string);
    }
    const goneLicense = (await stored().find(key.key_id, digestOf(gone)))!;
    const deactivated = await instances[2].post('/v1/devices/deactivate', { api_key: key.api_key, fingerprint: gone });
    expect(deactivated.status).toBe(200);
    expect(await stored().find(key.key_id, digestOf(gone))).toBeNull();
    // as if the forget at deactivation had failed: the job forgets it when it comes due
    await stored().put(key.key_id, goneLicense, digestOf(gone));

    clock.advance(TTL_S * 600); // past the refresh point (half, plus at most a tenth)
    const before = await signedOnRequestByMetrics();
    while ((await jobRound()).resigned > 0);
    expect(await stored().find(key.key_id, digestOf(gone))).toBeNull();
    const renewed = (await stored().find(key.key_id, digestOf(kept)))!;
    expect(renewed.signedAt).toEqual(clock.now());
    expect(await namedTokenOf(key.api_key, kept, { iat: Math.floor(clock.now().getTime() / 1000) })).toBe(renewed.token);
    expect(await signedOnRequestByMetrics()).toBe(before);

    expect((await a.admin('POST', `/admin/v1/keys/${key.key_id}/devices/${activated[0]}/deactivate`, {})).status).toBe(200);
    expect(await stored().find(key.key_id, digestOf(kept))).toBeNull();
    expect(await stored().find(key.key_id)).not.toBeNull();
  });

  it('a signing-key rotation reaches every stored license before the old key leaves the JWKS', async () => {
    const keys = await Promise.all([0, 1, 2].map(() => a.issueKey({ expiresAt: farExpiry() })));
    const oldKid = kidOf(await sameTokenOf(keys[0].api_key));
    const rotation = await (await a.app.get(ModuleRef).create(RotateLicenseSigningKey)).execute();
    const publishedUntil = rotation.replaced!.unpublishedAt;

    // the new key signs from its publish delay on; every instance reads it within a minute
    clock.set(new Date(rotation.added.signsFrom.getTime() + 60_000));
    const newKid = (await fetchJwks(a.baseUrl)).keys[0].kid;
    // the stored licenses of the old key still verify (it is still published): handed out until the job re-signs them
    expect(kidOf(await sameTokenOf(keys[1].api_key))).toBe(oldKid);

    while ((await jobRound()).resigned > 0);
    for (const key of keys) {
      const token = await sameTokenOf(key.api_key);
      expect(kidOf(token)).toBe(newKid);
      expect((await stored().find(key.key_id))?.kid).toBe(newKid);
    }
    expect(newKid).not.toBe(oldKid);
    expect(clock.now().getTime()).toBeLessThan(publishedUntil.getTime());
  });
});
