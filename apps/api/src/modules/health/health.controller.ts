import { Controller, Get, Header, Res, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheckResult, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import type { FastifyReply } from 'fastify';

/** The API version the health body names (SPEC 9). */
export const API_VERSION = 'v1';
/** How long the database may take to answer a health ping. */
export const DATABASE_PING_TIMEOUT_MS = 1500;

export interface HealthyResponse {
  readonly status: 'healthy';
  readonly timestamp: string;
  readonly version: string;
  readonly database: 'connected';
}

export interface UnhealthyResponse {
  readonly status: 'unhealthy';
  readonly timestamp: string;
  readonly error: string;
  readonly database: 'disconnected';
}

/**
 * SPEC 4.7 and CONTRACT 10: `/api/health` (no key, never rate-limited), plus
 * Kubernetes probes: liveness (the process answers) and readiness (its
 * dependencies answer).
 */
@Controller('api/health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
  ) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  async status(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthyResponse | UnhealthyResponse> {
    const result = await this.database.pingCheck('database', { timeout: DATABASE_PING_TIMEOUT_MS });
    const timestamp = new Date().toISOString();
    if (result.database?.status === 'up') {
      return { status: 'healthy', timestamp, version: API_VERSION, database: 'connected' };
    }
    void reply.status(503);
    return { status: 'unhealthy', timestamp, error: 'Database is not reachable', database: 'disconnected' };
  }

  @Get('live')
  @Header('Cache-Control', 'no-store')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @Header('Cache-Control', 'no-store')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthCheckResult> {
    try {
      return await this.health.check([() => this.database.pingCheck('database', { timeout: DATABASE_PING_TIMEOUT_MS })]);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      void reply.status(503);
      return error.getResponse() as HealthCheckResult;
    }
  }
}
