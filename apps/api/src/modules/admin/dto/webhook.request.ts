import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DELIVERY_STATUSES, type DeliveryStatus, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@svc/domain';
import { IsPlainText } from '@svc/presentation';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { IsPageLimit } from './console.query';

const URL_RULE = { message: 'url must be an https:// URL of at most 2000 characters' };
const EVENTS_RULE = { message: `events must be a non-empty list of: ${WEBHOOK_EVENT_TYPES.join(', ')}` };
const DESCRIPTION_RULE = { message: 'description must be a string of at most 500 characters, or null' };

/** The most deliveries one page lists. */
export const MAX_DELIVERY_PAGE = 100;
export const DEFAULT_DELIVERY_PAGE = 20;

/** POST /admin/v1/webhooks (CONTRACT 20). */
export class CreateWebhookRequest {
  @ApiProperty({ type: String, maxLength: 2000, example: 'https://billing.example.com/hooks/svc' })
  @IsString(URL_RULE)
  @MaxLength(2000, URL_RULE)
  @IsPlainText('url')
  readonly url!: string;

  @ApiProperty({ type: String, isArray: true, enum: [...WEBHOOK_EVENT_TYPES], example: ['quota.warning', 'quota.exhausted'] })
  @IsArray(EVENTS_RULE)
  @ArrayMinSize(1, EVENTS_RULE)
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length * 2, EVENTS_RULE)
  @IsIn(WEBHOOK_EVENT_TYPES, { ...EVENTS_RULE, each: true })
  readonly events!: WebhookEventType[];

  @ApiPropertyOptional({ type: String, maxLength: 500, nullable: true, example: 'Billing: quota alerts' })
  @IsOptional()
  @IsString(DESCRIPTION_RULE)
  @MaxLength(500, DESCRIPTION_RULE)
  @IsPlainText('description')
  readonly description?: string | null;
}

/** PATCH /admin/v1/webhooks/{id}: any of the four; a field left out is left alone. */
export class UpdateWebhookRequest {
  @ApiPropertyOptional({ type: String, maxLength: 2000 })
  @ValidateIf((_, value) => value !== undefined)
  @IsString(URL_RULE)
  @MaxLength(2000, URL_RULE)
  @IsPlainText('url')
  readonly url?: string;

  @ApiPropertyOptional({ type: String, isArray: true, enum: [...WEBHOOK_EVENT_TYPES] })
  @ValidateIf((_, value) => value !== undefined)
  @IsArray(EVENTS_RULE)
  @ArrayMinSize(1, EVENTS_RULE)
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length * 2, EVENTS_RULE)
  @IsIn(WEBHOOK_EVENT_TYPES, { ...EVENTS_RULE, each: true })
  readonly events?: WebhookEventType[];

  @ApiPropertyOptional({ type: String, maxLength: 500, nullable: true })
  @IsOptional()
  @IsString(DESCRIPTION_RULE)
  @MaxLength(500, DESCRIPTION_RULE)
  @IsPlainText('description')
  readonly description?: string | null;

  @ApiPropertyOptional({
    type: Boolean,
    description: 'false stops deliveries to it; true starts them again (and clears its failing state)',
  })
  @ValidateIf((_, value) => value !== undefined)
  @IsBoolean({ message: 'enabled must be true or false' })
  readonly enabled?: boolean;
}

/** GET /admin/v1/webhooks/{id}/deliveries */
export class ListDeliveriesQuery {
  @ApiPropertyOptional({ type: String, enum: [...DELIVERY_STATUSES] })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES, { message: `status must be one of ${DELIVERY_STATUSES.join(', ')}` })
  readonly status?: DeliveryStatus;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_DELIVERY_PAGE, default: DEFAULT_DELIVERY_PAGE })
  @IsOptional()
  @IsPageLimit(MAX_DELIVERY_PAGE)
  readonly limit?: string;

  @ApiPropertyOptional({ type: String, description: 'The next_cursor of the page before' })
  @IsOptional()
  @IsString({ message: 'cursor must be the next_cursor of an earlier page' })
  readonly cursor?: string;
}
