/* The validated, typed configuration (CONTRACT 13). Built once at start-up by `loadConfig`. */
import { type TrustProxy } from './trust-proxy';

/** SQLite, the embedded default: a file, or `:memory:`. */
export interface SqliteDatabaseConfig {
  readonly kind: 'sqlite';
  readonly path: string;
  readonly busyTimeoutMs: number;
  /** The page cache of the service's connection, in MB (SQLITE_CACHE_MB). */
  readonly cacheMb: number;
}

/** A database server reached by URL, through a pool. */
export interface DatabaseServerConfig {
  readonly url: string;
  readonly poolSize: number;
  readonly statementTimeoutMs: number;
}

/** PostgreSQL: production. */
export interface PostgresDatabaseConfig extends DatabaseServerConfig {
  readonly kind: 'postgres';
}

/** MySQL 8 / MariaDB 10.11 (CONTRACT 18). */
export interface MySqlDatabaseConfig extends DatabaseServerConfig {
  readonly kind: 'mysql';
}

export type DatabaseConfig = SqliteDatabaseConfig | PostgresDatabaseConfig | MySqlDatabaseConfig;

/** Every database the service runs on; `InfrastructureModule.forRoot` binds one adapter module per kind. */
export type DatabaseKind = DatabaseConfig['kind'];

export interface GithubAppConfig {
  readonly appId: string;
  readonly privateKey: string;
  readonly installationId: string;
  readonly repository: { readonly owner: string; readonly name: string };
  readonly apiUrl: string;
  /** How long a request to GitHub may take before it is abandoned (GITHUB_REQUEST_TIMEOUT_MS). */
  readonly requestTimeoutMs: number;
}

/** The endpoints SPEC 8 limits; aliases and sub-paths share their endpoint's counter. */
export const RATE_LIMITED_ENDPOINTS = [
  'validate',
  'refresh',
  'revoke',
  'rotate',
  'installer',
  'models',
  'analytics',
  'analyticsBatch',
  'devices',
] as const;
export type RateLimitedEndpoint = (typeof RATE_LIMITED_ENDPOINTS)[number];

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface TierSourceEntry {
  readonly adds: readonly string[];
  readonly monthly_limit: number | null;
}

/** An S3-compatible object store holding the model files; region and credentials come from the AWS SDK's own chain. */
export interface ObjectStoreConfig {
  readonly bucket: string;
  /** Empty, or a key prefix ending in `/`. */
  readonly prefix: string;
  /** S3_ENDPOINT (MinIO, Ceph RGW, R2, ...); null: AWS S3. */
  readonly endpoint: string | null;
  /** S3_FORCE_PATH_STYLE: `endpoint/bucket/key` rather than `bucket.endpoint/key`; default true when S3_ENDPOINT is set. */
  readonly forcePathStyle: boolean;
}

export class AppConfig {
  readonly http!: {
    readonly port: number;
    readonly host: string;
    /** TRUST_PROXY: no proxy trusted (false), a hop count, or the trusted proxies' addresses and ranges. */
    readonly trustProxy: TrustProxy;
    readonly legacyRoutes: boolean;
    readonly shutdownTimeoutMs: number;
  };
  readonly database!: DatabaseConfig;
  readonly redisUrl!: string | null;
  readonly adminToken!: string | null;
  readonly keys!: { readonly prefix: string; readonly digestPepper: string | null };
  /** Key rotation (CONTRACT 16): KEY_ROTATION_GRACE_SECONDS and KEY_ROTATION_RECOMMENDED_DAYS. */
  readonly keyRotation!: { readonly graceSeconds: number; readonly recommendedAfterDays: number };
  /** The tier matrix as read from `TIERS_FILE` (checked by the domain's TierCatalog). */
  readonly tiers!: Readonly<Record<string, TierSourceEntry>>;
  readonly tiersFile!: string;
  readonly models!: {
    readonly host: string | null;
    /** The local store's folder (MODEL_STORE_DIR), used unless `objectStore` is set. */
    readonly storeDir: string;
    /** MODEL_STORE_URL, S3_ENDPOINT, S3_FORCE_PATH_STYLE (CONTRACT 19); null: the local store. */
    readonly objectStore: ObjectStoreConfig | null;
    /**
     * MODEL_URL_SECRET: the key of the HMAC that signs links to the service's
     * own store (CONTRACT 7). Null: generated once and kept in the database
     * (CONTRACT 19). Never logged.
     */
    readonly urlSecret: string | null;
    /** Where versions before CONTRACT 19 kept the generated secret: taken over into the database once. */
    readonly urlSecretFile: string;
    /** MODEL_URL_TTL_SECONDS: how long a signed link lives (default 3600). */
    readonly urlTtlSeconds: number;
    /** Publish the sample catalogue (`samplesFile`) at API start-up when the registry is empty. */
    readonly seedSamples: boolean;
    readonly samplesFile: string;
  };
  /** Signed offline licenses (CONTRACT 15). Key material is never logged. */
  readonly license!: {
    /** The Ed25519 private key (PEM) from LICENSE_SIGNING_KEY or LICENSE_SIGNING_KEY_FILE; null: the generated ones in the database. */
    readonly signingKey: string | null;
    /** Where versions before CONTRACT 19 kept the generated signing key (under the data directory): taken over into the database once. */
    readonly signingKeyFile: string;
    /** Older public keys (SPKI PEM) from LICENSE_VERIFY_KEYS_FILE, still published in the JWKS. */
    readonly verifyKeys: readonly string[];
    /** LICENSE_TOKEN_TTL_SECONDS: how long an SDK may trust a license offline (default 7 days). */
    readonly tokenTtlSeconds: number;
    /** LICENSE_KEY_PUBLISH_SECONDS: how long a rotated generated key is published before it signs (default 3600). */
    readonly keyPublishSeconds: number;
    /** LICENSE_REFRESH_PER_SECOND: the most stored licenses the refresh job re-signs a second in this instance (default 50; 0: no job). */
    readonly refreshPerSecond: number;
  };
  /**
   * The secrets the service keeps in the database (generated license signing keys, the generated
   * link secret, webhook signing secrets), encrypted at rest with AES-256-GCM: `key`
   * (SECRETS_KEY) and, while moving to another key, `newKey` (NEW_SECRETS_KEY, which then
   * encrypts what is written, `key` still decrypting). Base64 of 32 bytes each; null: unset.
   * Never logged.
   */
  readonly secrets!: { readonly key: string | null; readonly newKey: string | null };
  readonly installer!: {
    readonly staticToken: string | null;
    readonly staticTokenExpiresAt: Date | null;
    readonly githubApp: GithubAppConfig | null;
  };
  readonly rateLimit!: {
    readonly authFailuresPerMinute: number;
    /** Length of a rate-limit window (60 s in production; shorter in tests). */
    readonly windowSeconds: number;
    /**
     * The most windows counted in this process's memory (without Redis, or while it is away): past it
     * the windows not hit for longest are forgotten, so memory stays bounded whatever the number of callers.
     */
    readonly memoryWindows: number;
    /** Requests per window for each limited endpoint (SPEC 8). */
    readonly perEndpoint: Readonly<Record<RateLimitedEndpoint, number>>;
    readonly redisKeyPrefix: string;
  };
  readonly logLevel!: LogLevel;
  /**
   * The operator console (CONTRACT 17, 21): served at /console unless CONSOLE_ENABLED=false,
   * while the admin API exists (ADMIN_TOKEN set, or an operator enabled; else 404, checked per
   * request like the API); its static files are the build's output in `dir` (dist/console).
   */
  readonly console!: { readonly enabled: boolean; readonly dir: string };
  /** Prometheus metrics: served at /metrics, on the HTTP port or on `port` when set. */
  readonly metrics!: { readonly enabled: boolean; readonly port: number | null };
  /**
   * Devices (CONTRACT 23): `leaseCheckSeconds` (DEVICE_LEASE_CHECK_SECONDS, default 60; 0: no job) is how
   * often each instance's lease job marks devices whose lease lapsed `lease_expired`.
   */
  readonly devices!: { readonly leaseCheckSeconds: number };
  /**
   * Webhooks (CONTRACT 20): `allowInsecure` (WEBHOOK_ALLOW_INSECURE, for development and
   * tests) lets endpoints be `http` and resolve to loopback or private addresses;
   * `retentionDays` (WEBHOOK_RETENTION_DAYS) is how long ended deliveries and their events are kept.
   * The timing, CONTRACT 20's unless set: how long an attempt waits for an answer
   * (WEBHOOK_ATTEMPT_TIMEOUT_MS), how long a claim holds a delivery (WEBHOOK_DELIVERY_LEASE_MS,
   * longer than an attempt), how often an instance looks for work others recorded
   * (WEBHOOK_POLL_INTERVAL_MS) and the delays between attempts (WEBHOOK_RETRY_DELAYS_MS).
   */
  readonly webhooks!: {
    readonly allowInsecure: boolean;
    readonly retentionDays: number;
    readonly attemptTimeoutMs: number;
    readonly deliveryLeaseMs: number;
    readonly pollIntervalMs: number;
    readonly retryDelaysMs: readonly number[];
  };
}
