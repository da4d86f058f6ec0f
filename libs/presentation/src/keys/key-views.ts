import type { IssueApiKeyOutput, KeyDetails, RotatedKey } from '@svc/application';
import { type AuditEntry, type Quota, toSecondTimestamp } from '@svc/domain';
import { type ActorView, actorViewOf } from '../operators/operator-views';

/**
 * The JSON shapes shared by the HTTP API and the CLI's `--json` output
 * (SPEC 2.3, CONTRACT 12). Snake case, RFC 3339 times to the second.
 */
export interface QuotaView {
  readonly monthly_limit: number | null;
  readonly used: number;
  readonly remaining: number | null;
  readonly resets_at: string;
}

export function quotaViewOf(quota: Quota): QuotaView {
  return {
    monthly_limit: quota.monthlyLimit,
    used: quota.used,
    remaining: quota.remaining,
    resets_at: toSecondTimestamp(quota.period.resetsAt),
  };
}

export interface IssuedKeyView {
  readonly key_id: string;
  /** The plaintext key, shown this once. */
  readonly api_key: string;
  readonly user_id: string;
  readonly license_type: string;
  readonly environment: string;
  readonly expires_at: string;
  readonly monthly_limit: number | null;
}

export function issuedKeyViewOf(issued: IssueApiKeyOutput): IssuedKeyView {
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

export interface KeyView {
  readonly key_id: string;
  readonly user_id: string;
  readonly email: string;
  readonly prefix: string;
  readonly license_type: string;
  readonly environment: string;
  readonly status: string;
  readonly expires_at: string;
  readonly revoked_at: string | null;
  readonly monthly_limit: number | null;
  readonly monthly_limit_source: 'tier' | 'override';
  readonly quota: QuotaView;
  /** The license (chain of rotated keys) whose quota this is (CONTRACT 16). */
  readonly license_id: string;
  /** The key this one replaced by rotation, or null. */
  readonly rotated_from: string | null;
  /** The key that replaced this one by rotation, or null. */
  readonly rotated_to: string | null;
  /** How far keys.update alone (support) may move the terms; beyond needs admin (keys.raise_limit, keys.extend_expiry). */
  readonly update_bounds: {
    /** The highest monthly limit; null: no ceiling (the tier or the key is unlimited: any limit, unlimited too). */
    readonly monthly_limit_max: number | null;
    readonly expires_at_max: string;
  };
}

export function keyViewOf(details: KeyDetails): KeyView {
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
    quota: quotaViewOf(details.quota),
    license_id: p.licenseId,
    rotated_from: p.rotatedFrom,
    rotated_to: p.rotatedTo,
    update_bounds: {
      monthly_limit_max: details.bounds.monthlyLimitMax,
      expires_at_max: toSecondTimestamp(details.bounds.expiresAtMax),
    },
  };
}

/** The answer of a rotation (CONTRACT 16), by the holder or an operator: the new key, shown this once. */
export interface RotatedKeyView {
  /** The new plaintext key, shown this once. */
  readonly api_key: string;
  readonly key_id: string;
  readonly expires_at: string;
  /** When the old key stops working (its grace ends; now when revoked at once). */
  readonly previous_key_expires_at: string;
  readonly message: string;
}

export function rotatedKeyViewOf(rotated: RotatedKey): RotatedKeyView {
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

export interface AuditEntryView {
  readonly id: string;
  readonly at: string;
  readonly action: string;
  readonly key_id: string | null;
  readonly reason?: string;
  readonly details?: Readonly<Record<string, unknown>>;
  readonly actor: ActorView;
}

export function auditEntryViewOf(entry: AuditEntry): AuditEntryView {
  return {
    id: entry.id,
    at: entry.at.toISOString(),
    action: entry.action,
    key_id: entry.keyId,
    ...(entry.reason !== null ? { reason: entry.reason } : {}),
    ...(entry.details !== null ? { details: entry.details } : {}),
    actor: actorViewOf(entry.actor),
  };
}
