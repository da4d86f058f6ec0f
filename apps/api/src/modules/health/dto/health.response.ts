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

export class LivenessResponse {
  @ApiProperty({ type: String, enum: ['ok'] })
  readonly status!: 'ok';
}

export class DependencyStatus {
  @ApiProperty({ type: String, enum: ['up', 'down'] })
  readonly status!: 'up' | 'down';
}

export class RedisStatus extends DependencyStatus {
  @ApiProperty({ type: String, enum: ['shared', 'per-instance'], description: 'Where rate-limit counters live right now' })
  readonly rate_limits!: 'shared' | 'per-instance';
}

export class ReadinessChecks {
  @ApiProperty({ type: () => DependencyStatus })
  readonly database!: DependencyStatus;

  @ApiPropertyOptional({ type: () => RedisStatus, description: 'Present when REDIS_URL is configured' })
  readonly redis?: RedisStatus;
}

/** Readiness: the database must answer; Redis, where configured, is reported (its loss degrades, not stops, the service). */
export class ReadinessResponse {
  @ApiProperty({ type: String, enum: ['ok', 'degraded', 'error'], description: 'degraded: Redis is down (200); error: the database is down (503)' })
  readonly status!: 'ok' | 'degraded' | 'error';

  @ApiProperty({ type: () => ReadinessChecks })
  readonly checks!: ReadinessChecks;
}
