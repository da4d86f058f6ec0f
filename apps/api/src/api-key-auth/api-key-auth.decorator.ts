import { SetMetadata, UseGuards, applyDecorators } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import { KEY_CHECK_CODES, type KeyPurpose } from '@svc/domain';
import { type HttpErrorCode } from '../http/error-status.map';
import { ALWAYS, ApiErrors, BODY } from '../openapi/api-errors.decorator';
import { API_KEY_HEADER, API_KEY_QUERY } from '../openapi/openapi';
import { ApiKeyGuard } from './api-key.guard';
import { API_KEY_ROUTE, type ApiKeyRoute, type KeySource } from './key-sources';

/**
 * The endpoint limit a route counts against: the name of a throttler
 * configured in RateLimitModule (the SPEC 8 endpoints: its limit comes from
 * configuration), or a throttler of the route's own with its limit per
 * `ttl` milliseconds (one minute when left out).
 */
export type EndpointLimit = string | { readonly name: string; readonly limit: number; readonly ttl?: number };

export interface ApiKeyAuthOptions {
  /** Where the key is read, first found wins (CONTRACT 2). */
  readonly from: readonly KeySource[];
  /** The rate limit the route counts against; routes naming the same throttler share one counter. */
  readonly limit: EndpointLimit;
  /** `revoke`: the holder's revocation (an expired key passes; unknown or revoked is KEY_NOT_FOUND). Default `use`. */
  readonly purpose?: KeyPurpose;
  /** Read the key's user and usage this period with it (one statement), for `@CurrentKeyContext()`. Default false. */
  readonly withContext?: boolean;
  /** The route's own error codes, beyond the body, key, rate-limit and ever-present ones, for the OpenAPI document. */
  readonly errors?: readonly HttpErrorCode[];
  /**
   * Whether the call may name its device (CONTRACT 23), default true for `use` routes: a named device must be
   * active on the license (DEVICE_NOT_ACTIVATED), a tier with `require_device` needs one (DEVICE_REQUIRED).
   * False on the device calls themselves, whose body's `fingerprint` is the device they act on.
   */
  readonly namesDevice?: boolean;
}

/** What a route that lets calls name their device may answer beyond its own codes. */
const DEVICE_CODES: readonly HttpErrorCode[] = ['INVALID_REQUEST', 'DEVICE_NOT_ACTIVATED', 'DEVICE_REQUIRED'];

const ONE_MINUTE_MS = 60_000;
const SECURITY: Record<Exclude<KeySource, 'body'>, string> = { header: API_KEY_HEADER, query: API_KEY_QUERY };

/**
 * Everything a key-taking route needs, applied together: where the key is
 * read, the route's rate limit (in the route's own metadata, counted by the
 * global throttler guard before any key check), the key guard, and the OpenAPI security and
 * error codes. Every key-taking route uses it (a test holds it so).
 */
export function ApiKeyAuth(options: ApiKeyAuthOptions): MethodDecorator & ClassDecorator {
  const purpose = options.purpose ?? 'use';
  const limit = typeof options.limit === 'string' ? { name: options.limit } : options.limit;
  const throttle = 'limit' in limit ? { name: limit.name, limit: limit.limit, ttl: limit.ttl ?? ONE_MINUTE_MS } : { name: limit.name };
  const namesDevice = purpose === 'use' && options.namesDevice !== false;
  const route: ApiKeyRoute = { sources: options.from, purpose, withContext: options.withContext ?? false, throttle, namesDevice };
  const codes = new Set<HttpErrorCode>([
    ...(options.from.includes('body') ? BODY : []),
    ...KEY_CHECK_CODES[purpose],
    'RATE_LIMIT_EXCEEDED',
    ...(namesDevice ? DEVICE_CODES : []),
    ...(options.errors ?? []),
    ...ALWAYS,
  ]);
  return applyDecorators(
    SetMetadata(API_KEY_ROUTE, route),
    UseGuards(ApiKeyGuard),
    ...options.from.map((source) => (source === 'body' ? ApiSecurity({}) : ApiSecurity(SECURITY[source]))),
    ApiErrors(...codes),
  );
}
