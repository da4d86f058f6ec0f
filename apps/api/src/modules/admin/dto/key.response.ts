import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ActorView, AuditEntryView, IssuedKeyView, KeyView, UsageReportView } from '@svc/presentation';
import { AUDIT_ACTIONS, KEY_ENVIRONMENTS, LICENSE_TYPES } from '@svc/domain';
import { API_KEY_EXAMPLE } from '../../../shared/dto/key.request';
import { QuotaResponse } from '../../../shared/dto/license.response';

const ENVIRONMENTS = [...KEY_ENVIRONMENTS];

/** POST /admin/v1/keys 201: the plaintext key, shown this once. */
export class IssuedKeyResponse implements IssuedKeyView {
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
    type: String,
    format: 'date-time',
    description: 'The latest expiry: the current one plus the default lifetime (365 days)',
  })
  readonly expires_at_max!: string;
}

export class KeyResponse implements KeyView {
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

/** An audit entry's actor: `type` says which of the other fields are present. */
export class ActorResponse {
  @ApiProperty({ type: String, enum: ['operator', 'bootstrap', 'key', 'cli', 'system'] })
  readonly type!: string;

  @ApiPropertyOptional({ type: String, description: 'type operator' })
  readonly operator_id?: string;

  @ApiPropertyOptional({ type: String, description: "type operator: the operator's name" })
  readonly name?: string;

  @ApiPropertyOptional({ type: String, description: "type key: the key's own call (the SDK's revoke or rotate, an installer token)" })
  readonly key_id?: string;

  @ApiPropertyOptional({ type: String, description: 'type cli: the OS user who ran the CLI' })
  readonly user?: string;
}

export class AuditEntryResponse implements AuditEntryView {
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
  readonly actor!: ActorView;
}

const COUNTS = { type: 'object', additionalProperties: { type: 'integer' } } as const;

/** GET /admin/v1/usage. */
export class UsageReportResponse implements UsageReportView {
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
}
