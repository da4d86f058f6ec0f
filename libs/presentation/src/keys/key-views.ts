import type { IssueApiKeyOutput, KeyDetails, RotatedKey } from '@svc/application';
import { type AuditEntry, type Quota, actorFieldsOf, toSecondTimestamp } from '@svc/domain';
import type { AuditEntryResponse, IssuedKeyResponse, KeyResponse, QuotaResponse } from './key.response';
import type { RotatedKeyResponse } from './rotated-key.response';

/** Keys, quotas, rotations and audit entries as their response classes (key.response.ts), for the API and the CLI's `--json`. */

export function quotaViewOf(quota: Quota): QuotaResponse {
  return {
    monthly_limit: quota.monthlyLimit,
    used: quota.used,
    remaining: quota.remaining,
    resets_at: toSecondTimestamp(quota.period.resetsAt),
  };
}

export function issuedKeyViewOf(issued: IssueApiKeyOutput): IssuedKeyResponse {
  return {
    key_id: issued.key.id,
    api_key: issued.secret,
    user_id: issued.user.id,
    license_type: issued.key.licenseType,
    environment: issued.key.props.environment,
    expires_at: toSecondTimestamp(issued.key.expiresAt),
    monthly_limit: issued.monthlyLimit,
  };
}

export function keyViewOf(details: KeyDetails): KeyResponse {
  const p = details.key.props;
  return {
    key_id: p.id,
    user_id: p.userId,
    email: details.user.email,
    prefix: p.displayPrefix,
    license_type: p.licenseType,
    environment: p.environment,
    status: details.status,
    expires_at: toSecondTimestamp(p.expiresAt),
    revoked_at: p.revokedAt ? toSecondTimestamp(p.revokedAt) : null,
    monthly_limit: details.quota.monthlyLimit,
    monthly_limit_source: p.monthlyLimit.source,
    max_devices: details.maxDevices.value,
    max_devices_source: details.maxDevices.source,
    quota: quotaViewOf(details.quota),
    license_id: p.licenseId,
    rotated_from: p.rotatedFrom,
    rotated_to: p.rotatedTo,
    update_bounds: {
      monthly_limit_max: details.bounds.monthlyLimitMax,
      max_devices_max: details.bounds.maxDevicesMax,
      expires_at_max: toSecondTimestamp(details.bounds.expiresAtMax),
    },
  };
}

export function rotatedKeyViewOf(rotated: RotatedKey): RotatedKeyResponse {
  const stopsAt = toSecondTimestamp(rotated.previousKeyExpiresAt);
  return {
    api_key: rotated.secret,
    key_id: rotated.key.id,
    expires_at: toSecondTimestamp(rotated.key.expiresAt),
    previous_key_expires_at: stopsAt,
    message:
      rotated.graceSeconds === 0
        ? 'API key rotated: store the new key; the previous key is revoked'
        : `API key rotated: store the new key; the previous key works until ${stopsAt}`,
  };
}

export function auditEntryViewOf(entry: AuditEntry): AuditEntryResponse {
  return {
    id: entry.id,
    at: entry.at.toISOString(),
    action: entry.action,
    key_id: entry.keyId,
    ...(entry.reason !== null ? { reason: entry.reason } : {}),
    ...(entry.details !== null ? { details: entry.details } : {}),
    actor: actorFieldsOf(entry.actor),
  };
}
