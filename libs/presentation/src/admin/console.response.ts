import { ApiProperty, OmitType } from '@nestjs/swagger';
import { KEY_STATUSES, LICENSE_TYPES } from '@svc/domain';
import { AuditEntryResponse, KeyResponse, RecentEventResponse } from '../keys/key.response';

const COUNTS = { type: 'object', additionalProperties: { type: 'integer' } } as const;
const NEXT_CURSOR = { type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page' } as const;

/** One key of GET /admin/v1/keys: the key view without its quota and lineage; never the key, nor its digest. */
export class ListedKeyResponse extends OmitType(KeyResponse, [
  'quota',
  'max_devices',
  'max_devices_source',
  'license_id',
  'rotated_from',
  'rotated_to',
  'update_bounds',
] as const) {
  @ApiProperty({ type: String, format: 'date-time' })
  readonly created_at!: string;
}

export class KeyListResponse {
  @ApiProperty({ type: () => ListedKeyResponse, isArray: true, description: 'Newest first' })
  readonly keys!: ListedKeyResponse[];

  @ApiProperty(NEXT_CURSOR)
  readonly next_cursor!: string | null;
}

export class AuditPageResponse {
  @ApiProperty({ type: () => AuditEntryResponse, isArray: true, description: 'Newest first' })
  readonly entries!: AuditEntryResponse[];

  @ApiProperty(NEXT_CURSOR)
  readonly next_cursor!: string | null;
}

export class DailyInferencesResponse {
  @ApiProperty({ type: String, format: 'date', example: '2026-11-01' })
  readonly date!: string;

  @ApiProperty({ type: 'integer', description: "The license's inference events received that UTC day (every key of it)" })
  readonly inferences!: number;

  @ApiProperty({ ...COUNTS, description: "That day's inferences by the key that sent them (keys with none absent)" })
  readonly by_key!: Readonly<Record<string, number>>;
}

export class LicenseKeyResponse {
  @ApiProperty({ type: String })
  readonly key_id!: string;

  @ApiProperty({ type: String, example: 'svc_live_012' })
  readonly prefix!: string;

  @ApiProperty({ type: String, enum: [...KEY_STATUSES], description: 'The status now' })
  readonly status!: string;

  @ApiProperty({ type: String, format: 'date-time' })
  readonly created_at!: string;

  @ApiProperty({ type: String, format: 'date-time', description: 'For a rotated key: the end of its grace' })
  readonly expires_at!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  readonly revoked_at!: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The key this one replaced by rotation' })
  readonly rotated_from!: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The key that replaced this one by rotation' })
  readonly rotated_to!: string | null;
}

export class DailyUsageResponse {
  @ApiProperty({ type: String, description: 'The license (CONTRACT 16) whose usage this is' })
  readonly license_id!: string;

  @ApiProperty({ type: String, nullable: true, description: 'The key asked by (key_id); null when asked by license_id' })
  readonly key_id!: string | null;

  @ApiProperty({ type: () => LicenseKeyResponse, isArray: true, description: "The license's keys (the chain of rotations), oldest first" })
  readonly keys!: LicenseKeyResponse[];

  @ApiProperty({ type: String, format: 'date' })
  readonly from!: string;

  @ApiProperty({ type: String, format: 'date' })
  readonly to!: string;

  @ApiProperty({ type: () => DailyInferencesResponse, isArray: true, description: 'Every day from `from` to `to`, 0 where none' })
  readonly days!: DailyInferencesResponse[];

  @ApiProperty({ ...COUNTS, description: 'Events of the range by the key that sent them' })
  readonly by_key!: Readonly<Record<string, number>>;

  @ApiProperty({ ...COUNTS, description: 'Events of the range by event_type' })
  readonly by_event_type!: Readonly<Record<string, number>>;

  @ApiProperty({ ...COUNTS, description: 'Events of the range by model_name' })
  readonly by_model!: Readonly<Record<string, number>>;

  @ApiProperty({ ...COUNTS, description: 'Events of the range by outcome: success, failure, unreported' })
  readonly by_outcome!: Readonly<Record<string, number>>;

  @ApiProperty({
    type: () => [RecentEventResponse],
    description: "The license's latest events (at most 20, newest received first), whatever the range",
  })
  readonly recent_events!: RecentEventResponse[];
}

export class DailyEventsResponse {
  @ApiProperty({ type: String, format: 'date', example: '2026-11-01' })
  readonly date!: string;

  @ApiProperty({ type: 'integer', description: 'Events of every key received that UTC day' })
  readonly events!: number;
}

export class NearQuotaResponse {
  @ApiProperty({ type: String })
  readonly key_id!: string;

  @ApiProperty({ type: String })
  readonly email!: string;

  @ApiProperty({ type: String, example: 'svc_live_012' })
  readonly prefix!: string;

  @ApiProperty({ type: String, enum: [...LICENSE_TYPES] })
  readonly license_type!: string;

  @ApiProperty({ type: 'integer', description: 'Units used this period' })
  readonly used!: number;

  @ApiProperty({ type: 'integer', description: 'The limit in force' })
  readonly monthly_limit!: number;

  @ApiProperty({ type: Number, description: 'used / monthly_limit × 100, rounded down to one decimal', example: 87.5 })
  readonly percent!: number;
}

export class NearQuotaPageResponse {
  @ApiProperty({ type: () => NearQuotaResponse, isArray: true, description: 'Highest share first, ties by key_id' })
  readonly keys!: NearQuotaResponse[];

  @ApiProperty(NEXT_CURSOR)
  readonly next_cursor!: string | null;
}

export class OverviewResponse {
  @ApiProperty({ ...COUNTS, description: 'Keys by tier, every tier present' })
  readonly keys_by_tier!: Readonly<Record<string, number>>;

  @ApiProperty({ ...COUNTS, description: 'Keys by status now: active, expired, revoked' })
  readonly keys_by_status!: Readonly<Record<string, number>>;

  @ApiProperty({
    type: () => DailyEventsResponse,
    isArray: true,
    description: 'The last 30 UTC days, today included, oldest first, 0 where none',
  })
  readonly events_per_day!: DailyEventsResponse[];

  @ApiProperty({
    type: () => NearQuotaResponse,
    isArray: true,
    description:
      'Keys at or above 80% of their limit this period, highest first, at most 20 (all of them: GET /admin/v1/usage/near-quota); unlimited keys never',
  })
  readonly near_quota!: NearQuotaResponse[];

  @ApiProperty({ type: () => AuditEntryResponse, isArray: true, description: 'The latest 10 audit entries, newest first' })
  readonly recent_audit!: AuditEntryResponse[];

  @ApiProperty({
    type: 'integer',
    description: 'Devices of every license not deactivated (CONTRACT 23); a lapsed lease counts until it is marked lease_expired',
  })
  readonly active_devices!: number;
}
