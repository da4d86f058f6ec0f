import { type AppConfig } from '@svc/config';
import { modelFileBaseOf } from '@svc/presentation';
import type { FastifyRequest } from 'fastify';
import { HttpEdgeError } from './http-error';

/** A host name (or IPv6 literal) with an optional port: nothing that could bend a URL. */
const HOST_FORM = /^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/;

/**
 * Where stored model files are downloaded from (CONTRACT 7): MODEL_HOST when
 * set, else this service's own `/model-files`, under the origin the caller
 * reached it by (the request's protocol and Host; X-Forwarded-* only with TRUST_PROXY).
 */
export function modelFileBaseFor(config: AppConfig, request: FastifyRequest): string {
  if (config.models.host !== null) return modelFileBaseOf(config.models.host, '');
  return modelFileBaseOf(null, serviceOriginOf(request));
}

/** The origin the caller reached this service by: `<protocol>://<host>`. */
export function serviceOriginOf(request: FastifyRequest): string {
  const host = request.host;
  if (typeof host !== 'string' || !HOST_FORM.test(host)) {
    throw new HttpEdgeError('INVALID_REQUEST', 'Invalid request', 'The Host header is missing or malformed');
  }
  return `${request.protocol}://${host}`;
}
