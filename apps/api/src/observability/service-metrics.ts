import { Injectable } from '@nestjs/common';
import { DatabasePing, RateCounter } from '@svc/application';
import { AppConfig } from '@svc/config';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** The route label of requests no route matched (404, 405): never the raw URL. */
export const UNMATCHED_ROUTE = 'unmatched';

const LATENCY_BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type CounterChild = ReturnType<Counter<string>['labels']>;
type HistogramChild = ReturnType<Histogram<string>['labels']>;

/** The series of one (route, method): labelled children are created once and reused. */
interface RouteSeries {
  readonly latency: HistogramChild;
  readonly byStatus: Map<number, CounterChild>;
  readonly method: string;
  readonly route: string;
}

/**
 * The Prometheus series of one service instance (docs/OPERATIONS.md lists
 * them). A registry per application, so several apps in one process (the
 * tests) never share or clash. The request path costs two map look-ups, one
 * counter increment and one histogram observation; label children are cached.
 * Dependency gauges are refreshed when Prometheus scrapes.
 */
@Injectable()
export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'method' | 'route'>;
  private readonly quotaUnits: Counter<'license_type'>;
  private readonly rateLimitRejections: Counter<'route'>;
  private readonly quotaRejections: Counter<'route'>;
  private readonly installerTokens: Counter<'provider'>;
  private readonly installerUpstreamFailures: Counter<string>;
  private readonly errors: Counter<'code'>;
  private readonly series = new Map<string, Map<string, RouteSeries>>();
  private readonly errorsByCode = new Map<string, CounterChild>();
  private readonly rateLimitedByRoute = new Map<string, CounterChild>();
  private readonly quotaRefusedByRoute = new Map<string, CounterChild>();
  private readonly quotaUnitsByType = new Map<string, CounterChild>();

  constructor(config: AppConfig, database: DatabasePing, rateCounter: RateCounter) {
    const registers = [this.registry];
    if (config.metrics.enabled) collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'svc_http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.latency = new Histogram({
      name: 'svc_http_request_duration_seconds',
      help: 'Time from receiving a request to the end of its answer, by route pattern and method',
      labelNames: ['method', 'route'],
      buckets: LATENCY_BUCKETS_SECONDS,
      registers,
    });
    this.quotaUnits = new Counter({
      name: 'svc_quota_units_consumed_total',
      help: 'Monthly quota units consumed by accepted analytics events, by license tier',
      labelNames: ['license_type'],
      registers,
    });
    this.rateLimitRejections = new Counter({
      name: 'svc_rate_limit_rejections_total',
      help: 'Requests answered 429 RATE_LIMIT_EXCEEDED (per-endpoint limit or brute-force guard), by route',
      labelNames: ['route'],
      registers,
    });
    this.quotaRejections = new Counter({
      name: 'svc_quota_rejections_total',
      help: 'Requests answered 429 QUOTA_EXCEEDED, by route',
      labelNames: ['route'],
      registers,
    });
    this.installerTokens = new Counter({
      name: 'svc_installer_tokens_issued_total',
      help: 'Installer tokens handed out, by provider (github_app tokens are minted once and shared while fresh)',
      labelNames: ['provider'],
      registers,
    });
    this.installerUpstreamFailures = new Counter({
      name: 'svc_installer_upstream_failures_total',
      help: 'Installer requests answered 502 UPSTREAM_ERROR (GitHub unreachable, refusing or malformed)',
      registers,
    });
    this.errors = new Counter({
      name: 'svc_errors_total',
      help: 'Error answers, by error code',
      labelNames: ['code'],
      registers,
    });
    new Gauge({
      name: 'svc_database_up',
      help: 'Whether the database answered a ping within 1.5 s at scrape time (1) or not (0)',
      registers,
      async collect() {
        this.set((await database.answers()) ? 1 : 0);
      },
    });
    if (rateCounter.isSharedConfigured()) {
      new Gauge({
        name: 'svc_redis_up',
        help: 'Whether rate-limit counters are shared through Redis (1) or fell back to per-instance memory (0)',
        registers,
        collect() {
          this.set(rateCounter.mode() === 'shared' ? 1 : 0);
        },
      });
    }
    new Gauge({
      name: 'svc_info',
      help: 'Constant 1, labelled with the database kind and whether Redis is configured',
      labelNames: ['database', 'redis'],
      registers,
    }).set({ database: config.database.kind, redis: rateCounter.isSharedConfigured() ? 'configured' : 'none' }, 1);
  }

  /** One answered request (called from the onResponse hook). */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.series.get(route);
    if (byMethod === undefined) this.series.set(route, (byMethod = new Map<string, RouteSeries>()));
    let series = byMethod.get(method);
    if (series === undefined) {
      series = { method, route, latency: this.latency.labels(method, route), byStatus: new Map() };
      byMethod.set(method, series);
    }
    let counter = series.byStatus.get(status);
    if (counter === undefined) {
      counter = this.requests.labels(method, route, String(status));
      series.byStatus.set(status, counter);
    }
    counter.inc();
    series.latency.observe(seconds);
  }

  /** An error answer with its code (called by the error envelope filter). */
  errorAnswered(code: string, route: string): void {
    childOf(this.errorsByCode, this.errors, code).inc();
    if (code === 'RATE_LIMIT_EXCEEDED') childOf(this.rateLimitedByRoute, this.rateLimitRejections, route).inc();
    else if (code === 'QUOTA_EXCEEDED') childOf(this.quotaRefusedByRoute, this.quotaRejections, route).inc();
    else if (code === 'UPSTREAM_ERROR') this.installerUpstreamFailures.inc();
  }

  quotaConsumed(licenseType: string, units: number): void {
    if (units > 0) childOf(this.quotaUnitsByType, this.quotaUnits, licenseType).inc(units);
  }

  installerTokenIssued(provider: string): void {
    this.installerTokens.inc({ provider });
  }

  /** The exposition text and its content type. */
  async scrape(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}

/** The cached child of a one-label counter. */
function childOf(cache: Map<string, CounterChild>, counter: Counter<string>, value: string): CounterChild {
  let child = cache.get(value);
  if (child === undefined) cache.set(value, (child = counter.labels(value)));
  return child;
}
