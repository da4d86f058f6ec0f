import type { FastifyRequest } from 'fastify';
import { type KeyPurpose } from '@svc/domain';

/** Where an endpoint reads the key (CONTRACT 2); the first source present wins. */
export type KeySource = 'body' | 'header' | 'query';

/** What a key-taking route declares (through `@ApiKeyAuth`), read once per handler by the guards. */
export interface ApiKeyRoute {
  readonly sources: readonly KeySource[];
  readonly purpose: KeyPurpose;
  /** The key's user and usage this period are read with it (one statement), for `@CurrentKeyContext()`. */
  readonly withContext: boolean;
  /**
   * The rate limit the route counts against (CONTRACT 8): a throttler of
   * RateLimitModule by name, or with the route's own limit per `ttl` ms.
   * Read by the global throttler guard.
   */
  readonly throttle: { readonly name: string; readonly limit?: number; readonly ttl?: number };
  /** The call may name its device (CONTRACT 23: `X-Device-Fingerprint`, or the body's `fingerprint`), judged by DeviceGate. */
  readonly namesDevice: boolean;
}

/** The device a call names (CONTRACT 23): the `X-Device-Fingerprint` header, else the body's `fingerprint`; undefined when none. */
export function namedDeviceOf(request: FastifyRequest): unknown {
  const header = request.headers['x-device-fingerprint'];
  if (header !== undefined) return header;
  const body = request.body;
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).fingerprint : undefined;
}

/** Metadata key of `ApiKeyRoute`. */
export const API_KEY_ROUTE = 'svc:api-key-route';

/** Reads the presented key from the first source that has one; `undefined` when none does. */
export function presentedKeyOf(request: FastifyRequest, sources: readonly KeySource[]): unknown {
  for (const source of sources) {
    const value =
      source === 'header'
        ? request.headers['x-api-key']
        : source === 'query'
          ? (request.query as Record<string, unknown> | undefined)?.api_key
          : (request.body as Record<string, unknown> | undefined)?.api_key;
    if (value !== undefined) return value;
  }
  return undefined;
}
