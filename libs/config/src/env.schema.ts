import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';

const BOOLEAN_WORDS = ['true', 'false', '1', '0', 'yes', 'no'];
/** 32 bytes in base64: 43 characters and `=` (what `openssl rand -base64 32` prints), or 43 url-safe ones without padding. */
const SECRETS_KEY_FORM = /^(?:[A-Za-z0-9+/]{43}=|[A-Za-z0-9_-]{43})$/;
const SECRETS_KEY_RULE = 'must be 32 random bytes in base64, 44 characters ending in = (make one with: openssl rand -base64 32)';
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Every environment variable the service reads (CONTRACT 13, plus a few
 * operational ones documented in docs/CONFIGURATION.md). Values arrive as strings; empty
 * strings count as unset. Messages name the variable, never its value.
 */
export class EnvSchema {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT?: number;

  @IsOptional()
  @IsString()
  @MinLength(1)
  HOST?: string;

  @IsOptional()
  @Matches(/^(sqlite:.+|postgres(ql)?:\/\/.+|mysql:\/\/.+)$/, {
    message: 'DATABASE_URL must be sqlite:<path>, postgres://... or mysql://...',
  })
  DATABASE_URL?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  DATABASE_POOL_SIZE?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600000)
  DATABASE_STATEMENT_TIMEOUT_MS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(600000)
  SQLITE_BUSY_TIMEOUT_MS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(4096)
  SQLITE_CACHE_MB?: number;

  @IsOptional()
  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be redis://... or rediss://...' })
  REDIS_URL?: string;

  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'ADMIN_TOKEN must be at least 32 characters (make one with: openssl rand -hex 32)' })
  ADMIN_TOKEN?: string;

  @IsOptional()
  @Matches(/^[A-Za-z0-9]{1,16}$/, { message: 'KEY_PREFIX must be 1-16 letters or digits' })
  KEY_PREFIX?: string;

  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'KEY_DIGEST_PEPPER must be at least 16 characters' })
  KEY_DIGEST_PEPPER?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  TIERS_FILE?: string;

  /** CONTRACT 16: the default grace of a rotated key, 0 (revoked at once) to 7 days. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(604800)
  KEY_ROTATION_GRACE_SECONDS?: number;

  /** CONTRACT 16: validate and refresh recommend rotation once a key is this many days old. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(3650)
  KEY_ROTATION_RECOMMENDED_DAYS?: number;

  @IsOptional()
  @IsUrl(
    { require_tld: false, protocols: ['http', 'https'], require_protocol: true },
    {
      message: 'MODEL_HOST must be an http(s) URL',
    },
  )
  MODEL_HOST?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  MODEL_STORE_DIR?: string;

  /** CONTRACT 19: model files in an S3-compatible object store, `s3://BUCKET[/PREFIX]`. */
  @IsOptional()
  @Matches(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[A-Za-z0-9!_.*'()/-]*)?$/, {
    message: "MODEL_STORE_URL must be s3://BUCKET or s3://BUCKET/PREFIX (a valid bucket name; a prefix of letters, digits and !-_.*'()/)",
  })
  MODEL_STORE_URL?: string;

  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { message: 'S3_ENDPOINT must be an http(s) URL' })
  S3_ENDPOINT?: string;

  @IsOptional()
  @IsIn(BOOLEAN_WORDS, { message: 'S3_FORCE_PATH_STYLE must be true or false' })
  S3_FORCE_PATH_STYLE?: string;

  /**
   * The key that encrypts the secrets kept in the database at rest (AES-256-GCM), and the
   * key being moved to by `license rotate-secrets-key`: 32 bytes each, in base64 (padded or url-safe).
   */
  @IsOptional()
  @Matches(SECRETS_KEY_FORM, { message: `SECRETS_KEY ${SECRETS_KEY_RULE}` })
  SECRETS_KEY?: string;

  @IsOptional()
  @Matches(SECRETS_KEY_FORM, { message: `NEW_SECRETS_KEY ${SECRETS_KEY_RULE}` })
  NEW_SECRETS_KEY?: string;

  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'MODEL_URL_SECRET must be at least 32 characters' })
  MODEL_URL_SECRET?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(60)
  @Max(604800)
  MODEL_URL_TTL_SECONDS?: number;

  @IsOptional()
  @IsString()
  LICENSE_SIGNING_KEY?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  LICENSE_SIGNING_KEY_FILE?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  LICENSE_VERIFY_KEYS_FILE?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(60)
  @Max(31536000)
  LICENSE_TOKEN_TTL_SECONDS?: number;

  /** How long a new generated signing key is published before it signs (CONTRACT 19); at most 30 days. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(2592000)
  LICENSE_KEY_PUBLISH_SECONDS?: number;

  /** The most stored licenses each instance's refresh job re-signs a second (issue 40); 0 turns the job off. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(10000)
  LICENSE_REFRESH_PER_SECOND?: number;

  /** How often each instance's lease job marks devices whose lease lapsed `lease_expired` (CONTRACT 23), in seconds; 0 turns it off. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(86400)
  DEVICE_LEASE_CHECK_SECONDS?: number;

  @IsOptional()
  @IsIn(BOOLEAN_WORDS, { message: 'SAMPLE_MODELS must be true or false' })
  SAMPLE_MODELS?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(4096)
  INSTALLER_GITHUB_TOKEN?: string;

  @IsOptional()
  @Matches(RFC3339, { message: 'INSTALLER_GITHUB_TOKEN_EXPIRES_AT must be an RFC 3339 time' })
  INSTALLER_GITHUB_TOKEN_EXPIRES_AT?: string;

  @IsOptional()
  @Matches(/^\d+$/, { message: 'GITHUB_APP_ID must be a number' })
  GITHUB_APP_ID?: string;

  @IsOptional()
  @IsString()
  GITHUB_APP_PRIVATE_KEY?: string;

  @IsOptional()
  @IsString()
  GITHUB_APP_PRIVATE_KEY_FILE?: string;

  @IsOptional()
  @Matches(/^\d+$/, { message: 'GITHUB_APP_INSTALLATION_ID must be a number' })
  GITHUB_APP_INSTALLATION_ID?: string;

  @IsOptional()
  @Matches(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, { message: 'INSTALLER_REPOSITORY must be owner/name' })
  INSTALLER_REPOSITORY?: string;

  @IsOptional()
  @IsUrl(
    { require_tld: false, protocols: ['http', 'https'], require_protocol: true },
    {
      message: 'GITHUB_API_URL must be an http(s) URL',
    },
  )
  GITHUB_API_URL?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(120000)
  GITHUB_REQUEST_TIMEOUT_MS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  AUTH_FAILURE_LIMIT_PER_MINUTE?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(3600)
  RATE_LIMIT_WINDOW_SECONDS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(2)
  @Max(100_000_000)
  RATE_LIMIT_MEMORY_WINDOWS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  RATE_LIMIT_VALIDATE_PER_MINUTE?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  RATE_LIMIT_REFRESH_PER_MINUTE?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  RATE_LIMIT_REVOKE_PER_MINUTE?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  RATE_LIMIT_ROTATE_PER_MINUTE?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  RATE_LIMIT_INSTALLER_PER_MINUTE?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  RATE_LIMIT_MODELS_PER_MINUTE?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  RATE_LIMIT_ANALYTICS_PER_MINUTE?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  RATE_LIMIT_ANALYTICS_BATCH_PER_MINUTE?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  RATE_LIMIT_DEVICES_PER_MINUTE?: number;

  @IsOptional()
  @Matches(/^[A-Za-z0-9:_.-]{1,64}$/, { message: 'REDIS_KEY_PREFIX must be 1-64 of A-Z a-z 0-9 : _ . -' })
  REDIS_KEY_PREFIX?: string;

  @IsOptional()
  @IsIn(BOOLEAN_WORDS, { message: 'LEGACY_ROUTES must be true or false' })
  LEGACY_ROUTES?: string;

  /** A hop count or proxy addresses and ranges; read (and `true` refused) by trustProxyOf. */
  @IsOptional()
  @IsString()
  TRUST_PROXY?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(600000)
  SHUTDOWN_TIMEOUT_MS?: number;

  @IsOptional()
  @IsIn(BOOLEAN_WORDS, { message: 'CONSOLE_ENABLED must be true or false' })
  CONSOLE_ENABLED?: string;

  @IsOptional()
  @IsIn(BOOLEAN_WORDS, { message: 'WEBHOOK_ALLOW_INSECURE must be true or false' })
  WEBHOOK_ALLOW_INSECURE?: string;

  /** CONTRACT 20: ended webhook deliveries and their events are kept this many days (the once-only markers longer). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(3650)
  WEBHOOK_RETENTION_DAYS?: number;

  /** CONTRACT 20's delivery timing, settable for operators and for tests that must not wait it out. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(120000)
  WEBHOOK_ATTEMPT_TIMEOUT_MS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(200)
  @Max(3600000)
  WEBHOOK_DELIVERY_LEASE_MS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(10)
  @Max(60000)
  WEBHOOK_POLL_INTERVAL_MS?: number;

  @IsOptional()
  @Matches(/^\s*\d{1,9}\s*(,\s*\d{1,9}\s*){0,19}$/, {
    message: 'WEBHOOK_RETRY_DELAYS_MS must be 1 to 20 comma-separated whole numbers of milliseconds',
  })
  WEBHOOK_RETRY_DELAYS_MS?: string;

  @IsOptional()
  @IsIn(BOOLEAN_WORDS, { message: 'METRICS_ENABLED must be true or false' })
  METRICS_ENABLED?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(65535)
  METRICS_PORT?: number;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    message: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
  })
  LOG_LEVEL?: string;
}
