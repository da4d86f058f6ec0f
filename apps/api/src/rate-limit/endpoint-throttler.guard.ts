import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  ThrottlerLimitDetail,
  ThrottlerModuleOptions,
  ThrottlerRequest,
  ThrottlerStorage,
} from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_KEY_ROUTE, ApiKeyRoute, KeySource } from '../api-key-auth/key-sources';
import { PresentedKeys } from '../api-key-auth/presented-keys';
import { EndpointRateRecord } from './rate-counter.throttler-storage';
import { rateLimitExceeded } from '../http/rate-limit-exceeded';

/** A route's limit, worked out from its metadata once per handler. */
interface RouteThrottle {
  /** The throttler's name: routes naming the same one share one counter (CONTRACT 8). */
  readonly name: string;
  readonly limit: number;
  readonly ttl: number;
  readonly sources: readonly KeySource[];
  /** Where this limit counts key callers and address callers, apart (made once: nothing is concatenated per request). */
  readonly keyScope: string;
  readonly addressScope: string;
  /** The library's view of the throttler, built once. */
  readonly throttler: { readonly name: string; readonly limit: number; readonly ttl: number };
}

const NO_SOURCES: readonly KeySource[] = [];

/**
 * @nestjs/throttler's guard, global (so it runs before any key check,
 * CONTRACT 2 step 3), extended where CONTRACT 8 differs from the stock guard:
 *
 * - a route is counted against the one throttler its `@ApiKeyAuth` names (the
 *   service's own route metadata, read through the Reflector), with the limit
 *   and ttl given there or else the module's throttler of that name; a route
 *   without `@ApiKeyAuth` (health, docs, metrics, admin, model files) is not
 *   counted;
 * - the counter is keyed by throttler and caller, not by handler, so the
 *   unversioned aliases and GET /v1/models/{name} and its download share
 *   their endpoint's counter;
 * - the caller is the key's digest when a well-formed key is presented where
 *   the route reads it (`@ApiKeyAuth`), else the client address (no IPv6
 *   grouping), each counted in a scope of its own (`<name>:k`, `<name>:a`,
 *   made once per route), so no address (with TRUST_PROXY, whatever
 *   X-Forwarded-For says) can count against a key's window; the storage gets
 *   the caller as the key and the scope apart, and no string is built per
 *   request;
 * - `X-RateLimit-Limit`, `-Remaining` and `-Reset` (Unix seconds) on every
 *   answer, 429 and key errors included; 429 is the JSON envelope with
 *   `Retry-After` >= 1; a blocked caller is not counted further (the storage).
 *
 * A route's settings are read from its metadata once per handler.
 */
@Injectable()
export class EndpointThrottlerGuard extends ThrottlerGuard {
  private readonly routes = new WeakMap<object, RouteThrottle | null>();
  private readonly named = new Map<string, { limit: unknown; ttl: unknown }>();
  /** The tracker as a plain function (the library allows a string): no promise on the request path. */
  private readonly tracker = (request: Record<string, unknown>, context: ExecutionContext): string => this.trackerOf(request, context);
  private readonly keyOf = (context: ExecutionContext, tracker: string) => this.generateKey(context, tracker);

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly presented: PresentedKeys,
  ) {
    super(options, storage, reflector);
  }

  override async onModuleInit(): Promise<void> {
    await super.onModuleInit();
    for (const throttler of this.throttlers) this.named.set(throttler.name ?? 'default', throttler);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const route = this.routeOf(context);
    if (route === null) return true;
    return this.handleRequest({
      context,
      limit: route.limit,
      ttl: route.ttl,
      blockDuration: route.ttl,
      throttler: route.throttler,
      getTracker: this.tracker,
      generateKey: this.keyOf,
    });
  }

  protected override async handleRequest(request: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl, blockDuration, throttler, getTracker, generateKey } = request;
    const http = context.switchToHttp();
    const found = getTracker(http.getRequest(), context);
    const tracker = typeof found === 'string' ? found : await found;
    const key = generateKey(context, tracker, throttler.name ?? 'default');
    const scope = this.scopeOf(http.getRequest(), context) ?? throttler.name ?? 'default';
    const record = (await this.storageService.increment(key, ttl, limit, blockDuration, scope)) as EndpointRateRecord;
    const resetAtMs = record.resetAtMs ?? Date.now() + record.timeToExpire * 1000;
    void http.getResponse<FastifyReply>().headers({
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, limit - record.totalHits)),
      'x-ratelimit-reset': String(Math.ceil(resetAtMs / 1000)),
    });
    if (record.isBlocked) await this.throwThrottlingException(context, { limit, ttl, key, tracker, ...record });
    return true;
  }

  protected override async getTracker(request: Record<string, unknown>, context?: ExecutionContext): Promise<string> {
    return this.trackerOf(request, context);
  }

  private trackerOf(request: Record<string, unknown>, context?: ExecutionContext): string {
    return this.digestOf(request, context ? this.routeOf(context) : null) ?? (request as unknown as FastifyRequest).ip;
  }

  /** The route's scope for this request's caller: its key callers', or its address callers'. */
  private scopeOf(request: Record<string, unknown>, context: ExecutionContext): string | null {
    const route = this.routeOf(context);
    if (route === null) return null;
    return this.digestOf(request, route) !== null ? route.keyScope : route.addressScope;
  }

  /** The digest of the well-formed key presented where the route reads it (judged once per request), or null. */
  private digestOf(request: Record<string, unknown>, route: RouteThrottle | null): string | null {
    const sources = route?.sources ?? NO_SOURCES;
    return sources.length > 0 ? this.presented.of(request as unknown as FastifyRequest, sources).digest : null;
  }

  /** The caller itself: the storage counts it within the route's scope for its kind. */
  protected override generateKey(_context: ExecutionContext, tracker: string): string {
    return tracker;
  }

  protected override async throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    throw rateLimitExceeded(detail.timeToBlockExpire);
  }

  private routeOf(context: ExecutionContext): RouteThrottle | null {
    const handler = context.getHandler();
    let route = this.routes.get(handler);
    if (route === undefined) {
      route = this.settingsOf(handler, context.getClass());
      this.routes.set(handler, route);
    }
    return route;
  }

  private settingsOf(handler: object, controller: object): RouteThrottle | null {
    const keyRoute = this.reflector.getAllAndOverride<ApiKeyRoute | undefined>(API_KEY_ROUTE, [handler, controller] as Array<() => void>);
    if (!keyRoute) return null;
    const { name } = keyRoute.throttle;
    const module = this.named.get(name);
    const limit = keyRoute.throttle.limit ?? module?.limit;
    const ttl = keyRoute.throttle.ttl ?? module?.ttl;
    if (typeof limit !== 'number' || typeof ttl !== 'number') {
      const where = `${(controller as { name?: string }).name}.${(handler as { name?: string }).name}`;
      throw new Error(`${where}: throttler "${name}" needs a numeric limit and ttl, on the route or in RateLimitModule`);
    }
    return {
      name,
      limit,
      ttl,
      sources: keyRoute.sources,
      keyScope: `${name}:k`,
      addressScope: `${name}:a`,
      throttler: { name, limit, ttl },
    };
  }
}
