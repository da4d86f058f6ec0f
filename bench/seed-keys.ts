import { NestFactory } from '@nestjs/core';
import { randomFillSync } from 'node:crypto';
import { DataSource, type EntityMetadata, type ObjectLiteral } from 'typeorm';
import type { ApiKey as DomainApiKey, LicenseType, StoredLicense, User } from '@svc/domain';
import { type Libraries } from './built-service';
import { dialectOfUrl } from './dialects';

/** The plaintext keys the load generator presents, as issuance returned them. */
export interface SeededKeys {
  /** Every key, all four tiers in turn (validate and models rotate over these). */
  readonly all: readonly string[];
  /** The enterprise (unlimited) keys: inference events never exhaust them. */
  readonly unlimited: readonly string[];
  readonly seconds: number;
}

const TIERS: readonly LicenseType[] = ['free', 'research', 'commercial', 'enterprise'];
/** Keys per transaction. */
const KEYS_PER_TRANSACTION = 50_000;

/**
 * The same cryptographic bytes as the service's CryptoRandomSource (node's
 * CSPRNG), drawn from a pool filled 64 KiB at a time instead of one call per
 * key: a million keys need several million draws.
 */
export class PooledRandom {
  private pool = Buffer.alloc(0);
  private at = 0;

  hex(bytes: number): string {
    if (this.at + bytes > this.pool.length) {
      this.pool = randomFillSync(Buffer.allocUnsafe(64 * 1024));
      this.at = 0;
    }
    const hex = this.pool.toString('hex', this.at, this.at + bytes);
    this.at += bytes;
    return hex;
  }
}

/** The columns a seeding INSERT writes: every column but those the database generates (an audit entry's `seq`). */
export function writtenColumns(metadata: EntityMetadata): EntityMetadata['columns'] {
  return metadata.columns.filter((column) => !column.isGenerated);
}

/** A record's column values as the driver stores them (TypeORM's own conversion, e.g. a Date to SQLite's UTC text). */
export function rowOf(dataSource: DataSource, metadata: EntityMetadata, record: ObjectLiteral): unknown[] {
  return writtenColumns(metadata).map((column): unknown => dataSource.driver.preparePersistentValue(record[column.propertyName], column));
}

/**
 * Issues `count` keys the way IssueApiKey does, in bulk: each a new user, a
 * key from ApiKeyFormat.generate over the crypto random source, its digest
 * from the configured SecretHasher, the domain's default expiry and display
 * prefix, and the TypeORM mappers' records, converted to column values by
 * TypeORM's driver (so the stored form is exactly the adapters'). Only the
 * writes differ: prepared or multi-row INSERTs in large transactions instead
 * of one use-case call per key, and no audit entry per key, so a million keys
 * take seconds rather than minutes. Each key's license is signed ahead as
 * issuance signs it (the application's OfflineLicenses.signAhead, with the
 * generated signing key the service then reads from the database: one
 * Ed25519 signature per key, about 30-60 s of the seeding at a million keys)
 * and written with the key. The database's migrations are applied here, as
 * the service would apply them.
 */
export async function seedKeys(lib: Libraries, databaseUrl: string, count: number, progress: (line: string) => void): Promise<SeededKeys> {
  const started = Date.now();
  const config = lib.config.loadConfig({ DATABASE_URL: databaseUrl });
  const dialect = dialectOfUrl(databaseUrl);
  const dataSource = await new DataSource(dialect.dataSourceOptions(lib, config.database)).initialize();
  const writer = await dialect.tableWriter(databaseUrl, dataSource);
  const { ApiKey, ApiKeyFormat, defaultExpiryFrom } = lib.domain;
  const format = new ApiKeyFormat(config.keys.prefix);
  const hasher = new lib.infrastructure.Sha256SecretHasher(config.keys.digestPepper);
  // The domain's random source over the pooled bytes; ids made as the service makes them.
  const pooled = new PooledRandom();
  const random = new (class extends lib.domain.RandomSource {
    hex(bytes: number): string {
      return pooled.hex(bytes);
    }
  })();
  const ids = new lib.infrastructure.TimeOrderedIdGenerator(random);
  const userTable = dataSource.getMetadata(lib.infrastructure.UserRecord);
  const keyTable = dataSource.getMetadata(lib.infrastructure.ApiKeyRecord);
  const userColumns = writtenColumns(userTable).map((c) => c.databaseName);
  const keyColumns = writtenColumns(keyTable).map((c) => c.databaseName);
  const licenseTable = dataSource.getMetadata(lib.infrastructure.LicenseTokenRecord);
  const licenseColumns = writtenColumns(licenseTable).map((c) => c.databaseName);
  const licenses = await licensesSignedAhead(lib, config);
  const all = new Array<string>(count);
  const unlimited: string[] = [];
  const now = new Date();
  try {
    for (let first = 0; first < count; first += KEYS_PER_TRANSACTION) {
      const last = Math.min(count, first + KEYS_PER_TRANSACTION);
      const users: unknown[][] = [];
      const keys: unknown[][] = [];
      const signed: unknown[][] = [];
      for (let i = first; i < last; i++) {
        const licenseType = TIERS[i % TIERS.length];
        const user: User = {
          id: ids.newId('usr'),
          email: `bench-${i}@example.org`,
          name: `Bench user ${i}`,
          organization: 'Benchmark',
          createdAt: now,
        };
        const secret = format.generate('live', random);
        const id = ids.newId('key');
        const key = new ApiKey({
          id,
          userId: user.id,
          digest: hasher.digest(secret),
          displayPrefix: ApiKeyFormat.displayPrefixOf(secret),
          environment: 'live',
          licenseType,
          expiresAt: defaultExpiryFrom(now),
          revokedAt: null,
          monthlyLimit: { source: 'tier' },
          createdAt: now,
          licenseId: id,
          rotatedFrom: null,
          rotatedTo: null,
        });
        users.push(rowOf(dataSource, userTable, lib.infrastructure.UserMapper.toRecord(user)));
        keys.push(rowOf(dataSource, keyTable, lib.infrastructure.ApiKeyMapper.toRecord(key)));
        signed.push(rowOf(dataSource, licenseTable, { keyId: id, device: lib.domain.NO_DEVICE, ...(await licenses.sign(key, now)) }));
        all[i] = secret;
        if (licenseType === 'enterprise') unlimited.push(secret);
      }
      await writer.begin();
      await writer.insert(userTable.tableName, userColumns, users);
      await writer.insert(keyTable.tableName, keyColumns, keys);
      await writer.insert(licenseTable.tableName, licenseColumns, signed);
      await writer.commit();
      if (count >= 200_000 && (last % 200_000 === 0 || last === count)) {
        progress(`  seeded ${last} of ${count} keys (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      }
    }
    await dialect.analyze(dataSource, [userTable.tableName, keyTable.tableName, licenseTable.tableName], false);
  } finally {
    await licenses.close();
    await writer.close();
    await dataSource.destroy();
  }
  return { all, unlimited, seconds: (Date.now() - started) / 1000 };
}

/**
 * Signs keys' licenses as issuance does (OfflineLicenses.signAhead: licenseAt, signedForStore), with
 * the service's own LicenseSigner and TierCatalog, from its InfrastructureModule on the same database:
 * the generated signing key kept there (made now when there is none, as the service makes it). Seeded
 * keys have no devices yet (the bench activates them through the service, which signs their licenses).
 */
async function licensesSignedAhead(
  lib: Libraries,
  config: ReturnType<Libraries['config']['loadConfig']>,
): Promise<{ sign(key: DomainApiKey, now: Date): Promise<StoredLicense>; close(): Promise<void> }> {
  const { domain, infrastructure, application } = lib;
  const service = await NestFactory.createApplicationContext(infrastructure.InfrastructureModule.forRoot(config), { logger: false });
  const signer = service.get(domain.LicenseSigner);
  const catalog = service.get(domain.TierCatalog);
  const policy = new domain.OfflineLicensePolicy(config.license.tokenTtlSeconds);
  return {
    sign: (key, now) => application.signedForStore(policy, signer, application.licenseAt(policy, catalog, key, now), now),
    close: () => service.close(),
  };
}
