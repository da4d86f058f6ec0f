export * from './shared/license-snapshot';
export * from './shared/key-revocation';
export * from './shared/key-rotator';
export * from './shared/unit-of-work';
export * from './shared/database-faults';
export * from './auth/authenticate-api-key.use-case';
export * from './auth/validate-api-key.use-case';
export * from './auth/refresh-api-key.use-case';
export * from './auth/revoke-api-key.use-case';
export * from './auth/rotate-api-key.use-case';
export * from './keys/issue-api-key.use-case';
export * from './keys/show-api-key.use-case';
export * from './keys/update-api-key.use-case';
export * from './keys/revoke-key-by-id.use-case';
export * from './keys/rotate-key-by-id.use-case';
export * from './audit/list-audit.use-case';
export * from './keys/key-directory';
export * from './keys/license-keys';
export * from './keys/list-keys.use-case';
export * from './usage/list-near-quota.use-case';
export * from './usage/report-daily-usage.use-case';
export * from './usage/show-overview.use-case';
export * from './analytics/record-event.use-case';
export * from './analytics/record-events.use-case';
export * from './usage/report-usage.use-case';
export * from './installer/repo-token-issuer';
export * from './installer/installer.errors';
export * from './installer/issue-repo-token.use-case';
export * from './models/list-models.use-case';
export * from './models/get-model.use-case';
export * from './models/download-model.use-case';
export * from './models/create-model.use-case';
export * from './models/upload-model-file.use-case';
export * from './models/replace-model.use-case';
export * from './models/delete-model.use-case';
export * from './models/list-all-models.use-case';
export * from './models/show-model.use-case';
export * from './models/publish-model-from-file.use-case';
export * from './models/sweep-model-store.use-case';
export * from './license/rotate-license-signing-key.use-case';
export * from './license/refresh-stored-licenses.use-case';
export * from './secrets/secrets-at-rest';
export * from './operators/authenticate-operator.use-case';
export * from './operators/operator-fields';
export * from './operators/create-operator.use-case';
export * from './operators/list-operators.use-case';
export * from './operators/show-operator.use-case';
export * from './operators/update-operator.use-case';
export * from './operators/replace-operator-token.use-case';
import { AuthenticateApiKey } from './auth/authenticate-api-key.use-case';
import { ValidateApiKey } from './auth/validate-api-key.use-case';
import { RefreshApiKey } from './auth/refresh-api-key.use-case';
import { RevokeApiKey } from './auth/revoke-api-key.use-case';
import { IssueApiKey } from './keys/issue-api-key.use-case';
import { ShowApiKey } from './keys/show-api-key.use-case';
import { DeactivateDevice, ListLicenseDevices } from './devices/device-seats';
import { UpdateApiKey } from './keys/update-api-key.use-case';
import { RevokeKeyById } from './keys/revoke-key-by-id.use-case';
import { ListAudit } from './audit/list-audit.use-case';
import { ListKeys } from './keys/list-keys.use-case';
import { ListNearQuota } from './usage/list-near-quota.use-case';
import { ReportDailyUsage } from './usage/report-daily-usage.use-case';
import { ShowOverview } from './usage/show-overview.use-case';
import { IssueRepoToken } from './installer/issue-repo-token.use-case';
import { KeyRevocation } from './shared/key-revocation';
import { OfflineLicenses } from './shared/license-snapshot';
import { KeyRotator } from './shared/key-rotator';
import { RotateApiKey } from './auth/rotate-api-key.use-case';
import { RotateKeyById } from './keys/rotate-key-by-id.use-case';
import { RecordEvent } from './analytics/record-event.use-case';
import { RecordEvents } from './analytics/record-events.use-case';
import { ReportUsage } from './usage/report-usage.use-case';
import { ListModels } from './models/list-models.use-case';
import { GetModel } from './models/get-model.use-case';
import { DownloadModel } from './models/download-model.use-case';
import { CreateModel } from './models/create-model.use-case';
import { UploadModelFile } from './models/upload-model-file.use-case';
import { ReplaceModel } from './models/replace-model.use-case';
import { DeleteModel } from './models/delete-model.use-case';
import { ListAllModels } from './models/list-all-models.use-case';
import { ShowModel } from './models/show-model.use-case';
import { PublishModelFromFile } from './models/publish-model-from-file.use-case';
import { SweepModelStore } from './models/sweep-model-store.use-case';
import { RotateLicenseSigningKey } from './license/rotate-license-signing-key.use-case';
import { RefreshStoredLicenses } from './license/refresh-stored-licenses.use-case';
import { AuthenticateOperator } from './operators/authenticate-operator.use-case';
import { CreateOperator } from './operators/create-operator.use-case';
import { ListOperators } from './operators/list-operators.use-case';
import { ShowOperator } from './operators/show-operator.use-case';
import { UpdateOperator } from './operators/update-operator.use-case';
import { ReplaceOperatorToken } from './operators/replace-operator-token.use-case';

/** Every use case, for registration as providers by the API and the CLI. */
export const USE_CASES = [
  KeyRevocation,
  OfflineLicenses,
  KeyRotator,
  AuthenticateApiKey,
  ValidateApiKey,
  RefreshApiKey,
  RevokeApiKey,
  RotateApiKey,
  IssueApiKey,
  ShowApiKey,
  UpdateApiKey,
  RevokeKeyById,
  RotateKeyById,
  ListAudit,
  ListKeys,
  ListNearQuota,
  ReportDailyUsage,
  ShowOverview,
  IssueRepoToken,
  RecordEvent,
  RecordEvents,
  ReportUsage,
  ListModels,
  GetModel,
  DownloadModel,
  CreateModel,
  UploadModelFile,
  ReplaceModel,
  DeleteModel,
  ListAllModels,
  ShowModel,
  PublishModelFromFile,
  SweepModelStore,
  RotateLicenseSigningKey,
  RefreshStoredLicenses,
  AuthenticateOperator,
  CreateOperator,
  ListOperators,
  ShowOperator,
  UpdateOperator,
  ReplaceOperatorToken,
  ListLicenseDevices,
  DeactivateDevice,
] as const;
export * from './rate-limit/rate-counter';
export * from './health/database-ping';
export * from './webhooks/webhook-ports';
export * from './webhooks/webhook-endpoint-rules';
export * from './webhooks/create-webhook.use-case';
export * from './webhooks/list-webhooks.use-case';
export * from './webhooks/show-webhook.use-case';
export * from './webhooks/update-webhook.use-case';
export * from './webhooks/delete-webhook.use-case';
export * from './webhooks/replace-webhook-secret.use-case';
export * from './webhooks/send-webhook-test.use-case';
export * from './webhooks/list-webhook-deliveries.use-case';
export * from './webhooks/retry-webhook-delivery.use-case';
export * from './webhooks/dispatch-webhooks.use-case';
export * from './webhooks/prune-webhook-outbox.use-case';
export * from './devices/device-seats';
export * from './devices/device-gate';
export * from './devices/release-lapsed-devices.use-case';
