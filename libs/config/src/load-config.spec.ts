import 'reflect-metadata';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError } from './config.error';
import { loadConfig } from './load-config';
import { TRUST_PROXY_TRUE } from './trust-proxy';

/** The repository root: the default TIERS_FILE (config/tiers.json) is relative to it. */
const ROOT = resolve(__dirname, '../../..');

const PEM = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAsecretsecretsecret\n-----END RSA PRIVATE KEY-----\n';
const GITHUB_APP = {
  GITHUB_APP_ID: '123456',
  GITHUB_APP_PRIVATE_KEY: PEM,
  GITHUB_APP_INSTALLATION_ID: '987654',
  INSTALLER_REPOSITORY: 'neuro-org/svc-core',
};

function load(env: Record<string, string | undefined>) {
  return loadConfig(env, ROOT);
}

/** The ConfigError a bad environment raises (fails the test when none is raised). */
function configErrorOf(env: Record<string, string | undefined>): ConfigError {
  try {
    load(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe(loadConfig.name, () => {
  describe('defaults', () => {
    const config = load({});

    it('listens on port 3000 of every interface, with legacy routes and without a trusted proxy', () => {
      expect(config.http).toMatchObject({ port: 3000, host: '0.0.0.0', legacyRoutes: true, trustProxy: false });
    });

    it('uses the SQLite file ./data/service.db, resolved against the working folder, with an 8 MB page cache', () => {
      expect(config.database).toEqual({ kind: 'sqlite', path: join(ROOT, 'data/service.db'), busyTimeoutMs: 5000, cacheMb: 8 });
    });

    it('has no Redis, no admin API, no pepper and no installer', () => {
      expect(config.redisUrl).toBeNull();
      expect(config.adminToken).toBeNull();
      expect(config.keys).toEqual({ prefix: 'svc', digestPepper: null });
      expect(config.installer).toEqual({ staticToken: null, staticTokenExpiresAt: null, githubApp: null });
    });

    it('serves models from its own store in ./data/models', () => {
      expect(config.models).toMatchObject({ host: null, storeDir: join(ROOT, 'data/models') });
    });

    it('signs offline licenses with generated keys (an earlier ./data/license-signing-key.pem taken over), trusted for 7 days, published an hour before they sign', () => {
      expect(config.license).toEqual({
        signingKey: null,
        signingKeyFile: join(ROOT, 'data/license-signing-key.pem'),
        verifyKeys: [],
        tokenTtlSeconds: 604800,
        keyPublishSeconds: 3600,
        refreshPerSecond: 50,
      });
    });

    it('signs its links with a generated secret (an earlier ./data/model-url.secret taken over), for an hour', () => {
      expect(config.models).toMatchObject({ urlSecret: null, urlSecretFile: join(ROOT, 'data/model-url.secret'), urlTtlSeconds: 3600 });
    });

    it('keeps the generated link secret beside MODEL_STORE_DIR', () => {
      expect(loadConfig({ MODEL_STORE_DIR: '/srv/svc/store' }, ROOT).models.urlSecretFile).toBe('/srv/svc/model-url.secret');
    });

    it('reads the tier matrix from config/tiers.json', () => {
      expect(config.tiersFile).toBe(join(ROOT, 'config/tiers.json'));
      expect(Object.keys(config.tiers)).toEqual(['free', 'research', 'commercial', 'enterprise']);
      expect(config.tiers.free).toEqual({
        adds: ['batch_inference'],
        monthly_limit: 10000,
        max_devices: 1,
        device_lease_seconds: null,
        require_device: false,
      });
    });

    it('guards against brute force with 60 failures a minute, and logs at info', () => {
      expect(config.rateLimit.authFailuresPerMinute).toBe(60);
      expect(config.logLevel).toBe('info');
    });

    it('serves metrics on the HTTP port', () => {
      expect(config.metrics).toEqual({ enabled: true, port: null });
    });

    it('is frozen all the way down', () => {
      expect(Object.isFrozen(config)).toBe(true);
      expect(Object.isFrozen(config.database)).toBe(true);
      expect(Object.isFrozen(config.tiers.free.adds)).toBe(true);
    });
  });

  describe('values given', () => {
    it('reads a full set of valid values', () => {
      const config = load({
        PORT: '8080',
        DATABASE_URL: 'postgres://svc:pw@127.0.0.1:5432/svc_test',
        REDIS_URL: 'redis://127.0.0.1:6379',
        ADMIN_TOKEN: 'a-long-admin-token-0123456789abcdef',
        KEY_PREFIX: 'acme',
        KEY_DIGEST_PEPPER: 'pepper-0123456789abcdef',
        MODEL_HOST: 'https://cdn.example.org/models///',
        INSTALLER_GITHUB_TOKEN: 'ghp_static',
        INSTALLER_GITHUB_TOKEN_EXPIRES_AT: '2027-01-01T00:00:00Z',
        AUTH_FAILURE_LIMIT_PER_MINUTE: '0',
        LEGACY_ROUTES: 'false',
        TRUST_PROXY: '2',
        LOG_LEVEL: 'debug',
      });

      expect(config.http).toMatchObject({ port: 8080, legacyRoutes: false, trustProxy: 2 });
      expect(config.database).toMatchObject({ kind: 'postgres', url: 'postgres://svc:pw@127.0.0.1:5432/svc_test' });
      expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
      expect(config.adminToken).toBe('a-long-admin-token-0123456789abcdef');
      expect(config.keys).toEqual({ prefix: 'acme', digestPepper: 'pepper-0123456789abcdef' });
      expect(config.models.host).toBe('https://cdn.example.org/models');
      expect(config.installer.staticToken).toBe('ghp_static');
      expect(config.installer.staticTokenExpiresAt).toEqual(new Date('2027-01-01T00:00:00Z'));
      expect(config.rateLimit.authFailuresPerMinute).toBe(0);
      expect(config.logLevel).toBe('debug');
    });

    it.each([
      ['2028-02-29T23:59:59Z', '2028-02-29T23:59:59.000Z'],
      ['2027-06-30T12:00:00.250+02:00', '2027-06-30T10:00:00.250Z'],
      ['2027-01-01t00:00:00z', '2027-01-01T00:00:00.000Z'],
    ])('reads the static token expiry %s', (text, iso) => {
      expect(load({ INSTALLER_GITHUB_TOKEN_EXPIRES_AT: text }).installer.staticTokenExpiresAt?.toISOString()).toBe(iso);
    });

    it('keeps model files in the local folder unless MODEL_STORE_URL names an object store', () => {
      expect(load({}).models.objectStore).toBeNull();
      expect(load({ MODEL_STORE_URL: 's3://svc-models' }).models.objectStore).toEqual({
        bucket: 'svc-models',
        prefix: '',
        endpoint: null,
        forcePathStyle: false,
      });
      expect(load({ MODEL_STORE_URL: 's3://svc.models/prod/v1//', S3_ENDPOINT: 'http://127.0.0.1:9000/' }).models.objectStore).toEqual({
        bucket: 'svc.models',
        prefix: 'prod/v1/',
        endpoint: 'http://127.0.0.1:9000',
        forcePathStyle: true,
      });
      const virtualHosted = { MODEL_STORE_URL: 's3://svc-m', S3_ENDPOINT: 'https://x.r2.example', S3_FORCE_PATH_STYLE: 'false' };
      expect(load(virtualHosted).models.objectStore?.forcePathStyle).toBe(false);
    });

    it('refuses MODEL_STORE_URL with MODEL_STORE_DIR, naming both', () => {
      const error = configErrorOf({ MODEL_STORE_URL: 's3://svc-models', MODEL_STORE_DIR: '/srv/models' });
      expect(error.problems).toEqual([
        'MODEL_STORE_URL and MODEL_STORE_DIR exclude each other: set one (the object store, or the local folder)',
      ]);
    });

    it('reads MODEL_URL_SECRET and MODEL_URL_TTL_SECONDS at their bounds', () => {
      const secret = 'x'.repeat(32);
      expect(load({ MODEL_URL_SECRET: secret, MODEL_URL_TTL_SECONDS: '60' }).models).toMatchObject({
        urlSecret: secret,
        urlTtlSeconds: 60,
      });
      expect(load({ MODEL_URL_TTL_SECONDS: '604800' }).models.urlTtlSeconds).toBe(604800);
    });

    it('reads SECRETS_KEY and NEW_SECRETS_KEY: 32 bytes in base64, padded or url-safe; unset by default', () => {
      const key = Buffer.alloc(32, 0xfb).toString('base64');
      const urlSafe = Buffer.alloc(32, 0xfb).toString('base64url');
      expect(load({}).secrets).toEqual({ key: null, newKey: null });
      expect(load({ SECRETS_KEY: key }).secrets).toEqual({ key, newKey: null });
      expect(load({ SECRETS_KEY: key, NEW_SECRETS_KEY: urlSafe }).secrets).toEqual({ key, newKey: urlSafe });
      expect(load({ SECRETS_KEY: '', NEW_SECRETS_KEY: '' }).secrets).toEqual({ key: null, newKey: null });
      expect(configErrorOf({ SECRETS_KEY: 'short' }).problems).toEqual([
        'SECRETS_KEY must be 32 random bytes in base64, 44 characters ending in = (make one with: openssl rand -base64 32)',
      ]);
    });

    it('reads KEY_ROTATION_GRACE_SECONDS and KEY_ROTATION_RECOMMENDED_DAYS at their bounds (CONTRACT 16)', () => {
      expect(load({ KEY_ROTATION_GRACE_SECONDS: '0', KEY_ROTATION_RECOMMENDED_DAYS: '1' }).keyRotation).toEqual({
        graceSeconds: 0,
        recommendedAfterDays: 1,
      });
      expect(load({ KEY_ROTATION_GRACE_SECONDS: '604800' }).keyRotation).toEqual({ graceSeconds: 604800, recommendedAfterDays: 90 });
      expect(load({ RATE_LIMIT_ROTATE_PER_MINUTE: '3' }).rateLimit.perEndpoint.rotate).toBe(3);
      expect(load({}).rateLimit.perEndpoint.rotate).toBe(10);
    });

    it('reads RATE_LIMIT_DEVICES_PER_MINUTE, 10 by default (CONTRACT 23)', () => {
      expect(load({}).rateLimit.perEndpoint.devices).toBe(10);
      expect(load({ RATE_LIMIT_DEVICES_PER_MINUTE: '4' }).rateLimit.perEndpoint.devices).toBe(4);
      expect(() => load({ RATE_LIMIT_DEVICES_PER_MINUTE: '0' })).toThrow(/RATE_LIMIT_DEVICES_PER_MINUTE/);
    });

    it('reads WEBHOOK_RETENTION_DAYS, 1 to 3650, 30 by default (CONTRACT 20)', () => {
      expect(load({}).webhooks.retentionDays).toBe(30);
      expect(load({ WEBHOOK_RETENTION_DAYS: '1' }).webhooks.retentionDays).toBe(1);
      expect(load({ WEBHOOK_RETENTION_DAYS: '3650' }).webhooks.retentionDays).toBe(3650);
    });

    it("reads the webhooks' timing, CONTRACT 20's by default, a lease always longer than an attempt", () => {
      expect(load({}).webhooks).toMatchObject({
        attemptTimeoutMs: 10_000,
        deliveryLeaseMs: 30_000,
        pollIntervalMs: 1000,
        retryDelaysMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
      });
      const set = load({
        WEBHOOK_ATTEMPT_TIMEOUT_MS: '500',
        WEBHOOK_DELIVERY_LEASE_MS: '800',
        WEBHOOK_POLL_INTERVAL_MS: '20',
        WEBHOOK_RETRY_DELAYS_MS: '10, 20,30',
      }).webhooks;
      expect(set).toMatchObject({ attemptTimeoutMs: 500, deliveryLeaseMs: 800, pollIntervalMs: 20, retryDelaysMs: [10, 20, 30] });
      expect(() => load({ WEBHOOK_ATTEMPT_TIMEOUT_MS: '5000', WEBHOOK_DELIVERY_LEASE_MS: '5000' })).toThrow(
        /WEBHOOK_DELIVERY_LEASE_MS must be longer than WEBHOOK_ATTEMPT_TIMEOUT_MS/,
      );
      expect(() => load({ WEBHOOK_RETRY_DELAYS_MS: '5s,10s' })).toThrow(/WEBHOOK_RETRY_DELAYS_MS must be 1 to 20/);
      expect(() => load({ WEBHOOK_RETRY_DELAYS_MS: '10,0' })).toThrow(/WEBHOOK_RETRY_DELAYS_MS must hold positive delays only/);
      expect(() => load({ WEBHOOK_POLL_INTERVAL_MS: '1' })).toThrow(/WEBHOOK_POLL_INTERVAL_MS/);
    });

    it('serves the console unless CONSOLE_ENABLED=false (while the admin API exists: with an admin token or an operator)', () => {
      const token = 'a'.repeat(32);
      expect(load({ ADMIN_TOKEN: token }).console).toEqual({ enabled: true, dir: join(ROOT, 'dist/console') });
      expect(load({ ADMIN_TOKEN: token, CONSOLE_ENABLED: 'false' }).console.enabled).toBe(false);
      expect(load({}).console.enabled).toBe(true);
      expect(load({ CONSOLE_ENABLED: 'false' }).console.enabled).toBe(false);
    });

    it('turns metrics off, or moves them to a port of their own', () => {
      expect(load({ METRICS_ENABLED: 'false' }).metrics).toEqual({ enabled: false, port: null });
      expect(load({ METRICS_PORT: '9464' }).metrics).toEqual({ enabled: true, port: 9464 });
    });

    it('reads a mysql:// URL as MySQL / MariaDB, with the server pool settings', () => {
      expect(load({ DATABASE_URL: 'mysql://root@127.0.0.1:3306/test', DATABASE_POOL_SIZE: '7' }).database).toEqual({
        kind: 'mysql',
        url: 'mysql://root@127.0.0.1:3306/test',
        poolSize: 7,
        statementTimeoutMs: 5000,
      });
    });

    it('keeps an in-memory SQLite database as is', () => {
      expect(load({ DATABASE_URL: 'sqlite::memory:' }).database).toMatchObject({ kind: 'sqlite', path: ':memory:' });
    });

    it('resolves a relative SQLite path against the working folder', () => {
      expect(loadConfig({ DATABASE_URL: 'sqlite:db/x.sqlite' }, ROOT).database).toMatchObject({ path: join(ROOT, 'db/x.sqlite') });
    });
  });

  describe("TRUST_PROXY: a hop count or the proxies' addresses, as Fastify takes them", () => {
    it.each([
      ['1', 1],
      ['2', 2],
      ['32', 32],
      ['0', false],
      ['false', false],
      ['No', false],
      ['10.0.0.0/8', ['10.0.0.0/8']],
      ['10.0.0.0/8, 127.0.0.1 ,fd00::/8', ['10.0.0.0/8', '127.0.0.1', 'fd00::/8']],
      ['loopback,uniquelocal,linklocal', ['loopback', 'uniquelocal', 'linklocal']],
      ['::1', ['::1']],
    ])('%j', (value, expected) => {
      expect(load({ TRUST_PROXY: value }).http.trustProxy).toEqual(expected);
    });
  });

  describe('empty strings count as unset', () => {
    it.each([
      ['PORT', (c: ReturnType<typeof load>) => c.http.port, 3000],
      ['DATABASE_URL', (c: ReturnType<typeof load>) => c.database.kind, 'sqlite'],
      ['ADMIN_TOKEN', (c: ReturnType<typeof load>) => c.adminToken, null],
      ['KEY_PREFIX', (c: ReturnType<typeof load>) => c.keys.prefix, 'svc'],
      ['KEY_DIGEST_PEPPER', (c: ReturnType<typeof load>) => c.keys.digestPepper, null],
      ['REDIS_URL', (c: ReturnType<typeof load>) => c.redisUrl, null],
      ['MODEL_HOST', (c: ReturnType<typeof load>) => c.models.host, null],
      ['MODEL_URL_SECRET', (c: ReturnType<typeof load>) => c.models.urlSecret, null],
      ['MODEL_URL_TTL_SECONDS', (c: ReturnType<typeof load>) => c.models.urlTtlSeconds, 3600],
      ['KEY_ROTATION_GRACE_SECONDS', (c: ReturnType<typeof load>) => c.keyRotation.graceSeconds, 86400],
      ['KEY_ROTATION_RECOMMENDED_DAYS', (c: ReturnType<typeof load>) => c.keyRotation.recommendedAfterDays, 90],
      ['WEBHOOK_RETENTION_DAYS', (c: ReturnType<typeof load>) => c.webhooks.retentionDays, 30],
      ['INSTALLER_GITHUB_TOKEN', (c: ReturnType<typeof load>) => c.installer.staticToken, null],
      ['INSTALLER_GITHUB_TOKEN_EXPIRES_AT', (c: ReturnType<typeof load>) => c.installer.staticTokenExpiresAt, null],
      ['AUTH_FAILURE_LIMIT_PER_MINUTE', (c: ReturnType<typeof load>) => c.rateLimit.authFailuresPerMinute, 60],
      ['RATE_LIMIT_MEMORY_WINDOWS', (c: ReturnType<typeof load>) => c.rateLimit.memoryWindows, 50_000],
      ['LEGACY_ROUTES', (c: ReturnType<typeof load>) => c.http.legacyRoutes, true],
      ['TRUST_PROXY', (c: ReturnType<typeof load>) => c.http.trustProxy, false],
      ['LOG_LEVEL', (c: ReturnType<typeof load>) => c.logLevel, 'info'],
      ['TIERS_FILE', (c: ReturnType<typeof load>) => c.tiersFile, join(ROOT, 'config/tiers.json')],
    ])('%s=""', (name, read, expected) => {
      expect(read(load({ [name]: '' }))).toEqual(expected);
    });

    it('all at once, GitHub App settings included', () => {
      const config = load({
        GITHUB_APP_ID: '',
        GITHUB_APP_PRIVATE_KEY: '',
        GITHUB_APP_PRIVATE_KEY_FILE: '',
        GITHUB_APP_INSTALLATION_ID: '',
        INSTALLER_REPOSITORY: '',
        GITHUB_API_URL: '',
        ADMIN_TOKEN: '',
        PORT: '',
      });
      expect(config.installer.githubApp).toBeNull();
      expect(config.adminToken).toBeNull();
    });

    it('so a variable set to "" alongside the other GitHub App settings is missing', () => {
      const error = configErrorOf({ ...GITHUB_APP, GITHUB_APP_INSTALLATION_ID: '' });
      expect(error.problems).toEqual(['the GitHub App settings come together: GITHUB_APP_INSTALLATION_ID missing']);
    });
  });

  describe('bad values', () => {
    it.each([
      ['PORT', 'eighty-eighty'],
      ['PORT', '99999'],
      ['PORT', '-3000'],
      ['PORT', '3000.5'],
      ['DATABASE_URL', 'mariadb://root:hunter2-db-secret@db.internal/svc'],
      ['DATABASE_URL', './data/service.db'],
      ['DATABASE_POOL_SIZE', '100000'],
      ['DATABASE_STATEMENT_TIMEOUT_MS', 'fast'],
      ['SQLITE_BUSY_TIMEOUT_MS', '-250'],
      ['SQLITE_CACHE_MB', '0'],
      ['SQLITE_CACHE_MB', 'plenty'],
      ['REDIS_URL', 'http://:redis-s3cret-pass@cache.internal:6379'],
      ['ADMIN_TOKEN', 'sk-short-s3cret'],
      ['ADMIN_TOKEN', 'x'.repeat(31)],
      ['KEY_PREFIX', 'svc_live'],
      ['KEY_PREFIX', 'averyveryverylongprefix'],
      ['KEY_DIGEST_PEPPER', 'pepper-s3cret'],
      ['MODEL_HOST', 'ftp://models.example.org'],
      ['MODEL_HOST', 'cdn-without-scheme.example.org'],
      ['MODEL_URL_SECRET', 'short-url-s3cret-0123456789abcd'],
      ['MODEL_URL_TTL_SECONDS', '59'],
      ['MODEL_URL_TTL_SECONDS', '604801'],
      ['MODEL_URL_TTL_SECONDS', 'an-hour'],
      ['MODEL_STORE_URL', 'https://bucket-s3cret.example.org'],
      ['MODEL_STORE_URL', 's3://Upper_Bucket_s3cret'],
      ['MODEL_STORE_URL', 's3://bucket-s3cret/with space'],
      ['S3_ENDPOINT', 'minio-s3cret:9000'],
      ['S3_FORCE_PATH_STYLE', 'perhaps-s3cret'],
      ['KEY_ROTATION_GRACE_SECONDS', '-1'],
      ['KEY_ROTATION_GRACE_SECONDS', '604801'],
      ['KEY_ROTATION_GRACE_SECONDS', 'a-day'],
      ['KEY_ROTATION_RECOMMENDED_DAYS', '0'],
      ['KEY_ROTATION_RECOMMENDED_DAYS', '90.5'],
      ['INSTALLER_GITHUB_TOKEN', `ghp_${'S3cret'.repeat(700)}`],
      ['INSTALLER_GITHUB_TOKEN_EXPIRES_AT', 'tomorrow-at-noon'],
      ['INSTALLER_GITHUB_TOKEN_EXPIRES_AT', '2027-01-01T00:00:00'],
      ['INSTALLER_GITHUB_TOKEN_EXPIRES_AT', '2027-13-01T00:00:00Z'],
      ['INSTALLER_GITHUB_TOKEN_EXPIRES_AT', '2027-02-30T00:00:00Z'],
      ['INSTALLER_GITHUB_TOKEN_EXPIRES_AT', '2027-02-29T00:00:00Z'],
      ['INSTALLER_GITHUB_TOKEN_EXPIRES_AT', '2027-04-31T12:00:00+02:00'],
      ['INSTALLER_GITHUB_TOKEN_EXPIRES_AT', '2027-01-01T24:00:00Z'],
      ['GITHUB_API_URL', 'not a url at all'],
      ['AUTH_FAILURE_LIMIT_PER_MINUTE', '-60'],
      ['AUTH_FAILURE_LIMIT_PER_MINUTE', 'sixty'],
      ['RATE_LIMIT_MEMORY_WINDOWS', '1'],
      ['RATE_LIMIT_MEMORY_WINDOWS', 'lots'],
      ['LEGACY_ROUTES', 'perhaps'],
      ['TRUST_PROXY', 'sometimes'],
      ['TRUST_PROXY', '33'],
      ['TRUST_PROXY', '-1'],
      ['TRUST_PROXY', '1.5'],
      ['TRUST_PROXY', '10.0.0.0/33'],
      ['TRUST_PROXY', '10.0.0.0/8,,127.0.0.1'],
      ['TRUST_PROXY', '999.0.0.1'],
      ['TRUST_PROXY', 'fd00::/129'],
      ['TRUST_PROXY', 'proxy.internal'],
      ['SHUTDOWN_TIMEOUT_MS', '9999999'],
      ['LOG_LEVEL', 'chatty'],
      ['METRICS_ENABLED', 'maybe'],
      ['CONSOLE_ENABLED', 'sometimes'],
      ['WEBHOOK_ALLOW_INSECURE', 'maybe'],
      ['WEBHOOK_RETENTION_DAYS', '0'],
      ['WEBHOOK_RETENTION_DAYS', '3651'],
      ['WEBHOOK_RETENTION_DAYS', '7.5'],
      ['WEBHOOK_RETENTION_DAYS', 'a-month'],
      ['METRICS_PORT', '70000'],
      ['TIERS_FILE', 'config/no-such-tiers-file.json'],
      ['SECRETS_KEY', 'a-passphrase-s3cret'],
      ['SECRETS_KEY', Buffer.alloc(16, 7).toString('base64')],
      ['SECRETS_KEY', Buffer.alloc(33, 7).toString('base64')],
      ['SECRETS_KEY', Buffer.alloc(32, 7).toString('hex')],
      ['NEW_SECRETS_KEY', 'S3cret'.repeat(8)],
    ])('%s=%j stops start-up with a line naming it, never the value', (name, value) => {
      const error = configErrorOf({ [name]: value });

      expect(error.problems.length).toBeGreaterThanOrEqual(1);
      expect(error.problems.some((line) => line.includes(name))).toBe(true);
      expect(error.problems.filter((line) => line.includes(name))).toHaveLength(1);
      for (const line of error.problems) expect(line).not.toContain(value);
      expect(error.message).not.toContain(value);
      expect(error.message).toContain(name);
    });

    it.each(['true', 'TRUE', 'yes'])(
      'TRUST_PROXY=%s (every hop trusted: a forgeable address) stops start-up, saying what to write',
      (value) => {
        const error = configErrorOf({ TRUST_PROXY: value });
        expect(error.problems).toEqual([TRUST_PROXY_TRUE]);
        expect(TRUST_PROXY_TRUE).toContain('TRUST_PROXY=1');
        expect(TRUST_PROXY_TRUE).toContain('TRUST_PROXY=10.0.0.0/8');
      },
    );

    it.each([
      ['GITHUB_APP_ID', 'app-s3cret'],
      ['GITHUB_APP_INSTALLATION_ID', 'inst-s3cret'],
      ['INSTALLER_REPOSITORY', 'just-a-name-s3cret'],
      ['GITHUB_APP_PRIVATE_KEY', 'MIIEsecret-but-not-a-PEM'],
    ])('GitHub App %s=%j is named, never echoed', (name, value) => {
      const error = configErrorOf({ ...GITHUB_APP, [name]: value });
      expect(error.problems.some((line) => line.includes(name))).toBe(true);
      expect(error.message).not.toContain(value);
    });

    it('names every bad variable, one line each', () => {
      const error = configErrorOf({ PORT: 'x-port', LOG_LEVEL: 'loud', ADMIN_TOKEN: 'short-secret-1' });
      expect([...error.problems].sort()).toEqual([
        'ADMIN_TOKEN must be at least 32 characters (make one with: openssl rand -hex 32)',
        'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
        'PORT must be an integer number',
      ]);
      expect(error.message.split('\n')).toHaveLength(3);
      expect(error.message).not.toContain('short-secret-1');
    });

    it('reads a tiers file that is not a JSON object as a bad TIERS_FILE', () => {
      const folder = mkdtempSync(join(tmpdir(), 'svc-config-test-'));
      try {
        writeFileSync(join(folder, 'tiers.json'), '["free","research"]');
        const error = configErrorOf({ TIERS_FILE: join(folder, 'tiers.json') });
        expect(error.problems).toEqual(['TIERS_FILE must hold a JSON object of tiers']);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    });
  });

  describe('GitHub App settings: all or none', () => {
    it('builds the App settings when all are given, with the public API by default', () => {
      const app = load(GITHUB_APP).installer.githubApp;
      expect(app).toEqual({
        appId: '123456',
        privateKey: PEM,
        installationId: '987654',
        repository: { owner: 'neuro-org', name: 'svc-core' },
        apiUrl: 'https://api.github.com',
        requestTimeoutMs: 10_000,
      });
    });

    it('bounds a request to GitHub by GITHUB_REQUEST_TIMEOUT_MS: 100 ms to 2 minutes', () => {
      expect(load({ ...GITHUB_APP, GITHUB_REQUEST_TIMEOUT_MS: '1500' }).installer.githubApp?.requestTimeoutMs).toBe(1500);
      for (const bad of ['99', '120001', 'soon', '1.5']) {
        expect(() => load({ ...GITHUB_APP, GITHUB_REQUEST_TIMEOUT_MS: bad })).toThrow(/GITHUB_REQUEST_TIMEOUT_MS/);
      }
    });

    it('takes an API URL for GitHub Enterprise or tests, without a trailing slash', () => {
      expect(load({ ...GITHUB_APP, GITHUB_API_URL: 'http://127.0.0.1:9999/api/v3/' }).installer.githubApp?.apiUrl).toBe(
        'http://127.0.0.1:9999/api/v3',
      );
    });

    it('reads the private key from a file', () => {
      const folder = mkdtempSync(join(tmpdir(), 'svc-config-test-'));
      try {
        writeFileSync(join(folder, 'app.pem'), PEM);
        const { GITHUB_APP_PRIVATE_KEY: _, ...rest } = GITHUB_APP;
        const app = load({ ...rest, GITHUB_APP_PRIVATE_KEY_FILE: join(folder, 'app.pem') }).installer.githubApp;
        expect(app?.privateKey).toBe(PEM);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    });

    it('names an unreadable key file', () => {
      const { GITHUB_APP_PRIVATE_KEY: _, ...rest } = GITHUB_APP;
      const error = configErrorOf({ ...rest, GITHUB_APP_PRIVATE_KEY_FILE: '/no/such/dir/app-s3cret.pem' });
      expect(error.problems).toEqual(['GITHUB_APP_PRIVATE_KEY_FILE cannot be read']);
    });

    it.each(Object.keys(GITHUB_APP))('refuses the settings without %s, naming what is missing', (left) => {
      const env: Record<string, string> = { ...GITHUB_APP };
      delete env[left];

      const error = configErrorOf(env);

      const missing = left === 'GITHUB_APP_PRIVATE_KEY' ? 'GITHUB_APP_PRIVATE_KEY or GITHUB_APP_PRIVATE_KEY_FILE' : left;
      expect(error.problems).toEqual([`the GitHub App settings come together: ${missing} missing`]);
      expect(error.message).not.toContain(PEM.slice(0, 40));
    });

    it('refuses a single setting alone, listing the three missing', () => {
      const error = configErrorOf({ GITHUB_APP_ID: '123456' });
      expect(error.problems).toEqual([
        'the GitHub App settings come together: GITHUB_APP_PRIVATE_KEY or GITHUB_APP_PRIVATE_KEY_FILE, GITHUB_APP_INSTALLATION_ID, INSTALLER_REPOSITORY missing',
      ]);
    });

    it('does not count the API URL as an App setting', () => {
      expect(load({ GITHUB_API_URL: 'https://github.example.org/api/v3' }).installer.githubApp).toBeNull();
    });

    it('lives beside a static token', () => {
      const config = load({ ...GITHUB_APP, INSTALLER_GITHUB_TOKEN: 'ghp_static' });
      expect(config.installer.githubApp).not.toBeNull();
      expect(config.installer.staticToken).toBe('ghp_static');
    });
  });

  describe('offline license keys (CONTRACT 15)', () => {
    const pair = () =>
      generateKeyPairSync('ed25519', {
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
        publicKeyEncoding: { type: 'spki', format: 'pem' },
      });

    it('takes an Ed25519 private key inline or from a file, and the TTL', () => {
      const { privateKey } = pair();
      expect(load({ LICENSE_SIGNING_KEY: privateKey, LICENSE_TOKEN_TTL_SECONDS: '3600' }).license).toMatchObject({
        signingKey: privateKey,
        tokenTtlSeconds: 3600,
      });
      const folder = mkdtempSync(join(tmpdir(), 'license-key-'));
      try {
        writeFileSync(join(folder, 'signing.pem'), privateKey);
        expect(load({ LICENSE_SIGNING_KEY_FILE: join(folder, 'signing.pem') }).license.signingKey).toBe(privateKey);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    });

    it('refuses another kind of key, a public key, text, both variables, or an unreadable file, in one line naming the variable', () => {
      const rsa = generateKeyPairSync('rsa', {
        modulusLength: 1024,
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
        publicKeyEncoding: { type: 'spki', format: 'pem' },
      });
      for (const value of [rsa.privateKey, pair().publicKey, 'sekrit-not-a-key']) {
        const error = configErrorOf({ LICENSE_SIGNING_KEY: value });
        expect(error.problems).toEqual([expect.stringMatching(/^LICENSE_SIGNING_KEY must be an Ed25519 private key in PEM form/)]);
        expect(error.message).not.toContain(value.split('\n')[1] ?? value);
      }
      expect(configErrorOf({ LICENSE_SIGNING_KEY_FILE: '/no/such/dir/license.pem' }).problems).toEqual([
        'LICENSE_SIGNING_KEY_FILE cannot be read',
      ]);
      expect(configErrorOf({ LICENSE_SIGNING_KEY: pair().privateKey, LICENSE_SIGNING_KEY_FILE: '/x.pem' }).problems).toEqual([
        'LICENSE_SIGNING_KEY and LICENSE_SIGNING_KEY_FILE exclude each other: set one',
      ]);
      expect(configErrorOf({ LICENSE_TOKEN_TTL_SECONDS: '10' }).problems).toEqual([expect.stringContaining('LICENSE_TOKEN_TTL_SECONDS')]);
      for (const bad of ['-1', '2592001', '1.5', 'soon']) {
        expect(configErrorOf({ LICENSE_KEY_PUBLISH_SECONDS: bad }).problems).toEqual([
          expect.stringContaining('LICENSE_KEY_PUBLISH_SECONDS'),
        ]);
      }
      expect(load({ LICENSE_KEY_PUBLISH_SECONDS: '0' }).license.keyPublishSeconds).toBe(0);
      for (const bad of ['-1', '10001', '1.5', 'fast']) {
        expect(configErrorOf({ LICENSE_REFRESH_PER_SECOND: bad }).problems).toEqual([
          expect.stringContaining('LICENSE_REFRESH_PER_SECOND'),
        ]);
      }
      expect(load({ LICENSE_REFRESH_PER_SECOND: '0' }).license.refreshPerSecond).toBe(0);
      for (const bad of ['-1', '86401', '1.5', 'often']) {
        expect(configErrorOf({ DEVICE_LEASE_CHECK_SECONDS: bad }).problems).toEqual([
          expect.stringContaining('DEVICE_LEASE_CHECK_SECONDS'),
        ]);
      }
      expect(load({}).devices.leaseCheckSeconds).toBe(60);
      expect(load({ DEVICE_LEASE_CHECK_SECONDS: '0' }).devices.leaseCheckSeconds).toBe(0);
    });

    it('reads old public keys as PEM or a JWKS, and refuses anything else', () => {
      const [a, b] = [pair(), pair()];
      const folder = mkdtempSync(join(tmpdir(), 'license-verify-'));
      try {
        writeFileSync(join(folder, 'keys.pem'), `${a.publicKey}${b.publicKey}`);
        const fromPem = load({ LICENSE_VERIFY_KEYS_FILE: join(folder, 'keys.pem') }).license.verifyKeys;
        expect(fromPem).toEqual([a.publicKey, b.publicKey]);
        const jwk = createPublicKey(b.publicKey).export({ format: 'jwk' });
        writeFileSync(join(folder, 'keys.json'), JSON.stringify({ keys: [{ ...jwk, kid: 'old', use: 'sig' }] }));
        expect(load({ LICENSE_VERIFY_KEYS_FILE: join(folder, 'keys.json') }).license.verifyKeys).toEqual([b.publicKey]);
        for (const text of [
          '',
          a.privateKey,
          '{"keys": 3}',
          generateKeyPairSync('x25519').publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        ]) {
          writeFileSync(join(folder, 'bad'), text);
          expect(configErrorOf({ LICENSE_VERIFY_KEYS_FILE: join(folder, 'bad') }).problems).toEqual([
            'LICENSE_VERIFY_KEYS_FILE must hold Ed25519 public keys: a JWKS or PEM public keys',
          ]);
        }
        expect(configErrorOf({ LICENSE_VERIFY_KEYS_FILE: join(folder, 'absent') }).problems).toEqual([
          'LICENSE_VERIFY_KEYS_FILE cannot be read',
        ]);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    });
  });
});
