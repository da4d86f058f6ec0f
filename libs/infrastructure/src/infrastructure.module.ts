import { randomBytes } from 'node:crypto';
import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import { AppConfig, ConfigError, DatabaseConfig } from '@svc/config';
import {
  ApiKeyFormat,
  BootstrapOwner,
  Clock,
  GeneratedSecretRepository,
  IdGenerator,
  KeyRotationPolicy,
  LicenseKeyGenerator,
  LicenseKeySchedule,
  LicenseSigner,
  LicenseSigningKeyRepository,
  ModelLinkSigner,
  ModelStore,
  OfflineLicensePolicy,
  WebhookDeliverySchedule,
  RandomSource,
  SecretHasher,
  FingerprintDigest,
  TierCatalog,
} from '@svc/domain';
import { HmacModelLinkSigner, modelUrlSecretOf } from './crypto/hmac-model-link-signer';
import { Ed25519LicenseKeyGenerator, Ed25519LicenseSigner, KeptLicenseSigner } from './crypto/ed25519-license-signer';
import { CryptoRandomSource, TimeOrderedIdGenerator } from './crypto/time-ordered-id-generator';
import { SecretsCipher } from './crypto/secrets-cipher';
import { Sha256SecretHasher } from './crypto/sha256-secret-hasher';
import { Sha256FingerprintDigest } from './crypto/sha256-fingerprint-digest';
import { LocalModelStore } from './model-store/local-model-store';
import { RepoTokenIssuer } from '@svc/application';
import { NotConfiguredRepoTokenIssuer } from './repo-tokens/not-configured-repo-token-issuer';
import { githubAppSigningKeyOf } from './repo-tokens/github-app-signing-key';
import { StaticRepoTokenIssuer } from './repo-tokens/static-repo-token-issuer';
import { SystemClock } from './time/system-clock';
import { MySqlPersistenceModule } from './persistence/mysql/mysql-persistence.module';
import { PostgresPersistenceModule } from './persistence/postgres/postgres-persistence.module';
import { SqlitePersistenceModule } from './persistence/sqlite/sqlite-persistence.module';
import { InMemoryRateCounter } from './rate-limit/in-memory-rate-counter';
import { RateCounter, WebhookTargets, WebhookTransport } from '@svc/application';
import { CheckedWebhookTargets } from './webhooks/webhook-targets';
import { WebhookHttpTransport } from './webhooks/webhook-http-transport';

export interface InfrastructureOverrides {
  /** A controllable clock for tests; the system clock otherwise. */
  readonly clock?: Clock;
}

/**
 * The one place that binds every port to its adapter, from validated config
 * (STYLE 5): the persistence ports through the configured database's module
 * (persistenceModuleOf), the rest here. Feature modules never ask which
 * database is running.
 */
@Global()
@Module({})
export class InfrastructureModule {
  static forRoot(config: AppConfig, overrides: InfrastructureOverrides = {}): DynamicModule {
    const catalog = tierCatalogOf(config);
    const providers: Provider[] = [
      { provide: TierCatalog, useValue: catalog },
      { provide: ApiKeyFormat, useValue: new ApiKeyFormat(config.keys.prefix) },
      {
        provide: KeyRotationPolicy,
        useValue: new KeyRotationPolicy(config.keyRotation.graceSeconds, config.keyRotation.recommendedAfterDays),
      },
      { provide: SecretHasher, useValue: new Sha256SecretHasher(config.keys.digestPepper) },
      { provide: FingerprintDigest, useValue: new Sha256FingerprintDigest() },
      { provide: IdGenerator, useValue: new TimeOrderedIdGenerator() },
      // ADMIN_TOKEN stands in as an owner (CONTRACT 21): the last-owner rule applies only without it
      { provide: BootstrapOwner, useValue: new BootstrapOwner(config.adminToken !== null) },
      { provide: RandomSource, useValue: new CryptoRandomSource() },
      { provide: Clock, useValue: overrides.clock ?? new SystemClock() },
      // webhooks (CONTRACT 20): where they may go, checked when registered and again when connecting
      { provide: WebhookTargets, useValue: new CheckedWebhookTargets(config.webhooks.allowInsecure) },
      { provide: WebhookTransport, useValue: new WebhookHttpTransport(config.webhooks.allowInsecure, config.webhooks.attemptTimeoutMs) },
      {
        provide: WebhookDeliverySchedule,
        useValue: new WebhookDeliverySchedule(
          config.webhooks.retryDelaysMs,
          config.webhooks.attemptTimeoutMs,
          config.webhooks.deliveryLeaseMs,
        ),
      },
      {
        provide: RateCounter,
        inject: [Clock],
        useFactory: (clock: Clock) => rateCounterOf(config, clock),
      },
      { provide: ModelStore, inject: [ModelLinkSigner], useFactory: (signer: ModelLinkSigner) => modelStoreOf(config.models, signer) },
      {
        // links to the service's own store are signed (CONTRACT 7) with the configured secret or the one
        // kept in the database (CONTRACT 19); with MODEL_HOST they are the CDN's, unsigned
        provide: ModelLinkSigner,
        inject: [GeneratedSecretRepository, Clock],
        useFactory: async (secrets: GeneratedSecretRepository, clock: Clock) =>
          new HmacModelLinkSigner(
            config.models.host === null
              ? await modelUrlSecretOf(config.models.urlSecret, config.models.urlSecretFile, secrets, clock)
              : (config.models.urlSecret ?? randomBytes(32).toString('base64url')), // never used: nothing is signed
          ),
      },
      { provide: OfflineLicensePolicy, useValue: new OfflineLicensePolicy(config.license.tokenTtlSeconds) },
      {
        provide: LicenseKeySchedule,
        useValue: new LicenseKeySchedule(config.license.keyPublishSeconds, config.license.tokenTtlSeconds),
      },
      { provide: LicenseKeyGenerator, useValue: new Ed25519LicenseKeyGenerator() },
      {
        // offline licenses (CONTRACT 15, 19): the configured key (never written to the database), or the
        // generated keys every instance reads from the database
        provide: LicenseSigner,
        inject: [LicenseSigningKeyRepository, LicenseKeySchedule, Clock],
        useFactory: async (keys: LicenseSigningKeyRepository, schedule: LicenseKeySchedule, clock: Clock) =>
          config.license.signingKey !== null
            ? Ed25519LicenseSigner.create(config.license.signingKey, config.license.verifyKeys)
            : KeptLicenseSigner.open(keys, schedule, clock, config.license.signingKeyFile, config.license.verifyKeys),
      },
      repoTokenIssuerOf(config),
    ];
    return {
      module: InfrastructureModule,
      imports: [persistenceModuleOf(config.database, SecretsCipher.of(config.secrets))],
      providers,
      exports: providers.map((p) => (p as { provide: unknown }).provide as never),
    };
  }
}

/**
 * The installer's token source (CONTRACT 6): the GitHub App when configured,
 * else the static token, else "not configured". The App key is parsed here, so
 * a bad key stops start-up with a ConfigError. One instance: it holds the cache. The GitHub App's client (@octokit/auth-app) is
 * loaded only when configured, like the object store's SDK.
 */
function repoTokenIssuerOf(config: AppConfig): Provider {
  const { githubApp, staticToken, staticTokenExpiresAt } = config.installer;
  if (githubApp) {
    const signingKey = githubAppSigningKeyOf(githubApp.privateKey);
    return {
      provide: RepoTokenIssuer,
      useFactory: async (clock: Clock) => {
        const { GithubAppRepoTokenIssuer } = await import('./repo-tokens/github-app-repo-token-issuer');
        return new GithubAppRepoTokenIssuer(githubApp, signingKey, clock);
      },
      inject: [Clock],
    };
  }
  if (staticToken) {
    return {
      provide: RepoTokenIssuer,
      useFactory: (clock: Clock) => new StaticRepoTokenIssuer(staticToken, staticTokenExpiresAt, clock),
      inject: [Clock],
    };
  }
  return { provide: RepoTokenIssuer, useValue: new NotConfiguredRepoTokenIssuer() };
}

/**
 * The one place that asks where model files live (CONTRACT 19): an
 * S3-compatible object store when MODEL_STORE_URL is set, else the local
 * folder, whose links are signed by `signer`. The object store needs a
 * region from the AWS SDK's chain: none stops start-up with a ConfigError.
 * The SDK is loaded only then (about half a second of start-up, every CLI
 * call included, that the local store does not pay).
 */
async function modelStoreOf(models: AppConfig['models'], signer: ModelLinkSigner): Promise<ModelStore> {
  if (models.objectStore === null) return new LocalModelStore(models.storeDir, signer);
  const { S3ModelStore } = await import('./model-store/s3-model-store');
  const store = new S3ModelStore(models.objectStore);
  try {
    await store.region();
  } catch {
    throw new ConfigError(["MODEL_STORE_URL needs a region: set AWS_REGION (or a profile's region; R2: auto, MinIO: us-east-1)"]);
  }
  return store;
}

/**
 * The rate-limit counters: shared in Redis when REDIS_URL is set, with this process's
 * memory as the fallback while Redis is away; else this process's memory. The Redis client (ioredis)
 * is loaded only then, like the object store's SDK: the CLI and a single instance never pay for it.
 */
async function rateCounterOf(config: AppConfig, clock: Clock): Promise<RateCounter> {
  const memory = new InMemoryRateCounter(clock, config.rateLimit.memoryWindows);
  if (!config.redisUrl) return memory;
  const { RedisRateCounter } = await import('./rate-limit/redis-rate-counter');
  return new RedisRateCounter(config.redisUrl, config.rateLimit.redisKeyPrefix, memory);
}

export function tierCatalogOf(config: AppConfig): TierCatalog {
  try {
    return TierCatalog.fromSource(config.tiers);
  } catch (error) {
    throw new ConfigError([`TIERS_FILE ${(error as Error).message}`]);
  }
}

/**
 * The one place that asks which database is configured: each kind has its
 * module, which binds every persistence port to its own adapters (global, so
 * the feature modules ask only for ports), their kept secrets sealed by `secrets`. A new kind in `DatabaseConfig`
 * fails to compile here until it has its module.
 */
function persistenceModuleOf(database: DatabaseConfig, secrets: SecretsCipher): DynamicModule {
  switch (database.kind) {
    case 'sqlite':
      return SqlitePersistenceModule.forRoot(database, secrets);
    case 'postgres':
      return PostgresPersistenceModule.forRoot(database, secrets);
    case 'mysql':
      return MySqlPersistenceModule.forRoot(database, secrets);
    default:
      return unhandled(database);
  }
}

function unhandled(database: never): never {
  throw new Error(`no persistence module for the database kind ${(database as { kind: string }).kind}`);
}
