import { ApiPropertyOptional } from '@nestjs/swagger';
import { ListAudit, ListKeys, ListNearQuota, ReportDailyUsage } from '@svc/application';
import { AUDIT_ACTIONS, AuditAction, KEY_STATUSES, KeyStatus, LICENSE_TYPES, LicenseType } from '@svc/domain';
import { IsPlainText } from '@svc/presentation';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { LICENSE_TYPE_RULE } from './key-rules';

/**
 * The query strings of the console's reads (CONTRACT 17). A parameter given
 * twice is not a string and fails its rule; unknown parameters are ignored.
 * Fields are declared in the order their rules are judged.
 */

const limitRule = (max: number) => ({ message: `limit must be an integer from 1 to ${max}` });

/** A page size within 1..max, as the text of the query string; undefined when absent. */
export function pageLimitOf(text: string | undefined): number | undefined {
  return text === undefined ? undefined : Number(text);
}

export function IsPageLimit(max: number): PropertyDecorator {
  return (target, property) => {
    IsString(limitRule(max))(target, property);
    IsIn(
      Array.from({ length: max }, (_, i) => String(i + 1)),
      limitRule(max),
    )(target, property);
  };
}

const CURSOR_RULE = { message: 'cursor must be the next_cursor of an earlier page' };
const ID_RULE = (field: string) => ({ message: `${field} must be an id` });

/** GET /admin/v1/keys */
export class ListKeysQuery {
  @ApiPropertyOptional({ type: String, description: "The holder's e-mail address, in any case (Ada@Example.org finds ada@example.org)" })
  @IsOptional()
  @IsString({ message: 'email must be given once' })
  @MaxLength(254, { message: 'email must be at most 254 characters' })
  @IsPlainText('email')
  readonly email?: string;

  @ApiPropertyOptional({ type: String, description: "The start of the holder's e-mail address, in any case", example: 'ada@' })
  @IsOptional()
  @IsString({ message: 'email_prefix must be given once' })
  @MaxLength(254, { message: 'email_prefix must be at most 254 characters' })
  @IsPlainText('email_prefix')
  readonly email_prefix?: string;

  @ApiPropertyOptional({
    type: String,
    description: "The start of the key's first 12 characters, e.g. svc_live_abc",
    example: 'svc_live_abc',
  })
  @IsOptional()
  @IsString({ message: 'prefix must be given once' })
  @Matches(/^[A-Za-z0-9_]{1,12}$/, { message: 'prefix must be 1 to 12 letters, digits or underscores (the start of a key)' })
  readonly prefix?: string;

  @ApiPropertyOptional({ type: String })
  @IsOptional()
  @IsString(ID_RULE('user_id'))
  @MaxLength(40, ID_RULE('user_id'))
  @IsPlainText('user_id')
  readonly user_id?: string;

  @ApiPropertyOptional({ type: String, enum: [...LICENSE_TYPES] })
  @IsOptional()
  @IsIn(LICENSE_TYPES, LICENSE_TYPE_RULE)
  readonly license_type?: LicenseType;

  @ApiPropertyOptional({
    type: String,
    enum: [...KEY_STATUSES],
    description: 'The status now (expired: expires_at reached and not revoked)',
  })
  @IsOptional()
  @IsIn(KEY_STATUSES, { message: `status must be one of ${KEY_STATUSES.join(', ')}` })
  readonly status?: KeyStatus;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: ListKeys.MAX_LIMIT, default: ListKeys.DEFAULT_LIMIT })
  @IsOptional()
  @IsPageLimit(ListKeys.MAX_LIMIT)
  readonly limit?: string;

  @ApiPropertyOptional({ type: String, description: 'The next_cursor of the page before' })
  @IsOptional()
  @IsString(CURSOR_RULE)
  readonly cursor?: string;
}

/** GET /admin/v1/audit */
export class ListAuditQuery {
  @ApiPropertyOptional({ type: String, description: "Only this key's entries" })
  @IsOptional()
  @IsString(ID_RULE('key_id'))
  @MaxLength(40, ID_RULE('key_id'))
  @IsPlainText('key_id')
  readonly key_id?: string;

  @ApiPropertyOptional({ type: String, enum: [...AUDIT_ACTIONS] })
  @IsOptional()
  @IsIn(AUDIT_ACTIONS, { message: `action must be one of ${AUDIT_ACTIONS.join(', ')}` })
  readonly action?: AuditAction;

  @ApiPropertyOptional({ type: String, description: "Only this actor's entries: an operator_id (or a key_id, for a key's own calls)" })
  @IsOptional()
  @IsString(ID_RULE('actor'))
  @MaxLength(40, ID_RULE('actor'))
  @IsPlainText('actor')
  readonly actor?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: ListAudit.MAX_PAGE, default: ListAudit.DEFAULT_PAGE })
  @IsOptional()
  @IsPageLimit(ListAudit.MAX_PAGE)
  readonly limit?: string;

  @ApiPropertyOptional({ type: String, description: 'The next_cursor of the page before' })
  @IsOptional()
  @IsString(CURSOR_RULE)
  readonly cursor?: string;
}

const DAY_RULE = (field: string) => ({ message: `${field} must be a day, YYYY-MM-DD` });

/** GET /admin/v1/usage/near-quota */
export class NearQuotaQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: ListNearQuota.MAX_LIMIT, default: ListNearQuota.DEFAULT_LIMIT })
  @IsOptional()
  @IsPageLimit(ListNearQuota.MAX_LIMIT)
  readonly limit?: string;

  @ApiPropertyOptional({ type: String, description: 'The next_cursor of the page before' })
  @IsOptional()
  @IsString(CURSOR_RULE)
  readonly cursor?: string;
}

/** Either key_id or license_id: the license asked about (CONTRACT 16), by one of its keys or by its id. */
export class LicenseTargetQuery {
  @ApiPropertyOptional({ type: String, description: "One of the license's keys (give this or license_id)" })
  @IsOptional()
  @IsString(ID_RULE('key_id'))
  @MaxLength(40, ID_RULE('key_id'))
  @IsPlainText('key_id')
  readonly key_id?: string;

  @ApiPropertyOptional({ type: String, description: 'The license (give this or key_id)' })
  @IsOptional()
  @IsString(ID_RULE('license_id'))
  @MaxLength(40, ID_RULE('license_id'))
  @IsPlainText('license_id')
  readonly license_id?: string;
}

/** GET /admin/v1/usage/daily */
export class DailyUsageQuery extends LicenseTargetQuery {
  @ApiPropertyOptional({ type: String, format: 'date', description: 'First UTC day; default: the first day of the month of `to`' })
  @IsOptional()
  @IsString(DAY_RULE('from'))
  @Matches(/^\d{4}-\d{2}-\d{2}$/, DAY_RULE('from'))
  readonly from?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date',
    description: `Last UTC day, included; default: today. At most ${ReportDailyUsage.MAX_DAYS} days from \`from\``,
  })
  @IsOptional()
  @IsString(DAY_RULE('to'))
  @Matches(/^\d{4}-\d{2}-\d{2}$/, DAY_RULE('to'))
  readonly to?: string;
}
