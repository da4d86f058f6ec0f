import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AUDIT_ACTIONS, KEY_ENVIRONMENTS, LICENSE_TYPES } from '@svc/domain';
import { ActorResponse } from '../operators/operator.response';

/**
 * The JSON shapes of keys, shared by the HTTP API (these classes are its OpenAPI schemas) and the
 * CLI's `--json` output (SPEC 2.3, CONTRACT 12): snake case, RFC 3339 times to the second. Each
 * class is the one statement of its shape; the view functions of key-views.ts return them.
 */

/** An example key for the OpenAPI document. */
export const API_KEY_EXAMPLE = 'svc_live_0123456789abcdef0123456789abcdef0123456789abcdef';

const ENVIRONMENTS = [...KEY_ENVIRONMENTS];

/** SPEC 2.3. `monthly_limit` and `remaining` are null for an unlimited key. */
export class QuotaResponse {
  @ApiProperty({ type: 'integer', nullable: true, description: 'Inferences allowed per month; null: unlimited', example: 50000 })
  readonly monthly_limit!: number | null;

  @ApiProperty({ type: 'integer', description: 'Used in the current period', example: 1200 })
  readonly used!: number;

  @ApiProperty({ type: 'integer', nullable: true, description: 'monthly_limit minus used; null: unlimited', example: 48800 })
  readonly remaining!: number | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    description: 'End of the period: the first instant of the next month (UTC)',
    example: '2026-12-01T00:00:00Z',
  })
  readonly resets_at!: string;
}

/** POST /admin/v1/keys 201: the plaintext key, shown this once. */
export class IssuedKeyResponse {
  @ApiProperty({ type: String, example: 'key_3f1c9a0b7d2e4c5a8b6f0e1d' })
  readonly key_id!: string;

  @ApiProperty({ type: String, description: 'The plaintext key: shown this once, never again', example: API_KEY_EXAMPLE })
  readonly api_key!: string;

  @ApiProperty({ type: String })
  readonly user_id!: string;

  @ApiProperty({ type: String, enum: [...LICENSE_TYPES] })
  readonly license_type!: string;

  @ApiProperty({ type: String, enum: ENVIRONMENTS })
  readonly environment!: string;

  @ApiProperty({ type: String, format: 'date-time' })
  readonly expires_at!: string;

  @ApiProperty({ type: 'integer', nullable: true, description: 'null: unlimited' })
  readonly monthly_limit!: number | null;
}

/** GET, PATCH and revoke of /admin/v1/keys/{key_id}: never the whole key. */
/** A key's bounds for keys.update alone (CONTRACT 21). */
export class KeyUpdateBoundsResponse {
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      "The highest monthly limit: the higher of the tier's and the key's own. null: no ceiling (the tier or the key is unlimited already)",
  })
  readonly monthly_limit_max!: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      "The highest max_devices: the higher of the tier's and the license's current. null: no ceiling (the tier or the license is unlimited)",
  })
  readonly max_devices_max!: number | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    description: 'The latest expiry: the current one plus the default lifetime (365 days)',
  })
  readonly expires_at_max!: string;
}

export class KeyResponse {
  @ApiProperty({ type: String })
  readonly key_id!: string;

  @ApiProperty({ type: String })
  readonly user_id!: string;

  @ApiProperty({ type: String })
  readonly email!: string;

  @ApiProperty({ type: String, description: "The key's first 12 characters", example: 'svc_live_012' })
  readonly prefix!: string;

  @ApiProperty({ type: String, enum: [...LICENSE_TYPES] })
  readonly license_type!: string;

  @ApiProperty({ type: String, enum: ENVIRONMENTS })
  readonly environment!: string;

  @ApiProperty({ type: String, enum: ['active', 'expired', 'revoked'] })
  readonly status!: string;

  @ApiProperty({ type: String, format: 'date-time' })
  readonly expires_at!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  readonly revoked_at!: string | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'null: unlimited' })
  readonly monthly_limit!: number | null;

  @ApiProperty({ type: String, enum: ['tier', 'override'] })
  readonly monthly_limit_source!: 'tier' | 'override';

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      "How many devices its license may have active (CONTRACT 23), shared by the keys a rotation chains: the license's override, else the tier's. null: unlimited",
  })
  readonly max_devices!: number | null;

  @ApiProperty({ type: String, enum: ['tier', 'override'], description: "Whether max_devices is the tier's or the license's override" })
  readonly max_devices_source!: 'tier' | 'override';

  @ApiProperty({ type: () => QuotaResponse, description: "The key's license's quota: shared by the keys a rotation chains" })
  readonly quota!: QuotaResponse;

  @ApiProperty({ type: String, description: 'The license (chain of rotated keys) the key belongs to: the id of its first key' })
  readonly license_id!: string;

  @ApiProperty({ type: String, nullable: true, description: 'The key this one replaced by rotation' })
  readonly rotated_from!: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The key that replaced this one by rotation' })
  readonly rotated_to!: string | null;

  @ApiProperty({
    type: () => KeyUpdateBoundsResponse,
    description:
      "How far keys.update alone (the support role) may move this key's terms; beyond them needs keys.raise_limit or keys.extend_expiry (admin)",
  })
  readonly update_bounds!: KeyUpdateBoundsResponse;
}

export class AuditEntryResponse {
  @ApiProperty({ type: String })
  readonly id!: string;

  @ApiProperty({ type: String, format: 'date-time' })
  readonly at!: string;

  @ApiProperty({ type: String, enum: [...AUDIT_ACTIONS] })
  readonly action!: string;

  @ApiProperty({ type: String, nullable: true })
  readonly key_id!: string | null;

  @ApiPropertyOptional({ type: String })
  readonly reason?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      'e.g. the provider and expiry of an installer token (never the token); for model.* actions the model, version, checksum and channel (api or cli)',
  })
  readonly details?: Readonly<Record<string, unknown>>;

  @ApiProperty({ type: () => ActorResponse, description: 'Who made the change (CONTRACT 21); never a token' })
  readonly actor!: ActorResponse;
}

const COUNTS = { type: 'object', additionalProperties: { type: 'integer' } } as const;

/** One of a license's latest events (CONTRACT 22). */
export class RecentEventResponse {
  @ApiProperty({ type: String, example: 'evt_3f1c9a0b7d2e4c5a8b6f0e1d' })
  readonly event_id!: string;

  @ApiProperty({ type: String, description: 'The key that sent it' })
  readonly key_id!: string;

  @ApiProperty({ type: String, enum: ['inference', 'model_load', 'error'] })
  readonly event_type!: string;

  @ApiProperty({ type: String, nullable: true })
  readonly model_name!: string | null;

  @ApiProperty({ type: String, format: 'date-time', description: "When the service received it (its quota is this period's)" })
  readonly received_at!: string;

  @ApiProperty({ type: String, format: 'date-time', description: 'When the SDK says it happened (its receipt when it did not say)' })
  readonly occurred_at!: string;

  @ApiProperty({ type: Boolean, description: 'Whether it came in a batch (POST /v1/analytics/batch)' })
  readonly batched!: boolean;
}

/** GET /admin/v1/usage. */
export class UsageReportResponse {
  @ApiProperty({ type: String })
  readonly key_id!: string;

  @ApiProperty({
    type: String,
    description:
      'The license of key_id (asked by license_id: its current key): `used` is its counter, shared by the keys a rotation chains (CONTRACT 16)',
  })
  readonly license_id!: string;

  @ApiProperty({ type: String, description: 'YYYY-MM', example: '2026-11' })
  readonly period!: string;

  @ApiProperty({ type: 'integer' })
  readonly used!: number;

  @ApiProperty({ type: 'integer', nullable: true })
  readonly monthly_limit!: number | null;

  @ApiProperty({ ...COUNTS, description: "Events by the license's key that sent them (key_id)" })
  readonly by_key!: Readonly<Record<string, number>>;

  @ApiProperty({ ...COUNTS, description: 'Events by event_type' })
  readonly by_event_type!: Readonly<Record<string, number>>;

  @ApiProperty({ ...COUNTS, description: 'Events by model_name' })
  readonly by_model!: Readonly<Record<string, number>>;

  @ApiProperty({ ...COUNTS, description: 'Events by outcome: success, failure, unreported' })
  readonly by_outcome!: Readonly<Record<string, number>>;

  @ApiProperty({
    type: () => [RecentEventResponse],
    description: "The license's latest events (at most 20, newest received first), whatever the period asked",
  })
  readonly recent_events!: RecentEventResponse[];
}
