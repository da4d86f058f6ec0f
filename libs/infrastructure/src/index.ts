export * from './infrastructure.module';
export * from './crypto/sha256-secret-hasher';
export * from './crypto/time-ordered-id-generator';
export * from './time/system-clock';
export * from './model-store/local-model-store';
export * from './repo-tokens/static-repo-token-issuer';
export * from './repo-tokens/not-configured-repo-token-issuer';
export * from './crypto/hmac-model-link-signer';
export * from './crypto/ed25519-license-signer';
export * from './webhooks/address-policy';
export * from './webhooks/webhook-targets';
export * from './webhooks/webhook-http-transport';
// What the bench's seeders write with: each database's DataSource options as the service opens it,
// the tables' records and the mappers that turn domain objects into their rows.
export { sqliteDataSourceOptions } from './persistence/sqlite/sqlite-data-source';
export { postgresDataSourceOptions } from './persistence/postgres/postgres-data-source';
export { mysqlDataSourceOptions } from './persistence/mysql/mysql-data-source';
export { ApiKeyRecord, AuditEntryRecord, LicenseTokenRecord, UsageCounterRecord, UserRecord } from './persistence/typeorm/records';
export { ApiKeyMapper } from './persistence/typeorm/mappers/api-key.mapper';
export { AuditEntryMapper } from './persistence/typeorm/mappers/audit-entry.mapper';
export { UserMapper } from './persistence/typeorm/mappers/user.mapper';
