import { type ApiKey, type KeyStatus, type LicenseType } from '@svc/domain';

/** Where a page of keys ended: the last key's creation time and id (the list's order). */
export interface KeyPosition {
  readonly createdAt: Date;
  readonly id: string;
}

/** What an operator searches keys by; every filter given must hold. */
export interface KeySearch {
  /** The holder's e-mail address, in its search form (emailSearchForm: any case matches). */
  readonly email?: string;
  /** The start of the holder's e-mail address, in its search form. */
  readonly emailPrefix?: string;
  /** The start of the key's display prefix (its first 12 characters). */
  readonly prefix?: string;
  readonly userId?: string;
  readonly licenseType?: LicenseType;
  /** The key's status at `at` (ApiKey.statusAt). */
  readonly status?: KeyStatus;
  readonly at: Date;
  /** Only keys after this one in the list's order (created earlier, or at the same time with a smaller id). */
  readonly after?: KeyPosition;
  readonly limit: number;
}

/** A key with its holder's e-mail address. */
export interface KeyListing {
  readonly key: ApiKey;
  readonly email: string;
}

/** How many keys of one tier are in one status. */
export interface TierStatusCount {
  readonly licenseType: LicenseType;
  readonly status: KeyStatus;
  readonly count: number;
}

export interface NearQuotaQuery {
  /** The billing period, `YYYY-MM`. */
  readonly period: string;
  /** Each tier's monthly limit (null: unlimited), for keys that follow their tier. */
  readonly tierLimits: Readonly<Record<LicenseType, number | null>>;
  /** Keys whose use is at least this percentage of their limit. */
  readonly atLeastPercent: number;
  /** Only keys after this one in the list's order (a smaller share, or the same share and a greater key id). */
  readonly after?: NearQuotaPosition;
  readonly limit: number;
}

/** Where a page of keys near their quota ended: the last key's use, limit and id (the list's order). */
export interface NearQuotaPosition {
  readonly used: number;
  readonly monthlyLimit: number;
  readonly keyId: string;
}

/** A key's use this period against its limit in force (never unlimited, never 0). */
export interface KeyUsage extends KeyListing {
  readonly used: number;
  readonly monthlyLimit: number;
}

/**
 * The operators' reads across many keys (the console's lists and overview,
 * CONTRACT 17): a query port, bound by each database's module next to the
 * key repository. Answers are sized by `limit`, never by the number of keys.
 */
export abstract class KeyDirectory {
  /** Keys matching the search, newest first (created_at, then id, descending), at most `limit`. */
  abstract search(query: KeySearch): Promise<KeyListing[]>;

  /** Every key counted by tier and status at `at` (pairs without keys absent). */
  abstract countByTierAndStatus(at: Date): Promise<TierStatusCount[]>;

  /**
   * Keys that used something this period and at least `atLeastPercent` of
   * their limit in force (override, else the tier's; unlimited and 0 never),
   * highest share first (ties by key id), at most `limit`.
   */
  abstract nearQuota(query: NearQuotaQuery): Promise<KeyUsage[]>;
}
