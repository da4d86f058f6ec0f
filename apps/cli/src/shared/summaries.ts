import {
  type AuditEntryResponse,
  type IssuedKeyResponse,
  type KeyListResponse,
  type KeyResponse,
  type LicenseDeviceListResponse,
  type LicenseDeviceResponse,
  type OperatorResponse,
  type RotatedKeyResponse,
  type UsageReportResponse,
} from '@svc/presentation';

/** Short human-readable summaries of the admin API's views. Never the key itself (but for issuance). */

export function issuedKeySummary(view: IssuedKeyResponse): string {
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

export function keySummary(view: KeyResponse): string {
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
    `  max_devices    ${limitText(view.max_devices)} (${view.max_devices_source}, the license's)`,
    `  quota          ${q.used} used, ${q.remaining === null ? 'no limit' : `${q.remaining} remaining`}, resets ${q.resets_at} (license ${view.license_id})`,
    `  rotated_from   ${view.rotated_from ?? '-'}`,
    `  rotated_to     ${view.rotated_to ?? '-'}`,
  ].join('\n');
}

/** A page of keys as a table, one key a line, and the `--cursor` of the next page when there is one. */
export function keyListSummary(view: KeyListResponse): string {
  const more = view.next_cursor === null ? [] : ['', `More keys: run again with --cursor ${view.next_cursor}`];
  if (view.keys.length === 0) return ['No keys.', ...more].join('\n');
  const rows = view.keys.map((k) => [
    k.key_id,
    k.email,
    k.license_type,
    k.environment,
    k.status,
    `${k.prefix}…`,
    k.created_at,
    k.expires_at,
    `${limitText(k.monthly_limit)}${k.monthly_limit_source === 'override' ? ' (override)' : ''}`,
  ]);
  return [...textTable(['KEY_ID', 'EMAIL', 'TIER', 'ENV', 'STATUS', 'PREFIX', 'CREATED', 'EXPIRES', 'MONTHLY_LIMIT'], rows), ...more].join(
    '\n',
  );
}

/** Columns padded to their widest cell, two spaces apart, no trailing blanks. */
function textTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string[] {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  return [header, ...rows].map((cells) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]))
      .join('  ')
      .trimEnd(),
  );
}

export function rotatedKeySummary(view: RotatedKeyResponse): string {
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

/** An audit entry's actor in a few words: `operator:Ada (opr_…)`, `bootstrap`, `key:key_…`, `cli:alice`, `system`. */
function actorLabel(actor: AuditEntryResponse['actor']): string {
  switch (actor.type) {
    case 'operator':
      return `operator:${actor.name} (${actor.operator_id})`;
    case 'key':
      return `key:${actor.key_id}`;
    case 'cli':
      return `cli:${actor.user}`;
    default:
      return actor.type;
  }
}

export function auditSummary(entries: readonly AuditEntryResponse[]): string {
  if (entries.length === 0) return 'No audit entries.';
  return entries
    .map((e) =>
      [
        e.at,
        e.action.padEnd(22),
        e.key_id ?? '-',
        `by=${actorLabel(e.actor)}`,
        e.reason !== undefined ? `reason=${JSON.stringify(e.reason)}` : '',
        e.details ? JSON.stringify(e.details) : '',
      ]
        .filter((part) => part !== '')
        .join('  '),
    )
    .join('\n');
}

export function usageSummary(view: UsageReportResponse): string {
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
    '  recent events (received, occurred, how):',
    ...(view.recent_events.length === 0
      ? ['    (none)']
      : view.recent_events.map(
          (e) =>
            `    ${e.received_at}  ${e.occurred_at}  ${e.batched ? 'batch' : 'log  '}  ${e.event_type.padEnd(10)}  ${e.model_name ?? '-'}  ${e.key_id}`,
        )),
  ].join('\n');
}

function limitText(limit: number | null): string {
  return limit === null ? 'unlimited' : String(limit);
}

/** One line per operator: id, role, name, e-mail, state and last use; never a token. */
export function operatorSummary(view: OperatorResponse): string {
  const state = view.disabled_at === null ? 'enabled' : `disabled since ${view.disabled_at}`;
  return `${view.operator_id}  ${view.role.padEnd(7)}  ${view.name}${view.email ? ` <${view.email}>` : ''}  (${state}; last used ${view.last_used_at ?? 'never'})`;
}

/** The token of a new operator or a replaced token: printed this once. */
export function tokenNotice(token: string): string {
  return `Token (shown this once, keep it secret): ${token}`;
}

/** A license's devices as a table, one device a line (never a fingerprint). */
export function deviceListSummary(view: LicenseDeviceListResponse): string {
  const head = `License ${view.license_id} (key ${view.key_id}): ${view.active} active device${view.active === 1 ? '' : 's'}`;
  if (view.devices.length === 0) return [head, 'No devices.'].join('\n');
  const rows = view.devices.map((d) => [
    d.device_id,
    d.name ?? '-',
    d.platform ?? '-',
    d.deactivation_reason === null ? d.status : `${d.status} (${d.deactivation_reason})`,
    d.activated_at,
    d.last_seen_at,
    d.lease_expires_at ?? '-',
  ]);
  return [head, ...textTable(['DEVICE_ID', 'NAME', 'PLATFORM', 'STATUS', 'ACTIVATED', 'LAST_SEEN', 'LEASE_EXPIRES'], rows)].join('\n');
}

export function deactivatedDeviceSummary(view: LicenseDeviceResponse): string {
  return `Device ${view.device_id} (${view.name ?? 'unnamed'}) deactivated at ${view.deactivated_at ?? '-'} (${view.deactivation_reason ?? '-'})`;
}
