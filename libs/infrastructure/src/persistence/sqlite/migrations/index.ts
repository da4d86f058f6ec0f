import { KeyLifecycleSqlite1763700000000 } from './1763700000000-key-lifecycle';
import { AnalyticsEventsSqlite1763800000000 } from './1763800000000-analytics-events';
import { ModelRegistrySqlite1763900000000 } from './1763900000000-model-registry';
import { KeyRotationSqlite1764000000000 } from './1764000000000-key-rotation';
import { ConsoleIndexesSqlite1764100000000 } from './1764100000000-console-indexes';
import { AuditOrderSqlite1764200000000 } from './1764200000000-audit-order';
import { GeneratedSecretsSqlite1764300000000 } from './1764300000000-generated-secrets';
import { EmailSearchSqlite1764500000000 } from './1764500000000-email-search';
import { OperatorsSqlite1764600000000 } from './1764600000000-operators';
import { WebhooksSqlite1764700000000 } from './1764700000000-webhooks';
import { WebhookRetentionSqlite1764800000000 } from './1764800000000-webhook-retention';
import { KeyExpiryIndexSqlite1764900000000 } from './1764900000000-key-expiry-index';
import { SealedSecretsSqlite1765100000000 } from './1765100000000-sealed-secrets';
import { DevicesSqlite1765200000000 } from './1765200000000-devices';
import { FieldEventsSqlite1765400000000 } from './1765400000000-field-events';
import { LicenseTokensSqlite1765500000000 } from './1765500000000-license-tokens';
import { LicenseDeviceLimitsSqlite1765600000000 } from './1765600000000-license-device-limits';
import { DeviceLeaseIndexSqlite1765700000000 } from './1765700000000-device-lease-index';

/** SQLite's migrations, in order; the schema test holds them to the other databases' (docs/EXTENDING.md). */
export const SQLITE_MIGRATIONS = [
  KeyLifecycleSqlite1763700000000,
  AnalyticsEventsSqlite1763800000000,
  ModelRegistrySqlite1763900000000,
  KeyRotationSqlite1764000000000,
  ConsoleIndexesSqlite1764100000000,
  AuditOrderSqlite1764200000000,
  GeneratedSecretsSqlite1764300000000,
  EmailSearchSqlite1764500000000,
  OperatorsSqlite1764600000000,
  WebhooksSqlite1764700000000,
  WebhookRetentionSqlite1764800000000,
  KeyExpiryIndexSqlite1764900000000,
  SealedSecretsSqlite1765100000000,
  DevicesSqlite1765200000000,
  FieldEventsSqlite1765400000000,
  LicenseTokensSqlite1765500000000,
  LicenseDeviceLimitsSqlite1765600000000,
  DeviceLeaseIndexSqlite1765700000000,
];
