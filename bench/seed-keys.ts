import { DataSource } from 'typeorm';
import type { LicenseType, User } from '@svc/domain';
import { BuiltLibraries } from './built-service';

/** The plaintext keys the load generator presents, as issuance returned them. */
export interface SeededKeys {
  /** Every key, all four tiers in turn (validate and models rotate over these). */
  readonly all: readonly string[];
  /** The enterprise (unlimited) keys: inference events never exhaust them. */
  readonly unlimited: readonly string[];
  readonly seconds: number;
}

const TIERS: readonly LicenseType[] = ['free', 'research', 'commercial', 'enterprise'];
/** Rows per INSERT (keys have 11 columns: 22,000 parameters, under both engines' limits). */
const ROWS_PER_INSERT = 2000;
/** Keys per transaction. */
const KEYS_PER_TRANSACTION = 50_000;

/**
 * Issues `count` keys the way IssueApiKey does, in bulk: each a new user, a
 * key from ApiKeyFormat.generate over the crypto random source, its digest
 * from the configured SecretHasher, the domain's default expiry and display
 * prefix, and the TypeORM mappers' rows (so the stored form is the
 * adapters'). Only the writes differ: multi-row INSERTs in large transactions
 * instead of one use-case call per key, and no audit entry per key, so a
 * million keys take seconds rather than minutes. The database's migrations are
 * applied here, as the service would apply them.
 */
export async function seedKeys(lib: BuiltLibraries, databaseUrl: string, count: number, progress: (line: string) => void): Promise<SeededKeys> {
  const started = Date.now();
  const config = lib.config.loadConfig({ DATABASE_URL: databaseUrl });
  const dataSource = await new DataSource(lib.dataSourceOptions.dataSourceOptionsFor(config.database)).initialize();
  const { ApiKey, ApiKeyFormat, defaultExpiryFrom } = lib.domain;
  const format = new ApiKeyFormat(config.keys.prefix);
  const hasher = new lib.infrastructure.Sha256SecretHasher(config.keys.digestPepper);
  const random = new lib.infrastructure.CryptoRandomSource();
  const ids = new lib.infrastructure.RandomIdGenerator();
  const { ApiKeyRecord, UserRecord } = lib.records;
  const all: string[] = new Array(count);
  const unlimited: string[] = [];
  const now = new Date();
  try {
    for (let first = 0; first < count; first += KEYS_PER_TRANSACTION) {
      const last = Math.min(count, first + KEYS_PER_TRANSACTION);
      await dataSource.transaction(async (manager) => {
        for (let from = first; from < last; from += ROWS_PER_INSERT) {
          const users = [];
          const keys = [];
          for (let i = from; i < Math.min(last, from + ROWS_PER_INSERT); i++) {
            const licenseType = TIERS[i % TIERS.length];
            const user: User = { id: ids.newId('usr'), email: `bench-${i}@example.org`, name: `Bench user ${i}`, organization: 'Benchmark', createdAt: now };
            const secret = format.generate('live', random);
            const key = new ApiKey({
              id: ids.newId('key'),
              userId: user.id,
              digest: hasher.digest(secret),
              displayPrefix: ApiKeyFormat.displayPrefixOf(secret),
              environment: 'live',
              licenseType,
              expiresAt: defaultExpiryFrom(now),
              revokedAt: null,
              monthlyLimit: { source: 'tier' },
              createdAt: now,
            });
            users.push(lib.userMapper.UserMapper.toRecord(user));
            keys.push(lib.apiKeyMapper.ApiKeyMapper.toRecord(key));
            all[i] = secret;
            if (licenseType === 'enterprise') unlimited.push(secret);
          }
          await manager.createQueryBuilder().insert().into(UserRecord).values(users).updateEntity(false).execute();
          await manager.createQueryBuilder().insert().into(ApiKeyRecord).values(keys).updateEntity(false).execute();
        }
      });
      if (count >= 200_000) progress(`  seeded ${last} of ${count} keys (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    }
    if (config.database.kind === 'postgres') await dataSource.query('ANALYZE');
  } finally {
    await dataSource.destroy();
  }
  return { all, unlimited, seconds: (Date.now() - started) / 1000 };
}
