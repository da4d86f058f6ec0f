import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '@svc/config';
import { Server, createServer } from 'node:http';
import { REASON_PHRASE, errorEnvelope } from '../../http/error-envelope';
import { ServiceMetrics } from '../../observability/service-metrics';

const NOT_FOUND = JSON.stringify(errorEnvelope(REASON_PHRASE[404], 'NOT_FOUND', 'No such endpoint'));

/**
 * METRICS_PORT set: /metrics is served only on that port, by a plain HTTP
 * server beside the API (so a cluster can scrape it while the public port
 * does not expose it). Opened at bootstrap, closed at shutdown.
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server: Server | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: ServiceMetrics,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.metrics.port;
    if (port === null) return;
    const server = createServer((request, response) => {
      const path = (request.url ?? '/').split('?')[0];
      if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
        response.writeHead(404, { 'content-type': 'application/json; charset=utf-8' }).end(NOT_FOUND);
        return;
      }
      this.metrics.scrape().then(
        ({ contentType, text }) => response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(text),
        () => response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.config.http.host, () => resolve());
    });
    this.server = server;
    this.logger.log(`Metrics served on http://${this.config.http.host}:${port}/metrics`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
