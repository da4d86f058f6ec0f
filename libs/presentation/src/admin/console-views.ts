import type { DailyUsageReport, KeyPage, KeyUsage, LicenseKey, ListedKey, NearQuotaPage, Overview, UsageReport } from '@svc/application';
import { type AuditEntry, type RecentEvent, toSecondTimestamp } from '@svc/domain';
import { type RecentEventResponse, type UsageReportResponse } from '../keys/key.response';
import { auditEntryViewOf } from '../keys/key-views';
import type {
  AuditPageResponse,
  DailyUsageResponse,
  KeyListResponse,
  LicenseKeyResponse,
  ListedKeyResponse,
  NearQuotaPageResponse,
  NearQuotaResponse,
  OverviewResponse,
} from './console.response';
import { encodeCursor, encodeNearQuotaCursor } from './page-cursor';

/**
 * The operators' console reads (CONTRACT 17) as their response classes (console.response.ts):
 * snake case, RFC 3339 times to the second, never a key or its digest.
 */

export function listedKeyViewOf(listed: ListedKey): ListedKeyResponse {
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

export function keyListViewOf(page: KeyPage): KeyListResponse {
  return {
    keys: page.keys.map(listedKeyViewOf),
    next_cursor: page.next === null ? null : encodeCursor('keys', { at: page.next.createdAt, id: page.next.id }),
  };
}

export function auditPageViewOf(page: { entries: readonly AuditEntry[]; next: { at: Date; id: string } | null }): AuditPageResponse {
  return { entries: page.entries.map(auditEntryViewOf), next_cursor: page.next === null ? null : encodeCursor('audit', page.next) };
}

export function licenseKeyViewOf(entry: LicenseKey): LicenseKeyResponse {
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

export function dailyUsageViewOf(report: DailyUsageReport): DailyUsageResponse {
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
    recent_events: report.recentEvents.map(recentEventViewOf),
  };
}

export function nearQuotaViewOf(usage: KeyUsage): NearQuotaResponse {
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

export function nearQuotaPageViewOf(page: NearQuotaPage): NearQuotaPageResponse {
  return { keys: page.keys.map(nearQuotaViewOf), next_cursor: page.next === null ? null : encodeNearQuotaCursor(page.next) };
}

export function overviewViewOf(overview: Overview): OverviewResponse {
  return {
    keys_by_tier: overview.keysByTier,
    keys_by_status: overview.keysByStatus,
    events_per_day: overview.eventsPerDay.map((d) => ({ date: d.date, events: d.events })),
    near_quota: overview.nearQuota.map(nearQuotaViewOf),
    recent_audit: overview.recentAudit.map(auditEntryViewOf),
    active_devices: overview.activeDevices,
  };
}

export function usageReportViewOf(report: UsageReport): UsageReportResponse {
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
    recent_events: report.recentEvents.map(recentEventViewOf),
  };
}

/** One of a license's latest events (CONTRACT 22): both times, and whether it came in a batch. */
export function recentEventViewOf(e: RecentEvent): RecentEventResponse {
  return {
    event_id: e.id,
    key_id: e.keyId,
    event_type: e.eventType,
    model_name: e.modelName,
    received_at: toSecondTimestamp(e.receivedAt),
    occurred_at: toSecondTimestamp(e.occurredAt),
    batched: e.batched,
  };
}
