import { readFileSync } from 'node:fs';
import { ed25519PublicKeysIn, isEd25519PrivateKey } from './license-keys';
import { dirname, join, resolve } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { type ValidationError, validateSync } from 'class-validator';
import {
  type AppConfig,
  type DatabaseConfig,
  type GithubAppConfig,
  type LogLevel,
  type ObjectStoreConfig,
  type TierSourceEntry,
} from './app-config';
import { ConfigError } from './config.error';
import { EnvSchema } from './env.schema';
import { trustProxyOf } from './trust-proxy';

type Env = Readonly<Record<string, string | undefined>>;

const DEFAULTS = {
  PORT: 3000,
  HOST: '0.0.0.0',
  DATABASE_URL: 'sqlite:./data/service.db',
  KEY_PREFIX: 'svc',
  TIERS_FILE: 'config/tiers.json',
  MODEL_STORE_DIR: './data/models',
  MODEL_URL_TTL_SECONDS: 3600,
  LICENSE_TOKEN_TTL_SECONDS: 604800,
  LICENSE_KEY_PUBLISH_SECONDS: 3600,
  LICENSE_REFRESH_PER_SECOND: 50,
  DEVICE_LEASE_CHECK_SECONDS: 60,
  KEY_ROTATION_GRACE_SECONDS: 86400,
  KEY_ROTATION_RECOMMENDED_DAYS: 90,
  WEBHOOK_RETENTION_DAYS: 30,
  WEBHOOK_ATTEMPT_TIMEOUT_MS: 10_000,
  WEBHOOK_DELIVERY_LEASE_MS: 30_000,
  WEBHOOK_POLL_INTERVAL_MS: 1000,
  WEBHOOK_RETRY_DELAYS_MS: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
  GITHUB_API_URL: 'https://api.github.com',
  GITHUB_REQUEST_TIMEOUT_MS: 10_000,
  AUTH_FAILURE_LIMIT_PER_MINUTE: 60,
  RATE_LIMIT_MEMORY_WINDOWS: 50_000,
  SHUTDOWN_TIMEOUT_MS: 10000,
  DATABASE_POOL_SIZE: 10,
  DATABASE_STATEMENT_TIMEOUT_MS: 5000,
  SQLITE_BUSY_TIMEOUT_MS: 5000,
  SQLITE_CACHE_MB: 8,
} as const;

/**
 * Validates the environment once and maps it to a frozen, typed AppConfig.
 * Throws ConfigError naming every bad variable (never its value).
 * Relative paths are resolved against `cwd`.
 */
export function loadConfig(env: Env, cwd: string = process.cwd()): AppConfig {
  const present: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && value !== '') present[name] = value;
  }
  const schema = plainToInstance(EnvSchema, present);
  const problems = validateSync(schema, { forbidUnknownValues: false }).flatMap(describe);

  const githubApp = readGithubApp(schema, problems, cwd);
  const tiersFile = resolve(cwd, schema.TIERS_FILE ?? DEFAULTS.TIERS_FILE);
  const tiers = readTiers(tiersFile, problems);
  const signingKey = readLicenseSigningKey(schema, problems, cwd);
  const verifyKeys = readLicenseVerifyKeys(schema, problems, cwd);

  const expiresAtProblem = 'INSTALLER_GITHUB_TOKEN_EXPIRES_AT must be an RFC 3339 time';
  if (
    schema.INSTALLER_GITHUB_TOKEN_EXPIRES_AT &&
    !problems.includes(expiresAtProblem) &&
    !isRealInstant(schema.INSTALLER_GITHUB_TOKEN_EXPIRES_AT)
  ) {
    problems.push(expiresAtProblem);
  }
  const trustProxy = trustProxyOf(schema.TRUST_PROXY);
  if ('problem' in trustProxy) problems.push(trustProxy.problem);
  if (schema.MODEL_STORE_URL !== undefined && schema.MODEL_STORE_DIR !== undefined) {
    problems.push('MODEL_STORE_URL and MODEL_STORE_DIR exclude each other: set one (the object store, or the local folder)');
  }
  const attemptTimeoutMs = schema.WEBHOOK_ATTEMPT_TIMEOUT_MS ?? DEFAULTS.WEBHOOK_ATTEMPT_TIMEOUT_MS;
  const deliveryLeaseMs = schema.WEBHOOK_DELIVERY_LEASE_MS ?? DEFAULTS.WEBHOOK_DELIVERY_LEASE_MS;
  if (deliveryLeaseMs <= attemptTimeoutMs) {
    problems.push('WEBHOOK_DELIVERY_LEASE_MS must be longer than WEBHOOK_ATTEMPT_TIMEOUT_MS (a live delivery must never be taken over)');
  }
  const retryDelaysMs = schema.WEBHOOK_RETRY_DELAYS_MS?.split(',').map((d) => Number(d.trim())) ?? DEFAULTS.WEBHOOK_RETRY_DELAYS_MS;
  if (retryDelaysMs.some((d) => !(d > 0))) problems.push('WEBHOOK_RETRY_DELAYS_MS must hold positive delays only');
  if (problems.length > 0) throw new ConfigError(problems);

  const storeDir = resolve(cwd, schema.MODEL_STORE_DIR ?? DEFAULTS.MODEL_STORE_DIR);
  const config: AppConfig = {
    http: {
      port: schema.PORT ?? DEFAULTS.PORT,
      host: schema.HOST ?? DEFAULTS.HOST,
      trustProxy: 'value' in trustProxy ? trustProxy.value : false,
      legacyRoutes: isTrue(schema.LEGACY_ROUTES, true),
      shutdownTimeoutMs: schema.SHUTDOWN_TIMEOUT_MS ?? DEFAULTS.SHUTDOWN_TIMEOUT_MS,
    },
    database: databaseOf(schema, cwd),
    redisUrl: schema.REDIS_URL ?? null,
    adminToken: schema.ADMIN_TOKEN ?? null,
    keys: { prefix: schema.KEY_PREFIX ?? DEFAULTS.KEY_PREFIX, digestPepper: schema.KEY_DIGEST_PEPPER ?? null },
    keyRotation: {
      graceSeconds: schema.KEY_ROTATION_GRACE_SECONDS ?? DEFAULTS.KEY_ROTATION_GRACE_SECONDS,
      recommendedAfterDays: schema.KEY_ROTATION_RECOMMENDED_DAYS ?? DEFAULTS.KEY_ROTATION_RECOMMENDED_DAYS,
    },
    tiers,
    tiersFile,
    models: {
      host: schema.MODEL_HOST ? schema.MODEL_HOST.replace(/\/+$/, '') : null,
      storeDir,
      objectStore: objectStoreOf(schema),
      urlSecret: schema.MODEL_URL_SECRET ?? null,
      // where versions before the database kept it: beside the model store (./data/ by default), taken over once
      urlSecretFile: join(dirname(storeDir), 'model-url.secret'),
      urlTtlSeconds: schema.MODEL_URL_TTL_SECONDS ?? DEFAULTS.MODEL_URL_TTL_SECONDS,
      seedSamples: isTrue(schema.SAMPLE_MODELS, (schema.DATABASE_URL ?? DEFAULTS.DATABASE_URL).startsWith('sqlite:')),
      samplesFile: resolve(cwd, 'config/models.json'),
    },
    license: {
      signingKey,
      // where versions before the database kept it: beside the model store (./data/ by default), taken over once
      signingKeyFile: join(dirname(storeDir), 'license-signing-key.pem'),
      verifyKeys,
      tokenTtlSeconds: schema.LICENSE_TOKEN_TTL_SECONDS ?? DEFAULTS.LICENSE_TOKEN_TTL_SECONDS,
      keyPublishSeconds: schema.LICENSE_KEY_PUBLISH_SECONDS ?? DEFAULTS.LICENSE_KEY_PUBLISH_SECONDS,
      refreshPerSecond: schema.LICENSE_REFRESH_PER_SECOND ?? DEFAULTS.LICENSE_REFRESH_PER_SECOND,
    },
    secrets: { key: schema.SECRETS_KEY ?? null, newKey: schema.NEW_SECRETS_KEY ?? null },
    installer: {
      staticToken: schema.INSTALLER_GITHUB_TOKEN ?? null,
      staticTokenExpiresAt: schema.INSTALLER_GITHUB_TOKEN_EXPIRES_AT ? new Date(schema.INSTALLER_GITHUB_TOKEN_EXPIRES_AT) : null,
      githubApp,
    },
    rateLimit: {
      authFailuresPerMinute: schema.AUTH_FAILURE_LIMIT_PER_MINUTE ?? DEFAULTS.AUTH_FAILURE_LIMIT_PER_MINUTE,
      windowSeconds: schema.RATE_LIMIT_WINDOW_SECONDS ?? 60,
      memoryWindows: schema.RATE_LIMIT_MEMORY_WINDOWS ?? DEFAULTS.RATE_LIMIT_MEMORY_WINDOWS,
      perEndpoint: {
        validate: schema.RATE_LIMIT_VALIDATE_PER_MINUTE ?? 100,
        refresh: schema.RATE_LIMIT_REFRESH_PER_MINUTE ?? 10,
        revoke: schema.RATE_LIMIT_REVOKE_PER_MINUTE ?? 10,
        rotate: schema.RATE_LIMIT_ROTATE_PER_MINUTE ?? 10,
        installer: schema.RATE_LIMIT_INSTALLER_PER_MINUTE ?? 20,
        models: schema.RATE_LIMIT_MODELS_PER_MINUTE ?? 60,
        analytics: schema.RATE_LIMIT_ANALYTICS_PER_MINUTE ?? 1000,
        analyticsBatch: schema.RATE_LIMIT_ANALYTICS_BATCH_PER_MINUTE ?? 100,
        devices: schema.RATE_LIMIT_DEVICES_PER_MINUTE ?? 10,
      },
      redisKeyPrefix: schema.REDIS_KEY_PREFIX ?? 'svc:rl:',
    },
    logLevel: (schema.LOG_LEVEL ?? 'info') as LogLevel,
    console: { enabled: isTrue(schema.CONSOLE_ENABLED, true), dir: resolve(cwd, 'dist/console') },
    metrics: { enabled: isTrue(schema.METRICS_ENABLED, true), port: schema.METRICS_PORT ?? null },
    devices: { leaseCheckSeconds: schema.DEVICE_LEASE_CHECK_SECONDS ?? DEFAULTS.DEVICE_LEASE_CHECK_SECONDS },
    webhooks: {
      allowInsecure: isTrue(schema.WEBHOOK_ALLOW_INSECURE, false),
      retentionDays: schema.WEBHOOK_RETENTION_DAYS ?? DEFAULTS.WEBHOOK_RETENTION_DAYS,
      attemptTimeoutMs,
      deliveryLeaseMs,
      pollIntervalMs: schema.WEBHOOK_POLL_INTERVAL_MS ?? DEFAULTS.WEBHOOK_POLL_INTERVAL_MS,
      retryDelaysMs,
    },
  };
  return deepFreeze(config);
}

/** One line per bad variable (CONTRACT 13): the type check when it failed, else the first broken rule. */
function describe(error: ValidationError): string[] {
  const constraints = error.constraints ?? {};
  const line = constraints.isInt ?? Object.values(constraints)[0];
  return [...(line === undefined ? [] : [line]), ...(error.children ?? []).flatMap(describe)];
}

/**
 * A text the schema's RFC 3339 pattern already accepted names a real instant:
 * a day that exists in its month and hour 00-23 (`Date.parse` would roll
 * 2026-02-30 over to 2 March and accept 24:00).
 */
function isRealInstant(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split('-').map(Number);
  const hour = Number(text.slice(11, 13));
  return !Number.isNaN(Date.parse(text)) && day <= new Date(Date.UTC(year, month, 0)).getUTCDate() && hour <= 23;
}

function isTrue(word: string | undefined, fallback: boolean): boolean {
  if (word === undefined) return fallback;
  return ['true', '1', 'yes'].includes(word.toLowerCase());
}

function databaseOf(schema: EnvSchema, cwd: string): DatabaseConfig {
  const url = schema.DATABASE_URL ?? DEFAULTS.DATABASE_URL;
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    return {
      kind: 'sqlite',
      path: path === ':memory:' ? path : resolve(cwd, path),
      busyTimeoutMs: schema.SQLITE_BUSY_TIMEOUT_MS ?? DEFAULTS.SQLITE_BUSY_TIMEOUT_MS,
      cacheMb: schema.SQLITE_CACHE_MB ?? DEFAULTS.SQLITE_CACHE_MB,
    };
  }
  return {
    kind: url.startsWith('mysql://') ? 'mysql' : 'postgres',
    url,
    poolSize: schema.DATABASE_POOL_SIZE ?? DEFAULTS.DATABASE_POOL_SIZE,
    statementTimeoutMs: schema.DATABASE_STATEMENT_TIMEOUT_MS ?? DEFAULTS.DATABASE_STATEMENT_TIMEOUT_MS,
  };
}

/** MODEL_STORE_URL `s3://BUCKET[/PREFIX]` with S3_ENDPOINT and S3_FORCE_PATH_STYLE, or null (the local store). */
function objectStoreOf(schema: EnvSchema): ObjectStoreConfig | null {
  if (schema.MODEL_STORE_URL === undefined) return null;
  const [bucket, ...rest] = schema.MODEL_STORE_URL.slice('s3://'.length).split('/');
  const prefix = rest.filter((segment) => segment !== '').join('/');
  const endpoint = schema.S3_ENDPOINT ? schema.S3_ENDPOINT.replace(/\/+$/, '') : null;
  return {
    bucket,
    prefix: prefix === '' ? '' : `${prefix}/`,
    endpoint,
    forcePathStyle: isTrue(schema.S3_FORCE_PATH_STYLE, endpoint !== null),
  };
}

function readGithubApp(schema: EnvSchema, problems: string[], cwd: string): GithubAppConfig | null {
  const parts = {
    GITHUB_APP_ID: schema.GITHUB_APP_ID,
    'GITHUB_APP_PRIVATE_KEY or GITHUB_APP_PRIVATE_KEY_FILE': schema.GITHUB_APP_PRIVATE_KEY ?? schema.GITHUB_APP_PRIVATE_KEY_FILE,
    GITHUB_APP_INSTALLATION_ID: schema.GITHUB_APP_INSTALLATION_ID,
    INSTALLER_REPOSITORY: schema.INSTALLER_REPOSITORY,
  };
  const given = Object.entries(parts).filter(([, v]) => v !== undefined);
  if (given.length === 0) return null;
  if (given.length < 4) {
    const missing = Object.entries(parts)
      .filter(([, v]) => v === undefined)
      .map(([k]) => k);
    problems.push(`the GitHub App settings come together: ${missing.join(', ')} missing`);
    return null;
  }
  let privateKey = schema.GITHUB_APP_PRIVATE_KEY ?? '';
  if (!privateKey && schema.GITHUB_APP_PRIVATE_KEY_FILE) {
    try {
      privateKey = readFileSync(resolve(cwd, schema.GITHUB_APP_PRIVATE_KEY_FILE), 'utf8');
    } catch {
      problems.push('GITHUB_APP_PRIVATE_KEY_FILE cannot be read');
      return null;
    }
  }
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(privateKey)) {
    problems.push('GITHUB_APP_PRIVATE_KEY must be a PEM private key');
    return null;
  }
  const [owner, name] = schema.INSTALLER_REPOSITORY!.split('/');
  return {
    appId: schema.GITHUB_APP_ID!,
    privateKey,
    installationId: schema.GITHUB_APP_INSTALLATION_ID!,
    repository: { owner, name },
    apiUrl: (schema.GITHUB_API_URL ?? DEFAULTS.GITHUB_API_URL).replace(/\/+$/, ''),
    requestTimeoutMs: schema.GITHUB_REQUEST_TIMEOUT_MS ?? DEFAULTS.GITHUB_REQUEST_TIMEOUT_MS,
  };
}

/**
 * The license signing key (CONTRACT 15): an Ed25519 private key in PEM, given
 * inline or by file. One line naming the variable when it is unreadable or of
 * another kind; never its content.
 */
function readLicenseSigningKey(schema: EnvSchema, problems: string[], cwd: string): string | null {
  const variable = schema.LICENSE_SIGNING_KEY !== undefined ? 'LICENSE_SIGNING_KEY' : 'LICENSE_SIGNING_KEY_FILE';
  if (schema.LICENSE_SIGNING_KEY !== undefined && schema.LICENSE_SIGNING_KEY_FILE !== undefined) {
    problems.push('LICENSE_SIGNING_KEY and LICENSE_SIGNING_KEY_FILE exclude each other: set one');
    return null;
  }
  let pem = schema.LICENSE_SIGNING_KEY;
  if (pem === undefined && schema.LICENSE_SIGNING_KEY_FILE !== undefined) {
    try {
      pem = readFileSync(resolve(cwd, schema.LICENSE_SIGNING_KEY_FILE), 'utf8');
    } catch {
      problems.push('LICENSE_SIGNING_KEY_FILE cannot be read');
      return null;
    }
  }
  if (pem === undefined) return null;
  if (!isEd25519PrivateKey(pem)) {
    problems.push(`${variable} must be an Ed25519 private key in PEM form (openssl genpkey -algorithm ed25519, or: license keygen)`);
    return null;
  }
  return pem;
}

/**
 * Public keys still published after a signing-key change: a JWKS (JSON) or
 * PEM public keys, one after another. Returned as SPKI PEM.
 */
function readLicenseVerifyKeys(schema: EnvSchema, problems: string[], cwd: string): string[] {
  if (schema.LICENSE_VERIFY_KEYS_FILE === undefined) return [];
  let text: string;
  try {
    text = readFileSync(resolve(cwd, schema.LICENSE_VERIFY_KEYS_FILE), 'utf8');
  } catch {
    problems.push('LICENSE_VERIFY_KEYS_FILE cannot be read');
    return [];
  }
  const keys = ed25519PublicKeysIn(text);
  if (keys === null) {
    problems.push('LICENSE_VERIFY_KEYS_FILE must hold Ed25519 public keys: a JWKS or PEM public keys');
    return [];
  }
  return keys;
}

function readTiers(file: string, problems: string[]): Record<string, TierSourceEntry> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      problems.push('TIERS_FILE must hold a JSON object of tiers');
      return {};
    }
    return parsed as Record<string, TierSourceEntry>;
  } catch {
    problems.push('TIERS_FILE cannot be read as JSON');
    return {};
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !(value instanceof Date) && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value as object)) deepFreeze(inner);
  }
  return value;
}
