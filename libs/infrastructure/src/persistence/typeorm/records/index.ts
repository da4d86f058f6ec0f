import { ApiKeyRecord } from './api-key.record';
import { AuditEntryRecord } from './audit-entry.record';
import { DeviceRecord } from './device.record';
import { GeneratedSecretRecord } from './generated-secret.record';
import { LicenseDeviceLimitRecord } from './license-device-limit.record';
import { LicenseSigningKeyRecord } from './license-signing-key.record';
import { LicenseTokenRecord } from './license-token.record';
import { ModelRecord } from './model.record';
import { OperatorRecord } from './operator.record';
import { UsageCounterRecord } from './usage-counter.record';
import { UserRecord } from './user.record';
import { WebhookDeliveryRecord, WebhookEndpointRecord, WebhookEventRecord } from './webhook.records';

export {
  ApiKeyRecord,
  AuditEntryRecord,
  DeviceRecord,
  GeneratedSecretRecord,
  LicenseDeviceLimitRecord,
  LicenseSigningKeyRecord,
  LicenseTokenRecord,
  ModelRecord,
  OperatorRecord,
  UsageCounterRecord,
  UserRecord,
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
  WebhookEventRecord,
};

export const RECORDS = [
  UserRecord,
  ApiKeyRecord,
  UsageCounterRecord,
  AuditEntryRecord,
  ModelRecord,
  GeneratedSecretRecord,
  LicenseDeviceLimitRecord,
  LicenseSigningKeyRecord,
  OperatorRecord,
  WebhookEndpointRecord,
  WebhookEventRecord,
  WebhookDeliveryRecord,
  DeviceRecord,
  LicenseTokenRecord,
  LicenseDeviceLimitRecord,
];
