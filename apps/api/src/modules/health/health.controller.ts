import { Controller, Get, Header, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import { HealthCheckResult, HealthCheckService, HealthIndicatorFunction } from '@nestjs/terminus';
import type { FastifyReply } from 'fastify';
import { ApiErrors } from '../../openapi/api-errors.decorator';
import { DATABASE_CHECK, DATABASE_UNREACHABLE, DatabaseHealthIndicator } from './database.health-indicator';
import { HealthyResponse, LivenessResponse, ReadinessResponse, UnhealthyResponse } from './dto/health.response';
import { ModelStoreHealthIndicator } from './model-store.health-indicator';
import { RedisHealthIndicator } from './redis.health-indicator';

/** The API version the health body names (SPEC 9). */
export const API_VERSION = 'v1';

/**
 * SPEC 4.7 and CONTRACT 10: `/api/health` (no key, never rate-limited), plus
 * Kubernetes probes in terminus's own shape `{status, info, error, details}`:
 * liveness (no indicator: the process answers) and readiness (the database,
 * the model store, and Redis where configured). Every route runs terminus's HealthCheckService;
 * the indicator lists are built once, so a request allocates only what
 * terminus itself does.
 */
@ApiTags('health')
@SkipThrottle()
@Controller('api/health')
export class HealthController {
  private readonly liveness: HealthIndicatorFunction[] = [];
  private readonly database: HealthIndicatorFunction[];
  private readonly readiness: HealthIndicatorFunction[];

  constructor(
    private readonly health: HealthCheckService,
    databaseIndicator: DatabaseHealthIndicator,
    modelStoreIndicator: ModelStoreHealthIndicator,
    redisIndicator: RedisHealthIndicator,
  ) {
    const database: HealthIndicatorFunction = () => databaseIndicator.isHealthy();
    const modelStore: HealthIndicatorFunction = () => modelStoreIndicator.isHealthy();
    this.database = [database];
    this.readiness = redisIndicator.isConfigured() ? [database, modelStore, () => redisIndicator.isHealthy()] : [database, modelStore];
  }

  @Get()
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'Service health', description: 'No key, never rate-limited. Not under /v1.' })
  @ApiOkResponse({ type: HealthyResponse, description: 'The database answers' })
  @ApiServiceUnavailableResponse({ type: UnhealthyResponse, description: 'The database did not answer within 1.5 s' })
  @ApiErrors('METHOD_NOT_ALLOWED', 'SERVER_ERROR')
  async status(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthyResponse | UnhealthyResponse> {
    const result = await this.run(this.database);
    const timestamp = new Date().toISOString();
    // The SPEC body reports the database indicator itself (terminus's overall status
    // is also `shutting_down` while the app closes; the database may still answer then).
    if (result.details[DATABASE_CHECK]?.status === 'up') {
      return { status: 'healthy', timestamp, version: API_VERSION, database: 'connected' };
    }
    void reply.status(503);
    return { status: 'unhealthy', timestamp, error: DATABASE_UNREACHABLE, database: 'disconnected' };
  }

  @Get('live')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'Liveness probe', description: 'The process answers; nothing else is checked (terminus shape, no indicators).' })
  @ApiOkResponse({ type: LivenessResponse, description: 'The process answers' })
  @ApiServiceUnavailableResponse({ type: LivenessResponse, description: 'The service is shutting down (status shutting_down)' })
  @ApiErrors('METHOD_NOT_ALLOWED', 'SERVER_ERROR')
  async live(@Res({ passthrough: true }) reply: FastifyReply): Promise<LivenessResponse> {
    return this.answer(reply, await this.run(this.liveness)) as LivenessResponse;
  }

  @Get('ready')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Readiness probe',
    description:
      'Terminus shape. The database and the model store must answer (else 503, status error). Redis, where configured, is reported under `redis` ' +
      'and never fails readiness: while it is down the indicator stays `up` with `connection: down, rate_limits: per-instance` (200).',
  })
  @ApiOkResponse({ type: ReadinessResponse, description: 'Ready: the database and the model store answer (Redis reported, up or down)' })
  @ApiServiceUnavailableResponse({
    type: ReadinessResponse,
    description: 'The database or the model store did not answer within 1.5 s, or the service is shutting down',
  })
  @ApiErrors('METHOD_NOT_ALLOWED', 'SERVER_ERROR')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<ReadinessResponse> {
    return this.answer(reply, await this.run(this.readiness)) as ReadinessResponse;
  }

  /**
   * Terminus throws ServiceUnavailableException carrying its result when a check
   * fails (or the app is shutting down); the global error filter would turn that
   * into the JSON error envelope, so the result is taken back from the exception.
   */
  private async run(indicators: HealthIndicatorFunction[]): Promise<HealthCheckResult> {
    try {
      return await this.health.check(indicators);
    } catch (error) {
      if (error instanceof ServiceUnavailableException) return error.getResponse() as HealthCheckResult;
      throw error;
    }
  }

  /** Terminus's body as it is; 503 unless its status is `ok`. */
  private answer(reply: FastifyReply, result: HealthCheckResult): HealthCheckResult {
    if (result.status !== 'ok') void reply.status(503);
    return result;
  }
}
