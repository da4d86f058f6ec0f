import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RecordEventOutput } from '@svc/application';

/** SPEC 4.5: the reduced quota carries only `used` and `remaining` (null when unlimited). */
export class ReducedQuotaResponse {
  @ApiProperty({ type: 'integer', example: 1201 })
  readonly used!: number;

  @ApiProperty({ type: 'integer', nullable: true, description: 'null: unlimited', example: 48799 })
  readonly remaining!: number | null;
}

export class LogEventResponse {
  @ApiProperty({ type: Boolean, enum: [true], description: 'The event is stored before this answer leaves' })
  readonly logged!: true;

  @ApiProperty({ type: String, example: 'evt_3f1c9a0b7d2e4c5a8b6f0e1d' })
  readonly event_id!: string;

  @ApiPropertyOptional({
    type: Boolean,
    enum: [true],
    description:
      'Present on a repeat: the idempotency key names an event stored before, whose id this is; nothing was stored or ' +
      'consumed now, and the quota is the current one (CONTRACT 22)',
  })
  readonly duplicate?: true;

  @ApiProperty({ type: () => ReducedQuotaResponse })
  readonly quota!: ReducedQuotaResponse;
}

export function logEventResponseOf(output: RecordEventOutput): LogEventResponse {
  const quota = { used: output.quota.used, remaining: output.quota.remaining };
  return output.duplicate
    ? { logged: true, event_id: output.eventId, duplicate: true, quota }
    : { logged: true, event_id: output.eventId, quota };
}
