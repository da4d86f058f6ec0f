import { ApiProperty } from '@nestjs/swagger';
import { DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES } from '@svc/domain';

/** A webhook endpoint (CONTRACT 20): never a secret. */
export class WebhookEndpointResponse {
  @ApiProperty({ type: String, example: 'whe_5f2c0e1d9a7b3c4d5e6f7a8b' })
  readonly id!: string;

  @ApiProperty({
    type: String,
    description: 'The address; to a role below admin, each query value shows as *** (?token=***), as do a fragment and a user or password',
  })
  readonly url!: string;

  @ApiProperty({ type: String, isArray: true, enum: [...WEBHOOK_EVENT_TYPES] })
  readonly events!: readonly string[];

  @ApiProperty({ type: String, nullable: true })
  readonly description!: string | null;

  @ApiProperty({ type: Boolean })
  readonly enabled!: boolean;

  @ApiProperty({ type: String, nullable: true, description: 'Why the service disabled it (every delivery failed for 5 days)' })
  readonly disabled_reason!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'The first failure since the last success' })
  readonly failing_since!: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Until when the replaced secret still signs beside the new one',
  })
  readonly previous_secret_expires_at!: string | null;

  @ApiProperty({ type: String, format: 'date-time' })
  readonly created_at!: string;

  @ApiProperty({ type: String, format: 'date-time' })
  readonly updated_at!: string;
}

export class WebhookEndpointWithSecretResponse extends WebhookEndpointResponse {
  @ApiProperty({
    type: String,
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'The signing secret (Standard Webhooks), shown this once',
  })
  readonly secret!: string;
}

export class WebhookEndpointListResponse {
  @ApiProperty({ type: () => WebhookEndpointResponse, isArray: true, description: 'Oldest first' })
  readonly webhooks!: WebhookEndpointResponse[];
}

export class WebhookDeliveryResponse {
  @ApiProperty({ type: String, example: 'msg_5f2c0e1d9a7b3c4d5e6f7a8b', description: 'The webhook-id header of every attempt' })
  readonly id!: string;

  @ApiProperty({ type: String, enum: [...WEBHOOK_EVENT_TYPES, 'webhook.test'] })
  readonly event_type!: string;

  @ApiProperty({ type: String, nullable: true })
  readonly event_id!: string | null;

  @ApiProperty({ type: String, enum: [...DELIVERY_STATUSES] })
  readonly status!: string;

  @ApiProperty({ type: 'integer' })
  readonly attempts!: number;

  @ApiProperty({ type: 'integer', nullable: true })
  readonly last_status_code!: number | null;

  @ApiProperty({ type: String, nullable: true })
  readonly last_error!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  readonly last_attempt_at!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it is tried next (pending only)' })
  readonly next_attempt_at!: string | null;

  @ApiProperty({ type: String, format: 'date-time' })
  readonly created_at!: string;
}

export class WebhookDeliveryPageResponse {
  @ApiProperty({ type: () => WebhookDeliveryResponse, isArray: true, description: 'Newest first' })
  readonly deliveries!: WebhookDeliveryResponse[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as cursor for the next page; null on the last' })
  readonly next_cursor!: string | null;
}
