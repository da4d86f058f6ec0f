import { LicenseType } from '../license/license-type';
import { TierCatalog } from '../license/tier-catalog';
import { KeyEnvironment } from './api-key-format';

export type KeyStatus = 'active' | 'expired' | 'revoked';

/** The outcome of checking a stored key at a moment (STYLE: a verdict, not an exception). */
export type KeyVerdict = { readonly ok: true } | { readonly ok: false; readonly reason: 'REVOKED' | 'EXPIRED' };

/**
 * The monthly limit as the operator set it: the tier's (follows tier changes),
 * or an override (an integer, or null for unlimited).
 */
export type MonthlyLimitSetting = { readonly source: 'tier' } | { readonly source: 'override'; readonly limit: number | null };

/** A key issued without an explicit expiry lives this long (CONTRACT 1). */
export const DEFAULT_KEY_LIFETIME_DAYS = 365;

export function defaultExpiryFrom(issuedAt: Date): Date {
  return new Date(issuedAt.getTime() + DEFAULT_KEY_LIFETIME_DAYS * 86_400_000);
}

/**
 * Reads an operator's monthly limit: `undefined` or `"tier"` follows the tier,
 * `null` is unlimited, an integer >= 0 overrides. Anything else is invalid: `undefined`.
 */
export function monthlyLimitSettingOf(value: unknown): MonthlyLimitSetting | undefined {
  if (value === undefined || value === 'tier') return { source: 'tier' };
  if (value === null) return { source: 'override', limit: null };
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return { source: 'override', limit: value };
  return undefined;
}

/** The most characters of a revocation reason kept for audit. */
export const MAX_REVOCATION_REASON_LENGTH = 1000;

export interface ApiKeyProps {
  readonly id: string;
  readonly userId: string;
  readonly digest: string;
  readonly displayPrefix: string;
  readonly environment: KeyEnvironment;
  readonly licenseType: LicenseType;
  readonly expiresAt: Date;
  readonly revokedAt: Date | null;
  readonly monthlyLimit: MonthlyLimitSetting;
  readonly createdAt: Date;
}

/** An issued API key, known only by its digest. */
export class ApiKey {
  constructor(readonly props: ApiKeyProps) {}

  get id(): string {
    return this.props.id;
  }
  get userId(): string {
    return this.props.userId;
  }
  get licenseType(): LicenseType {
    return this.props.licenseType;
  }
  get expiresAt(): Date {
    return this.props.expiresAt;
  }
  get revokedAt(): Date | null {
    return this.props.revokedAt;
  }

  /** Revoked wins over expired; a key expires the instant `now` reaches `expires_at`. */
  statusAt(now: Date): KeyStatus {
    if (this.props.revokedAt) return 'revoked';
    if (now.getTime() >= this.props.expiresAt.getTime()) return 'expired';
    return 'active';
  }

  verify(now: Date): KeyVerdict {
    const status = this.statusAt(now);
    if (status === 'revoked') return { ok: false, reason: 'REVOKED' };
    if (status === 'expired') return { ok: false, reason: 'EXPIRED' };
    return { ok: true };
  }

  /** The limit in force: the override if any, else the tier's (`null`: unlimited). */
  monthlyLimitUnder(catalog: TierCatalog): number | null {
    const setting = this.props.monthlyLimit;
    return setting.source === 'override' ? setting.limit : catalog.monthlyLimitOf(this.props.licenseType);
  }

  with(changes: Partial<Pick<ApiKeyProps, 'licenseType' | 'expiresAt' | 'monthlyLimit'>>): ApiKey {
    return new ApiKey({ ...this.props, ...changes });
  }
}
