import { generateKeyPairSync } from 'node:crypto';
import { FixedClock } from '@svc/domain';
import { LicenseRefresher } from '../../apps/api/src/modules/key-lifecycle/license-refresher';
import { type CliRan, runCli } from '../harness/cli';
import { TestApp } from '../harness/create-test-app';
import { type Jwks, fetchJwks, verifyIndependently } from '../harness/license-token';
import { expectedDatabaseLine } from '../harness/cli-stderr';

/**
 * CONTRACT 19: `license rotate-signing-key` (the built CLI, on the database two running
 * instances share) makes a new generated key that is published at once and signs only after
 * LICENSE_KEY_PUBLISH_SECONDS (default 3600); the old key stays published until the last token
 * it signed has expired; the running instances follow within a minute, without a restart.
 * The instances run on one controllable clock, set from the real time so that it agrees with
 * the CLI's; the project's database (SQLite file, PostgreSQL or MySQL). Needs `npm run build` first.
 */

const TTL_S = 86_400;
/** Bounds one CLI run (a busy machine: generous). */
const CLI_TIMEOUT_MS = 20_000;

function cli(env: Record<string, string>, ...args: string[]): Promise<CliRan> {
  return runCli(args, { env: { PATH: process.env.PATH ?? '', ...env }, timeoutMs: CLI_TIMEOUT_MS });
}

function kidOf(token: string): string {
  return (JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8')) as { kid: string }).kid;
}

describe('Signing-key rotation with generated keys (CONTRACT 19)', () => {
  const clock = new FixedClock(new Date(Math.floor(Date.now() / 1000) * 1000));
  let a: TestApp;
  let b: TestApp;
  let cliEnv: Record<string, string>;

  beforeAll(async () => {
    const env = { LICENSE_TOKEN_TTL_SECONDS: String(TTL_S), SAMPLE_MODELS: 'false', LICENSE_REFRESH_PER_SECOND: '0' };
    a = await TestApp.start({ clock, env });
    b = await TestApp.start({ clock, env: { ...env, DATABASE_URL: a.databaseUrl, MODEL_STORE_DIR: a.config.models.storeDir } });
    cliEnv = { DATABASE_URL: a.databaseUrl, MODEL_STORE_DIR: a.config.models.storeDir, LICENSE_TOKEN_TTL_SECONDS: String(TTL_S) };
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const seconds = () => Math.floor(clock.now().getTime() / 1000);
  const jwksOf = (t: TestApp): Promise<Jwks> => fetchJwks(t.baseUrl);
  const kids = async (t: TestApp) => (await jwksOf(t)).keys.map((key) => key.kid);
  async function tokenOf(t: TestApp, apiKey: string): Promise<string> {
    const res = await t.post('/v1/auth/validate', { api_key: apiKey });
    expect(res.status).toBe(200);
    return res.body.license_token as string;
  }
  /** Verifies `token` against the JWKS both instances publish now, at the clock's time. */
  async function expectVerifiedByBoth(token: string): Promise<void> {
    for (const t of [a, b]) expect(verifyIndependently(token, await jwksOf(t), seconds()).iss).toBe('svc-licensing');
  }

  it('publishes the new key at once, signs with it only after the publish delay, and drops the old one only after its last token expired', async () => {
    const key = await a.issueKey({ licenseType: 'research', expiresAt: new Date(clock.now().getTime() + 730 * 86_400_000) });
    const firstToken = await tokenOf(a, key.api_key);
    const oldKid = kidOf(firstToken);
    expect(await kids(a)).toEqual([oldKid]);
    expect(await kids(b)).toEqual([oldKid]);

    const rotatedAt = Date.now();
    const ran = await cli(cliEnv, 'license', 'rotate-signing-key', '--json');
    expect({ code: ran.code, database: ran.database, stderr: ran.stderr }).toEqual({
      code: 0,
      database: expectedDatabaseLine(cliEnv.DATABASE_URL),
      stderr: '',
    });
    const rotated = JSON.parse(ran.stdout) as {
      kid: string;
      generation: number;
      signs_from: string;
      replaces: { kid: string; signs_until: string; published_until: string };
    };
    const newKid = rotated.kid;
    const signsFrom = Date.parse(rotated.signs_from);
    expect(rotated).toMatchObject({ generation: 2, replaces: { kid: oldKid, signs_until: rotated.signs_from } });
    // LICENSE_KEY_PUBLISH_SECONDS' default: an hour after the rotation (the CLI's own clock)
    expect(signsFrom - rotatedAt).toBeGreaterThanOrEqual(3600_000);
    expect(signsFrom - rotatedAt).toBeLessThan(3600_000 + CLI_TIMEOUT_MS);
    expect(Date.parse(rotated.replaces.published_until)).toBe(signsFrom + TTL_S * 1000 + 60_000);
    expect(ran.stdout).not.toContain('PRIVATE KEY');

    // both running instances follow within a minute, without a restart: the new key is published, the old one signs
    clock.advance(60_000);
    expect(await kids(a)).toEqual([oldKid, newKid]);
    expect(await kids(b)).toEqual([oldKid, newKid]);
    expect(kidOf(await tokenOf(b, key.api_key))).toBe(oldKid);
    await expectVerifiedByBoth(firstToken);

    // the last second before the publish delay ends: still the old key
    clock.set(new Date(signsFrom - 1000));
    const lastOldToken = await tokenOf(b, key.api_key);
    expect(kidOf(lastOldToken)).toBe(oldKid);
    await expectVerifiedByBoth(lastOldToken);

    // from signs_from on, the new key signs: the stored license of the old key (still published) is handed
    // out until the refresh job re-signs it (run here by hand; LICENSE_REFRESH_PER_SECOND=0 keeps its timer off)
    clock.set(new Date(signsFrom));
    expect(kidOf(await tokenOf(b, key.api_key))).toBe(oldKid);
    const refresher = a.app.get(LicenseRefresher);
    while ((await refresher.round())?.resigned);
    const newTokens = [await tokenOf(b, key.api_key), await tokenOf(a, key.api_key)];
    for (const token of newTokens) {
      expect(kidOf(token)).toBe(newKid);
      await expectVerifiedByBoth(token);
    }
    expect(await kids(a)).toEqual([newKid, oldKid]);
    await expectVerifiedByBoth(firstToken);
    await expectVerifiedByBoth(lastOldToken);

    // the old key stays published until the last token it signed has expired
    const lastExp = verifyIndependently(lastOldToken, await jwksOf(a), seconds()).exp as number;
    clock.set(new Date((lastExp - 1) * 1000));
    await expectVerifiedByBoth(lastOldToken);
    expect(await kids(b)).toEqual([newKid, oldKid]);

    clock.set(new Date(rotated.replaces.published_until));
    expect(seconds()).toBeGreaterThan(lastExp);
    expect(await kids(a)).toEqual([newKid]);
    expect(await kids(b)).toEqual([newKid]);
    await expectVerifiedByBoth(await tokenOf(a, key.api_key));
  }, 60_000);

  it('refuses with a configured signing key (it always signs), naming the variable, never the key', async () => {
    const { privateKey } = generateKeyPairSync('ed25519', {
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const ran = await cli({ ...cliEnv, LICENSE_SIGNING_KEY: privateKey }, 'license', 'rotate-signing-key');
    expect(ran.code).toBe(1);
    expect(ran.stderr).toMatch(/^error: LICENSE_SIGNING_KEY \(or _FILE\) is configured/);
    expect(ran.stdout + ran.stderr).not.toContain(privateKey.split('\n')[1]);
  });

  it('is described in the help of `license`', async () => {
    const ran = await cli(cliEnv, 'license', '--help');
    expect(ran.stdout + ran.stderr).toMatch(/rotate-signing-key \[options\]\s+make a new generated license signing key/);
  });
});
