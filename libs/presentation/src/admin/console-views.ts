import type { DailyUsageReport, KeyPage, KeyUsage, LicenseKey, ListedKey, NearQuotaPage, Overview, UsageReport } from '@svc/application';
import { type AuditEntry, toSecondTimestamp } from '@svc/domain';
import { type AuditEntryView, auditEntryViewOf } from '../keys/key-views';
import { encodeCursor, encodeNearQuotaCursor } from './page-cursor';

/**
 * The JSON shapes of the operators' console reads (CONTRACT 17): snake case,
 * RFC 3339 times to the second, never a key or its digest.
 */
export interface ListedKeyView {
  readonly key_id: string;
  readonly user_id: string;
  readonly email: string;
  readonly prefix: string;
  readonly license_type: string;
  readonly environment: string;
  readonly status: string;
  readonly created_at: string;
  readonly expires_at: string;
  readonly revoked_at: string | null;
  readonly monthly_limit: number | null;
  readonly monthly_limit_source: 'tier' | 'override';
}

export interface KeyListView {
  readonly keys: readonly ListedKeyView[];
  readonly next_cursor: string | null;
}

export function listedKeyViewOf(listed: ListedKey): ListedKeyView {
  const p = listed.key.props;
  return {
    key_id: p.id,
    user_id: p.userId,
    email: listed.email,
    prefix: p.displayPrefix,
    license_type: p.licenseType,
    environment: p.environment,
    status: listed.status,
    created_at: toSecondTimestamp(p.createdAt),
    expires_at: toSecondTimestamp(p.expiresAt),
    revoked_at: p.revokedAt ? toSecondTimestamp(p.revokedAt) : null,
    monthly_limit: listed.monthlyLimit,
    monthly_limit_source: p.monthlyLimit.source,
  };
}

export function keyListViewOf(page: KeyPage): KeyListView {
  return {
    keys: page.keys.map(listedKeyViewOf),
    next_cursor: page.next === null ? null : encodeCursor('keys', { at: page.next.createdAt, id: page.next.id }),
  };
}

export interface AuditPageView {
  readonly entries: readonly AuditEntryView[];
  readonly next_cursor: string | null;
}

export function auditPageViewOf(page: { entries: readonly AuditEntry[]; next: { at: Date; id: string } | null }): AuditPageView {
  return { entries: page.entries.map(auditEntryViewOf), next_cursor: page.next === null ? null : encodeCursor('audit', page.next) };
}

/** One key of a license (the chain of rotations) and its status now; a rotated key's expires_at is the end of its grace. */
export interface LicenseKeyView {
  readonly key_id: string;
  readonly prefix: string;
  readonly status: string;
  readonly created_at: string;
  readonly expires_at: string;
  readonly revoked_at: string | null;
  readonly rotated_from: string | null;
  readonly rotated_to: string | null;
}

export function licenseKeyViewOf(entry: LicenseKey): LicenseKeyView {
  const p = entry.key.props;
  return {
    key_id: p.id,
    prefix: p.displayPrefix,
    status: entry.status,
    created_at: toSecondTimestamp(p.createdAt),
    expires_at: toSecondTimestamp(p.expiresAt),
    revoked_at: p.revokedAt ? toSecondTimestamp(p.revokedAt) : null,
    rotated_from: p.rotatedFrom,
    rotated_to: p.rotatedTo,
  };
}

export interface DailyUsageView {
  readonly license_id: string;
  readonly key_id: string | null;
  readonly keys: readonly LicenseKeyView[];
  readonly from: string;
  readonly to: string;
  readonly days: ReadonlyArray<{ readonly date: string; readonly inferences: number; readonly by_key: Readonly<Record<string, number>> }>;
  readonly by_key: Readonly<Record<string, number>>;
  readonly by_event_type: Readonly<Record<string, number>>;
  readonly by_model: Readonly<Record<string, number>>;
  readonly by_outcome: Readonly<Record<string, number>>;
}

export function dailyUsageViewOf(report: DailyUsageReport): DailyUsageView {
  return {
    license_id: report.licenseId,
    key_id: report.keyId,
    keys: report.keys.map(licenseKeyViewOf),
    from: report.from,
    to: report.to,
    days: report.days.map((d) => ({ date: d.date, inferences: d.inferences, by_key: d.byKey })),
    by_key: report.byKey,
    by_event_type: report.byEventType,
    by_model: report.byModel,
    by_outcome: report.byOutcome,
  };
}

export interface NearQuotaView {
  readonly key_id: string;
  readonly email: string;
  readonly prefix: string;
  readonly license_type: string;
  readonly used: number;
  readonly monthly_limit: number;
  /** used / monthly_limit × 100, to one decimal. */
  readonly percent: number;
}

export function nearQuotaViewOf(usage: KeyUsage): NearQuotaView {
  return {
    key_id: usage.key.id,
    email: usage.email,
    prefix: usage.key.props.displayPrefix,
    license_type: usage.key.licenseType,
    used: usage.used,
    monthly_limit: usage.monthlyLimit,
    percent: Math.floor((usage.used * 1000) / usage.monthlyLimit) / 10,
  };
}

export interface NearQuotaPageView {
  readonly keys: readonly NearQuotaView[];
  readonly next_cursor: string | null;
}

export function nearQuotaPageViewOf(page: NearQuotaPage): NearQuotaPageView {
  return { keys: page.keys.map(nearQuotaViewOf), next_cursor: page.next === null ? null : encodeNearQuotaCursor(page.next) };
}

export interface OverviewView {
  readonly keys_by_tier: Readonly<Record<string, number>>;
  readonly keys_by_status: Readonly<Record<string, number>>;
  readonly events_per_day: ReadonlyArray<{ readonly date: string; readonly events: number }>;
  readonly near_quota: readonly NearQuotaView[];
  readonly recent_audit: readonly AuditEntryView[];
}

export function overviewViewOf(overview: Overview): OverviewView {
  return {
    keys_by_tier: overview.keysByTier,
    keys_by_status: overview.keysByStatus,
    events_per_day: overview.eventsPerDay.map((d) => ({ date: d.date, events: d.events })),
    near_quota: overview.nearQuota.map(nearQuotaViewOf),
    recent_audit: overview.recentAudit.map(auditEntryViewOf),
  };
}

/** A license's usage in one period (GET /admin/v1/usage, CLI `usage show`): its counter, and which of its keys spent it. */
export interface UsageReportView {
  readonly key_id: string;
  readonly license_id: string;
  readonly period: string;
  readonly used: number;
  readonly monthly_limit: number | null;
  readonly by_key: Readonly<Record<string, number>>;
  readonly by_event_type: Readonly<Record<string, number>>;
  readonly by_model: Readonly<Record<string, number>>;
  readonly by_outcome: Readonly<Record<string, number>>;
}

export function usageReportViewOf(report: UsageReport): UsageReportView {
  return {
    key_id: report.keyId,
    license_id: report.licenseId,
    period: report.period,
    used: report.used,
    monthly_limit: report.monthlyLimit,
    by_key: report.byKey,
    by_event_type: report.byEventType,
    by_model: report.byModel,
    by_outcome: report.byOutcome,
  };
}
