export * from './shared/license-snapshot';
export * from './shared/views';
export * from './shared/key-revocation';
export * from './auth/authenticate-api-key.use-case';
export * from './auth/validate-api-key.use-case';
export * from './auth/refresh-api-key.use-case';
export * from './auth/revoke-api-key.use-case';
export * from './admin/issue-api-key.use-case';
export * from './admin/show-api-key.use-case';
export * from './admin/update-api-key.use-case';
export * from './admin/revoke-key-by-id.use-case';
export * from './admin/list-audit.use-case';
import { AuthenticateApiKey } from './auth/authenticate-api-key.use-case';
import { ValidateApiKey } from './auth/validate-api-key.use-case';
import { RefreshApiKey } from './auth/refresh-api-key.use-case';
import { RevokeApiKey } from './auth/revoke-api-key.use-case';
import { IssueApiKey } from './admin/issue-api-key.use-case';
import { ShowApiKey } from './admin/show-api-key.use-case';
import { UpdateApiKey } from './admin/update-api-key.use-case';
import { RevokeKeyById } from './admin/revoke-key-by-id.use-case';
import { ListAudit } from './admin/list-audit.use-case';
import { KeyRevocation } from './shared/key-revocation';

/** Every use case, for registration as providers by the API and the CLI. */
export const USE_CASES = [
  KeyRevocation,
  AuthenticateApiKey,
  ValidateApiKey,
  RefreshApiKey,
  RevokeApiKey,
  IssueApiKey,
  ShowApiKey,
  UpdateApiKey,
  RevokeKeyById,
  ListAudit,
] as const;
