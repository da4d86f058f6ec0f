import { Controller, Get, Header, Res } from '@nestjs/common';
import { TypeOrmHealthIndicator } from '@nestjs/terminus';
import { RateCounter } from '@svc/application';
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

/** Readiness: the database must answer; Redis, where configured, is reported (its loss degrades, not stops, the service). */
export interface ReadinessResponse {
  readonly status: 'ok' | 'degraded' | 'error';
  readonly checks: {
    readonly database: { readonly status: 'up' | 'down' };
    readonly redis?: { readonly status: 'up' | 'down'; readonly rate_limits: 'shared' | 'per-instance' };
  };
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
    private readonly database: TypeOrmHealthIndicator,
    private readonly rateCounter: RateCounter,
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
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<ReadinessResponse> {
    const ping = await this.database.pingCheck('database', { timeout: DATABASE_PING_TIMEOUT_MS });
    const databaseUp = ping.database?.status === 'up';
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
