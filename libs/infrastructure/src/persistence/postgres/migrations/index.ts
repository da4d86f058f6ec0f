import { KeyLifecyclePostgres1763700000000 } from './1763700000000-key-lifecycle';
import { AnalyticsEventsPostgres1763800000000 } from './1763800000000-analytics-events';
import { ModelRegistryPostgres1763900000000 } from './1763900000000-model-registry';
import { KeyRotationPostgres1764000000000 } from './1764000000000-key-rotation';
import { ConsoleIndexesPostgres1764100000000 } from './1764100000000-console-indexes';
import { AuditOrderPostgres1764200000000 } from './1764200000000-audit-order';
import { GeneratedSecretsPostgres1764300000000 } from './1764300000000-generated-secrets';
import { EmailSearchPostgres1764500000000 } from './1764500000000-email-search';
import { OperatorsPostgres1764600000000 } from './1764600000000-operators';
import { WebhooksPostgres1764700000000 } from './1764700000000-webhooks';
import { WebhookRetentionPostgres1764800000000 } from './1764800000000-webhook-retention';
import { KeyExpiryIndexPostgres1764900000000 } from './1764900000000-key-expiry-index';
import { SealedSecretsPostgres1765100000000 } from './1765100000000-sealed-secrets';
import { DevicesPostgres1765200000000 } from './1765200000000-devices';
import { FieldEventsPostgres1765400000000 } from './1765400000000-field-events';
import { LicenseTokensPostgres1765500000000 } from './1765500000000-license-tokens';
import { LicenseDeviceLimitsPostgres1765600000000 } from './1765600000000-license-device-limits';
import { DeviceLeaseIndexPostgres1765700000000 } from './1765700000000-device-lease-index';

/** PostgreSQL's migrations, in order; the schema test holds them to the other databases'. */
export const POSTGRES_MIGRATIONS = [
  KeyLifecyclePostgres1763700000000,
  AnalyticsEventsPostgres1763800000000,
  ModelRegistryPostgres1763900000000,
  KeyRotationPostgres1764000000000,
  ConsoleIndexesPostgres1764100000000,
  AuditOrderPostgres1764200000000,
  GeneratedSecretsPostgres1764300000000,
  EmailSearchPostgres1764500000000,
  OperatorsPostgres1764600000000,
  WebhooksPostgres1764700000000,
  WebhookRetentionPostgres1764800000000,
  KeyExpiryIndexPostgres1764900000000,
  SealedSecretsPostgres1765100000000,
  DevicesPostgres1765200000000,
  FieldEventsPostgres1765400000000,
  LicenseTokensPostgres1765500000000,
  LicenseDeviceLimitsPostgres1765600000000,
  DeviceLeaseIndexPostgres1765700000000,
];
