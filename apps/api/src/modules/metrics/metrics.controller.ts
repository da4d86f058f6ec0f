import { Controller, Get, Header, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiErrors } from '../../openapi/api-errors.decorator';
import { ServiceMetrics } from '../../observability/service-metrics';
import { SkipThrottle } from '@nestjs/throttler';

/**
 * GET /metrics in the Prometheus text format, on the HTTP port (METRICS_PORT
 * unset). Never rate-limited (no @RateLimited) and takes no key: expose the
 * port to the cluster, not to the internet, or move metrics to METRICS_PORT.
 */
@ApiTags('operations')
@SkipThrottle()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: ServiceMetrics) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Prometheus metrics',
    description:
      'The Prometheus text exposition format. Served here when METRICS_ENABLED is true (default) and METRICS_PORT is unset; ' +
      'with METRICS_PORT set it is served only on that port. Not rate-limited, no key.',
  })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'The series listed in docs/OPERATIONS.md', content: { 'text/plain': { schema: { type: 'string' } } } })
  @ApiErrors('METHOD_NOT_ALLOWED', 'SERVER_ERROR')
  async scrape(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const { contentType, text } = await this.metrics.scrape();
    void reply.type(contentType);
    return text;
  }
}
