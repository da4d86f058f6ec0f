import { KeyLifecycleMySql1763700000000 } from './1763700000000-key-lifecycle';
import { AnalyticsEventsMySql1763800000000 } from './1763800000000-analytics-events';
import { ModelRegistryMySql1763900000000 } from './1763900000000-model-registry';
import { KeyRotationMySql1764000000000 } from './1764000000000-key-rotation';
import { ConsoleIndexesMySql1764100000000 } from './1764100000000-console-indexes';
import { AuditOrderMySql1764200000000 } from './1764200000000-audit-order';
import { GeneratedSecretsMySql1764300000000 } from './1764300000000-generated-secrets';
import { EmailSearchMySql1764500000000 } from './1764500000000-email-search';
import { OperatorsMySql1764600000000 } from './1764600000000-operators';
import { WebhooksMySql1764700000000 } from './1764700000000-webhooks';
import { WebhookRetentionMySql1764800000000 } from './1764800000000-webhook-retention';
import { KeyExpiryIndexMySql1764900000000 } from './1764900000000-key-expiry-index';
import { SealedSecretsMySql1765100000000 } from './1765100000000-sealed-secrets';
import { DevicesMySql1765200000000 } from './1765200000000-devices';
import { FieldEventsMySql1765400000000 } from './1765400000000-field-events';
import { LicenseTokensMySql1765500000000 } from './1765500000000-license-tokens';
import { LicenseDeviceLimitsMySql1765600000000 } from './1765600000000-license-device-limits';
import { DeviceLeaseIndexMySql1765700000000 } from './1765700000000-device-lease-index';

/** MySQL / MariaDB's migrations, in order; the schema test holds them to the other databases'. */
export const MYSQL_MIGRATIONS = [
  KeyLifecycleMySql1763700000000,
  AnalyticsEventsMySql1763800000000,
  ModelRegistryMySql1763900000000,
  KeyRotationMySql1764000000000,
  ConsoleIndexesMySql1764100000000,
  AuditOrderMySql1764200000000,
  GeneratedSecretsMySql1764300000000,
  EmailSearchMySql1764500000000,
  OperatorsMySql1764600000000,
  WebhooksMySql1764700000000,
  WebhookRetentionMySql1764800000000,
  KeyExpiryIndexMySql1764900000000,
  SealedSecretsMySql1765100000000,
  DevicesMySql1765200000000,
  FieldEventsMySql1765400000000,
  LicenseTokensMySql1765500000000,
  LicenseDeviceLimitsMySql1765600000000,
  DeviceLeaseIndexMySql1765700000000,
];
