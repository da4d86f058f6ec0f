import { Controller, Get, Header, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { RateCounter } from '@svc/application';
import { DatabasePing } from '@svc/infrastructure';
import type { FastifyReply } from 'fastify';
import { ApiErrors } from '../../openapi/api-errors.decorator';
import { HealthyResponse, LivenessResponse, ReadinessResponse, UnhealthyResponse } from './dto/health.response';

export { HealthyResponse, LivenessResponse, ReadinessResponse, UnhealthyResponse };

/** The API version the health body names (SPEC 9). */
export const API_VERSION = 'v1';

/**
 * SPEC 4.7 and CONTRACT 10: `/api/health` (no key, never rate-limited), plus
 * Kubernetes probes: liveness (the process answers) and readiness (its
 * dependencies answer).
 */
@ApiTags('health')
@Controller('api/health')
export class HealthController {
  constructor(
    private readonly database: DatabasePing,
    private readonly rateCounter: RateCounter,
  ) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'Service health', description: 'No key, never rate-limited. Not under /v1.' })
  @ApiOkResponse({ type: HealthyResponse, description: 'The database answers' })
  @ApiServiceUnavailableResponse({ type: UnhealthyResponse, description: 'The database did not answer within 1.5 s' })
  @ApiErrors('METHOD_NOT_ALLOWED', 'SERVER_ERROR')
  async status(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthyResponse | UnhealthyResponse> {
    const up = await this.database.answers();
    const timestamp = new Date().toISOString();
    if (up) {
      return { status: 'healthy', timestamp, version: API_VERSION, database: 'connected' };
    }
    void reply.status(503);
    return { status: 'unhealthy', timestamp, error: 'Database is not reachable', database: 'disconnected' };
  }

  @Get('live')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'Liveness probe', description: 'The process answers; nothing else is checked.' })
  @ApiOkResponse({ type: LivenessResponse, description: 'The process answers' })
  @ApiErrors('METHOD_NOT_ALLOWED', 'SERVER_ERROR')
  live(): LivenessResponse {
    return { status: 'ok' };
  }

  @Get('ready')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Readiness probe',
    description: 'The database must answer (else 503); Redis, where configured, is reported: its loss degrades rate limits to per-instance counters (200).',
  })
  @ApiOkResponse({ type: ReadinessResponse, description: 'Ready (status ok), or degraded: Redis down, rate limits per instance' })
  @ApiServiceUnavailableResponse({ type: ReadinessResponse, description: 'The database did not answer' })
  @ApiErrors('METHOD_NOT_ALLOWED', 'SERVER_ERROR')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<ReadinessResponse> {
    const databaseUp = await this.database.answers();
    const redis = this.rateCounter.isSharedConfigured()
      ? { status: this.rateCounter.mode() === 'shared' ? ('up' as const) : ('down' as const), rate_limits: this.rateCounter.mode() }
      : undefined;
    if (!databaseUp) void reply.status(503);
    return {
      status: !databaseUp ? 'error' : redis?.status === 'down' ? 'degraded' : 'ok',
      checks: { database: { status: databaseUp ? 'up' : 'down' }, ...(redis ? { redis } : {}) },
    };
  }
}
