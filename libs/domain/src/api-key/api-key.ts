import { type LicenseType } from '../license/license-type';
import { type TierCatalog } from '../license/tier-catalog';
import { type KeyEnvironment } from './api-key-format';
import { InvalidRequestError } from '../shared/domain-error';

/** A key's states at an instant (statusAt). */
export const KEY_STATUSES = ['active', 'expired', 'revoked'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];

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

/** What an operator asks for: `"tier"` follows the tier, `null` is unlimited, an integer overrides. */
export type MonthlyLimitChoice = number | null | 'tier';

/** An override is a whole number of events in this range (a safe integer >= 0). */
export const MONTHLY_LIMIT_BOUNDS = Object.freeze({ min: 0, max: Number.MAX_SAFE_INTEGER });

/** True for a number an override may be: a safe integer >= 0. */
export function isMonthlyLimit(value: number): boolean {
  return Number.isSafeInteger(value) && value >= MONTHLY_LIMIT_BOUNDS.min && value <= MONTHLY_LIMIT_BOUNDS.max;
}

/**
 * The setting an operator's choice makes: omitted (`undefined`) or `"tier"`
 * follows the tier, `null` is unlimited, an integer >= 0 overrides. A number
 * that is not a limit (negative, fractional, unsafe, NaN) makes none: `undefined`.
 */
export function monthlyLimitSettingOf(choice: MonthlyLimitChoice | undefined): MonthlyLimitSetting | undefined {
  if (choice === undefined || choice === 'tier') return { source: 'tier' };
  if (choice === null) return { source: 'override', limit: null };
  return isMonthlyLimit(choice) ? { source: 'override', limit: choice } : undefined;
}

/** The most characters of a revocation reason kept for audit. */
export const MAX_REVOCATION_REASON_LENGTH = 1000;

/** The rule a revocation's reason follows. */
export const REVOCATION_REASON_RULE = `reason must be a string of at most ${MAX_REVOCATION_REASON_LENGTH} characters`;

/** A revocation's reason (none, or at most MAX_REVOCATION_REASON_LENGTH characters); INVALID_REQUEST otherwise. */
export function revocationReasonOf(reason: string | null): string | null {
  if (reason !== null && (typeof reason !== 'string' || reason.length > MAX_REVOCATION_REASON_LENGTH)) {
    throw new InvalidRequestError(REVOCATION_REASON_RULE);
  }
  return reason;
}

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
  /**
   * The license the key belongs to: the chain of keys made by rotation
   * (CONTRACT 16). Its id is the first key's id; quota is counted per license.
   */
  readonly licenseId: string;
  /** The key this one replaced by rotation, or null. */
  readonly rotatedFrom: string | null;
  /** The key that replaced this one by rotation, or null while it is the license's current key. */
  readonly rotatedTo: string | null;
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
  get licenseId(): string {
    return this.props.licenseId;
  }
  get rotatedTo(): string | null {
    return this.props.rotatedTo;
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
