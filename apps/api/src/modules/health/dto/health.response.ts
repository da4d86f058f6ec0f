import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** SPEC 4.7 / CONTRACT 10: the healthy body. */
export class HealthyResponse {
  @ApiProperty({ type: String, enum: ['healthy'] })
  readonly status!: 'healthy';

  @ApiProperty({ type: String, format: 'date-time' })
  readonly timestamp!: string;

  @ApiProperty({ type: String, description: 'The API version', example: 'v1' })
  readonly version!: string;

  @ApiProperty({ type: String, enum: ['connected'] })
  readonly database!: 'connected';
}

/** The database did not answer within a short timeout (503). */
export class UnhealthyResponse {
  @ApiProperty({ type: String, enum: ['unhealthy'] })
  readonly status!: 'unhealthy';

  @ApiProperty({ type: String, format: 'date-time' })
  readonly timestamp!: string;

  @ApiProperty({ type: String, example: 'Database is not reachable' })
  readonly error!: string;

  @ApiProperty({ type: String, enum: ['disconnected'] })
  readonly database!: 'disconnected';
}

/** Terminus's overall verdict: `ok` (200), `error` (an indicator is down, 503), `shutting_down` (the app is closing, 503). */
const PROBE_STATUS = { type: String, enum: ['ok', 'error', 'shutting_down'] } as const;

/** An indicator with nothing to report: liveness runs none (the process answering is the check). */
const NO_INDICATORS = { type: 'object', additionalProperties: false, example: {} } as const;

/** Liveness in terminus's shape, with no indicators: `{status: "ok", info: {}, error: {}, details: {}}`. */
export class LivenessResponse {
  @ApiProperty({ ...PROBE_STATUS, example: 'ok' })
  readonly status!: 'ok' | 'error' | 'shutting_down';

  @ApiProperty(NO_INDICATORS)
  readonly info!: Record<string, never>;

  @ApiProperty(NO_INDICATORS)
  readonly error!: Record<string, never>;

  @ApiProperty(NO_INDICATORS)
  readonly details!: Record<string, never>;
}

/** One terminus indicator: `up` or `down`, `message` when down. */
export class IndicatorStatus {
  @ApiProperty({ type: String, enum: ['up', 'down'] })
  readonly status!: 'up' | 'down';

  @ApiPropertyOptional({ type: String, example: 'Database is not reachable' })
  readonly message?: string;
}

/**
 * The rate-limit store. Always `up` (Redis down does not fail readiness);
 * `connection` says whether Redis answers, `rate_limits` where counts live.
 */
export class RedisIndicatorStatus {
  @ApiProperty({ type: String, enum: ['up'], description: 'Terminus verdict: the rate-limit store never holds readiness back' })
  readonly status!: 'up';

  @ApiProperty({ type: String, enum: ['up', 'down'], description: 'Whether Redis answers' })
  readonly connection!: 'up' | 'down';

  @ApiProperty({ type: String, enum: ['shared', 'per-instance'], description: 'Where rate-limit counters live right now' })
  readonly rate_limits!: 'shared' | 'per-instance';

  @ApiPropertyOptional({ type: String, example: 'Redis unreachable: rate limits fall back to per-instance counters' })
  readonly message?: string;
}

/** The readiness indicators, by key (each of `info`, `error`, `details` holds a subset). */
export class ReadinessIndicators {
  @ApiPropertyOptional({ type: () => IndicatorStatus, description: 'The database (`SELECT 1` within 1.5 s)' })
  readonly database?: IndicatorStatus;

  @ApiPropertyOptional({
    type: () => IndicatorStatus,
    description: 'The model store: the object store bucket answers within 1.5 s, or the local folder can be written',
  })
  readonly model_store?: IndicatorStatus;

  @ApiPropertyOptional({ type: () => RedisIndicatorStatus, description: 'Present when REDIS_URL is configured' })
  readonly redis?: RedisIndicatorStatus;
}

/** Readiness in terminus's shape: `info` the indicators up, `error` those down, `details` all of them. */
export class ReadinessResponse {
  @ApiProperty(PROBE_STATUS)
  readonly status!: 'ok' | 'error' | 'shutting_down';

  @ApiProperty({ type: () => ReadinessIndicators, description: 'Indicators up' })
  readonly info!: ReadinessIndicators;

  @ApiProperty({
    type: () => ReadinessIndicators,
    description: 'Indicators down (the database or the model store, when it does not answer)',
  })
  readonly error!: ReadinessIndicators;

  @ApiProperty({ type: () => ReadinessIndicators, description: 'Every indicator run' })
  readonly details!: ReadinessIndicators;
}
