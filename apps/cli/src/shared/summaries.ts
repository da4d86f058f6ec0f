import { type AuditEntryView, type IssuedKeyView, type KeyView, type RotatedKeyView, type UsageReportView } from '@svc/presentation';

/** Short human-readable summaries of the admin API's views. Never the key itself (but for issuance). */

export function issuedKeySummary(view: IssuedKeyView): string {
  return [
    `Issued key ${view.key_id} for user ${view.user_id}`,
    `  license_type   ${view.license_type}`,
    `  environment    ${view.environment}`,
    `  expires_at     ${view.expires_at}`,
    `  monthly_limit  ${limitText(view.monthly_limit)}`,
    '',
    `  api_key        ${view.api_key}`,
    '',
    'The API key is shown this once: it is not stored and cannot be shown again. Hand it over now.',
  ].join('\n');
}

export function keySummary(view: KeyView): string {
  const q = view.quota;
  return [
    `Key ${view.key_id} (${view.status})`,
    `  user           ${view.user_id} <${view.email}>`,
    `  prefix         ${view.prefix}…`,
    `  license_type   ${view.license_type}`,
    `  environment    ${view.environment}`,
    `  expires_at     ${view.expires_at}`,
    `  revoked_at     ${view.revoked_at ?? '-'}`,
    `  monthly_limit  ${limitText(view.monthly_limit)} (${view.monthly_limit_source})`,
    `  quota          ${q.used} used, ${q.remaining === null ? 'no limit' : `${q.remaining} remaining`}, resets ${q.resets_at} (license ${view.license_id})`,
    `  rotated_from   ${view.rotated_from ?? '-'}`,
    `  rotated_to     ${view.rotated_to ?? '-'}`,
  ].join('\n');
}

export function rotatedKeySummary(view: RotatedKeyView): string {
  return [
    `Rotated: new key ${view.key_id}`,
    `  expires_at               ${view.expires_at}`,
    `  previous_key_expires_at  ${view.previous_key_expires_at}`,
    '',
    `  api_key                  ${view.api_key}`,
    '',
    view.message,
    'The new API key is shown this once: it is not stored and cannot be shown again. Hand it over now.',
  ].join('\n');
}

export function auditSummary(entries: readonly AuditEntryView[]): string {
  if (entries.length === 0) return 'No audit entries.';
  return entries
    .map((e) =>
      [
        e.at,
        e.action.padEnd(22),
        e.key_id ?? '-',
        e.reason !== undefined ? `reason=${JSON.stringify(e.reason)}` : '',
        e.details ? JSON.stringify(e.details) : '',
      ]
        .filter((part) => part !== '')
        .join('  '),
    )
    .join('\n');
}

export function usageSummary(view: UsageReportView): string {
  const counts = (c: Readonly<Record<string, number>>) =>
    Object.entries(c)
      .map(([name, n]) => `${name}=${n}`)
      .join(' ') || '-';
  return [
    `License ${view.license_id}, ${view.period}: ${view.used} of ${limitText(view.monthly_limit)} used`,
    '  by key:',
    ...(Object.keys(view.by_key).length === 0 ? ['    (no events)'] : Object.entries(view.by_key).map(([key, n]) => `    ${key}  ${n}`)),
    `  by event type  ${counts(view.by_event_type)}`,
    `  by model       ${counts(view.by_model)}`,
    `  by outcome     ${counts(view.by_outcome)}`,
  ].join('\n');
}

function limitText(limit: number | null): string {
  return limit === null ? 'unlimited' : String(limit);
}
